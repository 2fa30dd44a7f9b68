package verify

import (
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// tableCols are the columns of a Markdown table of findings, by what their
// headers name; -1 when absent.
type tableCols struct {
	id, title, severity, agents, file int
}

// newTable reads a table's header row. A table without a title column
// (a verdict table, an agent table) states no claims: its row method
// returns false.
func newTable(header []string) *tableCols {
	t := &tableCols{-1, -1, -1, -1, -1}
	for i, h := range header {
		n := parse.Normalize(strings.ReplaceAll(h, "**", ""))
		switch {
		case n == "verdict" || n == "status":
			// A table of agents and their verdicts, not of findings.
			t.title = -1
			return t
		case n == "" && strings.Contains(h, "#"), n == "id", n == "ref":
			set(&t.id, i)
		case n == "severity" || n == "sev" || n == "priority" || n == "level":
			set(&t.severity, i)
		case n == "agents" || n == "agent s" || n == "flagged by" || n == "reported by" || n == "found by" ||
			n == "source" || n == "sources" || n == "convergence" || n == "reviewers":
			set(&t.agents, i)
		case n == "file" || n == "files" || n == "location" || n == "where":
			set(&t.file, i)
		case n == "finding" || n == "title" || n == "issue" || n == "problem" || n == "gap" ||
			n == "risk" || n == "concern" || n == "description" || n == "summary" || n == "findings":
			set(&t.title, i)
		}
	}
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
	if t.title < 0 || t.title >= len(cs) {
		return Claim{}, false
	}
	cell := func(i int) string {
		if i < 0 || i >= len(cs) {
			return ""
		}
		return cs[i]
	}
	var c Claim
	c.ID = trimTok(strings.ReplaceAll(cell(t.id), "**", ""))
	if t.severity >= 0 {
		for _, tok := range strings.Fields(cell(t.severity)) {
			if sev, ok := parse.SeverityWord(trimTok(tok)); ok {
				c.Severity = sev
				break
			}
		}
	}
	title := cell(t.title)
	if b, _, ok := leadBold(title); ok {
		title = b
	}
	if c.Severity == "" {
		if _, sev, rest, ok := leadMarker(title); ok {
			c.Severity, title = sev, rest
		}
	}
	if c.Severity == "" {
		c.Severity = group
	}
	c.Title = cleanTitle(title)
	if a := cell(t.agents); a != "" {
		plain := strings.ReplaceAll(a, "**", "")
		c.Count, c.Of = counts(plain + " agents")
		if c.Count == 0 {
			f := strings.Fields(plain)
			if n := number(f[0]); n > 0 && (len(f) == 1 || strings.HasPrefix(strings.ToLower(f[1]), "agent")) {
				c.Count = n
			} else if names := agentList(plain); names != nil {
				c.Agents = names
				c.Count = len(names)
			}
		}
	}
	c.FileRefs = fileRefs(strings.Join(cs, " "))
	if !hasKeyword(c.Title) || (c.Severity == "" && c.Count == 0) {
		return c, false
	}
	return c, true
}
