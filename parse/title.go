package parse

import (
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// The title rule of SPEC §5.2, shared by the prose fallback (a finding listed
// twice in one report counts once) and by synthesis (findings of different
// agents merge).

// Normalize normalises a section or title for dedup keys (SPEC §5.2):
// lower-case, '-' becomes a space, everything but [a-z0-9 ] is dropped, runs
// of spaces collapse to one and the ends are trimmed. Any white space counts
// as a space.
func Normalize(s string) string {
	// Only ASCII letters and digits are kept: the loop reads bytes, and
	// decodes a rune only to ask whether it is a space (normalizeRunes in
	// title_test.go is the rune-by-rune reading it must equal).
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n
			if unicode.IsSpace(r) {
				space = len(b) > 0
			}
			continue
		}
		i++
		switch o := normByte[c]; o {
		case 0:
		case ' ':
			space = len(b) > 0
		default:
			if space {
				b = append(b, ' ')
				space = false
			}
			b = append(b, o)
		}
	}
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b)) // b is not written again
}

// normByte is what Normalize makes of an ASCII byte: a letter lower-cased,
// a digit itself, ' ' for '-' and white space, 0 for any other (dropped).
var normByte = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			t[c] = byte(c)
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		case c == '-' || c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			t[c] = ' '
		}
	}
	return t
}()

// normalizeTitle is Normalize, except that a title with nothing left after
// normalisation keeps its lower-cased, space-collapsed text, so that two
// different non-ASCII titles never share a key.
func normalizeTitle(s string) string {
	if n := Normalize(s); n != "" {
		return n
	}
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// Key returns the dedup key of a finding: normalised section + ":" +
// normalised title (SPEC §5.2).
func Key(section, title string) string {
	return Normalize(section) + ":" + normalizeTitle(title)
}

// stopWords are dropped from titles before keywords are compared. Words under
// three letters are dropped anyway.
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "from": true, "that": true,
	"this": true, "are": true, "was": true, "were": true, "not": true, "but": true,
	"into": true, "onto": true, "when": true, "then": true, "than": true, "can": true,
	"has": true, "have": true, "had": true, "its": true, "all": true, "any": true,
	"via": true, "per": true, "out": true, "off": true, "over": true, "under": true,
	"does": true, "did": true, "will": true, "would": true, "should": true, "could": true,
	"may": true, "might": true, "must": true, "there": true, "their": true, "they": true,
	"them": true, "these": true, "those": true, "which": true, "what": true, "where": true,
	"who": true, "why": true, "how": true, "also": true, "only": true, "each": true,
	"other": true, "some": true, "such": true, "use": true, "uses": true, "used": true,
	"being": true, "been": true, "you": true, "your": true, "our": true, "one": true,
	"within": true, "about": true, "after": true, "before": true, "between": true, "across": true,
	"through": true, "during": true, "upon": true, "while": true,
}

// maxStopWord is the length of the longest stop word: a longer word is none.
const maxStopWord = 7

// Keywords returns the distinct keywords of a normalised text, in order of
// first appearance: its words less stop words and words under three letters.
func Keywords(norm string) []string {
	return appendKeywords(make([]string, 0, strings.Count(norm, " ")+1), norm) // one allocation, not four
}

// Words yields the keywords of a normalised text in order, each time it
// stands (Keywords yields each once): its words less stop words and words
// under three letters. The merge rule counts them to weigh a description.
func Words(norm string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for w := range longWords(norm) {
			if (len(w) > maxStopWord || !stopWords[w]) && !yield(w) {
				return
			}
		}
	}
}

// Title is a normalised title with what the title rule needs, computed once:
// its keywords and a histogram of its characters (and its runes, when it is
// not ASCII). Build it with NewTitle.
type Title struct {
	norm  string
	kws   []string
	runes []rune // nil when norm is ASCII: its bytes are its runes
	n     int    // length in runes
	hist  histogram
}

// histogram counts the characters of a normalised title: a–z, 0–9, space,
// anything else. Half the L1 distance of two histograms is a lower bound of
// the edit distance of the strings, which rules most pairs out cheaply.
type histogram [38]uint16

func (h *histogram) add(r rune) {
	switch {
	case r >= 'a' && r <= 'z':
		h[r-'a']++
	case r >= '0' && r <= '9':
		h[26+r-'0']++
	case r == ' ':
		h[36]++
	default:
		h[37]++
	}
}

// lowerBound returns a lower bound of the edit distance of two strings with
// histograms h and o: each edit changes the histogram's L1 distance by at
// most 2.
func (h *histogram) lowerBound(o *histogram) int {
	d := 0
	for i := range h {
		x := int(h[i]) - int(o[i])
		if x < 0 {
			x = -x
		}
		d += x
	}
	return (d + 1) / 2
}

// NewTitle prepares s for the title rule.
func NewTitle(s string) Title {
	return titleOfNorm(normalizeTitle(s))
}

// titleOfNorm prepares a title from its normalised text.
func titleOfNorm(n string) Title {
	var t Title
	t.setNorm(n)
	return t
}

// setNorm makes t the title prepared from the normalised text n, keeping
// the array of t's keyword list.
func (t *Title) setNorm(n string) {
	*t = Title{norm: n, kws: appendKeywords(t.kws[:0], n)}
	t.prepare()
}

// copyFrom makes t a copy of o, keeping the array of t's keyword list.
func (t *Title) copyFrom(o *Title) {
	kws := append(t.kws[:0], o.kws...)
	*t = *o
	t.kws = kws
}

// appendKeywords appends the keywords of n, a text normalised by
// normalizeTitle, to kws, reading words between single spaces: the only
// white space normalised text has (keywordsOfFields in title_test.go splits
// at any white space, the reference it must equal).
func appendKeywords(kws []string, n string) []string {
	base := len(kws)
	for w := range longWords(n) {
		if (len(w) > maxStopWord || !stopWords[w]) && !slices.Contains(kws[base:], w) {
			kws = append(kws, w)
		}
	}
	return kws
}

// longWords yields the words of n, a text normalised by normalizeTitle,
// that are long enough to be keywords (three bytes or more), reading words
// between single spaces: the only white space normalised text has. A word
// that stands twice is yielded twice.
func longWords(n string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for n != "" {
			w := n
			if i := strings.IndexByte(n, ' '); i >= 0 {
				w, n = n[:i], n[i+1:]
			} else {
				n = ""
			}
			if len(w) >= 3 && !yield(w) {
				return
			}
		}
	}
}

// prepare computes what the Levenshtein rule needs from t.norm.
func (t *Title) prepare() {
	n := t.norm
	for i := 0; i < len(n); i++ {
		if n[i] >= utf8.RuneSelf {
			t.runes = []rune(n)
			t.n = len(t.runes)
			for _, r := range t.runes {
				t.hist.add(r)
			}
			return
		}
	}
	t.n = len(n)
	for i := 0; i < len(n); i++ {
		t.hist.add(rune(n[i]))
	}
}

// gramSymbol maps a byte of an ASCII title to one of 38 symbols: a–z, 0–9,
// space, anything else.
func gramSymbol(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= '0' && c <= '9':
		return 26 + int(c-'0')
	case c == ' ':
		return 36
	}
	return 37
}

// sharedGrams returns how many bigrams two ASCII strings share (the size of
// the multiset intersection of their bigrams, bytes outside [a-z0-9 ]
// counted as one symbol, which can only add to it). By the q-gram lemma two
// strings within edit distance k share at least max(len)−1−2k bigrams: a
// bound that rules out in linear time the pairs of long titles that the
// histogram lets through.
//
// Each byte's symbol is read once, from gramSymbols, and carried to the
// next bigram (TestSharedGramsAsPlain holds it to the symbol of each
// byte of each bigram).
func sharedGrams(a, b string) int {
	var count [38 * 38]uint16
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	prev := int(gramSymbols[a[0]]) * 38
	for i := 1; i < len(a); i++ {
		s := int(gramSymbols[a[i]])
		count[prev+s]++
		prev = s * 38
	}
	n := 0
	prev = int(gramSymbols[b[0]]) * 38
	for i := 1; i < len(b); i++ {
		s := int(gramSymbols[b[i]])
		if g := &count[prev+s]; *g > 0 {
			*g--
			n++
		}
		prev = s * 38
	}
	return n
}

// gramSymbols is gramSymbol of each byte.
var gramSymbols = func() (t [256]uint8) {
	for c := range t {
		t[c] = uint8(gramSymbol(byte(c)))
	}
	return t
}()

// TitlesMatch reports whether two titles match by the title rule of SPEC
// §5.2: equal after normalisation, normalised Levenshtein distance under 0.3,
// or at least three shared keywords that make up at least half of the shorter
// title's keywords.
func TitlesMatch(a, b string) bool {
	ta, tb := NewTitle(a), NewTitle(b)
	return ta.Matches(&tb)
}

// Norm returns the normalised title: the title half of the dedup key.
func (a *Title) Norm() string { return a.norm }

// Keywords returns the title's keywords (see Keywords).
func (a *Title) Keywords() []string { return a.kws }

// Matches applies the title rule to a and b.
func (a *Title) Matches(b *Title) bool {
	if a.norm == b.norm {
		return true
	}
	if len(a.kws) >= 3 && len(b.kws) >= 3 {
		if shared := sharedKeywords(a.kws, b.kws); shared >= 3 && 2*shared >= min(len(a.kws), len(b.kws)) {
			return true
		}
	}
	return closeTitles(a, b)
}

func sharedKeywords(a, b []string) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x == y {
				n++
				break
			}
		}
	}
	return n
}

// closeTitles reports whether the Levenshtein distance of two titles, divided
// by the longer length in runes, is under 0.3. The length difference and the
// histogram and bigram bounds rule most pairs out before the banded
// computation.
func closeTitles(a, b *Title) bool {
	if a.n < b.n {
		a, b = b, a
	}
	long := a.n
	if long == 0 {
		return true
	}
	// The largest distance that still matches: d/long < 0.3 ⇔ 10d < 3·long.
	limit := (3*long - 1) / 10
	if a.n-b.n > limit || a.hist.lowerBound(&b.hist) > limit {
		return false
	}
	if a.runes == nil && b.runes == nil {
		if need := long - 1 - 2*limit; need > 0 && long < 1<<16 && sharedGrams(a.norm, b.norm) < need {
			return false
		}
		// A read-only view of the bytes: no copy per comparison.
		return levenshteinWithin(unsafe.Slice(unsafe.StringData(a.norm), len(a.norm)),
			unsafe.Slice(unsafe.StringData(b.norm), len(b.norm)), limit)
	}
	ra, rb := a.runes, b.runes
	if ra == nil {
		ra = []rune(a.norm)
	}
	if rb == nil {
		rb = []rune(b.norm)
	}
	return levenshteinWithin(ra, rb, limit)
}

// levenshteinWithin reports whether the edit distance of a and b is at most
// limit, computing only the band of the matrix that can stay within it. Rows
// of up to 127 cells live on the stack.
func levenshteinWithin[E byte | rune](a, b []E, limit int) bool {
	const inf = 1 << 30
	var bufs [2][128]int32
	var prev, cur []int32
	if len(b) < len(bufs[0]) {
		prev, cur = bufs[0][:len(b)+1], bufs[1][:len(b)+1]
	} else {
		prev, cur = make([]int32, len(b)+1), make([]int32, len(b)+1)
	}
	for j := range prev {
		prev[j] = int32(j)
	}
	lim := int32(limit)
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		// Cells outside the band are "too far": only the two next to it are
		// ever read.
		cur[lo-1] = inf
		if hi < len(b) {
			cur[hi+1] = inf
		}
		if i <= limit {
			cur[0] = int32(i)
		}
		best := cur[lo-1]
		ai := a[i-1]
		for j := lo; j <= hi; j++ {
			v := prev[j-1]
			if ai != b[j-1] {
				v++
			}
			if w := prev[j] + 1; w < v {
				v = w
			}
			if w := cur[j-1] + 1; w < v {
				v = w
			}
			cur[j] = v
			if v < best {
				best = v
			}
		}
		if best > lim {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] <= lim
}

// Levenshtein returns the edit distance of a and b in runes.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Titles that name only where a defect is. A finding's line often opens
// with its place ("`a.go:12` — Title", "`views.py` (L88) - Title",
// "`x.go` line 9: Title"): its title is what follows (locationTitle,
// cutLocation). A finding whose line is only a place ("### HIGH:
// `config/prod.yaml`", "- CRITICAL: `storage/public-assets`") says what
// is wrong in the text under it: its title is that text's first sentence
// (descriptionTitle), so that it carries the defect's words.

// cutLocation splits t at a spaced hyphen or a colon that ends a place in
// a file ("`views.py` L91 - the refund …", "`a.py` line 9: tax …"): the
// text after it, and whether t opens so. A resource's name
// ("statefulset/orders-db: privileged container") stays in its title.
func cutLocation(t string) (string, bool) {
	for _, sep := range []string{" - ", ": "} {
		if i := strings.Index(t, sep); i > 0 && fileLocation(t[:i]) {
			if r := strings.TrimSpace(t[i+len(sep):]); r != "" && !emptyTitle(cleanTitle(r)) {
				return r, true
			}
		}
	}
	return t, false
}

// fileLocation reports whether s is a place in one file: isLocation, with
// a file's extension or a line mark ("a.go:12", "`views.py` (L88)",
// "x.sh"), not a resource's path ("deployment/cart").
func fileLocation(s string) bool {
	if !isLocation(s) {
		return false
	}
	p := strings.TrimSpace(strings.Trim(stripBold(s), "`"))
	if f, l, ok := strings.Cut(p, " "); ok {
		return lineMark(strings.Trim(l, "()")) || fileExtRe.MatchString(strings.Trim(f, "`"))
	}
	return fileExtRe.MatchString(p)
}

// placeOnly reports whether a title names only where a defect is and
// what kind of issue it is ("`config/prod.yaml`", "`Mapper.java:20` ·
// Code Smell"): no words of what is wrong.
func placeOnly(t string) bool {
	if strings.IndexAny(t, "/.:") < 0 {
		return false // no path, extension or line mark: no place
	}
	place := false
	for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == '·' || r == '|' }) {
		switch p := strings.TrimSpace(part); {
		case isLocation(p):
			place = true
		case issueKind(p):
		default:
			return false
		}
	}
	return place
}

// maxDescriptionTitle is the longest title taken from a description, in
// bytes: a sentence beyond it is cut at a word.
const maxDescriptionTitle = 120

// descriptionTitle returns the first sentence of the text under the line
// lines[i] (a finding's heading or item whose title is only a place), or
// "": the first line of text in the next few, past blank lines and the
// finding's fields, before any heading, list item or fence.
func descriptionTitle(lines []line, i int) string {
	for j := i + 1; j < len(lines) && j <= i+12; j++ {
		l := lines[j]
		t := strings.TrimSpace(l.text)
		switch {
		case t == "":
			continue
		case l.masked || l.level > 0:
			return ""
		case isFieldLine(t) || sevFieldAny(t) != nil || statusFieldOf(t) != nil:
			continue
		}
		if k, _, _ := listItem(t); k != 0 || strings.HasPrefix(t, "|") || strings.HasPrefix(t, ">") {
			return ""
		}
		s := stripBold(t)
		for _, end := range []string{". ", "! ", "? "} {
			if k := strings.Index(s, end); k > 0 {
				s = s[:k]
			}
		}
		if len(s) > maxDescriptionTitle {
			k := strings.LastIndexByte(s[:maxDescriptionTitle], ' ')
			if k <= 0 {
				return ""
			}
			s = s[:k]
		}
		if s = cleanTitle(s); emptyTitle(s) || isLocation(s) {
			return ""
		}
		return s
	}
	return ""
}

// maxTag is the longest category tag, in bytes, that may open a finding's
// line before its bold title.
const maxTag = 48

// taggedBoldLead returns the bold lead-in of a line that opens with a
// category tag in brackets ("[⚡ Performance] **Title** (HIGH)", as a
// synthesis of several reviewers tags each finding with its reviewer's
// area): the line from its bold title on, or "". A tag is short and
// holds words, not a tick ("[x]") or a link ("[text](url)").
func taggedBoldLead(t string) string {
	if !strings.HasPrefix(t, "[") {
		return ""
	}
	j := strings.IndexByte(t, ']')
	if j < 3 || j > maxTag || strings.ContainsAny(t[1:j], "[`") {
		return ""
	}
	rest := strings.TrimLeft(t[j+1:], " ")
	if !strings.HasPrefix(rest, "**") || strings.Index(rest[2:], "**") <= 0 {
		return ""
	}
	return rest
}
