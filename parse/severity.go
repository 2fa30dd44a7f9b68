package parse

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sevClass says what a severity token stands for.
type sevClass int

const (
	sevNone        sevClass = iota // not a severity
	sevFinding                     // a finding of some Severity
	sevImprovement                 // IMP / IMPROVEMENT: an improvement, never a finding
)

// SeverityWord maps one severity token to a severity (SPEC §2.2):
// P0–P3 as themselves, P4 and above → P3, CRITICAL|BLOCKER → P0,
// HIGH|MAJOR → P1, MEDIUM|MODERATE → P2, LOW|MINOR|INFO|NIT → P3.
// ok is false for anything else (IMP included: see improvementWord).
func SeverityWord(tok string) (s Severity, ok bool) {
	s, c := severityToken(tok, false)
	return s, c == sevFinding
}

// IsPLevel reports whether tok, exactly as written, is a P-level: a P (or p)
// and digits, such as P1, p2 or P12. SeverityWord maps it; whether a
// lower-case p counts as a marker is the caller's rule.
func IsPLevel(tok string) bool {
	return len(tok) >= 2 && (tok[0] == 'P' || tok[0] == 'p') && isDigits(tok[1:])
}

// severityToken classifies tok. slot says the token stands in the severity
// column of an index line, where verdict and category words are also read
// (NEEDS-CHANGES → P1, SAFE/YAGNI → P3, MED → P2).
func severityToken(tok string, slot bool) (Severity, sevClass) {
	t := strings.ToUpper(strings.Trim(strings.TrimSpace(stripBold(tok)), "[]()`*_:."))
	t = strings.TrimSpace(t)
	if IsPLevel(t) {
		return pLevel(t), sevFinding
	}
	if sev, c, ok := vocabWord(t, slot); ok {
		return sev, c
	}
	if sev, ok := sevScale(t); ok {
		return sev, sevFinding
	}
	if !slot {
		return "", sevNone
	}
	if strings.ContainsAny(t, "_ ") {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "_", "-"), " ", "-")
	}
	switch t {
	case "MED":
		return P2, sevFinding
	case "NEEDS-CHANGES", "NEEDS-ATTENTION", "MUST-FIX":
		return P1, sevFinding
	case "SAFE", "YAGNI":
		return P3, sevFinding
	}
	if strings.HasPrefix(t, "IMP") && improvementIDRe.MatchString(t) {
		return "", sevImprovement // "IMP-1" written in the severity slot
	}
	return "", sevNone
}

// pLevel maps a P-level (IsPLevel) to its severity: P4 and above are P3.
func pLevel(t string) Severity {
	switch t[1:] {
	case "0":
		return P0
	case "1":
		return P1
	case "2":
		return P2
	}
	return P3
}

// sevScale maps a numbered severity of incident and ticket scales ("Sev1",
// "SEV-2", "Severity 3", "S1" is not one: it names too much else), where 1
// is the worst: Sev0 and Sev1 → P0, Sev2 → P1, Sev3 → P2, Sev4 and above →
// P3.
func sevScale(w string) (Severity, bool) {
	l, ok := levelNumber(w, "severity", "sev", false)
	if !ok {
		return "", false
	}
	switch l {
	case "0", "1":
		return P0, true
	case "2":
		return P1, true
	case "3":
		return P2, true
	}
	return P3, true
}

// sLevel reads the short form of the numbered scale of sevScale that
// defect trackers write ("S1", "s2"): S0 and S1 → P0, S2 → P1, S3 → P2,
// S4 and above → P3. It is read only in a severity slot (slotSeverity):
// a severity field or a table's severity column. "Layer S1", "(S1)" in a
// heading name steps, sections, stages and stories too.
func sLevel(w string) (Severity, bool) {
	if len(w) != 2 || w[0]|0x20 != 's' || w[1] < '0' || w[1] > '9' {
		return "", false
	}
	return sevScale("sev" + w[1:])
}

// priorityLevel reads a P-level spelled out ("Priority 1", "Prio-2",
// "priority 0"), as P1 abbreviates it: Priority 0 → P0, 1 → P1, 2 → P2,
// 3 and above → P3. It is read only in a severity position (a group
// heading, a severity field, brackets): "the priority 1 queue" is prose.
// "Priority1" glued is not one.
func priorityLevel(w string) (Severity, bool) {
	l, ok := levelNumber(w, "priority", "prio", true)
	if !ok {
		return "", false
	}
	return pLevel("P" + l), true
}

// levelNumber returns the number of a level written as its name, long or
// short, then one or two digits, with a space, '-' or '_' between them
// or not ("Severity 3", "SEV-2", "Sev1"; sep: one must stand there).
func levelNumber(w, long, short string, sep bool) (string, bool) {
	if len(w) < len(short)+1 || len(w) > 12 || w[0]|0x20 != short[0] {
		return "", false
	}
	l := strings.ToLower(w)
	switch {
	case strings.HasPrefix(l, long):
		l = l[len(long):]
	case strings.HasPrefix(l, short):
		l = l[len(short):]
	default:
		return "", false
	}
	t := strings.TrimLeft(l, " -_")
	if sep && len(t) == len(l) || !isDigits(t) || len(t) > 2 {
		return "", false
	}
	return t, true
}

// vocabRow is one row of the severity vocabulary.
type vocabRow struct {
	sev   Severity
	class sevClass
	// words are written lower-case, with one space between words. A
	// marker word also labels a finding wrapped in brackets or bold, or
	// bare before a colon, at the start of an item; the others label one
	// only in a severity position: a severity field, a table's severity
	// column, an index's severity slot, a group heading, brackets or
	// parentheses.
	marker, position []string
}

// vocabulary is the severity vocabulary of SPEC §2.3, the one table the
// reader takes severity words from (docs/reports.md shows it, and
// TestVocabularyDoc holds the two together). Words are matched in any case;
// a plural ("blockers", "nits") reads as its word. The words of other
// languages are those real reports use for the same levels: a marker where
// no English label is spelled so ("Kritisch:", "【重大】", "Критично:"), a
// position word where one is ("Critique", "Alto", "Media").
var vocabulary = []vocabRow{
	{sev: P0, class: sevFinding,
		marker: []string{"critical", "blocker", "blocking", "showstopper", "severe", "fix before merge", "🔴", "🚨", "⛔",
			"kritisch", "bloquant", "crítico", "crítica", "критично", "критический", "критическая", "критичный", "блокер",
			"严重", "超危", "致命", "重大", "緊急", "致命的", "긴급", "치명적", "심각"},
		position: []string{"crit", "critique", "highest", "usability catastrophe", "nghiêm trọng", "core", "no go", "critica", "critico", "kritiek",
			"urgent", "krytyczny", "krytyczna", "krytyczne", "kritik", "kritis", "치명", "गंभीर", "क्रिटिकल"}},
	{sev: P1, class: sevFinding,
		marker: []string{"high", "major", "must fix", "🟠",
			"hoch", "majeur", "élevé", "élevée", "высокий", "высокая", "высокое", "高危", "높음"},
		position: []string{"important", "serious", "major usability problem", "error", "haute", "alto", "alta", "高", "중요", "cao", "hoog",
			"danger", "wysoki", "wysoka", "wysokie", "yüksek", "tinggi", "उच्च"}},
	{sev: P2, class: sevFinding,
		marker: []string{"medium", "moderate", "should fix", "🟡",
			"mittel", "средний", "средняя", "среднее", "средне", "中危", "중간"},
		position: []string{"warning", "warn", "moyen", "moyenne", "medio", "media", "médio", "média", "中", "보통", "trung bình",
			"gemiddeld", "średni", "średnia", "średnie", "orta", "sedang", "मध्यम"}},
	{sev: P3, class: sevFinding,
		marker: []string{"low", "minor", "info", "informational", "nit", "cosmetic", "trivial", "nice to have",
			"🟢", "🔵", "⚪",
			"niedrig", "faible", "mineur", "низкий", "низкая", "низкое", "незначительно", "незначительный", "低危", "낮음"},
		position: []string{"suggestion", "nitpick", "lowest", "minor usability problem", "bas", "basse", "bajo", "baja", "baixo", "baixa", "低", "thấp",
			"bassa", "basso", "laag", "niski", "niska", "niskie", "düşük", "rendah", "निम्न"}},
	{class: sevImprovement, marker: []string{"imp", "improvement"}},
}

// vocabIndex maps each word of the vocabulary to its row; position marks
// the words that are severities only in a severity position.
var vocabIndex = func() map[string]vocabEntry {
	m := map[string]vocabEntry{}
	for _, r := range vocabulary {
		for _, w := range r.marker {
			m[w] = vocabEntry{r.sev, r.class, false}
		}
		for _, w := range r.position {
			m[w] = vocabEntry{r.sev, r.class, true}
		}
	}
	return m
}()

// vocabStarts holds the words that open the vocabulary's phrases of
// several words, and their first words together ("fix", "fix before" of
// "fix before merge"), as vocabKey writes them.
var vocabStarts = func() map[string]bool {
	m := map[string]bool{}
	for k := range vocabIndex {
		for i := range len(k) {
			if k[i] == ' ' {
				m[k[:i]] = true
			}
		}
	}
	return m
}()

type vocabEntry struct {
	sev      Severity
	class    sevClass
	position bool
}

// vocabWord looks w up in the vocabulary, in any case, with '-' and '_'
// read as spaces and a plural read as its word. A word of a severity
// position only is found when position is set.
func vocabWord(w string, position bool) (Severity, sevClass, bool) {
	var e vocabEntry
	var ok bool
	var buf [32]byte
	if k, ascii := asciiVocabKey(buf[:0], w); ascii {
		// Most words looked up are a title's, ASCII: their key is made
		// on the stack, and the map looked up without a copy.
		e, ok = vocabIndex[string(k)]
		if !ok && len(k) > 3 && k[len(k)-1] == 's' {
			e, ok = vocabIndex[string(k[:len(k)-1])]
		}
	} else if !vocabKeyLonger(w) {
		k := vocabKey(w)
		e, ok = vocabIndex[k]
		if !ok && len(k) > 3 && k[len(k)-1] == 's' {
			e, ok = vocabIndex[k[:len(k)-1]]
		}
	}
	if !ok || e.position && !position {
		return "", sevNone, false
	}
	return e.sev, e.class, true
}

// vocabKeyMax is the length of the longest ASCII key of the vocabulary,
// and vocabKeyRunes the most runes of any key: the words of other
// languages ("незначительный", 28 bytes) are told by their runes, and do
// not lengthen the ASCII words' test.
var vocabKeyMax, vocabKeyRunes = func() (int, int) {
	n, r := 0, 0
	for k := range vocabIndex {
		if asciiOnlyKey(k) {
			n = max(n, len(k))
		}
		r = max(r, utf8.RuneCountInString(k))
	}
	if n+2 > 32 {
		panic("vocabulary key longer than asciiVocabKey's buffer")
	}
	return n, r
}()

func asciiOnlyKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiVocabKey appends vocabKey(w) to dst when w is ASCII (ascii is false
// otherwise), or, when that is longer than any key's plural, a part of it
// that is too.
func asciiVocabKey(dst []byte, w string) (key []byte, ascii bool) {
	i, j := 0, len(w)
	for i < j && asciiSpace(w[i]) {
		i++
	}
	for j > i && asciiSpace(w[j-1]) {
		j--
	}
	gap := false
	for ; i < j; i++ {
		c := w[i]
		switch {
		case c >= utf8.RuneSelf:
			return nil, false
		case c == '-' || c == '_' || c == ' ' || c == '\t':
			gap = len(dst) > 0
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if len(dst) > vocabKeyMax+1 {
			// Too long to be a key or a key's plural, and so is any
			// key it begins: only the rest's ASCII is to tell.
			for ; i < j; i++ {
				if w[i] >= utf8.RuneSelf {
					return nil, false
				}
			}
			return dst, true
		}
		if gap {
			dst = append(dst, ' ')
			gap = false
		}
		dst = append(dst, c)
	}
	return dst, true
}

// vocabKeyLonger reports whether vocabKey(w) is surely longer than any
// key's plural (then it is no key, nor is it less its 's'), counting
// without lowering a copy: each rune that is not a separator or white
// space stays in the key, one byte at least. A title outside ASCII ("— ✅
// Fixed") is told apart without vocabKey's copies.
func vocabKeyLonger(w string) bool {
	n := 0
	for _, r := range w {
		if r == '-' || r == '_' || unicode.IsSpace(r) {
			continue
		}
		if n++; n > vocabKeyRunes+1 {
			return true
		}
	}
	return false
}

// asciiSpace reports whether c is white space to strings.TrimSpace.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// vocabKey writes w as the vocabulary does: lower case, single spaces.
func vocabKey(w string) string {
	w = strings.ToLower(strings.TrimSpace(w))
	if strings.ContainsAny(w, "-_ \t") {
		w = strings.Join(strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '\t' }), " ")
	}
	return w
}

// markerFirsts are the first letters of the marker words, in both cases:
// a regexp of them can match only from one of them or from a non-ASCII
// letter ('ſ' and the Kelvin sign fold to s and k).
var markerFirsts = func() string {
	var b strings.Builder
	for _, w := range strings.Split(markerWords, "|") {
		for _, c := range []byte{w[0], w[0] | 0x20} {
			if strings.IndexByte(b.String(), c) < 0 {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}()

// markerWords is the alternation of the vocabulary's ASCII marker words of
// findings, for the regexps of index list entries and prose markers.
var markerWords = func() string {
	var ws []string
	for _, r := range vocabulary {
		if r.class != sevFinding {
			continue
		}
		for _, w := range r.marker {
			if w[0] < utf8.RuneSelf && !strings.Contains(w, " ") {
				ws = append(ws, strings.ToUpper(w))
			}
		}
	}
	// Longest first, so that INFORMATIONAL is not read as INFO.
	slices.SortStableFunc(ws, func(a, b string) int { return len(b) - len(a) })
	return strings.Join(ws, "|")
}()

var improvementIDRe = regexp.MustCompile(`^IMP(ROVEMENT)?-?\d+$`)

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// severityWords matches one marker word of the vocabulary (not P-levels),
// whole.
var severityWords = markerWords

// idRe matches the finding IDs real agents write: SEC-1, SAF-01, P1-1, C1,
// ARCH-001, FD-UP-001, SAFE-W1-001, GS-I1, R-02-b, Q1. It must hold a digit.
var idRe = regexp.MustCompile(`^[A-Z][A-Za-z]{0,11}(?:[-_.]?[A-Za-z0-9]{1,8}){0,4}$`)

// IsFindingID reports whether s looks like a finding ID: an upper-case letter,
// letters, digits and -_. separators, at least one digit, at most 32 bytes.
func IsFindingID(s string) bool {
	// The cheap tests first: most words a prose title starts with have no
	// digit, and idRe needs an upper-case letter first.
	return len(s) <= 32 && s != "" && 'A' <= s[0] && s[0] <= 'Z' && hasDigit(s) &&
		!strings.HasSuffix(s, ".") && idMatch(s)
}

// idMatch is idRe.MatchString(s), read in one pass (FuzzRegexpGuards
// compares the two): s is runs of letters and digits between single
// separators, the first starting with an upper-case letter; the letters
// that open it, up to twelve, are the head, and each run (the first less
// its head) takes one group per eight characters, at most four in all.
func idMatch(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	groups, run, head, first := 0, 0, 0, true
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '-' || s[i] == '_' || s[i] == '.' {
			if run == 0 {
				return false // a separator last or after another
			}
			if first {
				run, first = run-head, false
			}
			groups += (run + 7) / 8
			run = 0
			continue
		}
		c := s[i]
		if !isASCIILetter(c) && (c < '0' || c > '9') {
			return false
		}
		if first && run == head && head < 12 && isASCIILetter(c) {
			head++
		}
		run++
	}
	return groups <= 4
}

// strictIDRe is the spec's ID pattern; IDs off it are a diagnostic only.
var strictIDRe = regexp.MustCompile(`^[A-Z]{2,3}-\d{3}$`)

// severityPrefix returns the severity of an ID that starts with one, as P1-1
// or P0-2 do (§2.2: "severity from the ID prefix when it is a severity").
func severityPrefix(id string) (Severity, bool) {
	if len(id) >= 3 && id[0] == 'P' && id[1] >= '0' && id[1] <= '3' && (id[2] == '-' || id[2] == '.') {
		return Severity(id[:2]), true
	}
	return "", false
}

// marker is a severity marker found in text (§2.3).
type marker struct {
	sev   Severity
	class sevClass
	start int // byte offsets of the marker in the text searched
	end   int
}

var (
	// A P-level token: P0–P3, not part of an ID like P1-1 or a word like P2P.
	plevelAt = regexp.MustCompile(`^(?:\*\*|__)?[\[(]?(?:\*\*)?(P[0-9])(?:\*\*)?[\])]?(?:\*\*|__)?`)
	// A severity word wrapped in brackets, parentheses or bold.
	wrappedWordAt = regexp.MustCompile(`^(?i)(?:\[(` + severityWords + `|IMP|IMPROVEMENT)\]|\((` + severityWords + `)\)|\*\*(` + severityWords + `)\*\*)`)
	// ID then separator then a severity word followed by ':' or end: "Finding 3 — CRITICAL:"
	bareWordAt = regexp.MustCompile(`^(?i)(` + severityWords + `)(?:\s*(?::|—|–|-\s|\|\s|·\s)|\s*$)`)
)

// plevelAtStart is plevelAt.FindStringSubmatchIndex(t): a match starts
// with '*', '_', '[', '(' or 'P'.
func plevelAtStart(t string) []int {
	if t == "" || strings.IndexByte("*_[(P", t[0]) < 0 {
		return nil
	}
	return plevelAt.FindStringSubmatchIndex(t)
}

// wrappedWordAtStart is wrappedWordAt.FindStringSubmatchIndex(t): a match
// starts with '[', '(' or '*'.
func wrappedWordAtStart(t string) []int {
	if t == "" || strings.IndexByte("[(*", t[0]) < 0 {
		return nil
	}
	return wrappedWordAt.FindStringSubmatchIndex(t)
}

// bareWordAtStart is bareWordAt.FindStringSubmatchIndex(t): a match opens
// with a marker word, whole (what may follow it is no letter), so t's
// leading run of ASCII letters must be one, in any case; a letter outside
// ASCII in or after the run ('ſ' and the Kelvin sign fold to s and k) is
// left to the regexp.
func bareWordAtStart(t string) []int {
	if t == "" || t[0] < utf8.RuneSelf && strings.IndexByte(markerFirsts, t[0]) < 0 {
		return nil
	}
	if t[0] < utf8.RuneSelf {
		var buf [24]byte
		n := 0
		for n < len(t) && isASCIILetter(t[n]) {
			n++
		}
		if (n == len(t) || t[n] < utf8.RuneSelf) && (n > len(buf) || !markerWordSet[string(appendLower(buf[:0], t[:n]))]) {
			return nil
		}
	}
	return bareWordAt.FindStringSubmatchIndex(t)
}

// markerWordSet holds the words of markerWords, lower-case.
var markerWordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Split(markerWords, "|") {
		m[strings.ToLower(w)] = true
	}
	return m
}()

// appendLower appends the ASCII s to dst in lower case.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, lowerASCII(s[i]))
	}
	return dst
}

// markerAt reads a marker at the start of s (after spaces). It accepts P0–P3
// as a token ("P1:", "P1 —", "[P1]", "**P1**", "(P1)", "P1 " + text) and a
// severity word in brackets, parentheses or bold. bare also accepts a bare
// severity word followed by ':' or a dash, as written right after an ID.
func markerAt(s string, bare bool) (marker, bool) {
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	t := s[lead:]
	if m := plevelAtStart(t); m != nil {
		end := m[1]
		rest := t[end:]
		// Not an ID (P1-1), a word (P2P) or a number (P10 is still P-level).
		if rest == "" || !(isWordByte(rest[0]) || (rest[0] == '-' && len(rest) > 1 && isWordByte(rest[1]))) {
			sev, c := severityToken(t[m[2]:m[3]], false)
			if c == sevFinding {
				return marker{sev: sev, class: c, start: lead, end: lead + end}, true
			}
		}
	}
	if m := wrappedWordAtStart(t); m != nil {
		word := ""
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				word = t[m[g]:m[g+1]]
			}
		}
		sev, c := severityToken(word, false)
		return marker{sev: sev, class: c, start: lead, end: lead + m[1]}, true
	}
	if bare {
		if m := bareWordAtStart(t); m != nil && isUpperWord(t[m[2]:m[3]]) {
			sev, c := severityToken(t[m[2]:m[3]], false)
			return marker{sev: sev, class: c, start: lead, end: lead + m[3]}, true
		}
	}
	return marker{}, false
}

// isUpperWord reports whether a severity word is written in capitals or
// title case ("CRITICAL", "Critical"), not as an ordinary lower-case word.
func isUpperWord(w string) bool {
	return w != "" && w[0] >= 'A' && w[0] <= 'Z'
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// parenMarkerRe matches a parenthesised marker closing a text: "(P0)",
// "(High)", "(critical)" — exactly a marker, not "(P0, validation)" or
// "(Low Risk)". Trailing ':' or '.' after it is allowed.
var parenMarkerRe = regexp.MustCompile(`(?i)\((P[0-9]|` + severityWords + `)\)\s*[:.]?\s*$`)

// parenMarkerAt is parenMarkerRe.FindStringSubmatchIndex(s), run from the
// last '(' only, and only when a marker can follow it: a match ends s with
// ')' and then white space and at most one ':' or '.', and its marker holds
// no '('. The regexp, run on every prose item, cost 400 ns on a line that
// ends with a parenthesised path.
func parenMarkerAt(s string) []int {
	e := len(s)
	for e > 0 && isRegexpSpace(s[e-1]) {
		e--
	}
	if e > 0 && (s[e-1] == ':' || s[e-1] == '.') {
		e--
	}
	for e > 0 && isRegexpSpace(s[e-1]) {
		e--
	}
	if e == 0 || s[e-1] != ')' {
		return nil
	}
	k := strings.LastIndexByte(s[:e], '(')
	// The marker starts with P or the first letter of a severity word, in
	// either case: no other character folds to those.
	if k < 0 || k+1 >= e-1 || s[k+1] != 'p' && s[k+1] != 'P' && s[k+1] < utf8.RuneSelf && strings.IndexByte(markerFirsts, s[k+1]) < 0 {
		return nil
	}
	m := parenMarkerRe.FindStringSubmatchIndex(s[k:])
	for i := range m {
		if m[i] >= 0 {
			m[i] += k
		}
	}
	return m
}

// trailingMarker reads a parenthesised marker at the end of s.
func trailingMarker(s string) (marker, bool) {
	m := parenMarkerAt(s)
	if m == nil {
		return marker{}, false
	}
	sev, c := severityToken(s[m[2]:m[3]], false)
	if c != sevFinding {
		return marker{}, false
	}
	return marker{sev: sev, class: c, start: m[0], end: m[1]}, true
}
