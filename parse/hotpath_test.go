package parse

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// byteSetCutsets are the byteSets of the hot paths with the cutsets of
// the strings calls they replace.
var byteSetCutsets = map[string]struct {
	set    *byteSet
	cutset string
}{
	"blankSet": {blankSet, " \t"}, "markTrim": {markTrim, " *_`[]"}, "idTrim": {idTrim, "[]`*"},
	"idTrimRight": {idTrimRight, ":.)"}, "parenTrim": {parenTrim, "() "}, "verdictTrim": {verdictTrim, "#> "},
	"sevTrim": {sevTrim, " \t*_`[]()\"'.:"}, "groupTrim": {groupTrim, "-*_`[]"},
}

// TestByteSetAsStrings holds each byteSet's trim, trimLeft, trimRight and
// indexAny to strings.Trim, TrimLeft, TrimRight and IndexAny with its
// cutset, on random texts of the cutset's bytes, letters and bytes outside
// ASCII (whole runes and cut ones).
func TestByteSetAsStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	for name, c := range byteSetCutsets {
		pieces := append(strings.Split(c.cutset, ""), "a", "Z", "é", "—", "\xe2", "\x80", " ", "\t", "**")
		for range 20000 {
			var b strings.Builder
			for n := r.IntN(8); n >= 0; n-- {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			s := b.String()
			if got, want := c.set.trim(s), strings.Trim(s, c.cutset); got != want {
				t.Fatalf("%s.trim(%q) = %q; strings.Trim: %q", name, s, got, want)
			}
			if got, want := c.set.trimLeft(s), strings.TrimLeft(s, c.cutset); got != want {
				t.Fatalf("%s.trimLeft(%q) = %q; strings.TrimLeft: %q", name, s, got, want)
			}
			if got, want := c.set.trimRight(s), strings.TrimRight(s, c.cutset); got != want {
				t.Fatalf("%s.trimRight(%q) = %q; strings.TrimRight: %q", name, s, got, want)
			}
			if got, want := c.set.indexAny(s), strings.IndexAny(s, c.cutset); got != want {
				t.Fatalf("%s.indexAny(%q) = %d; strings.IndexAny: %d", name, s, got, want)
			}
		}
	}
}

// plainTrimEmoji is trimEmoji as it was written first: white space and
// emoji off the start, one rune at a time.
func plainTrimEmoji(s string) string {
	for {
		s = strings.TrimLeft(s, " \t")
		r, n := utf8.DecodeRuneInString(s)
		if n <= 1 || !isEmojiRune(r) && r != '\u200d' {
			return s
		}
		s = s[n:]
	}
}

// TestHotPathsAsPlain holds trimEmoji to its plain form, and trailSeps to
// the separators found in the text, on random texts of emoji, dashes,
// pipes, white space and letters.
func TestHotPathsAsPlain(t *testing.T) {
	pieces := []string{"🔴", "🟠", "\u200d", "\ufe0f", "✅", "⚠️", " ", "\t", "a", "É", "—", "–", "-", "|", " — ", " – ",
		" - ", " -- ", " | ", "\xe2", "\xe2\x80", "x"}
	r := rand.New(rand.NewPCG(12, 2))
	for range 100000 {
		var b strings.Builder
		for n := r.IntN(8); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := trimEmoji(s), plainTrimEmoji(s); got != want {
			t.Fatalf("trimEmoji(%q) = %q; plain: %q", s, got, want)
		}
		if trailSeps(s) == nil {
			for _, sep := range trailingSeps {
				if strings.Contains(s, sep) {
					t.Fatalf("trailSeps(%q) = nil; it holds %q", s, sep)
				}
			}
		}
	}
}

// TestHeadWordsCoverRegexps holds each heading regexp's word list to it on
// random headings of the regexps' phrases, in any case, among the words
// that open them in findings' titles ("API key", "final", "must",
// "priority"): a heading the regexp matches holds one of the words.
func TestHeadWordsCoverRegexps(t *testing.T) {
	pieces := []string{"key findings", "Key Issues", "KEY RISKS", "key takeaways", "key concerns", "final thoughts",
		"Final Assessment", "final notes", "final grade", "FINAL WORDS", "Executive Summary", "summaries", "at a glance",
		"conclusions", "tl;dr", "recap", "verdict", "quick reference", "highlights", "résumé", "RÉSUMÉ", "resumen",
		"conclusión", "recommendations", "recommended changes", "Action Items", "action list", "next steps", "fix order",
		"order of fixes", "prioritised", "Prioritized", "priority matrix", "Priority List", "priority order",
		"priority fixes", "priority actions", "must-fix list", "Must fix list", "go/no-go", "go/no go", "recommandations",
		"recomendaciones", "API key", "final", "must", "priority", "action", "key", " ", " ", ": ", "x", "1."}
	r := rand.New(rand.NewPCG(12, 3))
	for range 50000 {
		var b strings.Builder
		for n := r.IntN(5); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		for name, h := range headWordLists {
			if h.re.MatchString(s) && !h.words.in(s) {
				t.Fatalf("%s matches %q, which holds none of its words", name, s)
			}
		}
	}
}

// plainVerdictLead is verdictLead as it was written first: the regexp on
// every lead with a colon.
func plainVerdictLead(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) >= 400 || !strings.ContainsAny(t, ":：") {
		return false
	}
	m := verdictLabelRe.FindStringSubmatch(strings.TrimLeft(stripBold(trimEmoji(t)), "#> "))
	if m == nil {
		return false
	}
	_, ok := NormalizeVerdict(verdictValue(m[3]))
	return ok
}

// TestVerdictLeadAsPlain holds verdictLead to its first form on random
// leads of verdict labels, markers, emphasis, emoji and values, and on
// the verdict lines of verdictPieces.
func TestVerdictLeadAsPlain(t *testing.T) {
	inputs := append([]string(nil), verdictPieces...)
	pieces := append([]string{"🔴 ", "✅", "**", "__", "# ", "> ", "- ", "* ", " ", "ſtatus", "VERDICT", "Location",
		"**Verdict:** ", "Decision: ", "Approve", "changes requested", "NO-GO", "Fazit: ", "判定：", "итог: "}, labelPieces...)
	r := rand.New(rand.NewPCG(12, 4))
	for range 100000 {
		var b strings.Builder
		for n := 1 + r.IntN(7); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		inputs = append(inputs, b.String())
	}
	yes := 0
	for _, s := range inputs {
		got, want := verdictLead(s), plainVerdictLead(s)
		if got != want {
			t.Fatalf("verdictLead(%q) = %v; plain: %v", s, got, want)
		}
		if got {
			yes++
		}
	}
	if yes < 200 {
		t.Errorf("%d verdict leads; want 200 or more", yes)
	}
}

// TestFoldInShortAsLower holds foldInShort to a look-up of the lowered
// text in each set it serves, on random texts of the sets' keys in any
// case, cut short, run on, with 'ſ', the Kelvin sign and 'İ' (which
// lowering changes in size).
func TestFoldInShortAsLower(t *testing.T) {
	sets := map[string]struct {
		set map[string]bool
		max int
	}{
		"fieldNames": {fieldNames, fieldNamesMax}, "placeholderWords": {placeholderWords, placeholderMax},
		"prefixWords": {prefixWords, prefixWordsMax},
	}
	// A text outside ASCII may lower to fewer bytes: the Kelvin sign
	// (three bytes) lowers to 'k'.
	if !foldInShort(map[string]bool{"kk": true}, 2, "\u212a\u212a") {
		t.Fatal("foldInShort({kk}, \"\\u212a\\u212a\") = false; it lowers to kk")
	}
	r := rand.New(rand.NewPCG(12, 5))
	for name, c := range sets {
		var pieces []string
		for k := range c.set {
			if k != "" {
				pieces = append(pieces, k, strings.ToUpper(k), k[:len(k)-1], k[1:])
			}
		}
		slices.Sort(pieces)
		pieces = append(pieces, " ", "x", "ſ", "\u212a", "İ", "É", strings.Repeat("a", 30))
		for range 50000 {
			var b strings.Builder
			for n := r.IntN(3); n >= 0; n-- {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			s := b.String()
			if got, want := foldInShort(c.set, c.max, s), c.set[strings.ToLower(s)]; got != want {
				t.Fatalf("foldInShort(%s, %q) = %v; the lowered text: %v", name, s, got, want)
			}
		}
	}
}

// TestColonIndexAndDigits holds colonIndex to strings.IndexAny(s, ":：")
// and hasDigit to strings.ContainsAny(s, "0123456789") on random texts of
// colons, digits, letters and the bytes of "：" alone and cut.
func TestColonIndexAndDigits(t *testing.T) {
	pieces := []string{":", "：", "\xef", "\xbc", "\x9a", "\xef\xbc", "a", "É", " ", "1", "9", "0", "/", ";", "\xe3"}
	r := rand.New(rand.NewPCG(12, 6))
	for range 100000 {
		var b strings.Builder
		for n := r.IntN(8); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := colonIndex(s), strings.IndexAny(s, ":："); got != want {
			t.Fatalf("colonIndex(%q) = %d; strings.IndexAny: %d", s, got, want)
		}
		if got, want := hasDigit(s), strings.ContainsAny(s, "0123456789"); got != want {
			t.Fatalf("hasDigit(%q) = %v; strings.ContainsAny: %v", s, got, want)
		}
	}
}

// plainSharedGrams is sharedGrams as it was written first.
func plainSharedGrams(a, b string) int {
	var count [38 * 38]uint16
	for i := 0; i+1 < len(a); i++ {
		count[gramSymbol(a[i])*38+gramSymbol(a[i+1])]++
	}
	n := 0
	for i := 0; i+1 < len(b); i++ {
		if g := &count[gramSymbol(b[i])*38+gramSymbol(b[i+1])]; *g > 0 {
			*g--
			n++
		}
	}
	return n
}

// TestSharedGramsAsPlain holds sharedGrams to its first form on random
// pairs of short texts of letters, digits, spaces and other bytes.
func TestSharedGramsAsPlain(t *testing.T) {
	const alphabet = "abcz09 AZ-.\xe2\x80"
	r := rand.New(rand.NewPCG(12, 7))
	text := func() string {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 200000 {
		a, b := text(), text()
		if got, want := sharedGrams(a, b), plainSharedGrams(a, b); got != want {
			t.Fatalf("sharedGrams(%q, %q) = %d; plain: %d", a, b, got, want)
		}
	}
}
