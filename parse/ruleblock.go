package parse

import "strings"

// Comments separated by rules under one heading ("## Review Comments",
// then blocks of "**File:** …", a paragraph and "*Severity: high*", a
// "---" between them) are findings of their own, one a block, not fields
// of the heading: the heading names the section. A heading is read so
// once two blocks under it hold a severity field, the first of them the
// heading's until the second comes; a single rated block stays the
// heading's (a finding's heading over a rule and its severity).

// ruleBlocks follows the rules under the innermost heading.
type ruleBlocks struct {
	rule int // the index of the last rule line, -1 for none
	from int // the index of the first line of the current block
	// The heading whose severity field an earlier block set, that
	// block's first line and the field's line (indexes).
	field, fieldFrom, fieldAt int
	// The heading whose blocks are findings, and the node of the current
	// block's finding; -1 for none.
	head, node int
	untitled   int // the first line of a block found to have no title, -1
}

func newRuleBlocks() ruleBlocks {
	return ruleBlocks{rule: -1, field: -1, head: -1, node: -1, untitled: -1}
}

// heading starts the block of the heading at line i.
func (r *ruleBlocks) heading(i int) { r.from, r.node = i+1, -1 }

// split ends the current block at the rule at line i.
func (r *ruleBlocks) split(i int) { r.rule, r.from = i, i+1 }

// fieldSet records that a severity field at line i set the field of the
// heading node h.
func (r *ruleBlocks) fieldSet(h, i int) {
	if r.field != h {
		r.field, r.fieldFrom, r.fieldAt = h, r.from, i
	}
}

// splits reports whether a severity field at line i whose node is the
// heading node h rates a block of its own: a rule stands between h and
// it, and blocks under h are findings already, or an earlier block under
// h set h's field (which then is that block's: first reports so).
func (r *ruleBlocks) splits(nodes []gnode, h, i int) (split, first bool) {
	if nodes[h].kind != 'h' || r.rule <= nodes[h].i || r.rule > i {
		return false, false
	}
	if r.untitled == r.from {
		return false, false // its title was looked for once: each line is read in linear time
	}
	if r.head == h {
		return true, false
	}
	return r.field == h && nodes[h].fieldLine > 0 && r.fieldFrom < r.from, true
}

// blockTitle returns the line index and the title of the block that
// starts at line from and holds a severity field at line at: its first
// line of text that is not a field ("**File:** …", "**Rule:** …"; a plain
// "No authorization check: …" is a sentence), before the field or a few
// lines after it; -1 when it has none.
func blockTitle(lines []line, from, at int) (int, string) {
	title := func(j int) (string, bool) {
		l := lines[j]
		t := strings.TrimSpace(l.text)
		bold := strings.HasPrefix(t, "**") || strings.HasPrefix(t, "__")
		if l.masked || t == "" || isRule(t) || isFieldLine(t) || sevFieldAny(t) != nil || statusFieldOf(t) != nil || bold && fieldShaped(t) {
			return "", false
		}
		if _, _, body := listItem(l.text); body != "" {
			t = strings.TrimSpace(body)
		}
		s := firstSentence(strings.TrimRight(t, "."))
		return s, s != ""
	}
	for j := from; j < at; j++ {
		if s, ok := title(j); ok {
			return j, s
		}
	}
	for j := at + 1; j < len(lines) && j <= at+12 && lines[j].level == 0 && !isRule(lines[j].text); j++ {
		if s, ok := title(j); ok {
			return j, s
		}
	}
	return -1, ""
}

// blockNode is the finding of a rule-separated block titled at line at,
// with the severity field of the node f.
func blockNode(at int, title string, f *gnode) gnode {
	n := gnode{i: at, kind: 'b', rank: 7, text: "**" + title + "**", count: -1}
	n.field, n.fieldPrio, n.fieldLine, n.fieldWord = f.field, f.fieldPrio, f.fieldLine, f.fieldWord
	return n
}
