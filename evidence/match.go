package evidence

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/parse"
)

// maxProbes bounds the substring searches one claim may cost, so that a
// trivial excerpt ("}") in a huge file stays cheap; past it, the search stops
// with what it found.
const maxProbes = 10000

// spanSlack is how many lines more than the cited range (or the excerpt) an
// elided excerpt's pieces may spread over.
const spanSlack = 30

// text is one repository file prepared for checking: its whitespace-
// normalised content and where each line begins in it.
type text struct {
	lines int     // number of lines of the file
	norm  []byte  // the non-blank lines, each normalised, joined by one space
	offs  []int32 // offs[i]: where the i-th non-blank line begins in norm
	nums  []int32 // nums[i]: its line number, from 1
	quote bool    // a mismatch note may quote the file (git tracks it)
}

// newText prepares data (at most MaxInt32 bytes: Options.MaxFile is capped).
// Lines end at "\n"; a final line without one counts. The line index is
// made at its final size: grown by appending, it cost a file of 2 million
// short lines 200 MB of allocations rather than 16 MB.
func newText(data []byte) *text {
	lines := bytes.Count(data, []byte{'\n'}) + 1
	t := &text{offs: make([]int32, 0, lines), nums: make([]int32, 0, lines)}
	buf := make([]byte, 0, len(data))
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		t.lines = n
		mark := len(buf)
		if mark > 0 {
			buf = append(buf, ' ')
		}
		start := len(buf)
		if buf = appendNorm(buf, line); len(buf) == start {
			buf = buf[:mark] // a blank line
			continue
		}
		t.offs = append(t.offs, int32(start))
		t.nums = append(t.nums, int32(n))
	}
	t.norm = buf
	return t
}

// asciiSpace marks the ASCII white space bytes.
var asciiSpace = [utf8.RuneSelf]bool{' ': true, '\t': true, '\r': true, '\n': true, '\v': true, '\f': true}

// appendNorm appends s to dst with every run of white space made one space
// and none at either end.
func appendNorm[T string | []byte](dst []byte, s T) []byte {
	start := len(dst)
	space := false
	for i := 0; i < len(s); {
		// A run of bytes that are not white space is copied at once.
		j := i
		for j < len(s) && s[j] < utf8.RuneSelf && !asciiSpace[s[j]] {
			j++
		}
		if j > i {
			if space && len(dst) > start {
				dst = append(dst, ' ')
			}
			space = false
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			space = true
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if unicode.IsSpace(r) {
			space = true
		} else {
			if space && len(dst) > start {
				dst = append(dst, ' ')
			}
			space = false
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// offsetOf returns where in norm the first non-blank line at or after line n
// begins (len(norm) when there is none).
func (t *text) offsetOf(n int) int {
	i := sort.Search(len(t.nums), func(i int) bool { return int(t.nums[i]) >= n })
	if i == len(t.nums) {
		return len(t.norm)
	}
	return int(t.offs[i])
}

// lineAt returns the line number of byte pos of norm.
func (t *text) lineAt(pos int) int {
	i := sort.Search(len(t.offs), func(i int) bool { return int(t.offs[i]) > pos }) - 1
	return int(t.nums[max(i, 0)])
}

var (
	// ellipsisRe marks an elision inside an excerpt line.
	ellipsisRe = regexp.MustCompile(`\.{3,}|…`)
	// elisionLineRe is a line that only says "something was left out" behind
	// a comment marker: "// ...", "# …", "/* ... */", "<!-- ... -->", "[...]".
	elisionLineRe = regexp.MustCompile(`^\s*(?://|#+|--|/\*|\*|<!--|;+)?\s*[\[(]?\s*(?:\.{3,}|…)\s*[\])]?\s*(?:\*/|-->)?\s*$`)
)

// segments splits an excerpt into the normalised pieces that must occur in
// order, and counts its non-blank lines.
func segments(excerpt string) (segs []string, lines int) {
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			segs = append(segs, string(cur))
			cur = cur[:0]
		}
	}
	for line := range strings.SplitSeq(excerpt, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		lines++
		parts := []string{line}
		if strings.Contains(line, "...") || strings.Contains(line, "…") {
			if elisionLineRe.MatchString(line) {
				flush()
				continue
			}
			parts = ellipsisRe.Split(line, -1)
		}
		for j, part := range parts {
			if j > 0 {
				flush()
			}
			mark := len(cur)
			if mark > 0 {
				cur = append(cur, ' ')
			}
			start := len(cur)
			if cur = appendNorm(cur, part); len(cur) == start {
				cur = cur[:mark]
			}
		}
	}
	flush()
	return segs, lines
}

// finder searches norm for the pieces of one excerpt, remembering the last
// search of each piece: the first occurrence at or after a start is the same
// for every start from that one up to the occurrence, and for an earlier
// start only the bytes before the last start need searching. So searches from
// starts that only advance (the forward search) or only retreat (the
// backward one) read each byte of norm about once per piece, however many
// occurrences of the first piece they try; without it, each try searched on
// to the next occurrence of every later piece, anywhere in the file.
type finder struct {
	norm []byte
	segs [][]byte
	from []int // from[k]: where the last search for piece k started; -1: none yet
	at   []int // at[k]: the first occurrence of piece k at or after from[k]; -1: none
}

func newFinder(norm []byte, segs [][]byte) *finder {
	f := &finder{norm: norm, segs: segs, from: make([]int, len(segs)), at: make([]int, len(segs))}
	for k := range f.from {
		f.from[k] = -1
	}
	return f
}

// index returns where the first occurrence of piece k at or after byte y of
// norm begins, or -1.
func (f *finder) index(k, y int) int {
	s, x, q := f.segs[k], f.from[k], f.at[k]
	r := -1
	switch {
	case x >= 0 && y >= x && (q < 0 || y <= q):
		r = q // nothing in [x, q), so nothing in [y, q)
	case x >= 0 && y < x:
		// An occurrence starting before x lies within norm[y : x+len(s)-1].
		r = q
		if j := bytes.Index(f.norm[y:min(x+len(s)-1, len(f.norm))], s); j >= 0 {
			r = y + j
		}
	default:
		if j := bytes.Index(f.norm[y:], s); j >= 0 {
			r = y + j
		}
	}
	f.from[k], f.at[k] = y, r
	return r
}

// matchFrom finds the first occurrence of the pieces, in order, whose first
// piece starts at or after byte from: the byte range [a, b) of norm. The
// later pieces must end within limit lines of the first's line. Each
// substring search spends one of *budget.
func (t *text) matchFrom(f *finder, from, limit int, budget *int) (a, b int, ok bool) {
	for *budget > 0 && from <= len(t.norm) {
		*budget--
		if a = f.index(0, from); a < 0 {
			return 0, 0, false
		}
		b, ok = t.matchAt(f, a, limit, budget)
		switch {
		case ok:
			return a, b, true
		case b < 0:
			return 0, 0, false // no later start can find it either
		}
		from = a + 1
	}
	return 0, 0, false
}

// matchAt matches the later pieces after the first's occurrence at a: the
// end of the match, or b < 0 when a later piece occurs nowhere after it, or
// ok false when they spread over more than limit lines.
func (t *text) matchAt(f *finder, a, limit int, budget *int) (b int, ok bool) {
	la := t.lineAt(a)
	b = a + len(f.segs[0])
	for k := 1; k < len(f.segs); k++ {
		*budget--
		j := f.index(k, b)
		if j < 0 {
			return -1, false
		}
		b = j + len(f.segs[k])
		if t.lineAt(b-1)-la > limit {
			return b, false
		}
	}
	return b, true
}

// check checks one claim on the file name (SPEC §5.7).
func (t *text) check(name string, c parse.Claim) Result {
	inRange := c.Start >= 1 && c.End >= c.Start && c.End <= t.lines
	pieces, exLines := segments(c.Excerpt)
	if len(pieces) == 0 {
		if inRange {
			return Result{Status: parse.EvidenceVerified}
		}
		return t.outOfRange(c)
	}
	segs := make([][]byte, len(pieces))
	for i, p := range pieces {
		segs[i] = []byte(p)
	}
	limit := max(c.End-c.Start+1, exLines) + spanSlack
	// Forward from near the cited lines: an occurrence overlapping them
	// starts at most limit lines before them, so even a trivial excerpt in a
	// huge file verifies within the search budget. Occurrences that do not
	// overlap are candidates for "moved".
	best, bestA, bestB := -1, 0, 0
	consider := func(la, lb int) {
		if d := abs(la - c.Start); best < 0 || d < best || (d == best && la < bestA) {
			best, bestA, bestB = d, la, lb
		}
	}
	budget := maxProbes
	near := t.offsetOf(c.Start - limit)
	fwd := newFinder(t.norm, segs)
	for from := near; ; {
		a, b, ok := t.matchFrom(fwd, from, limit, &budget)
		if !ok {
			break
		}
		la, lb := t.lineAt(a), t.lineAt(b-1)
		if la <= c.End && lb >= c.Start {
			return Result{Status: parse.EvidenceVerified}
		}
		consider(la, lb)
		if la > max(c.Start, c.End) {
			break // later occurrences are farther away
		}
		from = a + 1
	}
	// Backward from there: the nearest occurrence that starts earlier.
	budget = maxProbes
	back := newFinder(t.norm, segs)
	for p := near; budget > 0; {
		budget--
		i := bytes.LastIndex(t.norm[:p], segs[0])
		if i < 0 {
			break
		}
		if b, ok := t.matchAt(back, i, limit, &budget); ok {
			consider(t.lineAt(i), t.lineAt(b-1))
			break
		}
		p = i + len(segs[0]) - 1 // an occurrence overlapping this one may start earlier
		if p <= 0 || i == 0 {
			break
		}
	}
	switch {
	case best >= 0:
		return Result{Status: parse.EvidenceMoved, Found: lineRef(name, bestA, bestB),
			Note: "excerpt found at " + linesText(bestA, bestB)}
	case !inRange:
		return t.outOfRange(c)
	}
	return Result{Status: parse.EvidenceMismatch, Note: t.holds(c.Start, c.End)}
}

func (t *text) outOfRange(c parse.Claim) Result {
	note := "file has " + strconv.Itoa(t.lines) + " lines"
	switch {
	case t.lines == 0:
		note = "file is empty"
	case t.lines == 1:
		note = "file has 1 line"
	case c.Start < 1:
		note = "no line " + strconv.Itoa(c.Start)
	case c.End < c.Start:
		note = "range ends before it starts"
	}
	return Result{Status: parse.EvidenceOutOfRange, Note: note}
}

// maxQuote caps how much of the cited lines a mismatch note quotes.
const maxQuote = 120

// holds says what lines a..b of the file hold, normalised and shortened:
// only when the file may be quoted (t.quote: git tracks it) and none of
// the lines looks like a credential; else that they hold something else,
// and why it is not quoted.
func (t *text) holds(a, b int) string {
	i := sort.Search(len(t.nums), func(i int) bool { return int(t.nums[i]) >= a })
	j := sort.Search(len(t.nums), func(i int) bool { return int(t.nums[i]) > b })
	if i >= j {
		if b > a {
			return linesText(a, b) + " are blank"
		}
		return linesText(a, b) + " is blank"
	}
	end := len(t.norm)
	if j < len(t.offs) {
		end = int(t.offs[j]) - 1
	}
	verb := " holds"
	if b > a {
		verb = " hold"
	}
	if !t.quote {
		return linesText(a, b) + verb + " other text (not quoted: the file is not tracked by git)"
	}
	for k := i; k < j; k++ {
		lineEnd := end
		if k+1 < j {
			lineEnd = int(t.offs[k+1]) - 1
		}
		if looksSecret(t.norm[t.offs[k]:lineEnd]) {
			return linesText(a, b) + verb + " other text (not quoted: it looks like a credential)"
		}
	}
	s := string(t.norm[t.offs[i]:end])
	if len(s) > maxQuote {
		n := maxQuote
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return linesText(a, b) + verb + ": " + s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
