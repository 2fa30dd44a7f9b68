package parse

import (
	"regexp"
	"strings"
)

const maxDescription = 16 << 10

// linkDescriptions links prose to findings (SPEC §2.4): a block that starts
// with a finding's ID is that finding's description, and the file:line
// references in it join the finding's file_refs. A prose finding's own body
// is its description.
func (p *reportParser) linkDescriptions() {
	fs := p.r.Findings
	if len(fs) == 0 {
		return
	}
	// Line numbers run from 1 to len(p.lines): byLine[n] is 1 + the index
	// of the (last) finding at line n, 0 for none; a slice, not a map, for a
	// report of 200,000 findings. byID is made at the first block that
	// opens with an ID: an index of 200,000 IDs with no prose has none.
	var byID map[string]int
	byLine := make([]int32, len(p.lines)+1)
	for i, f := range fs {
		if f.Line >= 0 && f.Line < len(byLine) {
			byLine[f.Line] = int32(i + 1)
		}
	}
	lo, hi := -1, -1
	if p.ix != nil && p.ix.kind != "fenced" {
		lo, hi = p.ix.start, p.ix.end
	}
	linked := make([]bool, len(fs))
	for i := 0; i < len(p.lines); i++ {
		p.stop.tick()
		l := p.lines[i]
		if l.masked || (i >= lo && i < hi) {
			continue
		}
		k, own := -1, false
		if j := int(byLine[l.num]) - 1; j >= 0 && fs[j].Confidence == ConfidenceLow {
			k, own = j, true // a prose finding's own block
		} else if id := blockID(l); id != "" {
			if byID == nil {
				byID = findingsByID(fs)
			}
			if j, ok := byID[id]; ok && !linked[j] {
				k = j
			}
		}
		if k < 0 {
			continue
		}
		linked[k] = true
		end := blockEnd(p.lines, i)
		size, last := 0, i
		var refs []string // the block's, merged into the finding's at once
		for n, bl := range p.lines[i:end] {
			if size+len(bl.text) > maxDescription {
				break
			}
			size += len(bl.text) + 1
			last = i + n
			// The references of a prose list item or bold lead-in are
			// already the finding's: the prose walk read them in the same
			// text, and reading them again doubled the parse time.
			if !bl.masked && !(n == 0 && own && l.level == 0) {
				refs = append(refs, fileRefs(bl.text)...)
			}
		}
		if size > 0 {
			fs[k].Description = description(p.src, p.lines[i:last+1], size)
		}
		claims := evidenceClaims(p.lines, i, end)
		for _, c := range claims {
			// A claim in a wordy form ("a.go lines 3-4") is a reference too.
			refs = append(refs, c.Ref())
		}
		fs[k].FileRefs = mergeRefs(fs[k].FileRefs, refs)
		fs[k].Evidence = append(fs[k].Evidence, claims...)
	}
	for i := range fs {
		if fs[i].FileRefs == nil {
			fs[i].FileRefs = []string{}
		}
	}
}

// findingsByID maps each ID of fs to its first finding.
func findingsByID(fs []Finding) map[string]int {
	byID := map[string]int{}
	for i, f := range fs {
		if f.ID != "" {
			if _, dup := byID[f.ID]; !dup {
				byID[f.ID] = i
			}
		}
	}
	return byID
}

// description returns the text of ls, each line ending in a newline, size
// bytes in all: a part of src, the report's text, when the lines lie there
// as they are (no \r was dropped), so that descriptions do not copy the
// report once more.
func description(src string, ls []line, size int) string {
	whole := true
	for _, l := range ls {
		if e := l.start + len(l.text); e >= len(src) || src[e] != '\n' {
			whole = false
			break
		}
	}
	if whole {
		return src[ls[0].start : ls[0].start+size]
	}
	var b strings.Builder
	b.Grow(size)
	for _, l := range ls {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

var trailingIDRe = regexp.MustCompile(`\(([A-Z][A-Za-z0-9_.-]{0,31})\)\s*:?\s*$`)

// trailingIDOf is trailingIDRe.FindStringSubmatch(t): a match holds a ')'.
func trailingIDOf(t string) []string {
	if strings.IndexByte(t, ')') < 0 {
		return nil
	}
	return trailingIDRe.FindStringSubmatch(t)
}

// blockID returns the finding ID a block opens with: a heading, list item,
// bold lead-in or paragraph whose text, after any marker, starts with an ID
// ("SEC-001: the handler …") — or a heading that ends with "(ID)".
func blockID(l line) string {
	t := strings.TrimSpace(l.text)
	if l.level > 0 {
		t = l.head
		if m := trailingIDOf(t); m != nil && IsFindingID(m[1]) {
			return m[1]
		}
	} else if k, indent, body := listItem(l.text); k != 0 {
		if indent >= 2 {
			return ""
		}
		t = body
	} else if t == "" || l.text[0] == ' ' || l.text[0] == '\t' {
		return "" // an indented line continues something else
	}
	t = strings.TrimSpace(stripNumbering(stripBold(t)))
	if m, ok := markerAt(t, false); ok {
		t = strings.TrimLeft(t[m.end:], sepChars)
	}
	id, rest, ok := leadID(t)
	if !ok || !startsSep(rest) {
		return ""
	}
	return id
}

// blockEnd returns the index just past the block opening at lines[i]: a
// heading's section runs to the next heading of its level or above; an item
// runs to the next heading or the next top-level item or bold lead-in; a
// bold lead-in paragraph runs to the next heading, bold lead-in or rule, the
// list under it included (its details: "- **Evidence**: …"); a plain
// paragraph runs to the next blank line or line opening with an ID.
func blockEnd(lines []line, i int) int {
	l := lines[i]
	leadIn, paragraph := false, false
	if k, _, _ := listItem(l.text); k == 0 && l.level == 0 {
		leadIn = true
		paragraph = !strings.HasPrefix(strings.TrimSpace(l.text), "**")
	}
	for j := i + 1; j < len(lines); j++ {
		n := lines[j]
		if n.masked {
			continue
		}
		if n.level > 0 {
			if l.level == 0 || n.level <= l.level {
				return j
			}
			continue
		}
		if l.level == 0 {
			t := strings.TrimSpace(n.text)
			if paragraph && (t == "" || blockID(n) != "") {
				return j // a plain paragraph ends at a blank line or the next ID
			}
			if k, indent, _ := listItem(n.text); k != 0 && indent < 2 && !leadIn {
				return j
			}
			if strings.HasPrefix(t, "**") || isRule(t) {
				return j
			}
		}
	}
	return len(lines)
}
