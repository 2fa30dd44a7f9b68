package verify

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Claim is one finding a synthesis states.
type Claim struct {
	// Line is the claim's line in the synthesis, from 1.
	Line int `json:"line"`
	// ID is the label the synthesis gives it at its start ("P0-1", "3"),
	// if any: its own numbering, or an agent's ID it cites.
	ID    string `json:"id,omitempty"`
	Title string `json:"title"`
	// Text is the whole line, trimmed.
	Text string `json:"text"`
	// Severity is "" when the claim states none, its own or its group's.
	Severity parse.Severity `json:"severity,omitempty"`
	// Count is the convergence it claims (0: none); Of the agents it counts
	// against ("N/M"; 0: none).
	Count int `json:"count,omitempty"`
	Of    int `json:"of,omitempty"`
	// Agents are the names and labels it gives the agents it attributes
	// the finding to, as written.
	Agents []string `json:"agents,omitempty"`
	// Cites are the finding IDs it cites, as written (ID included).
	Cites    []string `json:"cites,omitempty"`
	FileRefs []string `json:"file_refs,omitempty"`

	// attrib pairs an agent label with the IDs and severity the claim
	// gives that agent's finding ("fd-safety SEC-7", "fd-a (P0)", a table
	// column headed by an agent); an empty label: the IDs stand alone.
	attrib []attribution
	// body is the prose that follows a heading or bold lead-in claim, up to
	// maxBody bytes: what the synthesis says of it in more words.
	body string
	// theme: a row of a table read by its cells (rowByCells), a theme and
	// the IDs or agents that bear it out.
	theme bool
	// numbered: a bold line under a severity group that the synthesis
	// numbers ("**1.6: Title**", reader.numberedBold): the items under it
	// that state no finding of their own are its fields.
	numbered bool
	// prose: a list item that names its agents only in its prose
	// (reader.proseItem, reader.whoSaid).
	prose bool
	// head: the heading over a "who said what" table or list this claim
	// is a row of, when the paragraph under the heading counts the agents
	// ("Two agents converged on …"); nil: none.
	head *countHead
	// quotes: an item of a "who said what" list (reader.whoSaid), whose
	// body is what its agent said, in its words or the synthesis's: the
	// agent is held to its report, not to its findings, whose blocks the
	// reader may not hold (a finding read from front matter).
	quotes bool
	// tracks: its count is of tracks ("(3/4 tracks)", "Convergence
	// score: 3/4"), an agent count only in a run whose agents are the
	// tracks, as many as it counts against (Check).
	tracks bool
	// items: the line of the finding whose items cite the IDs that bear
	// it out ("**F1. …**" over "- Track A: NET-1, QUEUE-1"), on that
	// finding, on a line restating its count and on a row citing its own
	// ID (reader.cite); 0: none.
	items int
	// restates: the line of the finding whose count this line states
	// (reader.restate): tied to what the finding is tied to, and judged
	// for its count only, the agents it names being judged on the
	// finding's own line; 0: none.
	restates int
	// under: on an item citing IDs (reader.cite), the title of the
	// finding it bears out; "": none.
	under string
	// countLine: the line of a finding's own count, on a line of its own
	// under it (reader.restate), where it is judged; 0: none.
	countLine int
}

// countHead is a heading whose paragraph counts the agents of the "who
// said what" rows under it: a claim of that count, borne out by its rows
// (judgeHeads).
type countHead struct {
	line  int
	title string
	n, of int
	lvl   int
}

// attribution is what a claim says one agent reported.
type attribution struct {
	label string // as written; "" for IDs cited without an agent
	ids   []string
	sev   parse.Severity
	lead  bool // the ID is the claim's own label, at its start
}

// maxTitle bounds a claim's title in runes: a claim is a line, not a page.
const maxTitle = 300

// maxText bounds a claim's Text in bytes, and maxBody its body.
const (
	maxText = 2000
	maxBody = 1200
)

// reader is the state of Claims' line loop.
type reader struct {
	text  string
	pos   int // byte offset of the next line
	n     int // number of the line last read
	out   []Claim
	fence string

	skipLvl int // level of a skipped section; 0: none
	// inSkip: the level of a severity group of findings inside a skipped
	// section ("#### P0 Findings (Blocking)" under "## Recommendations"),
	// read as any group; 0: none.
	inSkip   int
	group    parse.Severity // severity of the innermost severity group
	groupLvl int            // its heading level; 0: none (-1: a bold group line)
	labelLvl int            // level of a plain group label heading (no severity) over a list; 0: none
	claimLvl int            // level of the current finding heading; 0: none
	block    int            // index in out of the claim whose block this is; -1: none
	table    *tableCols
	head     *countHead // the counting heading over the rows read; nil: none
	// whoHead is the counting heading claim over the "who said what"
	// items read (whoSaid); nil: none yet.
	whoHead *countHead
	// themes: the synthesis's own ID of a finding whose items cite the
	// agents' IDs that bear it out ("**F1. …**" over "- Track A: NET-1
	// (P1), QUEUE-1 (P1)") → its index in out (citingItem).
	themes map[string]int
	// restated: each claim of a count line (restate) and the finding it
	// restates, by their indices in out.
	restated [][2]int
	// prose are the list items that state no claim by their form but
	// name what may be agents (proseItem, whoSaid): Check keeps those
	// whose names are agents of the run.
	prose []proseClaim
}

// line returns the line at byte offset p and the offset of the next one.
func (r *reader) lineAt(p int) (string, int) {
	if j := strings.IndexByte(r.text[p:], '\n'); j >= 0 {
		return r.text[p : p+j], p + j + 1
	}
	return r.text[p:], len(r.text) + 1
}

// Claims returns the claims of a synthesis, in line order (see the package
// documentation for what a claim is). It never fails: text that states no
// claim gives none.
func Claims(src []byte) []Claim {
	c, _ := claimsAndProse(src)
	return c
}

// claimsAndProse returns the claims of a synthesis and the list items that
// may be claims by the agents their prose names (see proseItem).
func claimsAndProse(src []byte) (claims []Claim, prose []proseClaim) {
	// The lines are read one at a time rather than split into a slice at
	// once: a synthesis of 60 MB of newlines took a 960 MB slice of them.
	r := &reader{text: string(src), block: -1}
	if front, ok := r.skipFrontMatter(); ok {
		// Its findings list, if any: claims before the body's.
		r.out = frontMatterClaims(front, 1)
	}
	for r.pos <= len(r.text) {
		var line string
		line, r.pos = r.lineAt(r.pos)
		r.n++
		r.step(strings.TrimSpace(strings.TrimRight(line, "\r")))
	}
	for _, x := range r.restated {
		// A count line says what its finding says, in all the finding's
		// block: its prose, agents and IDs after the count line too.
		c, th := &r.out[x[0]], &r.out[x[1]]
		c.body, c.items = th.body, th.items
		c.Agents, c.Cites = slices.Clone(th.Agents), slices.Clone(th.Cites)
		c.attrib, c.FileRefs = slices.Clone(th.attrib), slices.Clone(th.FileRefs)
	}
	return r.out, r.prose
}

// skipFrontMatter steps over YAML front matter and returns its text (the
// lines between the --- lines): its roster, tallies and verdict state no
// claim, and only a findings list in it is read (frontMatterClaims).
func (r *reader) skipFrontMatter() (string, bool) {
	first, next := r.lineAt(0)
	if strings.TrimSpace(first) != "---" {
		return "", false
	}
	for p, n := next, 1; p <= len(r.text); {
		start := p
		var l string
		l, p = r.lineAt(p)
		n++
		if t := strings.TrimSpace(l); t == "---" || t == "..." {
			r.pos, r.n = p, n
			return r.text[next:start], true
		}
	}
	return "", false
}

// step reads one trimmed line.
func (r *reader) step(t string) {
	if r.fence != "" {
		if strings.HasPrefix(t, r.fence) {
			r.fence = ""
		}
		return
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		r.fence = t[:3]
		return
	}
	if !strings.HasPrefix(t, "|") {
		r.table = nil
	}
	if lvl, text := heading(t); lvl > 0 {
		r.heading(lvl, text, t)
		return
	}
	if (r.skipLvl > 0 && r.inSkip == 0) || t == "" {
		if t == "" && r.groupLvl < 0 {
			r.endBoldGroup()
		}
		return
	}
	switch {
	case strings.HasPrefix(t, "|"):
		r.tableRow(t)
	case isRule(t):
		r.block = -1
	default:
		if text, ok := listItem(t); ok {
			r.item(text, t)
			return
		}
		r.paragraph(t)
	}
}

func isRule(t string) bool {
	return len(t) >= 3 && strings.Trim(t, "-*_ ") == ""
}

// heading reads a heading line.
func (r *reader) heading(lvl int, text, t string) {
	r.table = nil
	r.block = -1
	if r.groupLvl < 0 {
		r.endBoldGroup()
	}
	if r.skipLvl > 0 && lvl <= r.skipLvl {
		r.skipLvl = 0
	}
	if r.inSkip > 0 && lvl <= r.inSkip {
		r.inSkip = 0
	}
	if r.groupLvl > 0 && lvl <= r.groupLvl {
		r.group, r.groupLvl = "", 0
	}
	if r.labelLvl > 0 && lvl <= r.labelLvl {
		r.labelLvl = 0
	}
	if r.claimLvl > 0 && lvl <= r.claimLvl {
		r.claimLvl = 0
	}
	r.head = nil
	if r.skipLvl > 0 && r.inSkip == 0 {
		// A section of recommendations that lists its findings by
		// severity ("#### P2 Findings (Infrastructure)"): those groups
		// are findings, whatever the section's name.
		if sev, ok := groupHeading(text); ok && findingsWordRe.MatchString(text) {
			r.inSkip = lvl
			r.group, r.groupLvl = sev, lvl
		}
		return
	}
	if sev, ok := r.leadGroup(lvl, text); ok {
		// "### P1: Improvements Before Launch", "### HIGH: Fix Before the
		// Beta" over the findings' own headings: a group,
		// whatever its note says.
		r.group, r.groupLvl = sev, lvl
		return
	}
	if skippedSection(text) {
		r.skipLvl = lvl
		return
	}
	if sev, ok := groupHeading(text); ok {
		r.group, r.groupLvl = sev, lvl
		return
	}
	c, ok := itemClaim(text, false)
	list := r.listFollows()
	if list && !(ok && (c.Count > 0 || len(c.Cites) > 0)) {
		// A label over a list: its items are the claims. With a severity
		// marker it is a group; without, it keeps the group it is in.
		if ok && c.Severity != "" {
			r.group, r.groupLvl = c.Severity, lvl
		} else {
			r.labelLvl = lvl
		}
		return
	}
	if !ok && r.groupLvl > 0 && lvl > r.groupLvl {
		c, ok = itemClaim(text, true)
	}
	if !ok {
		// "### Convergence Point 2: Lifecycle transitions" over "Two
		// agents converged on the same gap: …": the count the paragraph
		// under the heading opens with is the heading's.
		n, of, rows := r.paragraphCount()
		if n > 0 && rows {
			// Its rows are the claims; the count is the heading's, which
			// they bear out or not (judgeHeads).
			title := clip(text)
			if hc, ok := itemClaim(text, true); ok {
				title = hc.Title
			}
			r.head = &countHead{line: r.n, title: title, n: n, of: of}
			return
		}
		if n == 0 || rows {
			return
		}
		if c, ok = itemClaim(text, true); !ok {
			return
		}
		c.Count, c.Of = n, of
	}
	if c.Severity == "" {
		c.Severity = r.group
	}
	r.add(c, t)
	r.claimLvl = lvl
	r.block = len(r.out) - 1
}

// leadGroup reads a heading that opens with a severity and a colon or a
// dash, and goes on with a note ("P1: Improvements Before Launch",
// "HIGH: Fix Before the Beta", "BLOCKING — Must Fix"), when
// the next line that is not blank is a deeper heading: a severity group
// over its findings' headings, not a finding, and not a section of
// improvements or actions, whatever words its note uses.
func (r *reader) leadGroup(lvl int, text string) (parse.Severity, bool) {
	tok, rest := splitToken(strings.ReplaceAll(text, "**", ""))
	if !strings.HasSuffix(tok, ":") && !strings.HasPrefix(rest, "—") && !strings.HasPrefix(rest, "–") && !strings.HasPrefix(rest, "- ") {
		return "", false
	}
	sev, ok := tokenSeverity(tok)
	if !ok || trimLead(rest) == "" {
		return "", false
	}
	for p := r.pos; p <= len(r.text); {
		l, next := r.lineAt(p)
		p = next
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		sub, _ := heading(t)
		return sev, sub > lvl
	}
	return "", false
}

// paragraphCount reads the count of agents the first sentence of the
// paragraph after the current line states ("All three agents identified
// …", "Two agents converged …"): 0 when the next text is not a paragraph
// or states none. "Every agent found …" counts nothing: it is how a
// synthesis speaks of the review, too broad to hold to a count. rows: a
// table or list of who said what follows the paragraph, whose rows are
// the claims and bear the count out.
func (r *reader) paragraphCount() (n, of int, rows bool) {
	var para strings.Builder
	after := "" // the first line after the paragraph that is not blank
	for p := r.pos; p <= len(r.text); {
		l, next := r.lineAt(p)
		t := strings.TrimSpace(l)
		p = next
		if t == "" {
			if para.Len() > 0 && after == "" {
				after = "\n" // the paragraph ended; look at what follows it
			}
			continue
		}
		if after != "" {
			after = t
			break
		}
		if lvl, _ := heading(t); lvl > 0 || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "```") {
			if para.Len() > 0 {
				after = t
			}
			break
		}
		if _, item := listItem(t); item {
			if para.Len() > 0 {
				after = t
			}
			break
		}
		para.WriteString(t + " ")
		if para.Len() > maxBody {
			break
		}
	}
	first := strings.TrimSpace(para.String())
	if i := strings.Index(first, ". "); i > 0 {
		first = first[:i]
	}
	n, of = counts(first)
	if _, item := listItem(after); item || strings.HasPrefix(after, "|") {
		// A table or list of who said what follows: its rows and items are
		// the claims ("| Dogon | … |"), the paragraph their preamble.
		return n, of, true
	}
	if strings.HasSuffix(first, ":") {
		return 0, 0, false // "All six agents converge on these problems:" labels what follows
	}
	return n, of, false
}

// listFollows reports whether the next line that is not blank is a list
// item or a table row that is not a field of a finding: the heading above
// it labels a list.
func (r *reader) listFollows() bool {
	for p := r.pos; p <= len(r.text); {
		l, next := r.lineAt(p)
		t := strings.TrimSpace(l)
		p = next
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "|") {
			return true
		}
		text, ok := listItem(t)
		return ok && !isField(text)
	}
	return false
}

// tallyRe matches a tally: a severity or a label and a count ("P0
// Blockers: 1 (…)", "**Critical:** 0", "Findings: 8 (P0: 1, …)").
var (
	tallyRe    = regexp.MustCompile(`^(?:\*\*|__)?[A-Za-z][A-Za-z ]{0,30}:(?:\*\*|__)?\s*\d+\b|\(P[0-3]:\s*\d`)
	sevTallyRe = regexp.MustCompile(`^(?:\*\*|__)?([^:*_]{1,30}?)(?:\*\*|__)?:(?:\*\*|__)?\s*\d+\b`)
)

// isTally reports whether an item is a tally: a label and a count, or a
// severity (SPEC 2.3's vocabulary, parse.SeverityValue) and a count ("P0
// Blockers: 1", "**High-priority**: 2").
func isTally(text string) bool {
	if tallyRe.MatchString(text) {
		return true
	}
	m := sevTallyRe.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	_, ok := parse.SeverityValue(m[1], true)
	return ok
}

// item reads a bullet, numbered item or checkbox.
func (r *reader) item(text, t string) {
	if r.block >= 0 && r.out[r.block].items > 0 && r.restate(text, t) {
		// "- Convergence: 3/4 agents" after the items citing its IDs;
		// elsewhere such an item is read as a tally, as before.
		return
	}
	if isTally(text) {
		return
	}
	if r.block >= 0 && r.whoSaid(text, t) {
		return
	}
	if isField(text) {
		if label, _ := fieldParts(text); r.block >= 0 || commonFields[parse.Normalize(label)] || isAttributionField(label) {
			r.field(text)
			return
		}
		// "- **Python-in-flock-subshell pattern**: three agents flagged
		// it (fd-a, fd-b)": no finding above to be a field of, and a
		// label no finding's field has: a claim when it says who.
		if c, ok := itemClaim(text, false); ok && (c.Count > 0 || citesAgent(c)) {
			if c.Severity == "" {
				c.Severity = r.group
			}
			r.add(c, "- "+text)
			r.block = -1
		}
		return
	}
	c, ok := itemClaim(text, false)
	if ok && r.block >= 0 && citingItem(text) {
		// "- Track A: NET-1 (P1), QUEUE-1 (P1)" under "**F1. Title**":
		// the findings that bear the finding above out. A claim of its
		// own, and IDs the finding above cites.
		r.cite(text)
		c.under, c.items = r.out[r.block].Title, r.out[r.block].items
		block := r.block
		r.add(c, t)
		r.block = block
		return
	}
	if !ok {
		if r.claimLvl > 0 || (r.block >= 0 && r.out[r.block].numbered) {
			r.detail(text) // a detail of the finding heading or bold line above
			return
		}
		if r.groupLvl == 0 {
			r.proseItem(text, t)
			return
		}
		// An item directly under a severity group heading.
		if c, ok = itemClaim(text, true); !ok {
			return
		}
	}
	if c.Severity == "" {
		if r.claimLvl > 0 && c.Count == 0 && len(c.Agents) == 0 {
			r.detail(text) // a detail of the finding heading above
			return
		}
		c.Severity = r.group
	}
	r.add(c, t)
	r.block = -1
}

// proseItem keeps a list item that states no claim by its form but names
// two things or more that may be agents in its prose ("**Cut the plugin
// list.** Launch-wedge calls it …; Pitch-coach calls it …"): a claim of those agents when they are
// agents of the run, which only Check can tell.
func (r *reader) proseItem(text, t string) {
	// Only an item that opens with what it states, in bold, and says who
	// in the prose after it: a plan's "Keep the job idempotent
	// (Ledger-audit P0 + Queue-health High)" is an action, not a claim.
	_, after, ok := leadBold(strings.TrimSpace(text))
	if !ok {
		return
	}
	names := proseNames(after)
	if len(names) < 2 {
		return
	}
	c, ok := itemClaim(text, true)
	if !ok {
		return
	}
	c.Agents = appendNew(c.Agents, names...)
	c.Line, c.Text = r.n, clip(t)
	r.prose = append(r.prose, proseClaim{c, 2})
}

// A proseClaim is a claim of the agents it names, if min of its names at
// least are agents of the run.
type proseClaim struct {
	c   Claim
	min int
}

// whoSaid reads an item of a "who said what" list under a finding or a
// convergence heading ("- **fd-a** (P0-1): \"quote\"", "- **fd-b**: what
// it found"): a claim of that agent, stating what the item says it found,
// if the label is an agent of the run (Check); otherwise, as before, a
// detail of the claim above.
func (r *reader) whoSaid(text, t string) bool {
	if _, _, ok := leadBold(strings.TrimSpace(text)); !ok {
		return false
	}
	agent, sev, id, value, ok := agentLeadID(strings.ReplaceAll(text, "**", ""))
	if !ok {
		return false
	}
	said := cleanTitle(strings.Trim(strings.TrimSpace(value), "\"“”"))
	if !hasKeyword(said) {
		return false
	}
	// The item says the agent raised the finding above; what it quotes is
	// the agent's case for it.
	above := r.out[r.block]
	c := Claim{Title: above.Title, Severity: sev, ID: id, Agents: []string{agent}, Line: r.n, Text: clip(t), body: said, quotes: true}
	if above.Count > 1 && r.claimLvl > 0 {
		// Under a heading that counts its agents ("### Convergence 5/7:
		// …"): the items bear its count out or not, as a counting
		// paragraph's rows do (judgeHeads).
		if r.whoHead == nil || r.whoHead.line != above.Line {
			r.whoHead = &countHead{line: above.Line, title: above.Title, n: above.Count, of: above.Of}
		}
		c.head = r.whoHead
	}
	c.attrib = []attribution{{label: agent, sev: sev, ids: nonEmpty(id)}}
	if id != "" {
		c.Cites = []string{id}
	}
	c.FileRefs = fileRefs(t)
	r.detail(text)
	r.prose = append(r.prose, proseClaim{c, 1})
	return true
}

// citingLabelRe reads an item that lists IDs after a label: "Track A:
// NET-1 (P1), QUEUE-1 (P1)".
var citingLabelRe = regexp.MustCompile(`^(?:\*\*|__)?[A-Za-z][A-Za-z0-9 ]{0,30}?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.+)$`)

// citingItem reports whether an item lists finding IDs after a label, and
// nothing else but asides ("(P0, the expiry angle)"): the IDs that
// bear out the finding it stands under.
func citingItem(text string) bool {
	m := citingLabelRe.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return false
	}
	rest := strings.TrimSpace(asideRe.ReplaceAllString(m[1], " "))
	n := 0
	for tok := range strings.FieldsFuncSeq(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '+' || r == ';' }) {
		if tok == "and" {
			continue
		}
		if !isID(tok) {
			return false
		}
		n++
	}
	return n > 0
}

// cite gives the finding of the block the IDs an item of it cites, and
// indexes the finding by its own ID (themes).
func (r *reader) cite(text string) {
	th := &r.out[r.block]
	if r.themes == nil {
		r.themes = map[string]int{}
	}
	if id := th.Cites; th.items == 0 && len(id) == 1 && strings.HasPrefix(th.Title, id[0]+".") {
		// Its own number ("**F1. Title**"), before the IDs of its items;
		// an agent's ID it cites ("**NET-1: Title**") is no number of its
		// own.
		r.themes[id[0]] = r.block
	}
	th.items = th.Line
	ids, _ := citations(asideRe.ReplaceAllString(text, " "))
	if len(ids) > 0 {
		th.attrib = append(th.attrib, attribution{ids: ids})
		th.Cites = appendNew(th.Cites, ids...)
	}
}

// countLineRe matches a line that gives the count of the finding above
// it, and nothing else: "Convergence: 3/4 agents",
// "**Convergence score: 3/4.** …".
var countLineRe = regexp.MustCompile(`(?i)^(?:\*\*|__)?convergence(?:\s+score)?(?:\*\*|__)?\s*:`)

// restate reads a line under a finding that states its count
// (countLineRe): a claim of that count about the finding above, at its own
// line, with the agents and IDs the finding has been given so far. The
// finding's own line makes no count claim of it: a synthesis that puts
// its count on a line of its own claims it there. The finding's block
// goes on after it.
func (r *reader) restate(text, t string) bool {
	if !countLineRe.MatchString(text) {
		return false
	}
	// Counted as an attribution field's value is (parseAttribution).
	_, value, _ := strings.Cut(strings.NewReplacer("**", "", "__", "").Replace(text), ":")
	n, of := counts(value + " agents")
	if n == 0 {
		n, of = counts(value)
	}
	tracks := false
	if n == 0 {
		n, of = trackCount(text)
		tracks = n > 0
	}
	if n == 0 {
		return false
	}
	// The agents and IDs it names ("Convergence: 2/3 (fd-a, fd-b)") are
	// the finding's, as an attribution field's are.
	if isField(text) {
		_, value := fieldParts(text)
		a := parseAttribution(value)
		a.Count, a.Of = 0, 0 // given below
		r.attach(a)
	}
	th := &r.out[r.block]
	if th.Count == 0 {
		// The finding counts its agents on this line: a count it claims
		// (a severity is judged knowing it), judged here, not there.
		th.Count, th.Of, th.tracks, th.countLine = n, of, tracks, r.n
	}
	c := *th
	c.Count, c.Of, c.tracks, c.countLine = n, of, tracks, 0
	c.Severity, c.quotes, c.prose, c.restates = "", false, false, th.Line
	// What the finding's block says after this line is said of it too
	// (claimsAndProse).
	r.restated = append(r.restated, [2]int{len(r.out), r.block})
	block := r.block
	r.add(c, t)
	// Not a row of a counting heading's "who said what" list: it speaks
	// for the finding above, which is one already (judgeHeads).
	r.out[len(r.out)-1].head = nil
	r.block = block
	return true
}

// proseNameRe finds words that may name an agent in prose: hyphenated
// ("Launch-wedge", "fd-safety"), in backticks, or an acronym of letters
// joined by a symbol ("A&R").
var proseNameRe = regexp.MustCompile("`([A-Za-z][A-Za-z0-9_-]*)`|\\b([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)+|[A-Z](?:[&/][A-Z])+)\\b")

// proseNames returns the words of a text that may name agents, once each.
func proseNames(t string) []string {
	var names []string
	for _, m := range proseNameRe.FindAllStringSubmatch(t, 32) {
		names = appendNew(names, m[1]+m[2])
	}
	return names
}

// paragraph reads a line of prose: a bold lead-in that states a finding
// (**[P1-A]** Title, **fd-a NEW-P0: Title**) is a claim; an attribution
// line (**Sources:** …, *fd-a*) belongs to the claim above; the rest is
// body text of the claim above, or context.
func (r *reader) paragraph(t string) {
	if g, ok := boldGroup(t); ok {
		r.group, r.groupLvl = g, -1
		r.block = -1
		return
	}
	if r.block >= 0 && r.restate(t, t) {
		return
	}
	if strings.HasPrefix(t, "**") || strings.HasPrefix(t, "__") {
		if isField(t) {
			r.field(t)
			return
		}
		if label, _ := fieldParts(t); label != "" && r.block >= 0 && r.out[r.block].numbered {
			// "**Blocker:** Depends on P1 (mutation store)" under
			// "**2.4: …**": a field of the numbered finding, whatever
			// its label's word.
			r.field(t)
			return
		}
		if c, ok := itemClaim(t, false); ok {
			if c.Severity == "" {
				c.Severity = r.group
			}
			r.add(c, t)
			r.block = len(r.out) - 1
			return
		}
		if c, ok := r.numberedBold(t); ok {
			r.add(c, t)
			r.block = len(r.out) - 1
			return
		}
	}
	if r.block >= 0 {
		if a, ok := italicAttribution(t); ok {
			r.attach(a)
			return
		}
		c := &r.out[r.block]
		if len(c.body) < maxBody {
			c.body = clipTo(c.body+" "+t, maxBody)
		}
	}
}

// ownNumberRe reads the synthesis's own number before a finding's title
// in a bold line: "1.6: ", "2.5. ", "3) ".
var ownNumberRe = regexp.MustCompile(`^\d{1,2}(?:\.\d{1,2})*[:.)]\s+`)

// numberedBold reads a line that is one bold span opening with the
// synthesis's own number ("**1.6: Create a periodic snapshot**") under a
// severity group heading ("#### P2 Findings"): a finding of that group,
// numbered, the fields under it its own. Elsewhere, or a bold span
// with prose after it, it is no claim by this rule.
//
// Anywhere, such a line, or one opening with the synthesis's own ID
// ("**AO-SA-1: Atomic task claim**"), is a finding when its first field
// rates it ("- **Priority:** P1 (unblocks …)"): the severity is the
// field's.
func (r *reader) numberedBold(t string) (Claim, bool) {
	b, after, ok := leadBold(t)
	if !ok || after != "" {
		return Claim{}, false
	}
	fieldSev, rated := r.ratedBelow()
	numbered := ownNumberRe.MatchString(b)
	tok, _ := splitToken(b)
	if !(numbered && (r.group != "" || rated)) && !(rated && strings.HasSuffix(tok, ":") && isID(trimTok(tok))) {
		return Claim{}, false
	}
	c, ok := itemClaim(t, true)
	if !ok {
		return Claim{}, false
	}
	c.Title = strings.TrimSpace(ownNumberRe.ReplaceAllString(c.Title, ""))
	if c.Title == "" || !hasKeyword(c.Title) {
		return Claim{}, false
	}
	c.numbered = true
	switch {
	case rated:
		c.Severity = fieldSev
	case c.Severity == "":
		c.Severity = r.group
	}
	return c, true
}

// severityFieldRe reads a finding's rating field: "- **Priority:** P1
// (unblocks …)", "**Severity**: High".
var severityFieldRe = regexp.MustCompile(`^(?:[-*+]\s+)?(?:\*\*|__)?(?i:priority|severity)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.+)$`)

// ratedBelow returns the severity the first line under the one just read
// gives it, when that line is a rating field (severityFieldRe) whose value
// opens with a severity ("P1 (unblocks scheduler reliability)").
func (r *reader) ratedBelow() (parse.Severity, bool) {
	for p := r.pos; p <= len(r.text); {
		l, next := r.lineAt(p)
		t := strings.TrimSpace(l)
		p = next
		if t == "" {
			continue
		}
		m := severityFieldRe.FindStringSubmatch(t)
		if m == nil {
			return "", false
		}
		if sev, ok := parse.SeverityValue(m[1], true); ok {
			return sev, true
		}
		if sev, ok := parse.SeverityWord(trimTok(firstWord(m[1]))); ok {
			return sev, true
		}
		return "", false
	}
	return "", false
}

// detail adds a detail item to the body of the claim whose block this is.
func (r *reader) detail(text string) {
	if r.block >= 0 {
		if c := &r.out[r.block]; len(c.body) < maxBody {
			c.body = clipTo(c.body+" "+text, maxBody)
		}
	}
}

// field reads a field of a finding ("**Sources:** fd-a (P0), fd-b"): an
// attribution field gives the claim above its agents, IDs and counts.
func (r *reader) field(text string) {
	if r.block < 0 {
		return
	}
	label, value := fieldParts(text)
	if !isAttributionField(label) {
		r.detail(value)
		return
	}
	c := parseAttribution(value)
	r.attach(c)
}

// attach merges what an attribution line says into the claim of the block.
func (r *reader) attach(a Claim) {
	c := &r.out[r.block]
	c.Agents = appendNew(c.Agents, a.Agents...)
	c.Cites = appendNew(c.Cites, a.Cites...)
	c.attrib = append(c.attrib, a.attrib...)
	if c.Count == 0 {
		c.Count, c.Of = a.Count, a.Of
	}
	c.FileRefs = appendNew(c.FileRefs, a.FileRefs...)
}

// endBoldGroup closes a group opened by a bold line at the blank line
// after its list.
func (r *reader) endBoldGroup() {
	r.group, r.groupLvl = "", 0
}

// tableRow reads a table row: the header when no table is open (and the
// next line is a separator), else a row.
func (r *reader) tableRow(t string) {
	if r.table == nil {
		if r.pos <= len(r.text) {
			if sep, after := r.lineAt(r.pos); isSeparatorRow(sep) {
				r.table = newTable(cells(t))
				r.pos, r.n = after, r.n+1 // the separator row
			}
		}
		return
	}
	if c, ok := r.table.row(cells(t), r.group); ok {
		if k, ok := r.themes[c.ID]; ok && len(c.Cites) == 1 {
			// "| F1 | … | 3/4 |": the synthesis's own finding F1, which
			// cites the IDs that bear it out.
			th := r.out[k]
			c.Cites = appendNew(c.Cites, th.Cites...)
			c.attrib = append(c.attrib, th.attrib...)
			c.items = th.items
		}
		r.add(c, t)
	}
	r.block = -1
}

// add appends a claim, with its line and text.
func (r *reader) add(c Claim, t string) {
	c.Line, c.Text, c.head = r.n, clip(t), r.head
	r.out = append(r.out, c)
}

// clip bounds s to maxText bytes, at a rune boundary.
func clip(s string) string { return clipTo(s, maxText) }

func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// heading returns the level and text of an ATX heading, or 0.
func heading(t string) (int, string) {
	lvl := 0
	for lvl < len(t) && lvl < 7 && t[lvl] == '#' {
		lvl++
	}
	if lvl == 0 || lvl > 6 || (lvl < len(t) && t[lvl] != ' ' && t[lvl] != '\t') {
		return 0, ""
	}
	text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[lvl:]), "#"))
	return lvl, text
}

var (
	listRe      = regexp.MustCompile(`^(?:[-*+]|\d{1,4}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$`)
	separatorRe = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
)

// listItem returns the text of a bullet, numbered item or checkbox.
func listItem(t string) (string, bool) {
	m := listRe.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	return m[1], true
}

func isSeparatorRow(s string) bool { return separatorRe.MatchString(strings.TrimSpace(s)) }

// cells splits a table row into trimmed cells.
func cells(t string) []string {
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	parts := strings.Split(t, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// findingsWordRe finds the word "findings" in a heading.
var findingsWordRe = regexp.MustCompile(`(?i)\bfindings?\b`)

// skippedSection reports whether a heading starts a section whose items are
// not findings: improvements, verdicts, the individual agent reports, the
// bus timeline, actions and recommendations, files and costs, praise.
func skippedSection(text string) bool {
	n := parse.Normalize(numberRe.ReplaceAllString(strings.TrimSpace(strings.ReplaceAll(text, "**", "")), ""))
	for _, w := range []string{"improvement", "agent report", "individual agent", "individual report", "timeline",
		"heat map", "recommended", "recommendation", "next step", "fix sequence", "action", "token saving",
		"what works", "worth preserving", "files reviewed", "files referenced",
		"files affected", "severity tally", "severity count", "severity summary"} {
		// At the start of a word: "Actions" and "Next steps", not
		// "Reaction Round".
		if strings.Contains(" "+n, " "+w) {
			return true
		}
	}
	for _, w := range []string{"verdict summary", "verdicts", "agent summar", "nice to have", "files", "positive", "strength", "implementation priority",
		"implementation notes", "cost", "discourse", "sycophancy", "beads", "comparison"} {
		if strings.HasPrefix(n, w) {
			return true
		}
	}
	return false
}

// groupHeading reports whether a heading of a synthesis is a severity
// group, and which: parse.GroupHeading, SPEC 2.3's rule 3 as the general
// reader reads a report's headings ("P1 — Should Fix", "Critical Findings
// (P0)", "High Priority Issues"), once the words a synthesis adds to a
// group's heading and a report does not are left out: its selection
// ("Deduplicated", "Remaining", "Key", "(Selected)"), a count in
// parentheses before a note ("P0 Findings (1) — Blocking") and a plural
// level ("P1s"). A P-level the heading writes is the group's: "P1 —
// Implementation-Blocking" is the synthesis's P1 group, whose note says
// what P1 means to it, not a P0 group. Of several ("Critical Findings
// (P0/P1)", "P0-P1"), the least severe: a claim under it says no more
// than that, and is raised only if that is above its agents'.
func groupHeading(text string) (parse.Severity, bool) {
	t := synthGroupRe.ReplaceAllString(text, " ")
	t = pluralLevelRe.ReplaceAllString(t, "$1")
	sev, ok := parse.GroupHeading(t)
	if !ok {
		return "", false
	}
	best := parse.Severity("")
	for _, m := range pLevelRe.FindAllString(t, -1) {
		if s, _ := parse.SeverityWord(m); best == "" || s.Rank() > best.Rank() {
			best = s
		}
	}
	if best != "" {
		return best, true
	}
	return sev, true
}

var (
	// synthGroupRe matches what a synthesis adds to a severity group's
	// heading: its selection and a count in parentheses.
	synthGroupRe = regexp.MustCompile(`(?i)\(\s*(?:\d+(?:\s+[a-z]+)?|selected)\s*\)|\b(?:deduplicated|remaining|key|selected)\b`)
	// pluralLevelRe matches a plural P-level: "P1s".
	pluralLevelRe = regexp.MustCompile(`\b(P[0-3])s\b`)
	// pLevelRe matches a P-level a heading writes.
	pLevelRe = regexp.MustCompile(`\bP[0-3]\b`)
)

// boldGroup reads a bold line that labels a group of findings under it
// ("**Critical (Must Fix):**", "**High (Strong Recommendation):**").
func boldGroup(t string) (parse.Severity, bool) {
	b, after, ok := leadBold(t)
	if !ok || strings.TrimSpace(strings.Trim(after, ":")) != "" {
		return "", false
	}
	return groupHeading(strings.TrimSuffix(strings.TrimSpace(b), ":"))
}

var numberRe = regexp.MustCompile(`^\d{1,3}[.)]\s+`)

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

var (
	// trailingGroupRe: a parenthesised or bracketed group at the end; a
	// severity marker when parse.SeverityValue reads its text.
	trailingGroupRe = regexp.MustCompile(`[(\[]([^()\[\]]{1,40})[)\]]\s*[.:]?\s*$`)
	// inlineMarkerRe: an exact parenthesised or bracketed P-level anywhere,
	// or one that opens a parenthesised list: "(P0, 3/5 agents)".
	inlineMarkerRe = regexp.MustCompile(`[(\[]\s*(P[0-3])\s*(?:[)\]]|[,;:]\s)`)
	// sevPrefixIDRe: an ID whose prefix is a severity (P1-3, P0.2).
	sevPrefixIDRe = regexp.MustCompile(`^(P[0-3])[-.][A-Za-z0-9]{1,6}$`)
	// sevInIDRe: a P-level inside an ID (NEW-P0, SEC-P1-2), SPEC §2.3.
	sevInIDRe = regexp.MustCompile(`(?:^|[-_.])(P[0-3])(?:$|[-_.])`)
)

// trailingMarker reads a severity marker in parentheses or brackets at
// the end of a title ("Token reuse (High)", "… [P1]", "… (Must fix)"), by
// the vocabulary of SPEC 2.3 (parse.SeverityValue, in a severity
// position).
func trailingMarker(s string) (parse.Severity, bool) {
	m := trailingGroupRe.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return parse.SeverityValue(m[1], true)
}

// idSeverity returns the severity an ID carries: its P-level prefix (P1-3)
// or a P-level part (NEW-P0, SEC-P1-2).
func idSeverity(id string) (parse.Severity, bool) {
	if m := sevInIDRe.FindStringSubmatch(id); m != nil {
		return parse.Severity(m[1]), true
	}
	return "", false
}

// leadMarker reads a severity marker (and an ID) at the start of s. It
// returns the rest of s after them. Severity words count only when marked
// (brackets, bold, parentheses, capitals, a colon): "High memory use" is no
// marker, "HIGH: memory use" and "[High] memory use" are.
func leadMarker(s string) (id string, sev parse.Severity, rest string, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(numberRe.ReplaceAllString(s, ""))
	tok, after := splitToken(s)
	if sev, ok := tokenSeverity(tok); ok {
		rest = after
		// "[P1] AR-001: Title", "P1 — AR-001 Title"
		r := trimLead(rest)
		if t2, a2 := splitToken(r); parse.IsFindingID(trimTok(t2)) && !isSeverityWord(trimTok(t2)) {
			id, rest = trimTok(t2), a2
		}
		return id, sev, trimLead(rest), true
	}
	tt := trimTok(tok)
	if parse.IsFindingID(tt) {
		if sev, ok := idSeverity(tt); ok {
			return tt, sev, trimLead(moreIDs(after)), true
		}
	}
	if parse.IsFindingID(tt) || isNumber(tt) {
		if t2, a2 := splitToken(trimLead(after)); t2 != "" {
			if sev, ok := tokenSeverity(t2); ok {
				return tt, sev, trimLead(a2), true
			}
		}
	}
	return "", "", s, false
}

// moreIDs drops the IDs that follow a claim's first one ("/ DO-01 — …",
// "+ Q-03: …"): the title comes after them. citations reads them.
func moreIDs(s string) string {
	for {
		t := strings.TrimSpace(s)
		if t == "" || !strings.ContainsRune("/+,&", rune(t[0])) {
			return s
		}
		tok, rest := splitToken(t[1:])
		if !isID(trimTok(tok)) {
			return s
		}
		s = rest
	}
}

// splitToken cuts s at its first space.
func splitToken(s string) (string, string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], strings.TrimSpace(s[i:])
	}
	return s, ""
}

// trimTok drops the decoration around a token.
func trimTok(tok string) string {
	return strings.Trim(tok, "[]()*_`:.,;—–-")
}

// trimLead drops separators left at the start of a title.
func trimLead(s string) string {
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), ":—–-|*_ "))
}

func isSeverityWord(w string) bool {
	_, ok := parse.SeverityWord(w)
	return ok
}

// tokenSeverity reads one token as a severity marker.
func tokenSeverity(tok string) (parse.Severity, bool) {
	tt := trimTok(tok)
	if tt == "" {
		return "", false
	}
	sev, ok := parse.SeverityWord(tt)
	if !ok {
		if strings.ContainsAny(tok, "[(") {
			// "[Important]", "(must-fix)": brackets are a severity
			// position, where more of the vocabulary counts.
			return parse.SeverityValue(tt, true)
		}
		return "", false
	}
	if parse.IsPLevel(tt) {
		return sev, tt[0] == 'P'
	}
	// A severity word: only when marked.
	marked := tt == strings.ToUpper(tt) || strings.ContainsAny(tok, "[(*_") || strings.HasSuffix(tok, ":")
	return sev, marked
}

// itemClaim reads the claim of a heading, list item or bold lead-in. bare
// accepts a text without any marker or count (an item under a group
// heading).
func itemClaim(text string, bare bool) (Claim, bool) {
	var c Claim
	t := strings.TrimSpace(text)
	var title string
	if bold, after, ok := leadBold(t); ok {
		if agent, sev, pid, rest, ok := agentLeadID(bold); ok {
			// "**fd-a (P0):** quote", "**fd-a (P0-2):** quote", "**fd-a NEW-P0: Title**"
			c.Agents, c.Severity, c.ID = []string{agent}, sev, pid
			id, s2, r2, ok := leadMarker(rest)
			if ok {
				c.ID, rest = id, r2
				if c.Severity == "" {
					c.Severity = s2
				}
			}
			title = rest
			if strings.TrimSpace(title) == "" {
				title = after
			}
			c.attrib = append(c.attrib, attribution{label: agent, sev: c.Severity, ids: nonEmpty(c.ID)})
		} else if id, sev, rest, ok := leadMarker(bold); ok {
			c.ID, c.Severity, title = id, sev, rest
			if title == "" {
				title = after
			}
		} else if isLabel(bold) {
			// "**3.** P1: Title", "**SAF-01** Title (3/4 agents)"
			c.ID = trimTok(bold)
			if id, sev, rest, ok := leadMarker(after); ok {
				c.Severity, title = sev, rest
				if id != "" {
					c.ID = id
				}
			} else {
				title = after
			}
			if s, ok := idSeverity(c.ID); ok && c.Severity == "" {
				c.Severity = s
			}
		} else {
			title = bold
		}
	} else if agent, sev, rest, ok := agentLead(t); ok {
		// "fd-a: what it said", "fd-a (P1): what it said"
		c.Agents, c.Severity, title = []string{agent}, sev, rest
		c.attrib = append(c.attrib, attribution{label: agent, sev: sev})
	} else if id, sev, rest, ok := leadMarker(t); ok {
		c.ID, c.Severity, title = id, sev, rest
		if b, _, ok := leadBold(title); ok {
			title = b
		}
	} else {
		title = t
	}
	if c.Severity == "" {
		if sev, ok := trailingMarker(strings.ReplaceAll(title, "**", "")); ok {
			c.Severity = sev
		} else if m := inlineMarkerRe.FindStringSubmatch(t); m != nil {
			c.Severity = parse.Severity(m[1])
		}
	}
	c.Count, c.Of = counts(t)
	if c.Count == 0 {
		c.Count, c.Of = trackCount(t)
		c.tracks = c.Count > 0
	}
	c.Agents = appendNew(c.Agents, namedAgents(t)...)
	for _, m := range parenAgentsRe.FindAllStringSubmatch(t, 16) {
		if names := agentList(m[1]); len(names) > 0 && strings.Contains(m[1], "-") {
			c.Agents = appendNew(c.Agents, names...)
		}
	}
	// "(fd-billing BIL-1, fd-ops)", "(AUTH-1, fd-auth)": who, and their IDs.
	for _, m := range parenGroupRe.FindAllStringSubmatch(t, 16) {
		if !kebabRe.MatchString(m[1]) {
			continue
		}
		a := parseAttribution(m[1])
		for _, name := range a.Agents {
			if agentNameRe.MatchString(name) && strings.Contains(name, "-") {
				c.Agents = appendNew(c.Agents, name)
			}
		}
	}
	// "(Queue-Health F1)", "(Cache-Coherence F2,
	// Retry-Policy F3)", "— Cache Coherence + API Surface":
	// agents named by label, with the IDs they give each.
	for _, a := range parenLabels(t) {
		c.Agents = appendNew(c.Agents, a.label)
		c.attrib = append(c.attrib, a)
	}
	// "(fd-architecture: 1/5)", "(simplicity + fd-architecture: 2/5)"
	for _, m := range parenCountRe.FindAllStringSubmatch(t, 4) {
		if names := agentList(m[1]); len(names) > 0 {
			c.Agents = appendNew(c.Agents, names...)
		}
		if c.Count == 0 {
			c.Count, c.Of = number(m[2]), number(m[3])
		}
	}
	if c.ID != "" {
		c.Cites = append(c.Cites, c.ID)
		if len(c.attrib) == 0 || len(c.attrib[0].ids) == 0 {
			c.attrib = append(c.attrib, attribution{ids: []string{c.ID}, lead: true})
		}
	}
	cites, att := citations(t)
	c.Cites = appendNew(c.Cites, cites...)
	for _, a := range att {
		if a.label == "" {
			// IDs a label above gives an agent are that agent's.
			a.ids = slices.DeleteFunc(a.ids, func(id string) bool { return labelledID(c.attrib, id) })
			if len(a.ids) == 0 {
				continue
			}
		}
		if a.label == "" && c.ID != "" {
			// The claim's own label is not a citation of itself.
			a.ids = slices.DeleteFunc(a.ids, func(id string) bool { return id == c.ID })
			if len(a.ids) == 0 {
				continue
			}
		}
		c.attrib = append(c.attrib, a)
	}
	c.FileRefs = fileRefs(t)
	// "**D-06: Title**", "**PER-03 — Title**": an ID before the title,
	// its own label or the agent's it cites.
	if c.ID == "" {
		tok, rest := splitToken(strings.ReplaceAll(title, "**", ""))
		dash := strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "- ")
		if (strings.HasSuffix(tok, ":") || dash) && isID(trimTok(tok)) && trimLead(rest) != "" {
			c.ID, title = trimTok(tok), trimLead(rest)
			c.Cites = appendNew(c.Cites, expandID(c.ID)...)
			if s, ok := idSeverity(c.ID); ok && c.Severity == "" {
				c.Severity = s
			}
			for i := range c.attrib {
				if c.attrib[i].label == "" {
					c.attrib[i].ids = slices.DeleteFunc(c.attrib[i].ids, func(id string) bool { return id == c.ID })
				}
			}
			c.attrib = append(c.attrib, attribution{ids: expandID(c.ID), lead: true})
		}
	}
	c.Title = cleanTitle(labelPrefix(convPrefixRe.ReplaceAllString(title, "")))
	if !hasKeyword(c.Title) {
		return c, false
	}
	if c.Severity == "" && c.Count == 0 && !bare && len(c.attrib) == 0 {
		return c, false
	}
	if c.Severity == "" && c.Count == 0 && !bare && !citesAgent(c) && !hasCitation(c) {
		return c, false
	}
	// Labels after the claim's last dash name its agents, but make no
	// claim of a line that states none otherwise, and one label alone
	// names an agent only on a claim that gives a severity: "# Cache
	// Review — Synthesis Report" is a document's title.
	if ls := dashLabels(t); len(ls) > 1 || len(ls) == 1 && c.Severity != "" {
		for _, a := range ls {
			c.Agents = appendNew(c.Agents, a.label)
			c.attrib = append(c.attrib, a)
		}
	}
	return c, true
}

// labelAttributions reads the agents a claim names by label, not by name:
// a parenthesised list whose every part is a label of capitalised words
// and the IDs it gives that agent ("(Queue-Health F1)",
// "(Cache-Coherence F2, Retry-Policy F3)"), and a list of
// labels after the claim's last dash ("— Cache Coherence + API
// Surface"). Check resolves each label to an agent of the run or drops it.
func labelAttributions(t string) []attribution {
	return append(parenLabels(t), dashLabels(t)...)
}

// parenLabels reads the labelled parenthesised lists of labelAttributions.
func parenLabels(t string) []attribution {
	var out []attribution
	plain := strings.ReplaceAll(t, "**", "")
	for _, m := range parenGroupRe.FindAllStringSubmatch(plain, 16) {
		var group []attribution
		for _, part := range splitAttribution(m[1]) {
			fs := strings.Fields(part)
			if len(fs) < 2 || len(fs) > 4 {
				group = nil
				break
			}
			ids := expandID(trimTok(fs[len(fs)-1]))
			if len(ids) == 0 {
				ids = expandID(strings.SplitN(trimTok(fs[len(fs)-1]), "-", 2)[0])
			}
			label := strings.Join(fs[:len(fs)-1], " ")
			if len(ids) == 0 || !agentLabelRe.MatchString(label) || isSeverityWord(label) {
				group = nil
				break
			}
			group = append(group, attribution{label: label, ids: ids})
		}
		out = append(out, group...)
	}
	return out
}

// dashLabels reads the labels after a claim's last dash of
// labelAttributions.
func dashLabels(t string) []attribution {
	var out []attribution
	plain := strings.ReplaceAll(t, "**", "")
	if i := strings.LastIndexAny(plain, "—–"); i > 0 && strings.HasPrefix(plain[i-1:], " ") {
		_, size := utf8.DecodeRuneInString(plain[i:])
		tail := strings.TrimSpace(plain[i+size:])
		if labels := labelList(tail); len(labels) > 0 {
			for _, l := range labels {
				if !isSeverityWord(l) {
					out = append(out, attribution{label: l})
				}
			}
		}
	}
	return out
}

// labelledID reports whether an attribution gives an ID to a labelled
// agent.
func labelledID(atts []attribution, id string) bool {
	for _, a := range atts {
		if a.label != "" && slices.Contains(a.ids, id) {
			return true
		}
	}
	return false
}

// citesAgent reports whether a claim attributes itself to an agent.
func citesAgent(c Claim) bool {
	for _, a := range c.attrib {
		if a.label != "" {
			return true
		}
	}
	return false
}

// hasCitation reports whether a claim cites a finding ID other than its own
// label.
func hasCitation(c Claim) bool {
	for _, a := range c.attrib {
		if len(a.ids) > 0 && !a.lead {
			return true
		}
	}
	return false
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// appendNew appends the strings of add not yet in list.
func appendNew(list []string, add ...string) []string {
	for _, s := range add {
		found := false
		for _, x := range list {
			if x == s {
				found = true
				break
			}
		}
		if !found {
			list = append(list, s)
		}
	}
	return list
}

// agentLead reads an agent name at the start of a lead-in ("fd-a (P0):",
// "fd-a NEW-P0:", "fd-a:"): the agent, a severity, and what follows.
func agentLead(s string) (agent string, sev parse.Severity, rest string, ok bool) {
	agent, sev, _, rest, ok = agentLeadID(s)
	return
}

// agentLeadID is agentLead with the ID the lead-in gives ("fd-a (P0-2):").
func agentLeadID(s string) (agent string, sev parse.Severity, id, rest string, ok bool) {
	s = strings.TrimSpace(s)
	tok, after := splitToken(s)
	name := strings.Trim(tok, "*_`:")
	if !agentNameRe.MatchString(name) || !strings.ContainsAny(name, "-_") {
		return "", "", "", s, false
	}
	rest = after
	if strings.HasSuffix(tok, ":") {
		return name, "", "", trimLead(rest), true
	}
	// "(P0):" or "(P0, 3 agents):"
	if strings.HasPrefix(rest, "(") {
		if j := strings.Index(rest, ")"); j > 0 {
			inner := rest[1:j]
			for _, w := range strings.FieldsFunc(inner, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
				if s, ok := parse.SeverityWord(w); ok && sev == "" {
					sev = s
				} else if isID(w) && id == "" {
					id = w
				}
			}
			if s2, ok := idSeverity(id); ok && sev == "" {
				sev = s2
			}
			rest = strings.TrimSpace(rest[j+1:])
			if strings.HasPrefix(rest, ":") || rest == "" || strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "-") {
				return name, sev, id, trimLead(rest), true
			}
			return "", "", "", s, false
		}
	}
	// "fd-a NEW-P0: Title"
	if t2, _ := splitToken(rest); strings.HasSuffix(t2, ":") && parse.IsFindingID(trimTok(t2)) {
		return name, "", "", rest, true
	}
	return "", "", "", s, false
}

// hasKeyword reports whether a title holds a word to match on: "+ P1-C"
// or "2." is no claim.
func hasKeyword(title string) bool {
	return len(parse.Keywords(parse.Normalize(title))) > 0
}

// isLabel reports whether a bold lead-in is only a number or ID ("3.").
func isLabel(s string) bool {
	s = trimTok(strings.TrimSpace(s))
	return isNumber(s) || parse.IsFindingID(s)
}

// isNumber reports whether s is one or more ASCII digits.
func isNumber(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// leadBold returns the text of a bold span at the start of t and what
// follows it.
func leadBold(t string) (string, string, bool) {
	for _, d := range []string{"**", "__"} {
		if strings.HasPrefix(t, d) {
			if j := strings.Index(t[2:], d); j >= 0 {
				return strings.TrimSpace(t[2 : 2+j]), strings.TrimSpace(t[2+j+2:]), true
			}
		}
	}
	return "", "", false
}

// attributionFields are the fields of a finding that say who reported it.
var attributionFields = map[string]bool{
	"source": true, "sources": true, "agent": true, "agents": true, "attribution": true,
	"reported by": true, "flagged by": true, "found by": true, "raised by": true,
	"confirmed by": true, "convergence": true, "who flagged it": true, "reviewers": true,
}

// isAttributionField reports whether a field's label says who reported
// the finding: one of attributionFields, or a label of at most three
// words that names the agents ("Agents reporting", "Reporting agents",
// "Source agents") or ends in "by" ("Identified by", "Surfaced by").
func isAttributionField(label string) bool {
	n := parse.Normalize(label)
	if attributionFields[n] {
		return true
	}
	ws := strings.Fields(n)
	if len(ws) < 2 || len(ws) > 3 {
		return false
	}
	if ws[len(ws)-1] == "by" {
		return true
	}
	for _, w := range ws {
		if w == "agent" || w == "agents" || w == "reviewers" {
			return true
		}
	}
	return false
}

// commonFields are the labels of a finding's fields.
var commonFields = map[string]bool{
	"location": true, "fix": true, "impact": true, "evidence": true, "recommendation": true,
	"severity": true, "status": true, "file": true, "files": true, "effort": true, "risk": true,
	"why": true, "current code": true, "rationale": true, "note": true, "notes": true,
	"example": true, "problem": true, "issue": true, "description": true, "details": true,
}

// isField reports whether an item or line is a field of a finding:
// "**Location**: …", "**Fix:** …", "Severity: P1" — a short label and a
// colon, the label holding no severity, ID or agent name.
func isField(text string) bool {
	label, _ := fieldParts(text)
	if label == "" {
		return false
	}
	if len(strings.Fields(label)) > 4 {
		return false
	}
	for _, w := range strings.Fields(label) {
		w = trimTok(w)
		if isSeverityWord(w) || parse.IsFindingID(w) || (agentNameRe.MatchString(w) && strings.Contains(w, "-")) {
			return false
		}
	}
	return true
}

// fieldLabelRe reads "**Label:** value", "**Label**: value" and "Label: value".
var fieldLabelRe = regexp.MustCompile(`^(?:\*\*|__)?([A-Za-z][A-Za-z /'&-]{0,40}?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*)$`)

// fieldParts splits a field into its label and value ("" label: no field).
func fieldParts(text string) (string, string) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "**") && !strings.HasPrefix(t, "__") {
		return "", ""
	}
	if b, _, ok := leadBold(t); ok {
		if _, rest, colon := strings.Cut(b, ":"); colon && strings.TrimSpace(rest) != "" {
			// "**Over-commitment: 3 capabilities at once** (fd-a)": the
			// bold runs past its colon, a title, not a field's label.
			return "", ""
		}
	}
	m := fieldLabelRe.FindStringSubmatch(t)
	if m == nil {
		return "", ""
	}
	return strings.TrimSpace(m[1]), m[2]
}

// parseAttribution reads an attribution value ("fd-a (P0), fd-b (Concern
// 1)", "fd-murano: MUR-1, MUR-2 | 2/4 agents") into a claim's agents,
// citations and count.
func parseAttribution(v string) Claim {
	var c Claim
	c.Count, c.Of = counts(v + " agents")
	if c.Count == 0 {
		c.Count, c.Of = counts(v)
	}
	for _, part := range splitAttribution(v) {
		name, sev, ids := attributionPart(part)
		if name != "" {
			c.Agents = appendNew(c.Agents, name)
		}
		c.Cites = appendNew(c.Cites, ids...)
		if name != "" || len(ids) > 0 {
			c.attrib = append(c.attrib, attribution{label: name, ids: ids, sev: sev})
		}
	}
	return c
}

// splitAttribution splits a list of attributions at commas, semicolons,
// "+" and "and" outside parentheses.
func splitAttribution(v string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '(', '[':
			depth++
		case ')', ']':
			if depth > 0 {
				depth--
			}
		case ',', ';', '+', '|':
			if depth == 0 {
				parts = append(parts, v[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, v[start:])
	var out []string
	for _, p := range parts {
		for q := range strings.SplitSeq(p, " and ") {
			if q = strings.TrimSpace(q); q != "" {
				out = append(out, q)
			}
		}
	}
	return out
}

// attributionPart reads one attribution: an agent label, a severity and
// IDs in parentheses or after a colon ("fd-a (P0)", "fd-murano: MUR-1",
// "fd-b (P0 findings 1 and 2)"), or IDs alone.
func attributionPart(p string) (name string, sev parse.Severity, ids []string) {
	p = strings.Trim(strings.TrimSpace(p), "*_`.")
	head, tail := p, ""
	if i := strings.IndexAny(p, "(:"); i >= 0 {
		head, tail = strings.TrimSpace(p[:i]), p[i:]
	}
	head = strings.Trim(head, "*_` ")
	for _, w := range strings.FieldsFunc(tail, func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == ':' || r == '/' || r == ';'
	}) {
		w = trimTok(w)
		if s, ok := parse.SeverityWord(w); ok && sev == "" {
			sev = s
			continue
		}
		if parse.IsFindingID(w) {
			ids = append(ids, expandID(w)...)
		}
	}
	if parse.IsFindingID(head) && !strings.ContainsAny(head, " ") && strings.ToUpper(head) == head {
		return "", sev, append(expandID(head), ids...)
	}
	if head != "" && len(head) <= 60 && !strings.ContainsAny(head, ".!?") && len(strings.Fields(head)) <= 4 {
		// A name or a short label ("fd-a", "Dogon", "fd-quality"), possibly
		// followed by its ID ("fd-safety SEC-7").
		fs := strings.Fields(head)
		if len(fs) > 1 && parse.IsFindingID(trimTok(fs[len(fs)-1])) {
			ids = append(expandID(trimTok(fs[len(fs)-1])), ids...)
			head = strings.Join(fs[:len(fs)-1], " ")
		}
		if hasLetters(head) && !isCountWord(head) {
			name = head
		}
	}
	return name, sev, ids
}

func hasLetters(s string) bool {
	for _, r := range s {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return true
		}
	}
	return false
}

// isCountWord reports whether a label is a count or a word about agents,
// not a name: "2/4 agents", "all", "agents".
func isCountWord(s string) bool {
	n := parse.Normalize(s)
	if n == "" {
		return true
	}
	for _, w := range strings.Fields(n) {
		if !isNumber(w) && w != "agents" && w != "agent" && w != "all" && w != "both" && w != "of" &&
			w != "independently" && w != "reviewers" && w != "tracks" && w != "track" {
			return false
		}
	}
	return true
}

// italicAttribution reads a line that is only an attribution in italics:
// "*fd-supply-chain*", "*(fd-murano: MUR-1, MUR-2 | 2/4 agents)*",
// "*fd-trading-desk + fd-systems (corroborating)*".
func italicAttribution(t string) (Claim, bool) {
	if !(strings.HasPrefix(t, "*") && strings.HasSuffix(t, "*")) || strings.HasPrefix(t, "**") {
		return Claim{}, false
	}
	inner := strings.TrimSpace(strings.Trim(t, "*_"))
	inner = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(inner, "("), ")"))
	c := parseAttribution(inner)
	for _, a := range c.Agents {
		if !strings.ContainsAny(a, "-_") {
			return Claim{}, false
		}
	}
	return c, len(c.Agents) > 0
}

// labelPrefixRe matches a short numbered label before a colon ("Convergent
// finding 2 (3/3): …", "Convergence Point 1: …"): the title follows it.
var labelPrefixRe = regexp.MustCompile(`^\s*(?:\*\*)?[A-Za-z][A-Za-z -]{0,30}?\s\d{1,3}(?:\s*\([^)]*\))?(?:\*\*)?\s*:\s*(\S.*)$`)

// labelPrefix drops such a label.
func labelPrefix(s string) string {
	if m := labelPrefixRe.FindStringSubmatch(s); m != nil && hasKeyword(m[1]) {
		return m[1]
	}
	return s
}

// titleCutRe finds where a title ends: a dash separator or a parenthesis
// that attributes or counts.
var titleCutRe = regexp.MustCompile(` [—–] | - |\s\((?:\d|[Pp][0-3]\b|[^)]*\bagents?\b)|\s\[[Pp][0-3]\]`)

// cleanTitle reduces a claim text to its title.
func cleanTitle(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = numberRe.ReplaceAllString(strings.TrimSpace(s), "")
	if m := parenAgentsRe.FindStringIndex(s); m != nil && m[0] > 0 && agentList(s[m[0]+1:m[1]-1]) != nil && strings.Contains(s[m[0]:m[1]], "-") {
		s = s[:m[0]] + s[m[1]:]
	}
	if m := titleCutRe.FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]]
	}
	if _, ok := trailingMarker(s); ok {
		s = s[:trailingGroupRe.FindStringIndex(s)[0]]
	}
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "\"'`“”*_:;,."))
	if r := []rune(s); len(r) > maxTitle {
		s = string(r[:maxTitle])
	}
	return s
}

var (
	fractionRe   = regexp.MustCompile(`(?i)\b(\d{1,3})\s*/\s*(\d{1,3})\s+(?:agents?|reviewers?)\b`)
	convPrefixRe = regexp.MustCompile(`(?i)^\s*convergence:?\s*\d{1,3}\s*/\s*\d{1,3}\s*[:—–-]?\s*`)
	convRe       = regexp.MustCompile(`(?i)\bconvergence:?\s*(\d{1,3})\s*/\s*(\d{1,3})\b`)
	parenNRe     = regexp.MustCompile(`(?i)[(\[](?:[^()\[\]]{0,40}?[,;]\s*)?(\d{1,3}|all \d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s+agents?\b`)
	byNRe        = regexp.MustCompile(`(?i)\b(?:confirmed|flagged|found|raised|reported|identified|noted|cited)\s+by\s+(\d{1,3}|all \d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:review\s+)?(?:agents?|reviewers?)\b`)
	nAgentsRe    = regexp.MustCompile(`(?i)\b(two|three|four|five|six|seven|eight|nine|ten|all (?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)|\d{1,2})\s+(?:review\s+)?(?:agents|reviewers)\s+(?:\([^()]{0,120}\)\s+)?(?:independently\s+)?(?:flag(?:ged)?|find|found|identif(?:y|ied)|raised?|report(?:ed)?|noted?|agreed?|converged?|recogni[sz]ed?)\b`)
	ofRe         = regexp.MustCompile(`(?i)\b(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+of\s+(?:the\s+)?(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:review\s+)?(?:agents?|reviewers?)\b`)
	// byOfRe: "flagged by 3 of 5", the agents left unsaid; agentsOfRe:
	// "Agents: 3/5". "Convergence: 3 agents" is not read: held to the
	// count rule on the labelled syntheses, it flagged two claims a
	// careful reader holds grounded for each error it found.
	byOfRe      = regexp.MustCompile(`(?i)\b(?:confirmed|flagged|found|raised|reported|identified|noted|cited)\s+by\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+of\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\b`)
	agentsOfRe  = regexp.MustCompile(`(?i)\b(?:agents|reviewers)\**\s*:\**\s*(\d{1,2})\s*/\s*(\d{1,2})\b`)
	numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
)

func number(s string) int {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.ToLower(s), "all ")))
	if n, ok := numberWords[s]; ok {
		return n
	}
	n, _ := strconv.Atoi(s)
	return n
}

// counts reads a claimed convergence: "3/5 agents", "Convergence 3/5",
// "(2 agents)", "[2 agents]", "confirmed by 3 agents", "2 of 4 agents",
// "three of the five agents", "flagged by 3 of 5", "Agents: 3/5",
// "three agents independently flagged".
func counts(t string) (n, of int) {
	for _, re := range []*regexp.Regexp{fractionRe, convRe, ofRe, byOfRe, agentsOfRe} {
		if m := re.FindStringSubmatch(t); m != nil {
			return number(m[1]), number(m[2])
		}
	}
	for _, re := range []*regexp.Regexp{parenNRe, byNRe, nAgentsRe} {
		if m := re.FindStringSubmatch(t); m != nil {
			return number(m[1]), 0
		}
	}
	return 0, 0
}

// trackCountRe reads a count of tracks: "(3/4 tracks)", "Convergence
// score: 3/4". A review of tracks writes one report per track, or one per
// agent of a track: which, only the run tells (Check).
var trackCountRe = regexp.MustCompile(`(?i)\b(\d{1,2})\s*/\s*(\d{1,2})\s+tracks?\b|\bconvergence\s+score\W{1,6}(\d{1,2})\s*/\s*(\d{1,2})\b`)

// trackCount reads a count of tracks (trackCountRe).
func trackCount(t string) (n, of int) {
	m := trackCountRe.FindStringSubmatch(strings.ReplaceAll(t, "**", ""))
	if m == nil {
		return 0, 0
	}
	return number(m[1] + m[3]), number(m[2] + m[4])
}

// parenCountRe finds a parenthesised count with or without the agents
// that make it: "(2/5)", "(fd-architecture: 1/5)", "(a + fd-b: 2/5)".
var parenCountRe = regexp.MustCompile(`\((?:([a-z][a-z0-9_, +-]*?)\s*:\s*)?(\d{1,2})\s*/\s*(\d{1,2})\)`)

// parenGroupRe finds a parenthesised group; kebabRe an agent-like name in
// it.
var (
	parenGroupRe = regexp.MustCompile(`\(([^()]{1,200})\)`)
	kebabRe      = regexp.MustCompile(`(?:^|[\s,(+])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?:$|[\s,):;+])`)
)

// parenAgentsRe finds a parenthesised list that may name agents:
// "(fd-user-experience, concurrency-reviewer)".
var parenAgentsRe = regexp.MustCompile(`\(([a-z][a-z0-9_, +-]*)\)`)

// agentsRe finds a list of agent names: "(2/3 agents: a, b)", "flagged by
// fd-a, fd-b", "Agents: a, b".
var agentsRe = regexp.MustCompile(`(?i)(?:\bagents?\s*:|\b(?:flagged|found|raised|reported|identified|confirmed)\s+by\s*:?)\s*([^()\n;|]+)`)

// namedAgents returns the agent names a text attributes a claim to. After
// "agents:" or "flagged by" the names may be labels ("Cache Coherence,
// API Surface"): Check resolves them to agents or drops them.
func namedAgents(t string) []string {
	m := agentsRe.FindStringSubmatch(strings.ReplaceAll(t, "**", ""))
	if m == nil {
		return nil
	}
	if names := agentList(m[1]); names != nil {
		return names
	}
	return labelList(m[1])
}

// labelList splits "Cache Coherence, API Surface and Ops" into labels of
// one to four capitalised words each; a list holding anything else is no
// list.
func labelList(s string) []string { return nameList(s, agentLabelRe) }

var agentLabelRe = regexp.MustCompile(`^[A-Z][A-Za-z0-9/&-]*(?: [A-Z][A-Za-z0-9/&-]*){0,3}$`)

// agentList splits "a, b and c" into names that look like agent names
// (lower-case words joined by '-' or '_'); a list holding anything else
// ("three agents independently") is no list.
func agentList(s string) []string { return nameList(s, agentNameRe) }

// nameList splits "a, b and c" into its names, each matching name; nil
// when one does not.
func nameList(s string, name *regexp.Regexp) []string {
	s = strings.NewReplacer(" and ", ",", " & ", ",", " + ", ",", "`", "").Replace(s)
	var names []string
	for p := range strings.SplitSeq(s, ",") {
		p = strings.Trim(strings.TrimSpace(p), ".:*_")
		if p == "" {
			continue
		}
		if !name.MatchString(p) {
			return nil
		}
		names = append(names, p)
	}
	return names
}

var agentNameRe = regexp.MustCompile(`^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$`)

// refRe finds path:line or path:line-line references in a claim.
var refRe = regexp.MustCompile("(?:^|[\\s`(])((?:[A-Za-z0-9_.~@+-]+/)*[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*\\.[A-Za-z][A-Za-z0-9]{0,9}):(\\d{1,7})(?:-(\\d{1,7}))?")

func fileRefs(t string) []string {
	var refs []string
	for _, m := range refRe.FindAllStringSubmatch(t, 8) {
		r := m[1] + ":" + m[2]
		if m[3] != "" {
			r += "-" + m[3]
		}
		refs = append(refs, r)
	}
	return refs
}
