package verify

import (
	"strconv"
	"strings"
)

// A finding's block is what its agent wrote about it: the heading, list
// item or paragraph its source points at and what belongs to it, and,
// when that is a line of a Findings Index, the section of the report that
// heads it by its ID ("#### P1-2: …"). A synthesis that states a finding
// in its own words states what the block says.

// maxBlockLines bounds the lines of one block.
const maxBlockLines = 60

// idLead is how far into a line a finding's ID may stand for the line to
// open its description: "PN-1. P0: …", "1. **P1 — ARCH-1: …**",
// "#### P1-2: …".
const idLead = 40

// reportLines splits each report into lines once, and indexes them.
type reportLines map[string]*lineIndex

// lineIndex is a report's lines and, for each token that stands in the
// first idLead bytes of a line other than a table row, the first such
// line: where a finding's ID opens its description. Looking each ID up
// rather than trying every line keeps a report of many findings linear.
type lineIndex struct {
	lines []string
	opens map[string][2]int // the first two lines a token opens; -1: none
}

func (rl reportLines) of(agent string, reports map[string][]byte) *lineIndex {
	if x, ok := rl[agent]; ok {
		return x
	}
	x := &lineIndex{lines: strings.Split(string(reports[agent]), "\n"), opens: map[string][2]int{}}
	for k, l := range x.lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "|") {
			continue // a table row restates the finding, it does not describe it
		}
		// "PN-1. P0:", "P0.2 —": an ID may hold a dot or end a sentence.
		for tok := range strings.FieldsFuncSeq(t[:min(len(t), idLead)], func(r rune) bool { return r > 0x7f || r != '.' && !isIDByte(byte(r)) }) {
			x.open(tok, k)
			if strings.Contains(tok, ".") {
				for part := range strings.SplitSeq(tok, ".") {
					x.open(part, k)
				}
			}
		}
	}
	rl[agent] = x
	return x
}

// open records that line k opens with tok.
func (x *lineIndex) open(tok string, k int) {
	switch o, seen := x.opens[tok]; {
	case tok == "":
	case !seen:
		x.opens[tok] = [2]int{k, -1}
	case o[1] < 0 && o[0] != k:
		x.opens[tok] = [2]int{o[0], k}
	}
}

// block returns the text of a finding's block in its agent's report:
// from the line of ref ("file.md:12") and, when the finding has an ID, from
// the first other line that opens with it (a heading, an item, a bold
// lead-in or a paragraph; not a table row).
func (x *lineIndex) block(ref, id string) string {
	b, _ := x.blockSpan(ref, id)
	return b
}

// blockSpan is block with the lines (from 1, end excluded) of the region
// of the ref's line: {0, 0} when the ref names no line.
func (x *lineIndex) blockSpan(ref, id string) (string, [2]int) {
	lines := x.lines
	var b strings.Builder
	at := -1
	var span [2]int
	if _, n, ok := strings.Cut(ref, ":"); ok {
		if k, err := strconv.Atoi(n); err == nil && k >= 1 && k <= len(lines) {
			at = k - 1
			end := regionEnd(lines, at)
			span = [2]int{k, end + 1}
			b.WriteString(strings.Join(lines[at:end], "\n"))
		}
	}
	if o, ok := x.opens[id]; id != "" && ok {
		k := o[0]
		if k == at {
			k = o[1] // the ref's own line: the other line that opens with it
		}
		if k >= 0 {
			b.WriteString(" ")
			b.WriteString(region(lines, k))
		}
	}
	return b.String(), span
}

// hasToken reports whether t holds id as a whole token.
func hasToken(t, id string) bool {
	for i := 0; ; {
		j := strings.Index(t[i:], id)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIDByte(t[j-1])
		after := j+len(id) == len(t) || !isIDByte(t[j+len(id)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIDByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// region returns the lines that belong to line k: a heading's section up
// to the next heading of its level or above; a list item and what is
// indented under it; a paragraph up to a blank line. At most maxBlockLines.
func region(lines []string, k int) string {
	return strings.Join(lines[k:regionEnd(lines, k)], "\n")
}

// regionEnd returns the index of the first line after region(lines, k).
func regionEnd(lines []string, k int) int {
	t := strings.TrimSpace(lines[k])
	end := k + 1
	switch lvl, _ := heading(t); {
	case lvl > 0:
		for end < len(lines) && end-k < maxBlockLines {
			if l, _ := heading(strings.TrimSpace(lines[end])); l > 0 && l <= lvl {
				break
			}
			end++
		}
	default:
		if _, item := listItem(t); item {
			indent := len(lines[k]) - len(strings.TrimLeft(lines[k], " \t"))
			for end < len(lines) && end-k < maxBlockLines {
				l := lines[end]
				s := strings.TrimSpace(l)
				if s == "" || len(l)-len(strings.TrimLeft(l, " \t")) <= indent {
					break
				}
				end++
			}
			break
		}
		for end < len(lines) && end-k < maxBlockLines && strings.TrimSpace(lines[end]) != "" {
			end++
		}
	}
	return end
}
