package verify

import (
	"regexp"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// tableCols are the columns of a Markdown table of findings, by what their
// headers name; -1 when absent.
type tableCols struct {
	id, title, severity, agents, agent, file, count int
	// others are the columns no header word names: in a convergence map
	// each is headed by an agent and holds the IDs it gave the finding.
	others []int
	header []string
	// none: the table states no claims (agents and their verdicts, actions).
	none bool
	// byCells: no header names the finding's column; each row's cells
	// decide which holds what (see rowByCells).
	byCells bool
	// agentCols are the columns headed by an agent's name ("fd-gateway"),
	// when two at least are: an agent-column table, whose cells mark the
	// agents that reported each row's finding ("P1", "✓"; "—" for none).
	agentCols []int
}

// newTable reads a table's header row.
func newTable(header []string) *tableCols {
	t := &tableCols{id: -1, title: -1, severity: -1, agents: -1, agent: -1, file: -1, count: -1, header: header}
	verdict := false
	for i, h := range header {
		n := parse.Normalize(strings.ReplaceAll(h, "**", ""))
		switch {
		case n == "verdict" || n == "decision":
			verdict = true
		case n == "action" || n == "fix" || n == "fix complexity" || n == "minimal fix" || n == "lines changed" ||
			n == "status" || n == "type" || n == "rationale" || n == "domain" || n == "domain mechanism" ||
			n == "theme" || n == "specialty" || n == "track" || n == "tier" || n == "section" || n == "category" ||
			n == "blast radius loc" || n == "vision extraction phase" || n == "lens" || n == "new" ||
			n == "dedup" || n == "north star impact" || n == "aspect" || n == "confidence" || n == "impact" ||
			n == "why" || n == "key addition" || n == "notes" || n == "report":
		case n == "" && strings.Contains(h, "#"), n == "id", n == "ref", n == "addition":
			set(&t.id, i)
		case n == "severity" || n == "sev" || n == "priority" || n == "level" || n == "p":
			set(&t.severity, i)
		case n == "agents" || n == "agent s" || n == "flagged by" || n == "reported by" || n == "found by" ||
			n == "source" || n == "sources" || n == "reviewers" || n == "confirmed by" || n == "agents reporting":
			set(&t.agents, i)
		case n == "agent" || n == "reviewer":
			set(&t.agent, i)
		case n == "convergence" || n == "count" || n == "agreement":
			set(&t.count, i)
		case n == "file" || n == "files" || n == "location" || n == "where":
			set(&t.file, i)
		case n == "finding" || n == "title" || n == "issue" || n == "problem" || n == "gap" ||
			n == "risk" || n == "concern" || n == "description" || n == "summary" || n == "findings" ||
			n == "diagnosis" || n == "specific gap" || n == "one line summary" || n == "key finding":
			set(&t.title, i)
		default:
			t.others = append(t.others, i)
		}
	}
	for _, i := range t.others {
		if agentCell(header[i]) != nil && len(agentCell(header[i])) == 1 {
			t.agentCols = append(t.agentCols, i)
		}
	}
	if len(t.agentCols) < 2 {
		t.agentCols = nil
	}
	// A table of agents and their verdicts states no findings.
	t.none = t.title < 0 || (verdict && t.agent >= 0)
	// Headers that name no finding column ("Finding Theme", "Agents
	// Converging"): the rows' cells may still say who said what.
	t.byCells = t.title < 0 && !verdict && t.agent < 0 && len(t.others) > 0
	return t
}

func set(col *int, i int) {
	if *col < 0 {
		*col = i
	}
}

// row reads one table row as a claim; group is the severity of the group
// heading the table stands under.
func (t *tableCols) row(cs []string, group parse.Severity) (Claim, bool) {
	marked := t.markedAgents(cs)
	if t.byCells {
		return rowByCells(cs, group, t.agentCols, marked)
	}
	if t.none || t.title >= len(cs) {
		return Claim{}, false
	}
	cell := func(i int) string {
		if i < 0 || i >= len(cs) {
			return ""
		}
		return cs[i]
	}
	for i, x := range cs {
		if i != t.title && resolvedMark(x) {
			return Claim{}, false // a prior finding, resolved: no claim about the run
		}
	}
	var c Claim
	if id := trimTok(strings.ReplaceAll(cell(t.id), "**", "")); isID(id) {
		c.ID = id
		c.Cites = append(c.Cites, expandID(id)...)
		c.attrib = append(c.attrib, attribution{ids: expandID(id)})
	} else if isNumber(id) {
		c.ID = id
	}
	if t.severity >= 0 {
		// The cell's value ("High", "Must fix", "P1 — blocks release"),
		// else its first token that is a severity.
		if sev, ok := parse.SeverityValue(cell(t.severity), true); ok {
			c.Severity = sev
		} else {
			for _, tok := range strings.Fields(cell(t.severity)) {
				if sev, ok := parse.SeverityWord(trimTok(tok)); ok {
					c.Severity = sev
					break
				}
			}
		}
	}
	title := cell(t.title)
	if b, _, ok := leadBold(title); ok {
		title = b
	}
	if id, sev, rest, ok := leadMarker(title); ok {
		if c.Severity == "" {
			c.Severity = sev
		}
		title = rest
		if id != "" && c.ID == "" {
			c.ID = id
		}
	}
	if isID(trimTok(title)) {
		// "| fd-a | RXN-02 | P0 |": the finding named by its ID alone.
		c.Cites = appendNew(c.Cites, expandID(trimTok(title))...)
	}
	if s, ok := idSeverity(c.ID); ok && c.Severity == "" {
		c.Severity = s // "| **P1-3** | … |": the synthesis's own P1 numbering
	}
	if c.Severity == "" {
		c.Severity = group
	}
	c.Title = cleanTitle(title)
	if t.title >= 0 && isID(trimTok(cell(t.title))) && !hasKeyword(c.Title) {
		c.Title = trimTok(cell(t.title))
	}
	agentText := cell(t.agents)
	if agentText == "" && t.count >= 0 {
		agentText = cell(t.count)
	}
	if a := agentText; a != "" {
		plain := strings.ReplaceAll(a, "**", "")
		c.Count, c.Of = counts(plain + " agents")
		att := parseAttribution(plain)
		if c.Count == 0 {
			f := strings.Fields(plain)
			if n := number(strings.Trim(f[0], "*")); n > 0 && (len(f) == 1 || strings.HasPrefix(strings.ToLower(f[1]), "agent")) {
				c.Count = n
			} else if len(att.Agents) > 0 && (t.agents >= 0 || agentCell(plain) != nil) {
				// Labels counted as agents: under an agents column, or
				// names of agents ("fd-a, fd-b"), not a count column's
				// words ("Single report; high severity").
				c.Count = len(att.Agents)
			}
		}
		if t.agents >= 0 {
			c.Agents = appendNew(c.Agents, att.Agents...)
			c.Cites = appendNew(c.Cites, att.Cites...)
			c.attrib = append(c.attrib, att.attrib...)
		}
	}
	if n := len(t.agentCols); n > 0 && c.Count == 0 && t.count >= 0 && allAgentsRe.MatchString(cell(t.count)) {
		// "All agents agree on the TOCTOU window" in an agent-column
		// table: every agent of its columns.
		c.Count = n
	}
	if t.agents >= 0 && t.count >= 0 {
		if n, of := counts(strings.ReplaceAll(cell(t.count), "**", "") + " agents"); c.Count == 0 {
			c.Count, c.Of = n, of
		} else if c.Of == 0 && n == c.Count {
			c.Of = of // "| 4/4 | fd-a, fd-b, fd-c, fd-d |"
		}
	}
	if a := strings.Trim(strings.ReplaceAll(cell(t.agent), "**", ""), " `"); a != "" && !isCountWord(a) {
		c.Agents = appendNew(c.Agents, a)
		c.attrib = append(c.attrib, attribution{label: a, ids: c.Cites, sev: c.Severity})
	}
	// A cell of agent names alone, whatever its header ("Evidence":
	// "`fd-user-product`"), names the agents that reported it.
	for _, i := range t.others {
		if names := agentCell(cell(i)); names != nil {
			c.Agents = appendNew(c.Agents, names...)
			for _, n := range names {
				c.attrib = append(c.attrib, attribution{label: n})
			}
		}
	}
	for _, a := range marked {
		c.Agents = appendNew(c.Agents, a.label)
		c.attrib = append(c.attrib, a)
	}
	// A column headed by an agent holds the IDs that agent gave it.
	for _, i := range t.others {
		if slices.Contains(t.agentCols, i) {
			continue
		}
		var ids []string
		for _, tok := range strings.FieldsFunc(cell(i), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
			ids = append(ids, expandID(trimTok(tok))...)
		}
		if len(ids) == 0 {
			continue
		}
		label := strings.TrimSpace(strings.ReplaceAll(t.header[i], "**", ""))
		c.Agents = appendNew(c.Agents, label)
		c.Cites = appendNew(c.Cites, ids...)
		c.attrib = append(c.attrib, attribution{label: label, ids: ids})
	}
	c.FileRefs = fileRefs(strings.Join(cs, " "))
	if !hasKeyword(c.Title) && len(c.Cites) == 0 {
		return c, false
	}
	if c.Title == "" {
		return c, false
	}
	if c.Severity == "" && c.Count == 0 && len(c.Cites) == 0 && len(c.Agents) == 0 {
		return c, false
	}
	return c, true
}

// resolvedMark reports whether a cell says its finding is resolved:
// "Resolved", "Fixed", "Fully addressed", "✅".
func resolvedMark(cell string) bool {
	cell = strings.TrimSpace(strings.NewReplacer("**", "", "~~", "", "✅", " resolved ").Replace(cell))
	switch parse.Normalize(cell) {
	case "resolved", "fixed", "fully addressed", "resolved resolved", "resolved fixed":
		return true
	}
	return false
}

// agentCell returns the agent names a cell holds when it holds nothing
// else ("`fd-a`", "fd-a, fd-b", "**fd-a** + fd-b"); nil otherwise.
func agentCell(cell string) []string {
	var names []string
	for _, part := range strings.FieldsFunc(cell, func(r rune) bool { return r == ',' || r == '+' || r == ';' || r == '/' }) {
		part = strings.Trim(strings.TrimSpace(part), "`*_ ")
		if part == "" {
			continue
		}
		if !strings.Contains(part, "-") || !agentNameRe.MatchString(part) || parse.IsFindingID(strings.ToUpper(part)) {
			return nil
		}
		names = append(names, part)
	}
	return names
}

// rowByCells reads a row of a table whose headers name no finding column
// by its cells: a cell of finding IDs alone ("DEC-1, PER-1, RES-2") cites
// them, a cell of agent names alone names the agents, a cell that counts
// agents ("High (3 agents)", "3/5") gives the count; the first other cell
// with a word of substance is the title. A row is a claim only when it
// says who: IDs or agents, and a title besides.
func rowByCells(cs []string, group parse.Severity, agentCols []int, marked []attribution) (Claim, bool) {
	c := Claim{Severity: group, theme: true}
	for _, a := range marked {
		c.Agents = appendNew(c.Agents, a.label)
		c.attrib = append(c.attrib, a)
	}
	title := -1
	for i, x := range cs {
		if slices.Contains(agentCols, i) {
			continue
		}
		plain := strings.TrimSpace(strings.ReplaceAll(x, "**", ""))
		if plain == "" {
			continue
		}
		if resolvedMark(plain) {
			return Claim{}, false
		}
		if ids := idCell(plain); ids != nil {
			c.Cites = appendNew(c.Cites, ids...)
			c.attrib = append(c.attrib, attribution{ids: ids})
			continue
		}
		if names := agentCell(plain); names != nil {
			c.Agents = appendNew(c.Agents, names...)
			for _, n := range names {
				c.attrib = append(c.attrib, attribution{label: n})
			}
			continue
		}
		if n, of := counts(plain); n > 0 {
			if c.Count == 0 {
				c.Count, c.Of = n, of
			}
			continue
		}
		if title < 0 && hasKeyword(cleanTitle(plain)) {
			title = i
		}
	}
	if title < 0 || (len(c.Cites) == 0 && len(c.Agents) == 0) {
		return Claim{}, false
	}
	t := strings.ReplaceAll(cs[title], "**", "")
	if _, sev, rest, ok := leadMarker(t); ok {
		if sev != "" {
			c.Severity = sev
		}
		t = rest
	}
	c.Title = cleanTitle(t)
	c.FileRefs = fileRefs(strings.Join(cs, " "))
	return c, c.Title != ""
}

// allAgentsRe finds a count cell's "all of them": "All agents agree",
// "unanimous", "every reviewer".
var allAgentsRe = regexp.MustCompile(`(?i)\b(?:all (?:the )?(?:agents|reviewers|tracks)|unanimous(?:ly)?|every (?:agent|reviewer))\b`)

// markedAgents returns the agents an agent-column table's row marks as
// having reported its finding: each column headed by an agent whose cell
// holds a mark ("P1", "High", "P3 info", "✓", "x", "yes"), with the
// severity the cell gives that agent. A dash, "no", "n/a", a cross or an
// empty cell marks none, nor does a cell of words that is no mark.
func (t *tableCols) markedAgents(cs []string) []attribution {
	var out []attribution
	for _, i := range t.agentCols {
		if i >= len(cs) {
			continue
		}
		cell := strings.Trim(strings.TrimSpace(strings.ReplaceAll(cs[i], "**", "")), "`_")
		f := strings.Fields(cell)
		if len(f) == 0 || len(f) > 3 {
			continue
		}
		label := strings.Trim(strings.TrimSpace(strings.ReplaceAll(t.header[i], "**", "")), "`_")
		first := strings.Trim(f[0], "()[],;:")
		if sev, ok := parse.SeverityWord(first); ok {
			out = append(out, attribution{label: label, sev: sev})
			continue
		}
		switch strings.ToLower(first) {
		case "✓", "✔", "✔️", "✅", "x", "yes", "y", "●", "•":
			out = append(out, attribution{label: label})
		}
	}
	return out
}

// idCell returns the finding IDs a cell holds when it holds nothing else
// ("DEC-1, PER-1, RES-2", "OD-1/AR-1"); nil otherwise.
func idCell(cell string) []string {
	var ids []string
	for _, tok := range strings.FieldsFunc(cell, func(r rune) bool { return r == ',' || r == ' ' || r == ';' || r == '+' }) {
		tok = trimTok(strings.Trim(tok, "`*_()"))
		if tok == "" {
			continue
		}
		x := expandID(tok)
		if len(x) == 0 {
			return nil
		}
		ids = append(ids, x...)
	}
	return ids
}
