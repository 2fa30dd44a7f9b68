package parse

import (
	"regexp"
	"slices"
	"sort"
	"strings"
)

const maxDescription = 16 << 10

// linkDescriptions links prose to findings (SPEC §2.4): a block that starts
// with a finding's ID is that finding's description, and the file:line
// references in it join the finding's file_refs. A prose finding's own body
// is its description.
func (p *reportParser) linkDescriptions() {
	var b *blocks // made at the first block: an index with no prose has none
	var ids blockIDs
	p.linkBlocks(&ids, func(f *Finding, i, next int, own bool) {
		if b == nil {
			b = newBlocks(p.src, p.lines, ids)
		}
		end := min(int(b.end[i]), next)
		// The description is the block's first lines, up to
		// maxDescription bytes in all (each line and its newline).
		last := b.last(i, end)
		size := 0
		if last >= i {
			size = int(b.at[last+1] - b.at[i])
		}
		var refs []string // the block's, merged into the finding's at once
		// The references of a prose list item or bold lead-in are
		// already the finding's: the prose walk read them in the same
		// text, and reading them again doubled the parse time.
		from := i
		if own && p.lines[i].level == 0 {
			from = i + 1
		}
		for _, r := range b.between(b.refLines, from, last+1) {
			refs = append(refs, fileRefs(p.lines[r].text)...)
		}
		if size > 0 {
			f.Description = b.description(p.src, p.lines, i, last, size)
		}
		if r := fieldPairRef(p.lines, from, last+1); r != "" {
			refs = append(refs, r)
		}
		claims := b.claims(p.lines, i, end)
		for _, c := range claims {
			// A claim in a wordy form ("a.go lines 3-4") is a reference too.
			refs = append(refs, c.Ref())
		}
		f.FileRefs = mergeRefs(f.FileRefs, refs)
		f.Evidence = append(f.Evidence, claims...)
	})
}

// linkBlocks calls link for each block of the report that is a finding's
// (SPEC §2.4), f the finding and i the line that opens the block: a
// block whose opening line holds a prose finding (own), else one that
// opens with the ID of a finding not yet linked. next is the line that
// opens the next finding's block (len(p.lines) after the last): a block
// ends there at the latest, so a `**UP-2**` paragraph under a `### UP-1`
// heading is UP-2's, not UP-1's too. Blocks inside the Findings Index are
// not read. Then every finding's FileRefs is non-nil. When ids is not nil,
// *ids is made and holds the blockID of each line read for one, before
// link is first called.
func (p *reportParser) linkBlocks(ids *blockIDs, link func(f *Finding, i, next int, own bool)) {
	fs := p.r.Findings
	if len(fs) == 0 {
		return
	}
	var memo blockIDs
	if ids != nil {
		memo = make(blockIDs, len(p.lines))
		*ids = memo
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
	type start struct {
		k, i int
		own  bool
	}
	var starts []start
	for i := 0; i < len(p.lines); i++ {
		p.stop.tick()
		l := p.lines[i]
		if l.masked || (i >= lo && i < hi) {
			continue
		}
		k, own := -1, false
		if j := int(byLine[l.num]) - 1; j >= 0 && fs[j].Confidence == ConfidenceLow {
			k, own = j, true // a prose finding's own block
		} else if id := memo.read(l, i); id != "" {
			if byID == nil {
				byID = findingsByID(fs)
			}
			j, ok := indexFinding(byID, id)
			if !ok && l.level > 0 {
				// "#### P0-C2: title (F3)": the heading ends with an
				// ID of something else (a focus area); its lead ID
				// is the finding's.
				if lead := textID(l.head); lead != "" && lead != id {
					j, ok = indexFinding(byID, lead)
				}
			}
			if ok && !linked[j] {
				k = j
			}
		}
		if k < 0 {
			continue
		}
		linked[k] = true
		starts = append(starts, start{k, i, own})
	}
	for n, s := range starts {
		next := len(p.lines)
		if n+1 < len(starts) {
			next = starts[n+1].i
		}
		link(&fs[s.k], s.i, next, s.own)
	}
	for i := range fs {
		if fs[i].FileRefs == nil {
			fs[i].FileRefs = []string{}
		}
	}
}

// indexFinding returns the finding byID holds for the ID a block opens
// with: the ID itself, else the same ID with its severity prefix taken off
// or put on. A report whose index says "C2" often heads C2's details
// "P0-C2: title", and one whose index says "P0-C2" may head them "C2".
func indexFinding(byID map[string]int, id string) (int, bool) {
	if j, ok := byID[id]; ok {
		return j, true
	}
	if _, ok := severityPrefix(id); ok {
		j, ok := byID[id[3:]]
		return j, ok
	}
	for _, p := range [...]string{"P0-", "P1-", "P2-", "P3-"} {
		if j, ok := byID[p+id]; ok {
			return j, true
		}
	}
	return 0, false
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

// blocks is what linkDescriptions needs to know of every block of a
// report, read in one pass over its lines, so that the block of each
// finding costs what the block holds, not what follows it: a report of
// 100,000 table rows or JSON objects has as many blocks, each running far.
type blocks struct {
	// end[i] is the index just past the block opening at lines[i]: a
	// heading's section runs to the next heading of its level or above;
	// an item runs to the next heading or the next top-level item or bold
	// lead-in; a bold lead-in paragraph runs to the next heading, bold
	// lead-in or rule, the list under it included (its details: "-
	// **Evidence**: …"); a table row is a block of its own (the rows
	// after it are findings of their own, not its description).
	end []int32
	// at[i] is the size of lines[:i], each line and its newline: the
	// description's bytes from lines[i] to lines[j] are at[j+1]-at[i].
	at []int64
	// split[i] counts the lines before i that do not lie in the report's
	// text as they are (a \r dropped): description copies those.
	split []int32
	// refLines are the lines, unmasked, that can hold a file reference
	// (hasColonDigit); evLines those that are Evidence lines (evidenceRe).
	refLines, evLines []int32
}

// blockIDs says, for each line, whether blockID found an ID there: 0 not
// read yet, 1 none, 2 one. newBlocks reads the lines linkBlocks read
// already from it, not again.
type blockIDs []uint8

// read returns blockID(l), l being lines[i], and notes whether it is one.
func (ids blockIDs) read(l line, i int) string {
	id := blockID(l)
	if ids != nil {
		ids[i] = 1
		if id != "" {
			ids[i] = 2
		}
	}
	return id
}

// has reports whether blockID(l) is one, l being lines[i].
func (ids blockIDs) has(l line, i int) bool {
	if ids != nil && ids[i] != 0 {
		return ids[i] == 2
	}
	return blockID(l) != ""
}

// newBlocks reads the blocks of lines, the lines of src; ids holds what
// linkBlocks read of their IDs, or is nil.
func newBlocks(src string, lines []line, ids blockIDs) *blocks {
	n := len(lines)
	b := &blocks{end: make([]int32, n), at: make([]int64, n+1), split: make([]int32, n+1)}
	for i, l := range lines {
		b.at[i+1] = b.at[i] + int64(len(l.text)) + 1
		b.split[i+1] = b.split[i]
		if e := int(l.start) + len(l.text); l.start < 0 || e >= len(src) || src[e] != '\n' {
			b.split[i+1]++
		}
		if l.masked {
			continue
		}
		if hasColonDigit(l.text) {
			b.refLines = append(b.refLines, int32(i))
		}
		if isEvidenceLine(l.text) {
			b.evLines = append(b.evLines, int32(i))
		}
	}
	// The ends of the blocks that open at a line of text: the next
	// heading, bold lead-in or rule, and (for a list item) the next
	// top-level item; read backwards.
	nextStop, nextItem, nextPara := int32(n), int32(n), int32(n)
	for i := n - 1; i >= 0; i-- {
		l := lines[i]
		if l.level > 0 {
			if !l.masked {
				nextStop, nextItem, nextPara = int32(i), int32(i), int32(i)
			}
			continue
		}
		t := strings.TrimSpace(l.text)
		k, indent, _ := listItem(l.text)
		switch {
		case strings.HasPrefix(t, "|"):
			b.end[i] = int32(i + 1)
		case k == 0 && !strings.HasPrefix(t, "**"):
			// A plain paragraph ("SEC-001: the handler …") runs to the
			// next blank line or line opening with an ID.
			b.end[i] = min(nextStop, nextPara)
		case k == 0:
			b.end[i] = nextStop // a lead-in paragraph
		default:
			b.end[i] = min(nextStop, nextItem)
		}
		if l.masked {
			continue
		}
		if t == "" || ids.has(l, i) {
			nextPara = int32(i)
		}
		if k != 0 && indent < 2 {
			nextItem = int32(i)
		}
		if strings.HasPrefix(t, "**") || isRule(t) {
			nextStop = int32(i)
		}
	}
	// A heading's block runs to the next heading of its level or above:
	// the headings still open when one comes end there.
	var open []int32
	for i, l := range lines {
		if l.level == 0 || l.masked {
			continue
		}
		for len(open) > 0 && lines[open[len(open)-1]].level >= l.level {
			b.end[open[len(open)-1]] = int32(i)
			open = open[:len(open)-1]
		}
		open = append(open, int32(i))
	}
	for _, i := range open {
		b.end[i] = int32(n)
	}
	return b
}

// last returns the last line of the description of the block lines[i:end]:
// the lines that fit in maxDescription bytes (a line fits when the bytes
// before it and its text do), i-1 when none does.
func (b *blocks) last(i, end int) int {
	// lines[i:j+1] fit when at[j+1]-at[i]-1 <= maxDescription.
	j := sort.Search(end-i, func(n int) bool { return b.at[i+n+1]-b.at[i]-1 > maxDescription })
	return i + j - 1
}

// between returns the part of the sorted list xs in [lo, hi).
func (b *blocks) between(xs []int32, lo, hi int) []int32 {
	s, _ := slices.BinarySearch(xs, int32(lo))
	e, _ := slices.BinarySearch(xs, int32(hi))
	return xs[s:max(s, e)]
}

// description returns the text of lines[i:last+1], each line ending in a
// newline, size bytes in all: a part of src, the report's text, when the
// lines lie there as they are (no \r was dropped), so that descriptions do
// not copy the report once more.
func (b *blocks) description(src string, lines []line, i, last, size int) string {
	if b.split[last+1] == b.split[i] {
		return src[lines[i].start : int(lines[i].start)+size]
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, l := range lines[i : last+1] {
		sb.WriteString(l.text)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// claims returns evidenceClaims(lines, lo, hi), reading only the Evidence
// lines among them.
func (b *blocks) claims(lines []line, lo, hi int) []Claim {
	var claims []Claim
	ev := b.between(b.evLines, lo, hi)
	for len(ev) > 0 {
		var cs []Claim
		var next int
		cs, next = evidenceClaimAt(lines, int(ev[0]), hi)
		claims = append(claims, cs...)
		for len(ev) > 0 && int(ev[0]) <= next {
			ev = ev[1:]
		}
	}
	return claims
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
// ("SEC-001: the handler …") — or a heading that ends with "(ID)". Every
// ID holds a digit (IsFindingID, wordIDRe): a line with none is not read
// further (TestBlockIDAsPlain).
func blockID(l line) string {
	if !hasDigit(l.text) {
		return ""
	}
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
	return textID(t)
}

// textID returns the ID a block's text starts with, after any numbering,
// bold and severity marker: "SEC-001: the handler …".
func textID(t string) string {
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

// hasDigit reports whether s holds an ASCII digit.
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]-'0' <= 9 {
			return true
		}
	}
	return false
}

// fieldPairRef reads a file reference written as two fields of a
// finding's block, lines[lo:hi]: a file field holding a path and a lines
// field holding a line or a range ("**File:** src/a.go" over "**Lines:**
// 20-41 (the whole function)" is src/a.go:20-41). "" when the block has
// not both, or its file field is a reference already (its lines are read
// with the block's other references).
func fieldPairRef(lines []line, lo, hi int) string {
	path, nums := "", ""
	for i := lo; i < hi && (path == "" || nums == ""); i++ {
		if lines[i].masked || lines[i].level > 0 {
			continue
		}
		name, value, ok := plainField(lines[i].text)
		if !ok {
			continue
		}
		switch strings.ToLower(name) {
		case "file", "files", "path", "file path", "location", "affected file":
			if path == "" {
				path = fieldPath(value)
			}
		case "line", "lines", "line range", "line numbers":
			if nums == "" {
				nums = fieldLineRange(value)
			}
		}
	}
	if path == "" || nums == "" {
		return ""
	}
	return path + ":" + nums
}

// plainField splits a field line of a block, bold or not, in a list item
// or not: "- **File:** x", "**Lines**: 3", "File: x".
func plainField(text string) (name, value string, ok bool) {
	t := strings.TrimSpace(text)
	if k, _, rest := listItem(t); k != 0 {
		t = strings.TrimSpace(rest)
	}
	if name, value, ok = boldField(t); ok {
		return name, value, true
	}
	name, value, ok = strings.Cut(t, ":")
	if !ok || len(name) == 0 || len(name) > 20 || strings.Count(name, " ") > 1 {
		return "", "", false
	}
	return name, strings.TrimSpace(value), true
}

// fieldPath is the value of a file field when it is one path and no
// reference with lines: "`src/a.go`", not "src/a.go:12", a URL or a
// sentence.
func fieldPath(v string) string {
	v = strings.Trim(strings.TrimSpace(v), "`")
	if v == "" || strings.ContainsAny(v, " \t`:*[]()<>|") || !strings.ContainsAny(v, "./") {
		return ""
	}
	if refs := fileRefs(v + ":1"); len(refs) != 1 || refs[0] != v+":1" {
		return "" // not a path the reference rule reads
	}
	return strings.TrimPrefix(v, "./")
}

// fieldLineRange is the line or range a lines field starts with: "20-41 (the
// whole function)" is "20-41", "L20–L41" is "20-41", "about 20" nothing.
func fieldLineRange(v string) string {
	v = strings.TrimSpace(v)
	num := func(s string) (string, string) {
		s = strings.TrimPrefix(s, "L")
		n := 0
		for n < len(s) && n < 7 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return s[:n], s[n:]
	}
	start, rest := num(v)
	if start == "" || start[0] == '0' || (rest != "" && rest[0] >= '0' && rest[0] <= '9') {
		return ""
	}
	r := strings.TrimLeft(rest, " ")
	for _, dash := range []string{"-", "–", "—"} {
		if strings.HasPrefix(r, dash) {
			if end, _ := num(strings.TrimLeft(r[len(dash):], " ")); end != "" && end[0] != '0' {
				return start + "-" + end
			}
		}
	}
	return start
}
