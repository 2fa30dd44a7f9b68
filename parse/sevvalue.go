package parse

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// severityValue reads a whole severity value (SPEC §2.3): the value of a
// severity field, a table cell, the text of brackets or parentheses, or the
// part of a heading or item that names its severity. Emoji, bold, brackets
// and backticks around it, a trailing count ("(2 items)", ": 3") and a
// trailing reason ("— data loss") are stripped; a compound value
// ("MEDIUM-HIGH", "High/Critical", "Low to Medium") takes the higher
// level; "High Priority", "Critical severity" are their level. position
// says the value stands in a severity position, where the words of the
// vocabulary that are severities only there count too. ok is false when
// the value, so stripped, holds anything but severity words.
func severityValue(s string, position bool) (Severity, sevClass, bool) {
	sev, c, ok := wordValue(s, position)
	if !ok && scoreNamed(s) {
		// "Severity 5/5", "CVSS 3.1: 8.1 (AV:N/…)": a score on a
		// scale its name states.
		if name, score, found := namedScore(s); found {
			if sev, ok := scoreSeverity(name, score); ok {
				return sev, sevFinding, true
			}
		}
	}
	return sev, c, ok
}

// scoreNamed reports whether s may be a score with its name: it opens
// with the first letter of one (cvss, severity, risk, impact,
// criticality, base score) and holds a digit. Most text severityValue
// fails on is told apart here.
func scoreNamed(s string) bool {
	t := strings.TrimLeft(s, " \t*_`([")
	return t != "" && strings.IndexByte("cCsSrRiIbB", t[0]) >= 0 && hasDigit(t)
}

// fieldSeverity reads the value of a severity field named name: as
// severityValue does, or as a score on the scale the name states
// ("CVSS: 8.1").
func fieldSeverity(name, value string) (Severity, sevClass, bool) {
	if optionList(value) {
		return "", sevNone, false // a template's "Critical | High | Medium | Low"
	}
	sev, c, ok := slotSeverity(value)
	if !ok {
		if v, ok := cutParenReason(value); ok {
			// "High (downgraded from Critical after discussion)"
			return slotSeverity(v)
		}
	}
	if !ok && hasDigit(value) {
		if sev, ok := scoreSeverity(name, value); ok {
			return sev, sevFinding, true
		}
		if words, ok := numberedWords(value); ok {
			// "3 — Major usability problem": the words name the level.
			return slotSeverity(words)
		}
	}
	return sev, c, ok
}

// slotSeverity reads the value of a severity slot, a severity field or a
// table's severity column: as severityValue in a severity position, or
// an S-level ("S1", sLevel), which only a slot holds.
func slotSeverity(s string) (Severity, sevClass, bool) {
	sev, c, ok := severityValue(s, true)
	if !ok {
		if sev, ok := sLevel(strings.Trim(strings.TrimSpace(stripBold(s)), "`[]()")); ok {
			return sev, sevFinding, true
		}
		if sev, ok := sLevelWords(s); ok {
			return sev, sevFinding, true // "S1 (Critical)"
		}
	}
	return sev, c, ok
}

// optionList reports whether a severity value lists the options of a
// template rather than rating anything: three or more severities of
// different levels between pipes or slashes ("Critical | High | Medium |
// Low", "P0/P1/P2/P3"). Two are a compound ("High/Critical"), read as the
// higher.
func optionList(v string) bool {
	if strings.Count(v, "|")+strings.Count(v, "/") < 2 {
		return false
	}
	var seen [4]bool
	n := 0
	for part := range strings.FieldsFuncSeq(v, func(r rune) bool { return r == '|' || r == '/' }) {
		sev, c, ok := severityValue(part, true)
		if !ok || c != sevFinding {
			return false
		}
		if k := sev.Rank(); k < 4 && !seen[k] {
			seen[k] = true
			n++
		}
	}
	return n >= 3
}

// namedScore splits a score from the name before it: at a colon
// ("CVSS 3.1: 8.1"), else before the last word, which opens with a digit
// ("CVSS 3.1 Base Score 9.8", "Severity 5/5").
func namedScore(s string) (name, score string, ok bool) {
	t := strings.TrimSpace(stripBold(s))
	if i := colonIndex(t); i > 0 && i <= 24 {
		_, n := utf8.DecodeRuneInString(t[i:])
		return t[:i], t[i+n:], true
	}
	i := strings.LastIndexByte(t, ' ')
	if i <= 0 || i > 24 || i+1 >= len(t) || !isDigit(t[i+1]) {
		return "", "", false
	}
	return t[:i], t[i+1:], true
}

// scoreSeverity reads a numeric severity whose scale its name states
// (SPEC §2.3 names no numbers; docs/reports.md gives this rule): a CVSS
// score ("CVSS", "CVSS 3.1 Base Score") in the standard bands, 9.0–10
// critical P0, 7.0–8.9 high P1, 4.0–6.9 medium P2, 0.1–3.9 low P3; and a
// severity rated out of five ("Severity: 4/5"), 5 the worst: 5 → P0, 4 →
// P1, 3 → P2, 1 and 2 → P3. A number whose scale is not stated
// ("Severity: 4") is not read.
func scoreSeverity(name, score string) (Severity, bool) {
	n := strings.TrimSpace(strings.Trim(strings.TrimSpace(name), "*_`-+ "))
	if len(n) > 24 {
		return "", false
	}
	n = strings.ToLower(n)
	v := strings.TrimSpace(strings.Trim(strings.TrimSpace(score), "*_`"))
	if i := strings.IndexAny(v, " (\t"); i > 0 {
		v = v[:i]
	}
	switch {
	case strings.HasPrefix(n, "cvss") || strings.HasSuffix(n, "base score"):
		v = strings.TrimSuffix(v, "/10")
		x, err := strconv.ParseFloat(v, 64)
		switch {
		case err != nil || x <= 0 || x > 10 || !isScore(v) && !isDigits(v):
			return "", false
		case x >= 9:
			return P0, true
		case x >= 7:
			return P1, true
		case x >= 4:
			return P2, true
		}
		return P3, true
	case strings.HasPrefix(n, "sev") || strings.HasPrefix(n, "risk") || n == "impact" || n == "criticality":
		if len(v) != 3 || v[1] != '/' || v[2] != '5' || v[0] < '1' || v[0] > '5' {
			return "", false
		}
		return [...]Severity{P3, P3, P2, P1, P0}[v[0]-'1'], true
	}
	return "", false
}

// wordValue is severityValue less its scores.
func wordValue(s string, position bool) (Severity, sevClass, bool) {
	v := strings.TrimSpace(stripBold(s))
	if f, ok := fieldInList(v); ok {
		v = f // "(Confidence: LOW, Severity: HIGH)": the severity field of several
	}
	// "(severity: high)", "[Priority: P1]", "[severity=high]": the
	// field's name is not the value.
	if i := strings.IndexAny(v, ":：="); i > 0 && i <= 32 {
		if sevColumn(strings.TrimSpace(v[:i])) {
			v = strings.TrimSpace(strings.TrimLeft(v[i:], ":：="))
		}
	}
	if strings.ContainsAny(v, ":：") {
		if m := sevFieldSplit(v); m != nil {
			v = strings.TrimSpace(m[2]) // "重要度：高": a severity field of a name sevfield.go reads
		}
	}
	// The reason after a dash, a colon or a semicolon is not the value.
	v = cutReason(v)
	v = sevTrim.trim(v)
	if v == "" {
		return "", sevNone, false
	}
	best, class, found := Severity(""), sevNone, false
	take := func(sev Severity, c sevClass) {
		if c == sevImprovement && !found {
			class, found = c, true
			return
		}
		if c == sevFinding && (class != sevFinding || sev.Rank() < best.Rank()) {
			best, class, found = sev, c, true
		}
	}
	// A parenthesised part is a second value ("Critical (P0)") or a count.
	main, paren := v, ""
	if i := strings.IndexByte(v, '('); i > 0 {
		main, paren = strings.TrimSpace(v[:i]), parenTrim.trim(v[i:])
		if j := strings.IndexByte(paren, ')'); j >= 0 {
			if strings.TrimSpace(parenTrim.trim(paren[j+1:])) != "" {
				return "", sevNone, false
			}
			paren = paren[:j]
		}
	}
	// A score with its level ("9.8 (Critical)", "7.5 (High)"): the level.
	if paren != "" && isScore(main) {
		main = ""
	}
	// A level with its score ("High (7.5)", "CRITICAL (9.8/10)"): the
	// level; "(10)" after a level is a count, read as one below.
	if main != "" && isScore(paren) {
		paren = ""
	}
	for _, part := range []string{main, paren} {
		if part == "" || isCount(part) {
			continue
		}
		sev, c, ok := severityPhrase(part, position)
		if !ok {
			return "", sevNone, false
		}
		take(sev, c)
	}
	return best, class, found
}

// severityPhrase reads a value of severity words only: one word or phrase
// of the vocabulary, a P-level, an emoji mark, or several joined by '/',
// '-', ',', "to", "or", "and" ("MEDIUM-HIGH", "🔴 Critical"), with an
// optional "priority", "severity", "risk" or "level" after them.
func severityPhrase(v string, position bool) (Severity, sevClass, bool) {
	if sev, c, ok := oneSeverity(v, position); ok {
		return sev, c, true
	}
	var buf [16]string
	parts := appendFields(buf[:0], v, phraseSep)
	best, class, n := Severity(""), sevNone, 0
	var levels [4]bool // the levels named: three or more make a scale
	improvement := false
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		if sev, c, ok := oneSeverity(p, position); ok {
			n++
			improvement = improvement || c == sevImprovement
			if r := sev.Rank(); r < 4 {
				levels[r] = true
			}
			if c == sevFinding && (class != sevFinding || sev.Rank() < best.Rank()) {
				best, class = sev, c
			} else if class == sevNone {
				class = c
			}
			continue
		}
		// Two or three words of one phrase: "must fix", "nice to have".
		if i+1 < len(parts) && phraseStart(p) {
			if sev, c, ok := oneSeverity(p+" "+parts[i+1], position); ok {
				i++
				n++
				if class != sevFinding || sev.Rank() < best.Rank() {
					best, class = sev, c
				}
				continue
			}
		}
		if i+2 < len(parts) && phraseStart(p) {
			if sev, c, ok := oneSeverity(p+" "+parts[i+1]+" "+parts[i+2], position); ok {
				i += 2
				n++
				if class != sevFinding || sev.Rank() < best.Rank() {
					best, class = sev, c
				}
				continue
			}
		}
		if foldIn(phraseFillers, p) && (i > 0 || strings.EqualFold(p, "priority")) {
			continue
		}
		if isEmojiMark(p) {
			continue
		}
		return "", sevNone, false
	}
	named := 0
	for _, l := range levels {
		if l {
			named++
		}
	}
	if named >= 3 {
		// "High/Medium/Low", "Critical / High / Medium / Low": the
		// scale a list is rated on, not a level.
		return "", sevNone, false
	}
	if improvement && n > 0 {
		// "Important improvements": an improvement stays one (SPEC §2.3).
		return "", sevImprovement, true
	}
	return best, class, n > 0
}

// phraseFillers are the words a severity phrase may hold besides its
// severities: "High or Critical", "P1 issues"; the first word of the
// phrase only when it is "priority".
var phraseFillers = map[string]bool{
	"to": true, "or": true, "and": true, "priority": true, "severity": true, "level": true, "prio": true, "sev": true,
	"issue": true, "issues": true, "concern": true, "concerns": true, "finding": true, "findings": true, "bug": true,
	"bugs": true, "problem": true, "problems": true, "vulnerability": true, "vulnerabilities": true,
}

// phraseSep reports whether r separates the words of a severity phrase.
func phraseSep(r rune) bool {
	return r == '/' || r == '-' || r == ',' || r == '|' || r == '–' || unicode.IsSpace(r)
}

// appendFields appends to dst the fields of s that strings.FieldsFunc(s,
// sep) returns: a caller's array holds them without allocating.
func appendFields(dst []string, s string, sep func(rune) bool) []string {
	start := -1
	for i, r := range s {
		switch {
		case !sep(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			dst = append(dst, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// foldIn reports set[strings.ToLower(w)], lowering an ASCII w on the stack.
func foldIn(set map[string]bool, w string) bool {
	var buf [24]byte
	if len(w) > len(buf) {
		return set[strings.ToLower(w)]
	}
	b := buf[:len(w)]
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return set[strings.ToLower(w)]
		}
		b[i] = lowerASCII(w[i])
	}
	return set[string(b)]
}

// foldInShort is foldIn for a set whose keys are at most maxLen bytes
// long: an ASCII w longer than that is none of them (lowering keeps an
// ASCII text's size), and is not lowered. Most titles and headings it is
// asked about are longer than every key.
func foldInShort(set map[string]bool, maxLen int, w string) bool {
	if len(w) > maxLen && isASCII(w) {
		return false
	}
	return foldIn(set, w)
}

// maxKeyLen returns the length of set's longest key.
func maxKeyLen(set map[string]bool) int {
	n := 0
	for k := range set {
		n = max(n, len(k))
	}
	return n
}

// byteSet is a set of ASCII bytes to trim, as the cutset of strings.Trim
// is, built once rather than on every call.
type byteSet [256]bool

func newByteSet(cutset string) *byteSet {
	var s byteSet
	for i := 0; i < len(cutset); i++ {
		if cutset[i] >= utf8.RuneSelf {
			panic("newByteSet: not ASCII")
		}
		s[cutset[i]] = true
	}
	return &s
}

// trim returns strings.Trim(w, cutset).
func (s *byteSet) trim(w string) string {
	return s.trimRight(s.trimLeft(w))
}

// trimLeft returns strings.TrimLeft(w, cutset).
func (s *byteSet) trimLeft(w string) string {
	i := 0
	for i < len(w) && s[w[i]] {
		i++
	}
	return w[i:]
}

// trimRight returns strings.TrimRight(w, cutset).
func (s *byteSet) trimRight(w string) string {
	j := len(w)
	for j > 0 && s[w[j-1]] {
		j--
	}
	return w[:j]
}

// indexAny returns strings.IndexAny(w, cutset).
func (s *byteSet) indexAny(w string) int {
	for i := 0; i < len(w); i++ {
		if s[w[i]] {
			return i
		}
	}
	return -1
}

// The cutsets of hot paths as byteSets: strings.Trim, TrimLeft, TrimRight
// and IndexAny build a set of a cutset of more than one byte on every
// call, 4% of the parse of a dense report (TestByteSetAsStrings holds
// each to the strings function).
var (
	blankSet     = newByteSet(" \t")
	spaceSet     = newByteSet(" \t\n\f\r") // a regexp's \s
	markTrim     = newByteSet(" *_`[]")    // around a group's core
	idTrim       = newByteSet("[]`*")      // around a lead ID
	idTrimRight  = newByteSet(":.)")       // after a lead ID
	parenTrim    = newByteSet("() ")       // around a parenthesised value
	verdictTrim  = newByteSet("#> ")       // before a verdict lead
	labelLeadSet = newByteSet(labelLead)   // before a verdict label's first byte
)

// sevTrim is what oneSeverity trims around a word: white space, emphasis,
// brackets, quotes and a closing period or colon.
var sevTrim = newByteSet(" \t*_`[]()\"'.:")

// phraseStart reports whether a phrase of several words that oneSeverity
// reads may open with w: a phrase of the vocabulary ("must" of "must fix",
// "fix-before" of "fix before merge"), a level number ("Sev 1", "Priority
// 2"), or anything after the characters oneSeverity trims, emoji and
// white space it skips ("** Must fix", "🔴 nice to have"). Other words are read alone,
// and the words after them need not be joined to them and looked up.
func phraseStart(w string) bool {
	for {
		w = sevTrim.trimLeft(w)
		r, n := utf8.DecodeRuneInString(w)
		if n <= 1 || !isEmojiRune(r) {
			break
		}
		w = w[n:]
	}
	var buf [32]byte
	k, ascii := asciiVocabKey(buf[:0], w)
	if !ascii {
		k = []byte(vocabKey(w))
	}
	return len(k) == 0 || hasPrefixLower(string(k), "sev") || hasPrefixLower(string(k), "prio") || vocabStarts[string(k)]
}

// blank reports whether oneSeverity reads nothing in s when it ends a
// phrase: s holds only what it trims, variation selectors, dashes,
// underscores and white space.
func blank(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf && sevTrim[r] || r == '-' || r == '_' || r == '\ufe0f' || unicode.IsSpace(r) {
			continue
		}
		return false
	}
	return true
}

// oneSeverity reads one word or phrase of the vocabulary, or a P-level.
func oneSeverity(w string, position bool) (Severity, sevClass, bool) {
	w = sevTrim.trim(w)
	if IsPLevel(w) {
		return pLevel(w), sevFinding, true
	}
	if sev, ok := sevScale(w); ok {
		return sev, sevFinding, true
	}
	if sev, ok := priorityLevel(w); ok && position {
		return sev, sevFinding, true
	}
	// An emoji mark before its word: "🔴Critical".
	if r, n := utf8.DecodeRuneInString(w); n > 1 && n < len(w) && isEmojiRune(r) {
		rest := strings.TrimLeft(w[n:], "\ufe0f ")
		if sev, c, ok := vocabWord(rest, position); ok {
			return sev, c, true
		}
	}
	return vocabWord(strings.TrimSuffix(w, "\ufe0f"), position)
}

// cutReason cuts a trailing reason off a severity value: the text after a
// spaced dash, a colon, a semicolon or a comma followed by words.
func cutReason(v string) string {
	for _, sep := range []string{" — ", " – ", " -- ", " - ", ": ", "; ", ". ", " | ", " —", " –"} {
		if i := strings.Index(v, sep); i > 0 {
			v = v[:i]
		}
	}
	// "High for agent use", "Critical because the key leaks": a
	// severity word, then a clause that says why or where.
	if i := strings.IndexByte(v, ' '); i > 0 {
		if j := strings.IndexByte(v[i+1:], ' '); j > 0 {
			switch strings.ToLower(v[i+1 : i+1+j]) {
			case "for", "because", "since", "when", "if", "in", "on", "as", "due", "until", "unless", "pour", "para", "car", "porque":
				v = v[:i]
			}
		}
	}
	return strings.TrimSpace(strings.TrimRight(v, ":;,—–"))
}

// isCount reports whether s is a count: "3", "2 items", "0 findings", "15
// findings", "3건", "x2".
func isCount(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	rest := strings.ToLower(strings.TrimSpace(s[i:]))
	for _, v := range [...]string{" found", " identified", " detected", " reported"} {
		// "1 issue found", "3 findings identified"
		if strings.HasSuffix(rest, v) && strings.IndexByte(rest, ' ') == len(rest)-len(v) {
			rest = rest[:len(rest)-len(v)]
		}
	}
	switch rest {
	case "", "item", "items", "finding", "findings", "issue", "issues", "bug", "bugs", "problem", "problems",
		"concern", "concerns", "gap", "gaps", "total", "found", "건", "件", "个", "개", "개 항목", "problèmes", "problemas":
		return true
	}
	return false
}

// isEmojiMark reports whether s is only emoji and variation selectors.
func isEmojiMark(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isEmojiRune(r) && r != '\ufe0f' && r != '\u200d' {
			return false
		}
	}
	return true
}

// isEmojiRune reports whether r is a pictograph or symbol that reports
// put before a severity or a heading (🔴, ⚠️, ✅, ❌, ★).
func isEmojiRune(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2190 && r <= 0x2BFF || r == '\ufe0f'
}

// trimEmoji removes emoji marks (and spaces) from the start of s.
func trimEmoji(s string) string {
	for {
		s = blankSet.trimLeft(s)
		if s == "" || s[0] < utf8.RuneSelf {
			return s // no emoji opens it: the common case, without decoding
		}
		r, n := utf8.DecodeRuneInString(s)
		if n <= 1 || !isEmojiRune(r) && r != '\u200d' {
			return s
		}
		s = s[n:]
	}
}

// isScore reports whether s is a decimal score ("9.8", "7.5/10"), as a
// CVSS score is written before its level.
func isScore(s string) bool {
	s, _, _ = strings.Cut(s, "/")
	i := strings.IndexByte(s, '.')
	if i <= 0 || i == len(s)-1 {
		return false
	}
	return isDigits(s[:i]) && isDigits(s[i+1:])
}

// fieldInList reads a list of fields joined by commas or semicolons,
// each "Name: value" ("Confidence: LOW, Severity: HIGH", as scanners
// print a result's ratings): the one whose name is severity or risk.
func fieldInList(v string) (string, bool) {
	if strings.IndexByte(v, ',') < 0 && strings.IndexByte(v, ';') < 0 {
		return "", false
	}
	field := ""
	for part := range strings.FieldsFuncSeq(v, func(r rune) bool { return r == ',' || r == ';' }) {
		name, _, ok := strings.Cut(part, ":")
		if !ok {
			return "", false
		}
		// A severity, risk or rating field (sevFieldNames), not a
		// priority or an impact.
		if n := sevNameOf(strings.TrimSpace(name)); n != nil && n.rank <= rankRisk {
			if field != "" {
				return "", false
			}
			field = strings.TrimSpace(part)
		}
	}
	return field, field != ""
}
