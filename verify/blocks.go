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

// reportLines splits each report into lines once.
type reportLines map[string][]string

func (rl reportLines) of(agent string, reports map[string][]byte) []string {
	if ls, ok := rl[agent]; ok {
		return ls
	}
	ls := strings.Split(string(reports[agent]), "\n")
	rl[agent] = ls
	return ls
}

// block returns the text of a finding's block in its agent's report lines:
// from the line of ref ("file.md:12") and, when the finding has an ID, from
// the first other line that opens with it (a heading, an item, a bold
// lead-in or a paragraph; not a table row).
func block(lines []string, ref, id string) string {
	var b strings.Builder
	at := -1
	if _, n, ok := strings.Cut(ref, ":"); ok {
		if k, err := strconv.Atoi(n); err == nil && k >= 1 && k <= len(lines) {
			at = k - 1
			b.WriteString(region(lines, at))
		}
	}
	if id != "" {
		for k, l := range lines {
			if k == at {
				continue
			}
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "|") {
				continue // a table row restates the finding, it does not describe it
			}
			if hasToken(t[:min(len(t), idLead)], id) {
				b.WriteString(" ")
				b.WriteString(region(lines, k))
				break
			}
		}
	}
	return b.String()
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
	return strings.Join(lines[k:end], "\n")
}
