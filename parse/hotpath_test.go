package parse

import (
	"math/rand/v2"
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
