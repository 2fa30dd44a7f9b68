package synth

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
)

// SummaryEntries is how many of the latest timeline entries summary.md shows.
const SummaryEntries = 100

// summaryResults is how many of each timeline result summary.md lists.
const summaryResults = 20

// summaryDiagnostics is how many diagnostics per agent summary.md lists.
const summaryDiagnostics = 10

// summaryClaims is how many claims that did not verify summary.md lists.
const summaryClaims = 50

// mdWriter is what summary.md is written through: a buffered writer whose
// first error is kept, and returned by WriteMarkdown.
type mdWriter struct{ *bufio.Writer }

func (w *mdWriter) f(format string, a ...any) { fmt.Fprintf(w, format, a...) }

// once returns a function that writes heading the first time it is called
// and nothing after: the heading of a section written only when it lists
// something.
func (w *mdWriter) once(heading string) func() {
	done := false
	return func() {
		if !done {
			w.WriteString(heading)
			done = true
		}
	}
}

// RenderMarkdown returns summary.md (SPEC §6), as WriteMarkdown writes it.
func RenderMarkdown(s *Synthesis) []byte {
	var b bytes.Buffer
	_ = WriteMarkdown(&b, s) // a bytes.Buffer takes every write
	return b.Bytes()
}

// WriteMarkdown writes summary.md (SPEC §6) to out: one section after
// another, each written by a function of its own. Agent-written text goes
// through mdText or mdCode (escape.go) and nowhere else. The error is the
// first of out. A file target is written as it is rendered: summary.md of
// 8,000 agents is 34 MB, and held whole (with the buffer's growth) it was
// a fifth of synth's peak heap.
func WriteMarkdown(out io.Writer, s *Synthesis) error {
	w := mdWriter{bufio.NewWriterSize(out, 64<<10)}
	for _, sec := range mdSections {
		sec.write(&w, s)
	}
	return w.Flush()
}

// mdSections are the sections of summary.md in order. Those marked
// findings read s.Findings and nothing else of s: a watcher's
// MarkdownSplice copies them from its previous write while the findings
// are those it wrote.
var mdSections = []struct {
	write    func(*mdWriter, *Synthesis)
	findings bool
}{
	{write: mdHeader},
	{write: mdBaseline},
	{write: mdKeyFindings, findings: true},
	{write: mdIssues, findings: true},
	{write: mdSuppressions},
	{write: mdImprovements},
	{write: mdHeatMap, findings: true},
	{write: mdAgents},
	{write: mdYield},
	{write: mdDirectory},
	{write: mdConflicts, findings: true},
	{write: mdTimeline},
	{write: mdSpecialists},
	{write: mdEvidence},
}

// mdHeader writes the title, the verdict and the run's facts.
func mdHeader(w *mdWriter, s *Synthesis) {
	w.f("# Review Summary\n\n")
	w.f("**Verdict:** %s (%d/%d %s completed, %d failed)\n\n", VerdictText(s),
		len(s.AgentsCompleted), len(s.AgentsLaunched), Noun(len(s.AgentsLaunched), "agent"), len(s.AgentsFailed))
	var meta []string
	if s.Input != "" {
		meta = append(meta, "Input: "+mdCode(s.Input))
	}
	if s.Run != nil {
		meta = append(meta, "Run: "+mdCode(*s.Run))
	}
	if s.Reviewed != "" {
		meta = append(meta, "Reviewed: "+s.Reviewed)
	}
	meta = append(meta, fmt.Sprintf("Findings: %d (P0: %d, P1: %d, P2: %d, P3: %d)",
		s.Counts.Total(), s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3))
	if len(s.Improvements) > 0 {
		meta = append(meta, fmt.Sprintf("Improvements: %d", len(s.Improvements)))
	}
	if s.Suppressions != nil && s.Suppressions.Suppressed > 0 {
		meta = append(meta, fmt.Sprintf("Suppressed: %d (accepted in the configuration; not counted in the verdict)", s.Suppressions.Suppressed))
	}
	for _, m := range meta {
		w.f("- %s\n", m)
	}
	if len(s.AgentsForeign) > 0 {
		w.f("- Foreign (other runs, not counted): %s\n", mdList(s.AgentsForeign, ", "))
	}
	if len(s.AgentsPartial) > 0 {
		w.f("- Still writing (not counted): %s\n", mdList(s.AgentsPartial, ", "))
	}
	if len(s.Ignored) > 0 {
		w.f("- Ignored (not agent reports): %s\n", mdList(s.Ignored, ", "))
	}
	if len(s.AgentsUnreadable) > 0 {
		w.f("- Could not be fully read: %s — the verdict counts what was read and may be too low (see Agent Reports); "+
			"every gate trips on an unreadable report unless `--allow-unreadable`\n", mdList(s.AgentsUnreadable, ", "))
	}
}

// mdKeyFindings writes every finding, grouped by severity.
func mdKeyFindings(w *mdWriter, s *Synthesis) {
	w.f("\n## Key Findings\n")
	if len(s.Findings) == 0 {
		w.f("\nNo findings.\n")
	}
	for _, sev := range []parse.Severity{parse.P0, parse.P1, parse.P2, parse.P3} {
		heading := w.once(fmt.Sprintf("\n### %s\n\n", sev))
		for _, f := range s.Findings {
			if f.Severity != sev {
				continue
			}
			heading()
			w.f("- %s (%s agents: %s%s)", findingLabel(f), f.ConvergenceDisplay, mdList(f.Agents, ", "), mdPriming(f))
			if f.Section != "" {
				w.f(" — %s", mdText(f.Section))
			}
			if len(f.FileRefs) > 0 {
				refs := make([]string, len(f.FileRefs))
				for i, r := range f.FileRefs {
					refs[i] = mdCode(r)
				}
				w.f(" · %s", strings.Join(refs, ", "))
			}
			w.f(" · confidence %s", f.Confidence)
			if f.Evidence() != nil && f.Evidence().Ungrounded {
				w.f(" · **ungrounded**")
			}
			if f.DiscoveredBy() != nil {
				w.f(" · first on the bus: %s", mdText(*f.DiscoveredBy()))
			}
			if f.Suppressed() != nil {
				w.f(" · suppressed")
			}
			w.f("\n")
		}
	}
}

// mdIssues writes the P0 and P1 findings as a checklist.
func mdIssues(w *mdWriter, s *Synthesis) {
	w.f("\n## Issues to Address\n\n")
	n := 0
	for _, f := range s.Findings {
		if f.Severity.Rank() > 1 || f.Suppressed() != nil {
			continue
		}
		n++
		w.f("- [ ] %s %s (%s agents)\n", f.Severity, findingLabel(f), f.ConvergenceDisplay)
	}
	if n == 0 {
		w.f("Nothing blocks: no P0 or P1 finding.\n")
	}
}

// mdImprovements writes the merged improvements, when there are any.
func mdImprovements(w *mdWriter, s *Synthesis) {
	if len(s.Improvements) == 0 {
		return
	}
	w.f("\n## Improvements\n\n")
	for _, im := range s.Improvements {
		label := mdText(im.Title)
		if im.ID != "" {
			label = mdText(im.ID) + ": " + label
		}
		w.f("- %s", label)
		if im.Section != "" {
			w.f(" — %s", mdText(im.Section))
		}
		w.f(" (%s)\n", mdList(im.Agents, ", "))
	}
}

// mdHeatMap writes the findings per section, hottest first.
func mdHeatMap(w *mdWriter, s *Synthesis) {
	if len(s.Findings) == 0 {
		return
	}
	w.f("\n## Section Heat Map\n\n| Section | P0 | P1 | P2 | P3 | Total |\n|---|---:|---:|---:|---:|---:|\n")
	type heat struct {
		name string
		c    Counts
	}
	bySection := map[string]*heat{}
	for _, f := range s.Findings {
		k := parse.Normalize(f.Section)
		h := bySection[k]
		if h == nil {
			h = &heat{name: f.Section}
			bySection[k] = h
		}
		h.c.Add(f.Severity)
	}
	// Hottest first: by P0, then P1, P2, P3 counts, then name.
	keys := sortedKeys(bySection)
	slices.SortStableFunc(keys, func(a, b string) int {
		x, y := bySection[a].c, bySection[b].c
		return cmp.Or(cmp.Compare(y.P0, x.P0), cmp.Compare(y.P1, x.P1), cmp.Compare(y.P2, x.P2), cmp.Compare(y.P3, x.P3))
	})
	for _, k := range keys {
		h := bySection[k]
		name := mdText(h.name)
		if name == "" {
			name = "(none)"
		}
		w.f("| %s | %d | %d | %d | %d | %d |\n", name, h.c.P0, h.c.P1, h.c.P2, h.c.P3, h.c.Total())
	}
}

// mdAgents writes the Agent Reports section: the table, the notes on agents
// that did not complete, their message envelopes and diagnostics.
func mdAgents(w *mdWriter, s *Synthesis) {
	w.f("\n## Agent Reports\n\n")
	if len(s.Agents) == 0 {
		w.f("No agent reports found.\n")
		return
	}
	mdAgentTable(w, s.Agents)
	mdAgentNotes(w, s.Agents)
	mdEnvelopes(w, s.Agents)
	mdAgentDiagnostics(w, s.Agents)
}

func mdAgentTable(w *mdWriter, agents []AgentResult) {
	w.f("| Agent | Status | Declared | Computed | P0 | P1 | P2 | P3 | Improvements | Diagnostics |\n")
	w.f("|---|---|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, a := range agents {
		declared := "—"
		if a.DeclaredVerdict != nil {
			declared = mdText(string(*a.DeclaredVerdict))
		}
		w.f("| %s | %s | %s | %s | %d | %d | %d | %d | %d | %d |\n", mdText(a.Name), a.Status, declared,
			a.Verdict, a.Counts.P0, a.Counts.P1, a.Counts.P2, a.Counts.P3, a.Counts.Improvements, len(readerDiagnostics(a)))
	}
}

// mdAgentNotes says why an agent is not counted as completed.
func mdAgentNotes(w *mdWriter, agents []AgentResult) {
	var notes []string
	for _, a := range agents {
		file := "no file"
		if a.File != nil {
			file = *a.File
		}
		switch a.Status {
		case parse.StatusMalformed:
			notes = append(notes, fmt.Sprintf("Agent %s produced malformed index — using prose fallback.", mdText(a.Name)))
		case parse.StatusUnreadable:
			notes = append(notes, unreadNote(a, file))
		case parse.StatusError:
			notes = append(notes, fmt.Sprintf("Agent %s failed (%s).", mdText(a.Name), mdText(file)))
		case parse.StatusForeign:
			notes = append(notes, fmt.Sprintf("%s belongs to another run: listed, not counted.", mdCode(file)))
		case parse.StatusPartial:
			notes = append(notes, fmt.Sprintf("Agent %s is still writing (%s): not counted.", mdText(a.Name), mdCode(file)))
		}
	}
	if len(notes) > 0 {
		w.f("\n")
		for _, n := range notes {
			w.f("- %s\n", n)
		}
	}
}

// unreadNote says that agent a, whose report is file, could not be fully
// read, and why: its reasons as sub-items, at most summaryDiagnostics.
func unreadNote(a AgentResult, file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Agent %s could not be fully read (%s): the findings read count (confidence low), "+
		"what was not read may be worse.", mdText(a.Name), mdCode(file))
	reasons := a.UnreadReasons()
	for i, d := range reasons {
		if i == summaryDiagnostics {
			fmt.Fprintf(&b, "\n  - … and %d more (see findings.json)", len(reasons)-i)
			break
		}
		d.File = file
		fmt.Fprintf(&b, "\n  - %s", mdCode(d.String()))
	}
	return b.String()
}

func mdEnvelopes(w *mdWriter, agents []AgentResult) {
	heading := w.once("\n### Message envelopes\n\n")
	for _, a := range agents {
		if len(a.Envelope) == 0 {
			continue
		}
		heading()
		w.f("- %s: %s\n", mdText(a.Name), envelopeText(a.Envelope))
	}
}

// mdAgentDiagnostics lists each agent's warnings and errors (see
// readerDiagnostics). Info-level
// diagnostics (no completion sentinel, an ID off the pattern, a blank line
// in the index) say how a report deviates from the format, which its
// author needs and a reader of the review does not: they stay in
// findings.json and `fluxwatch check`, and one line says how many there
// are.
func mdAgentDiagnostics(w *mdWriter, agents []AgentResult) {
	heading := w.once("\n### Diagnostics\n")
	info := 0
	for _, a := range agents {
		ds := readerDiagnostics(a)
		info += len(a.Diagnostics) - len(ds)
		if len(ds) == 0 {
			continue
		}
		heading()
		file := a.Name
		if a.File != nil {
			file = *a.File
		}
		w.f("\n%s:\n", mdCode(file))
		for i, d := range ds {
			if i == summaryDiagnostics {
				w.f("- … and %d more (see findings.json)\n", len(ds)-i)
				break
			}
			d.File = file
			w.f("- %s\n", mdCode(d.String()))
		}
	}
	if info > 0 {
		w.f("\n%s (such as a missing completion sentinel or an ID off the pattern) %s listed in findings.json and by `fluxwatch check`, not here.\n",
			Plural(info, "info-level diagnostic"), Noun(info, "is", "are"))
	}
}

// readerDiagnostics are the diagnostics of a that a reader of the review
// is shown: warnings and errors; info too for an agent that failed, since
// they say why (an error stub's message).
func readerDiagnostics(a AgentResult) []Diagnostic {
	if a.Status == parse.StatusError {
		return a.Diagnostics
	}
	out := make([]Diagnostic, 0, len(a.Diagnostics))
	for _, d := range a.Diagnostics {
		if d.Level != parse.LevelInfo {
			out = append(out, d)
		}
	}
	return out
}

// mdDirectory writes the diagnostics about the directory and the bus.
func mdDirectory(w *mdWriter, s *Synthesis) {
	if len(s.Diagnostics) == 0 {
		return
	}
	w.f("\n### Directory\n\n")
	for i, d := range s.Diagnostics {
		if i == summaryDiagnostics {
			w.f("- … and %d more (see findings.json)\n", len(s.Diagnostics)-i)
			break
		}
		w.f("- %s\n", mdCode(d.String()))
	}
}

// mdConflicts writes the findings whose agents gave different severities.
func mdConflicts(w *mdWriter, s *Synthesis) {
	heading := w.once("\n## Conflicts\n\n")
	for _, f := range s.Findings {
		if f.SeverityConflict() == nil {
			continue
		}
		heading()
		var parts []string
		for _, a := range sortedKeys(f.SeverityConflict()) {
			parts = append(parts, fmt.Sprintf("%s %s", mdText(a), f.SeverityConflict()[a]))
		}
		w.f("- %s: %s (kept %s)\n", findingLabel(f), strings.Join(parts, ", "), f.Severity)
	}
}

// mdTimeline writes the latest bus entries and the timeline's results.
func mdTimeline(w *mdWriter, s *Synthesis) {
	tl := s.Timeline
	if tl == nil {
		return
	}
	w.f("\n## Findings Timeline\n\n")
	w.f("%s in %s (blocking %d, notable %d, unknown %d, stalls %d).",
		Plural(tl.Total, "entry", "entries"), mdList(tl.Files, ", "), tl.PerSeverity.Blocking, tl.PerSeverity.Notable,
		tl.PerSeverity.Unknown, tl.PerSeverity.Stalls)
	entries := tl.Entries
	if len(entries) > SummaryEntries {
		entries = entries[len(entries)-SummaryEntries:]
	}
	if len(entries) < tl.Total {
		w.f(" The latest %d:", len(entries))
	}
	w.f("\n\n| # | Time | Agent | Severity | Category | Summary |\n|---:|---|---|---|---|---|\n")
	for _, e := range entries {
		sev := e.Severity
		if e.Kind != "" {
			sev = e.Kind
		}
		if e.Priority != "" {
			sev += " (" + string(e.Priority) + ")"
		}
		w.f("| %d | %s | %s | %s | %s | %s |\n", e.Seq, mdText(e.Timestamp), mdText(e.Agent), mdText(sev),
			mdText(e.Category), mdText(e.Summary))
	}
	mdTimelineResults(w, tl)
}

// mdTimelineResults writes the adjustments, unacknowledged blocking entries,
// contradictions and stalls of the timeline.
func mdTimelineResults(w *mdWriter, tl *Timeline) {
	if tl.AdjustmentsTotal > 0 {
		w.f("\n**Adjustments** (%d):\n\n", tl.AdjustmentsTotal)
		for _, a := range latest(tl.Adjustments) {
			w.f("- %s adjusted after %s's finding (#%d: %s)\n", mdText(a.Agent), mdText(a.After), a.Seq, mdText(a.Summary))
		}
	}
	if tl.UnacknowledgedTotal > 0 {
		w.f("\n**Unacknowledged blocking findings** (%d):\n\n", tl.UnacknowledgedTotal)
		for _, u := range latest(tl.Unacknowledged) {
			w.f("- #%d %s: %s — not acknowledged by %s\n", u.Seq, mdText(u.Agent), mdText(u.Summary), mdList(u.By, ", "))
		}
	}
	if tl.ContradictionsTotal > 0 {
		w.f("\n**Contradictions** (%d):\n\n", tl.ContradictionsTotal)
		for _, c := range latest(tl.Contradictions) {
			switch c.Reason {
			case "lower-severity":
				w.f("- #%d %s's blocking finding (%s): %s rates it %s\n", c.Seq, mdText(c.Of), mdText(c.Summary), mdText(c.Agent), c.Severity)
			default:
				w.f("- #%d %s's blocking finding (%s): %s is safe on the same files\n", c.Seq, mdText(c.Of), mdText(c.Summary), mdText(c.Agent))
			}
		}
	}
	if len(tl.Stalled) > 0 {
		w.f("\n**Stalled:** %s\n", mdList(tl.Stalled, ", "))
	}
}

// mdSpecialists writes the specialists' approaches and the designs.
func mdSpecialists(w *mdWriter, s *Synthesis) {
	if len(s.Specialists) == 0 && len(s.Design) == 0 {
		return
	}
	w.f("\n## Specialist Approaches\n")
	for _, sp := range s.Specialists {
		w.f("\n### %s (%s)\n\n", mdText(sp.Name), mdCode(sp.File))
		if len(sp.Approaches) == 0 {
			w.f("No approaches.\n")
		} else {
			w.f("| Approach | Description | Files | Pending refinement | Unanswered questions |\n|---|---|---|---|---|\n")
			for _, a := range sp.Approaches {
				w.f("| %s | %s | %s | %s | %s |\n", mdText(a.ID), mdText(a.Description), mdList(a.RelevantFiles, ", "),
					mdText(a.PendingRefinement), mdList(a.UnansweredQuestions, "; "))
			}
			w.f("\n%s, %s, %s.\n", Plural(len(sp.Approaches), "approach", "approaches"),
				Plural(sp.PendingRefinements, "pending refinement"), Plural(sp.UnansweredQuestions, "unanswered question"))
		}
		for _, d := range sp.Diagnostics {
			d.File = sp.File
			w.f("- %s\n", mdCode(d.String()))
		}
	}
	if len(s.Design) > 0 {
		w.f("\n### Designs\n\n")
		for _, d := range s.Design {
			w.f("- %s: %s\n", mdCode(d.ScreenshotFileName), mdText(d.Description))
		}
	}
}

// mdEvidence writes the Evidence section (SPEC §5.7): the tally, the
// ungrounded findings, and the claims that did not verify.
func mdEvidence(w *mdWriter, s *Synthesis) {
	w.f("\n## Evidence\n\n")
	ev := s.Evidence
	if ev == nil {
		if s.EvidenceNote != "" {
			w.f("Not checked: %s.\n", mdText(s.EvidenceNote))
		} else {
			w.f("Not checked.\n")
		}
		return
	}
	repo := ""
	if ev.Repo != "" {
		repo = " against " + mdCode(ev.Repo)
	}
	if ev.Claims == 0 {
		w.f("Checked%s: no finding cites a file:line.\n", repo)
		return
	}
	w.f("Checked %s%s: %d verified, %d moved, %d mismatch, %d missing file, %d out of range, %d skipped; "+
		"%d ungrounded P0/P1 %s.\n", Plural(ev.Claims, "claim"), repo, ev.Verified, ev.Moved, ev.Mismatch, ev.MissingFile,
		ev.OutOfRange, ev.Skipped, ev.Ungrounded, Noun(ev.Ungrounded, "finding"))
	if ev.MissingFile == ev.Claims {
		w.f("\nNone of the cited files exists there: is it the repository the agents reviewed? (`--repo DIR`)\n")
	}
	if ev.Ungrounded > 0 {
		w.f("\n**Ungrounded** (P0/P1 findings whose every claim failed):\n\n")
		for _, f := range s.Findings {
			if f.Evidence() != nil && f.Evidence().Ungrounded {
				w.f("- %s %s (%s)\n", f.Severity, findingLabel(f), mdList(f.Agents, ", "))
			}
		}
	}
	mdFailedClaims(w, s.Findings)
}

// mdFailedClaims writes a table of the claims that did not verify, at most
// summaryClaims of them.
func mdFailedClaims(w *mdWriter, findings []Finding) {
	var rows []string
	failed := 0
	for _, f := range findings {
		if f.Evidence() == nil {
			continue
		}
		label := mdText(f.Title)
		if f.ID != "" {
			label = mdText(f.ID)
		}
		for _, c := range f.Evidence().Claims {
			if c.Status == parse.EvidenceVerified {
				continue
			}
			failed++
			if len(rows) == summaryClaims {
				continue
			}
			detail := mdText(c.Note)
			if c.Found != "" {
				detail = "now at " + mdCodeCell(c.Found)
			}
			rows = append(rows, fmt.Sprintf("| %s %s | %s | %s | %s | %s |\n", f.Severity, label, mdText(c.Agent),
				mdCodeCell(c.Claim.Ref()), c.Status, detail))
		}
	}
	if failed == 0 {
		w.f("\nEvery claim verified.\n")
		return
	}
	w.f("\n| Finding | Agent | Claim | Status | Detail |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		w.f("%s", r)
	}
	if failed > len(rows) {
		w.f("\n… and %d more %s that did not verify (see findings.json).\n", failed-len(rows), Noun(failed-len(rows), "claim"))
	}
}

// envelopeOrder puts the keys of SPEC §2.2 first; the others follow sorted.
var envelopeOrder = []string{"message_id", "correlation_id", "message_type", "timestamp", "source_document", "reliability"}

// envelopeText renders an agent's message envelope on one line.
func envelopeText(env map[string]string) string {
	var parts []string
	for _, k := range envelopeOrder {
		if v, ok := env[k]; ok {
			parts = append(parts, k+" "+mdCode(truncate(v, 200)))
		}
	}
	for _, k := range sortedKeys(env) {
		if !slices.Contains(envelopeOrder, k) {
			parts = append(parts, mdText(k)+" "+mdCode(truncate(env[k], 200)))
		}
	}
	return strings.Join(parts, ", ")
}

// truncate cuts s, on one line and inert (inert.Line), to at most n bytes
// at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	s = inert.Line(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func latest[T any](l []T) []T {
	if len(l) > summaryResults {
		return l[len(l)-summaryResults:]
	}
	return l
}

// findingLabel is a finding's ID in bold and its title.
func findingLabel(f Finding) string {
	if f.ID == "" {
		return "**" + mdText(f.Title) + "**"
	}
	return "**" + mdText(f.ID) + "** " + mdText(f.Title)
}
