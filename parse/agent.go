package parse

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ReadReport parses one agent report (SPEC §2). It never fails: a report
// without a usable Findings Index is read by the conservative prose fallback,
// and every deviation from the strict grammar is a diagnostic with its line.
// The diagnostics carry no path; callers add it with WithPath.
//
// Data holding a NUL byte is not a report (a binary file, whatever its name):
// it reads as an error report with one diagnostic at the NUL's line, so that
// every reader — check, synth, watch, mcp — gives it the same verdict.
func ReadReport(data []byte) *Report {
	return ReadReportString(string(data))
}

// ReadReportString is ReadReport of a report held as a string. The findings'
// strings are parts of text, which is not copied: a caller that reads a
// report into memory once can hand it over without a second copy.
func ReadReportString(text string) *Report {
	r, _ := ReadReportContext(context.Background(), text)
	return r
}

// ReadReportContext is ReadReportString that gives up when ctx ends, with
// ctx's error and no report.
func ReadReportContext(ctx context.Context, text string) (r *Report, err error) {
	defer func() {
		if x := recover(); x != nil {
			s, ok := x.(stopped)
			if !ok {
				panic(x)
			}
			r, err = nil, s.err
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var st *stop
	if ctx.Done() != nil {
		st = &stop{ctx: ctx}
	}
	r = &Report{Findings: []Finding{}, Improvements: []Improvement{}}
	if i := strings.IndexByte(text, 0); i >= 0 {
		r.Status = StatusError
		r.Diagnostics = []Diagnostic{diag(strings.Count(text[:i], "\n")+1, LevelError,
			"binary file (NUL byte): not a report")}
		return r, nil
	}
	src, lines := splitLines(text)
	frontStart, frontEnd := mask(lines)
	p := &reportParser{r: r, src: src, lines: lines, frontStart: frontStart, frontEnd: frontEnd, stop: st}
	p.run()
	r.Diagnostics = p.diags.list()
	sortDiags(r.Diagnostics)
	return r, nil
}

type reportParser struct {
	r                    *Report
	src                  string // the report's text: lines are parts of it
	lines                []line
	frontStart, frontEnd int // front matter: its "---" line, the line past its end (0, 0: none)
	fm                   frontMatter
	ix                   *index
	general              *general // what the general reader read, for a report with no index
	// proseSevs are the severities the general reader gives the IDs of
	// the prose around an index (proseSeverity), read once.
	proseSevs map[string]Severity
	vLine     int // the line of a verdict found outside the index and front matter
	diags     diagList
	stop      *stop
}

func (p *reportParser) diag(line int, level Level, format string, a ...any) {
	p.diags.add(line, level, format, a...)
}

func (p *reportParser) run() {
	r, lines := p.r, p.lines
	p.comments()
	if p.frontEnd > 0 {
		p.fm = readFrontMatter(lines, p.frontStart, p.frontEnd)
		p.diags.ds = append(p.diags.ds, p.fm.diags...)
		r.Envelope, r.Provenance = p.fm.envelope, p.fm.provenance
	}
	if isBlank(lines) {
		r.Status = StatusError
		p.diag(0, LevelError, "empty report")
		return
	}
	p.ix = p.findIndex()
	prose := false
	switch {
	case p.ix != nil:
		p.takeIndex()
	case p.fm.hasIssues:
		r.Findings = append(r.Findings, p.fm.findings...)
		r.Improvements = append(r.Improvements, p.fm.improve...)
		p.diag(1, LevelWarning, "legacy YAML front-matter index (issues:/improvements:)")
	default:
		gr := readFenced(p.stop, p.src, lines)
		found := gr.settle(p.stop)
		gr.findings = nil // in found now; the rest of the read needs gr's orphans and tallies
		found = p.takeResolved(found)
		p.general = &gr
		if len(found) == 0 && len(r.Resolved) == 0 {
			if ix := p.fencedIndex(); ix != nil {
				p.ix = ix
				p.takeIndex()
				break
			}
		}
		prose = true
		if len(r.Findings) == 0 && len(found) > 0 {
			// found's own list: appending copied 200,000 findings of a
			// large report, with a write barrier for each pointer.
			r.Findings = found
		} else {
			r.Findings = append(r.Findings, found...)
		}
	}
	p.linkDescriptions()
	p.declaredVerdict()
	p.status(prose)
	if r.Status != StatusError {
		if v := r.Verdict(); r.DeclaredVerdict != "" && r.DeclaredVerdict != v && r.DeclaredVerdict != Error {
			p.diag(p.verdictLineNum(), LevelWarning, "declared verdict %s disagrees with the computed verdict %s", r.DeclaredVerdict, v)
		}
	}
	if prose && r.Status == StatusMalformed {
		p.diag(0, LevelWarning, "malformed index: no usable Findings Index, prose fallback found %d finding(s) (confidence low)", len(r.Findings))
		p.unreadable()
	}
	if !r.Complete {
		p.diag(0, LevelInfo, "no <!-- flux-drive:complete --> sentinel")
	}
}

// takeResolved moves the findings the report marks resolved into
// r.Resolved (SPEC §2.3: recorded, never counted) and returns the others.
func (p *reportParser) takeResolved(fs []Finding) []Finding {
	n := 0
	for i := range fs {
		if fs[i].resolved {
			n++
		}
	}
	if n > 0 {
		p.r.Resolved = slices.Grow(p.r.Resolved, n)
	}
	out := fs[:0]
	for _, f := range fs {
		if f.resolved {
			f.resolved = false
			p.r.Resolved = append(p.r.Resolved, f)
			continue
		}
		out = append(out, f)
	}
	return out
}

// unreadable makes a report read by the general reader unreadable when it
// could not be fully read (SPEC §2.3 "never silently safe"): a line that
// named a P0 or P1 severity in a place of a finding gave none, its own
// tally states more P0/P1 findings than were read, or its declared verdict
// is worse than the one computed from what was read. Each reason is an
// error diagnostic at its line.
func (p *reportParser) unreadable() {
	r, gr := p.r, p.general
	bad := false
	if gr != nil {
		orphans := gr.orphans
		if len(r.Findings) == 0 && len(r.Resolved) == 0 {
			orphans = append(orphans[:len(orphans):len(orphans)], gr.overall...)
		}
		for _, o := range orphans {
			bad = true
			if o.column != "" {
				p.diag(o.line, LevelError, "%s %q is not a severity fluxwatch reads: it gave no finding", o.column, o.word)
				continue
			}
			if o.overall {
				p.diag(o.line, LevelError, "%s %q rates the whole report, and no finding was read", o.sev, o.word)
				continue
			}
			if o.legend {
				p.diag(o.line, LevelError, "%s %q here may be a legend of the levels or a finding: it gave no finding", o.sev, o.word)
				continue
			}
			p.diag(o.line, LevelError, "%s %q here gave no finding", o.sev, o.word)
		}
		read := map[Severity]int{}
		for _, f := range r.Findings {
			read[f.Severity]++
		}
		for _, f := range r.Resolved {
			read[f.Severity]++
		}
		// What the report states last of a level: a re-review's final
		// counts supersede its initial ones.
		stated := map[Severity]tally{}
		var loose tally // the last count with a noun, of P0 and P1 together
		for _, t := range gr.tallies {
			switch {
			case t.loose:
				if t.line >= loose.line {
					loose = t
				}
			case t.sev.Rank() <= 1 && t.line >= stated[t.sev].line:
				stated[t.sev] = t
			}
		}
		switch s0, s1 := stated[P0], stated[P1]; {
		case s0.n > read[P0]:
			bad = true
			p.diag(s0.line, LevelError, "the report states %d P0 finding(s), %d were read", s0.n, read[P0])
		case s0.n+s1.n > read[P0]+read[P1]:
			t := s1
			if t.line == 0 {
				t = s0
			}
			bad = true
			p.diag(t.line, LevelError, "the report states %d P0/P1 finding(s), %d were read", s0.n+s1.n, read[P0]+read[P1])
		case loose.n > read[P0]+read[P1]:
			bad = true
			p.diag(loose.line, LevelError, "the report states %d P0/P1 finding(s), %d were read", loose.n, read[P0]+read[P1])
		}
	}
	if v := r.Verdict(); declaredWorse(r.DeclaredVerdictText, r.DeclaredVerdict, v, len(r.Findings) > 0) {
		bad = true
		p.diag(p.verdictLineNum(), LevelError, "declared verdict %s is worse than the %s computed from what was read: the report could not be fully read", r.DeclaredVerdict, v)
	}
	if bad {
		r.Status = StatusUnreadable
	}
}

// worseVerdict reports whether the declared verdict d is worse than the
// computed verdict v (SPEC §2.3 "never silently safe"): risky is worse than
// needs-changes, which is worse than safe. Other declared words are not.
func worseVerdict(d, v Verdict) bool {
	return d.Rank() > 0 && d.Rank() > v.Rank()
}

func isBlank(lines []line) bool {
	for _, l := range lines {
		if strings.TrimSpace(l.text) != "" {
			return false
		}
	}
	return true
}

var (
	runUUIDRe  = regexp.MustCompile(`^<!--\s*run-uuid:\s*([^\s>]+)\s*-->$`)
	sentinelRe = regexp.MustCompile(`<!--\s*([a-z0-9-]+)[:-]complete\s*-->`)
)

// comments reads the run-uuid quire mark and the completion sentinel.
func (p *reportParser) comments() {
	first := true
	for _, l := range p.lines {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		if first {
			first = false
			if m := runUUIDRe.FindStringSubmatch(t); m != nil {
				p.r.RunUUID = m[1]
				continue
			}
		}
		if !strings.Contains(t, "complete") || !strings.Contains(t, "<!--") || (l.fenced && !strings.HasPrefix(t, "<!--")) {
			continue
		}
		if m := sentinelRe.FindStringSubmatch(t); m != nil && !l.fenced {
			if !p.r.Complete && m[0] != "<!-- flux-drive:complete -->" {
				p.diag(l.num, LevelInfo, "completion marker %s is not the canonical <!-- flux-drive:complete -->", m[0])
			}
			p.r.Complete = true
		}
	}
}

// findIndex returns the first usable index block: under a Findings Index
// heading, else a headless run of pipe-form index lines.
func (p *reportParser) findIndex() *index {
	var found *index
	for i, l := range p.lines {
		if !isIndexHeading(l) {
			continue
		}
		ix := readIndex(p.stop, p.lines, i, false)
		if found == nil {
			if ix.usable() {
				found = ix
			} else {
				p.diag(l.num, LevelWarning, "Findings Index heading with no index lines under it")
			}
			continue
		}
		if ix.usable() {
			p.diag(l.num, LevelInfo, "second Findings Index at line %d ignored: the first counts", l.num)
		}
	}
	if found != nil {
		return found
	}
	// A headless index: pipe-form index lines with no heading over them.
	for i, l := range p.lines {
		if l.masked || l.level > 0 {
			continue
		}
		if it, ok := pipeItem(l.text, l.num); ok && it.class != sevNone && strings.HasPrefix(strings.TrimSpace(l.text), "-") {
			ix := readIndexFrom(p.stop, p.lines, i, 7, false)
			ix.kind = "headless"
			if ix.usable() {
				ix.deviation(l.num, LevelWarning, "index lines without a Findings Index heading")
				return ix
			}
		}
	}
	return nil
}

// fencedIndex returns an index written inside a fenced code block: an
// example, read only when nothing else is found (SPEC §2.2).
func (p *reportParser) fencedIndex() *index {
	for i, l := range p.lines {
		if !l.fenced {
			continue
		}
		if lvl, head := heading(l.text); lvl > 0 && lvl <= 4 && indexHeadingRe.MatchString(head) {
			ix := readIndex(p.stop, p.lines, i, true)
			if len(ix.items) > 0 {
				ix.kind = "fenced"
				ix.errorStub = false
				ix.deviation(l.num, LevelWarning, "index read from a fenced code block (nothing else found)")
				return ix
			}
		}
	}
	return nil
}

// takeIndex moves the index's items into the report.
func (p *reportParser) takeIndex() {
	r, ix := p.r, p.ix
	p.diags.ds = append(p.diags.ds, ix.diags.list()...)
	ix.diags = diagList{}
	r.Findings = slices.Grow(r.Findings, len(ix.items))
	seen := make(map[string]int, len(ix.items))
	for _, it := range ix.items {
		if it.id != "" {
			if prev, dup := seen[it.id]; dup {
				p.diag(it.line, LevelInfo, "duplicate ID %s (first at line %d)", it.id, prev)
			} else {
				seen[it.id] = it.line
			}
		}
		if it.pending() {
			sev, ok := p.proseSeverity(it.id)
			if !ok {
				what := "index line has no severity"
				if it.rawSev != "" {
					what = fmt.Sprintf("index severity %q is not a known severity", it.rawSev)
				}
				p.diag(it.line, LevelWarning, "%s, and no prose for its ID gives one: skipped", what)
				continue
			}
			it.class, it.sev = sevFinding, sev
			p.diag(it.line, LevelInfo, "severity %s of %s taken from its prose section", sev, it.id)
		}
		switch it.class {
		case sevImprovement:
			r.Improvements = append(r.Improvements, Improvement{ID: it.id, Section: it.section, Title: it.title, Line: it.line})
		case sevFinding:
			if it.id != "" && !strictIDRe.MatchString(it.id) && ix.kind == "heading" {
				p.diag(it.line, LevelInfo, "ID %s does not match [A-Z]{2,3}-\\d{3}", it.id)
			}
			r.Findings = append(r.Findings, Finding{
				Severity: it.sev, ID: it.id, Section: it.section, Title: it.title, Line: it.line,
				Confidence: ConfidenceHigh, FileRefs: it.refs,
			})
		}
	}
	if ix.kind != "heading" {
		return
	}
	hl := p.lines[ix.start]
	switch {
	case hl.level == 0:
		p.diag(hl.num, LevelWarning, "index heading is bold text, not a ### heading")
	case hl.level != 3:
		p.diag(hl.num, LevelWarning, "index heading is level %d (%s), expected ###", hl.level, strings.Repeat("#", int(hl.level)))
	}
	if hl.head != "Findings Index" || strings.TrimSpace(hl.text) != strings.TrimSpace(strings.Repeat("#", max(int(hl.level), 1))+" Findings Index") {
		p.diag(hl.num, LevelWarning, "index heading %q is not exactly \"### Findings Index\"", strings.TrimSpace(hl.text))
	}
	if !p.indexFirst() {
		p.diag(hl.num, LevelWarning, "index is not the first block of the report")
	}
	switch {
	case ix.verdict == "":
		p.diag(hl.num, LevelWarning, "no Verdict line ends the index")
	case !ix.vPlain:
		p.diag(ix.vLine, LevelWarning, "verdict line %q is not the plain \"Verdict: safe|needs-changes|risky\" form", strings.TrimSpace(p.lineText(ix.vLine)))
	}
}

// indexFirst reports whether the index heading is the first non-empty line,
// after an optional run-uuid comment and optional YAML front matter (SPEC
// §2.5: what `fluxwatch protocol` asks agents to write).
func (p *reportParser) indexFirst() bool {
	for i, l := range p.lines {
		t := strings.TrimSpace(l.text)
		if t == "" || i < p.frontEnd || (runUUIDRe.MatchString(t) && p.r.RunUUID != "" && i < p.ix.start) {
			continue
		}
		return i == p.ix.start
	}
	return false
}

func (p *reportParser) lineText(num int) string {
	if num >= 1 && num <= len(p.lines) {
		return p.lines[num-1].text
	}
	return ""
}

// strict reports whether the report follows the strict grammar of §2.1.
func (p *reportParser) strict() bool {
	ix := p.ix
	if ix == nil || ix.kind != "heading" || ix.deviant || !ix.vPlain || ix.errorStub {
		return false
	}
	hl := p.lines[ix.start]
	if strings.TrimRight(hl.text, " \t") != "### Findings Index" || !p.indexFirst() {
		return false
	}
	for _, it := range ix.items {
		if !it.strict {
			return false
		}
	}
	return true
}

// declaredVerdict finds the agent's own verdict: the index's verdict line,
// else front matter, else a verdict line or "## Verdict" section elsewhere,
// else the --- VERDICT --- footer's STATUS.
func (p *reportParser) declaredVerdict() {
	r := p.r
	text := ""
	switch {
	case p.ix != nil && p.ix.verdict != "":
		text = p.ix.verdict
	case p.fm.verdict != "":
		text = cutVerdictValue(p.fm.verdict)
	default:
		text, p.vLine = p.bodyVerdict()
	}
	if text == "" {
		text, p.vLine = p.footer()
	}
	if text == "" {
		return
	}
	r.DeclaredVerdictText = text
	if v, ok := NormalizeVerdict(text); ok {
		r.DeclaredVerdict = v
	} else {
		r.DeclaredVerdict = Verdict(strings.ToLower(text))
		p.diag(p.verdictLineNum(), LevelInfo, "declared verdict %q is not one of safe, needs-changes, risky", text)
	}
}

func (p *reportParser) verdictLineNum() int {
	if p.ix != nil && p.ix.vLine > 0 {
		return p.ix.vLine
	}
	if p.fm.verdictLine > 0 {
		return p.fm.verdictLine
	}
	return p.vLine
}

// bodyVerdict finds the declared verdict outside the index and front
// matter: the report's overall verdict line (overallVerdict).
func (p *reportParser) bodyVerdict() (string, int) {
	return overallVerdict(p.lines)
}

var footerStatusRe = regexp.MustCompile(`(?i)^\s*\**STATUS\**\s*:\s*\**\s*([A-Za-z_-]+)`)

// footer reads the "--- VERDICT ---" footer: its STATUS value and line.
func (p *reportParser) footer() (string, int) {
	for i, l := range p.lines {
		if l.masked || !strings.EqualFold(strings.TrimSpace(l.text), "--- VERDICT ---") {
			continue
		}
		for j := i + 1; j < len(p.lines) && j < i+8; j++ {
			if m := footerStatusRe.FindStringSubmatch(p.lines[j].text); m != nil {
				return strings.ToLower(m[1]), p.lines[j].num
			}
		}
	}
	return "", 0
}

var (
	// Looked for on every line: behind their words (guard).
	stallHeadingRe = guard(regexp.MustCompile(`(?i)—\s*stall rescue\b|-\s*stall rescue\b`), "stall rescue")
	stalledRe      = guard(regexp.MustCompile(`(?i)^\**status:?\**\s*:?\s*\**\s*stalled\**$`), "stalled")
	toolFailureRe  = regexp.MustCompile(`(?i)^(?:agent failed to produce findings|\S*\s*(?:oracle|agent|reviewer)\s+failed\s*\((?:exit|status)\s*\d+\))`)
)

// status sets the report's status (SPEC §2.5).
func (p *reportParser) status(prose bool) {
	r := p.r
	if reason, line := p.errorReason(prose); reason != "" {
		r.Status = StatusError
		p.diag(line, LevelError, "%s", reason)
		return
	}
	switch {
	case p.ix != nil && p.strict():
		r.Status = StatusValid
	case p.ix != nil || p.fm.hasIssues:
		r.Status = StatusVariant
	default:
		r.Status = StatusMalformed
	}
}

// errorReason says why the report is an error stub, or "".
func (p *reportParser) errorReason(prose bool) (string, int) {
	if p.ix != nil && p.ix.errorStub {
		return "error stub: the index says Verdict: error", p.ix.vLine
	}
	if strings.EqualFold(strings.TrimSpace(p.fm.verdict), "error") {
		return "error stub: front matter says verdict: error", p.fm.verdictLine
	}
	hasIndex := p.ix != nil || p.fm.hasIssues
	if st, line := p.footer(); st == "error" && !hasIndex {
		return "error stub: the --- VERDICT --- footer says STATUS: error", line
	}
	for _, l := range p.lines {
		if l.masked {
			continue
		}
		t := strings.TrimSpace(l.text)
		if l.level == 1 && stallHeadingRe.MatchString(l.head) {
			return "stall stub: " + t, l.num
		}
		if stalledRe.MatchString(t) {
			return "stall stub: " + t, l.num
		}
	}
	if !hasIndex && len(p.r.Findings) == 0 {
		structured := false
		for _, l := range p.lines {
			if !l.masked && toolFailureRe.MatchString(strings.TrimSpace(l.text)) {
				return "error stub: " + strings.TrimSpace(l.text), l.num
			}
			structured = structured || l.level > 0
		}
		// The Oracle CLI's banner with nothing after it: the agent never answered.
		if first := firstText(p.lines); !structured && oracleBannerRe.MatchString(first.text) {
			return "error stub: only the Oracle CLI banner, no report", first.num
		}
	}
	return "", 0
}

var oracleBannerRe = regexp.MustCompile(`^\s*🧿\s*oracle\b`)

func firstText(lines []line) line {
	for _, l := range lines {
		if strings.TrimSpace(l.text) != "" {
			return l
		}
	}
	return line{}
}

// proseSeverity finds the severity the report's prose gives the finding with
// this ID, as the general reader reads it (SPEC §2.3, one reader): the
// label of the heading, item or bold lead-in that opens its section, a
// severity field in its block, or the group it stands in. The index's own
// lines are not its prose.
func (p *reportParser) proseSeverity(id string) (Severity, bool) {
	if id == "" {
		return "", false
	}
	if p.proseSevs == nil {
		p.proseSevs = map[string]Severity{}
		lines := slices.Clone(p.lines)
		for i := p.ix.start; i < p.ix.end && i < len(lines); i++ {
			lines[i].masked = true
		}
		gr := readFenced(p.stop, "", lines)
		for _, f := range gr.findings {
			k := idKey(f.ID)
			if _, seen := p.proseSevs[k]; f.ID != "" && !seen {
				p.proseSevs[k] = f.Severity
			}
		}
	}
	sev, ok := p.proseSevs[idKey(id)]
	return sev, ok
}
