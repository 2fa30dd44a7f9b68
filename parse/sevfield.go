package parse

import (
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sevFieldSplit reads t as a severity field line, "- **Severity:** High"
// (SPEC §2.3 rule 2): t, the field's name as written (one of
// sevFieldNames) and its value, or nil. A tracker export's paragraphs of
// bold fields put a severity field in every fourth line, and fieldRun,
// readFieldBlock and labelOf each ask for it: the regexp's backtracking
// with its captures was a sixth of the parse (TestSevFieldSplitAsRegexp
// holds it equal to the regexp sevFieldNames stand for).
func sevFieldSplit(t string) []string {
	i := 0
	if len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && isRegexpSpace(t[1]) {
		i = spaceRun(t, 1)
	}
	if boldMarkAt(t, i) {
		i += 2
	}
	i = spaceRun(t, i)
	if i >= len(t) {
		return nil
	}
	var buf [4]int
	for m := sevFieldFirst[t[i]]; m != 0; m &= m - 1 {
		for _, e := range sevFieldNames[bits.TrailingZeros64(m)].ends(t, i, buf[:0]) {
			if e < 0 {
				continue
			}
			if v, ok := sevFieldValue(t, e); ok {
				return []string{t, t[i:e], v}
			}
		}
	}
	return nil
}

// sevFieldValue reads what follows a field's name at t[e:]: white space, "**" or "__", white space, a colon (ASCII or
// full-width), the same again, then the value, which holds no newline.
func sevFieldValue(t string, e int) (string, bool) {
	e = spaceRun(t, e)
	if boldMarkAt(t, e) {
		e += 2
	}
	e = spaceRun(t, e)
	switch {
	case e < len(t) && t[e] == ':':
		e++
	case strings.HasPrefix(t[e:], "："):
		e += len("：")
	default:
		return "", false
	}
	e = spaceRun(t, e)
	if boldMarkAt(t, e) {
		e += 2
	}
	e = spaceRun(t, e)
	if strings.IndexByte(t[e:], '\n') >= 0 {
		return "", false
	}
	return t[e:], true
}

// boldMarkAt reports whether "**" or "__" stands at t[i:].
func boldMarkAt(t string, i int) bool {
	return i+1 < len(t) && (t[i] == '*' && t[i+1] == '*' || t[i] == '_' && t[i+1] == '_')
}

// sevFieldName is one name a severity field may have (SPEC §2.3 rule 2):
// words, one of which stands at the name's start (two spellings of one
// name share an entry), then optional parts. The same names head a
// table's severity column (rule 4, sevColumn) and name a severity in
// brackets ("[Priority: P1]", wordValue).
type sevFieldName struct {
	words []string
	// more are the words one of which may follow after white space
	// ("severity level"), in the order they are tried.
	more []string
	// tail is a literal that may follow ("mức độ nghiêm trọng").
	tail string
	cvss bool
	// lead are the words one of which stands first, then white space
	// ("overall risk"): the name's start is one of them, not of words.
	lead []string
	// rank orders the severity fields of one finding and the severity
	// columns of one table: the lowest counts (sevRank).
	rank int8
}

// The ranks of severity fields and columns: a severity beats a risk, an
// overall rating or a CVSS score in a field (the first of them written
// counts), which beats a priority,
// which beats an impact (one axis of a risk) or a level; a column of CVSS
// scores counts only when no other names the level (sevColumnRank).
const (
	rankSeverity int8 = iota
	rankRisk
	rankPriority
	rankImpact
	rankScore
)

// sevFieldNames are the names of severity fields, the one table of them
// (docs/reports.md "Severity fields" lists them; TestSevFieldNamesDoc
// holds it equal to the regexp sevFieldNames stand for). The first that gives a match wins: a name that
// another opens ("sev", "severity") comes after it.
var sevFieldNames = []sevFieldName{
	{lead: sevFieldLead, words: []string{"severity"}, more: []string{"level", "rating"}},
	{lead: sevFieldLead, words: []string{"risk"}, rank: rankRisk},
	{words: []string{"severity"}, more: []string{"level", "rating"}},
	{words: []string{"sev"}},
	{words: []string{"criticality"}},
	{words: []string{"risk"}, more: []string{"level", "rating"}, rank: rankRisk},
	{words: []string{"priority"}, more: []string{"level"}, rank: rankPriority},
	{words: []string{"impact"}, more: []string{"level"}, rank: rankImpact},
	{words: []string{"cvss"}, cvss: true, rank: rankRisk},
	{words: []string{"sévérité"}}, {words: []string{"gravité"}}, {words: []string{"priorité"}, rank: rankPriority},
	{words: []string{"severidad"}}, {words: []string{"prioridad"}, rank: rankPriority}, {words: []string{"gravedad"}},
	{words: []string{"schweregrad"}}, {words: []string{"priorität"}, rank: rankPriority},
	{words: []string{"重要度"}}, {words: []string{"严重程度"}}, {words: []string{"严重性"}}, {words: []string{"优先级"}, rank: rankPriority},
	{words: []string{"심각도"}}, {words: []string{"우선순위"}, rank: rankPriority}, {words: []string{"중요도"}},
	{words: []string{"mức độ"}, tail: " nghiêm trọng"}, {words: []string{"độ ưu tiên"}, rank: rankPriority},
	{words: []string{"severidade"}}, {words: []string{"gravidade"}}, {words: []string{"prioridade"}, rank: rankPriority},
	{words: []string{"深刻度"}}, {words: []string{"风险等级"}, rank: rankRisk}, {words: []string{"위험도"}, rank: rankRisk},
	{words: []string{"серьезность", "серьёзность"}}, {words: []string{"критичность"}}, {words: []string{"приоритет"}, rank: rankPriority},
	{words: []string{"rating"}, rank: rankRisk}, {words: []string{"gravità"}}, {words: []string{"criticità"}}, {words: []string{"ernst"}},
	{words: []string{"criticité"}}, {words: []string{"重大度"}},
}

// sevColumnOnly are the names of a table's severity column that are no
// field's name ("| Level |", SPEC §2.3 rule 4), with their rank. A
// "Security severity" (code scanning's, beside its error/warning/note
// "Severity") beats every other.
var sevColumnOnly = []struct {
	name string
	rank int8
}{{"level", rankImpact}, {"grade", rankRisk}, {"threat level", rankImpact}, {"sev.", rankSeverity},
	{"prio", rankPriority}, {"security severity", rankSeverity - 1}}

// columnOnlyRank is the rank of name (in any case) among sevColumnOnly.
func columnOnlyRank(name string) (int8, bool) {
	for _, c := range sevColumnOnly {
		if strings.EqualFold(name, c.name) {
			return c.rank, true
		}
	}
	return 0, false
}

// sevNameOf returns the entry of sevFieldNames that names the whole of
// name (in any case), or nil.
func sevNameOf(name string) *sevFieldName {
	if name == "" {
		return nil
	}
	var buf [4]int
	for m := sevFieldFirst[name[0]]; m != 0; m &= m - 1 {
		n := &sevFieldNames[bits.TrailingZeros64(m)]
		if slices.Contains(n.ends(name, 0, buf[:0]), len(name)) {
			return n
		}
	}
	return nil
}

// sevColumn reports whether a table column's name (bold and emoji
// trimmed, in any case) names a severity: a field's name or one of
// sevColumnOnly.
func sevColumn(name string) bool {
	if _, ok := columnOnlyRank(name); ok {
		return true
	}
	return sevNameOf(name) != nil
}

// sevRank orders severity fields and columns by their name: the lowest
// counts; a name of neither ranks with the impacts.
func sevRank(name string) int8 {
	if r, ok := columnOnlyRank(name); ok {
		return r
	}
	if n := sevNameOf(name); n != nil {
		return n.rank
	}
	return rankImpact
}

// sevFieldLead are the words that may stand before "severity" or "risk"
// ("Overall Risk: Critical", "Residual Severity: Low").
var sevFieldLead = []string{"overall", "inherent", "residual"}

// sevFieldFirst maps a byte to the names of sevFieldNames (bit k for the
// k-th) whose text may start with it: the first byte of a name's first
// rune or of one of its case folds.
var sevFieldFirst = func() (first [256]uint64) {
	if len(sevFieldNames) > 64 {
		panic("sevFieldFirst: more than 64 names")
	}
	for k, n := range sevFieldNames {
		starts := n.words
		if n.lead != nil {
			starts = n.lead
		}
		for _, w := range starts {
			c, _ := utf8.DecodeRuneInString(w)
			f := c
			for {
				first[string(f)[0]] |= 1 << k
				if f = unicode.SimpleFold(f); f == c {
					break
				}
			}
		}
	}
	return first
}()

// ends appends to out where the name n may end when it starts at t[i:],
// in the order the regexp tries them (its optional parts taken first);
// -1 for none. At most four ends.
func (n *sevFieldName) ends(t string, i int, out []int) []int {
	if n.lead != nil {
		l := wordEnd(t, i, n.lead)
		if l < 0 {
			return nil
		}
		if i = spaceRun(t, l); i == l {
			return nil
		}
	}
	e := wordEnd(t, i, n.words)
	if e < 0 {
		return nil
	}
	switch {
	case n.cvss:
		// cvss(?:\s+v?[\d.]+)?(?:\s+(?:base\s+)?score)?
		v := cvssVersionEnd(t, e)
		if v >= 0 {
			out = append(out, cvssScoreEnd(t, v), v)
		}
		out = append(out, cvssScoreEnd(t, e), e)
	case n.tail != "":
		if k := foldPrefixLen(t[e:], n.tail); k >= 0 {
			out = append(out, e+k)
		}
		out = append(out, e)
	default:
		if s := spaceRun(t, e); s > e {
			for _, w := range n.more {
				if k := foldPrefixLen(t[s:], w); k >= 0 {
					out = append(out, s+k)
				}
			}
		}
		out = append(out, e)
	}
	return out
}

// wordEnd is the end of the first of words that t[i:] starts with under
// (?i), or -1.
func wordEnd(t string, i int, words []string) int {
	for _, w := range words {
		if k := foldPrefixLen(t[i:], w); k >= 0 {
			return i + k
		}
	}
	return -1
}

// cvssVersionEnd is the end of `\s+v?[\d.]+` at t[e:], or -1.
func cvssVersionEnd(t string, e int) int {
	s := spaceRun(t, e)
	if s == e {
		return -1
	}
	if d := digitDotRun(t, s); d > s {
		return d
	}
	if k := foldPrefixLen(t[s:], "v"); k >= 0 {
		if d := digitDotRun(t, s+k); d > s+k {
			return d
		}
	}
	return -1
}

// cvssScoreEnd is the end of `\s+(?:base\s+)?score` at t[e:], or -1.
func cvssScoreEnd(t string, e int) int {
	s := spaceRun(t, e)
	if s == e {
		return -1
	}
	if k := foldPrefixLen(t[s:], "base"); k >= 0 {
		if b := spaceRun(t, s+k); b > s+k {
			if k := foldPrefixLen(t[b:], "score"); k >= 0 {
				return b + k
			}
		}
	}
	if k := foldPrefixLen(t[s:], "score"); k >= 0 {
		return s + k
	}
	return -1
}

// digitDotRun is the end of the run of ASCII digits and dots at t[i:].
func digitDotRun(t string, i int) int {
	for i < len(t) && (isDigit(t[i]) || t[i] == '.') {
		i++
	}
	return i
}

// foldPrefixLen returns the length of the text at the start of s that
// the word w matches under (?i) (each rune of w, or one of its simple
// case folds), or -1.
func foldPrefixLen(s, w string) int {
	j := 0
	for i := 0; i < len(w); {
		c, n := rune(w[i]), 1
		if c >= utf8.RuneSelf {
			c, n = utf8.DecodeRuneInString(w[i:])
		}
		i += n
		if j >= len(s) {
			return -1
		}
		r, m := rune(s[j]), 1
		if r >= utf8.RuneSelf {
			r, m = utf8.DecodeRuneInString(s[j:])
		}
		j += m
		switch {
		case r == c:
		case c < utf8.RuneSelf && r < utf8.RuneSelf:
			// Letters of ASCII fold to one another only.
			if r|0x20 != c|0x20 || r|0x20 < 'a' || r|0x20 > 'z' {
				return -1
			}
		case c < utf8.RuneSelf && c|0x20 != 's' && c|0x20 != 'k':
			// Of ASCII, only s and k fold outside it (ſ, the Kelvin sign).
			return -1
		case r < utf8.RuneSelf && c != 'ſ' && c != '\u212a':
			// And only those two fold into it.
			return -1
		case !foldsTo(c, r):
			return -1
		}
	}
	return j
}

// foldsTo reports whether r is one of c's simple case folds.
func foldsTo(c, r rune) bool {
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		if f == r {
			return true
		}
	}
	return false
}
