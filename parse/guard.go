package parse

import (
	"math/bits"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// guardedRe is a regexp behind a cheap test: words one of which every
// match holds, in any case. Most lines a report's reader tries a regexp on
// hold none of its words, and Go's regexps, unanchored and (?i), cost
// hundreds of nanoseconds a line to say so: the words are found in one pass
// over the line instead. FuzzRegexpGuards holds each guarded regexp to its
// regexp alone.
type guardedRe struct {
	re *regexp.Regexp
	// words are lower-case ASCII (or caseless symbols such as ✅); first
	// maps a byte to the words that can start there.
	words []string
	first [256]uint64
	// nonASCII: a line holding a byte outside ASCII is left to the
	// regexp (guardASCII).
	nonASCII bool
	// start: every match starts the line with one of the words
	// (guardStart).
	start bool
}

// guard returns re behind the test that s holds one of words. Each word
// must be a part of every match of re that the test lets through: at
// least one of them in each match, as (?i) matches it. An 's' of a word
// also finds 'ſ', and a 'k' the Kelvin sign, which (?i) folds to them.
func guard(re *regexp.Regexp, words ...string) *guardedRe {
	if len(words) > 64 {
		panic("guard: more than 64 words")
	}
	g := &guardedRe{re: re, words: words}
	for k, w := range words {
		for i := 0; i < len(w); i++ {
			c := w[i]
			if c >= 'A' && c <= 'Z' {
				panic("guard: word " + w + " is not lower-case")
			}
			// Only 's' and 'k' fold to letters outside ASCII.
			if c < 0x80 && unicode.IsLetter(rune(c)) && c != 's' && c != 'k' {
				for r := unicode.SimpleFold(rune(c)); r != rune(c); r = unicode.SimpleFold(r) {
					if r >= 0x80 {
						panic("guard: letter folds outside ASCII: " + string(rune(c)))
					}
				}
			}
		}
		c := w[0]
		g.first[c] |= 1 << k
		switch {
		case c >= 'a' && c <= 'z':
			g.first[c-'a'+'A'] |= 1 << k
		}
		switch c {
		case 's':
			g.first[0xc5] |= 1 << k // ſ
		case 'k':
			g.first[0xe2] |= 1 << k // K
		}
	}
	return g
}

// guardASCII is guard for a regexp whose words outside ASCII are too many
// to list: the words are those of its matches in ASCII, and a line that
// holds a byte outside ASCII is left to the regexp.
func guardASCII(re *regexp.Regexp, words ...string) *guardedRe {
	g := guard(re, words...)
	g.nonASCII = true
	return g
}

// guardStart is guard for a regexp anchored at the start of the text
// (^, without (?m)) whose every match opens with one of words: the words
// are looked for there only.
func guardStart(re *regexp.Regexp, words ...string) *guardedRe {
	g := guard(re, words...)
	g.start = true
	return g
}

// may reports whether s holds one of the guard's words.
func (g *guardedRe) may(s string) bool {
	if g.start {
		if len(s) == 0 {
			return false
		}
		for m := g.first[s[0]]; m != 0; m &= m - 1 {
			if hasWordFold(s, g.words[bits.TrailingZeros64(m)]) {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(s); i++ {
		if g.nonASCII && s[i] >= utf8.RuneSelf {
			return true
		}
		for m := g.first[s[i]]; m != 0; m &= m - 1 {
			if hasWordFold(s[i:], g.words[bits.TrailingZeros64(m)]) {
				return true
			}
		}
	}
	return false
}

// hasWordFold reports whether s starts with the word w, as guard reads it.
func hasWordFold(s, w string) bool { return wordFoldLen(s, w) >= 0 }

// wordFoldLen returns the length of the word w at the start of s, in any
// ASCII case, 'ſ' for 's' and the Kelvin sign for 'k' (as (?i) reads it),
// or -1.
func wordFoldLen(s, w string) int {
	j := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		if j >= len(s) {
			return -1
		}
		switch b := s[j]; {
		case b == c || c >= 'a' && c <= 'z' && b == c-'a'+'A':
			j++
		case c == 's' && b == 0xc5 && j+1 < len(s) && s[j+1] == 0xbf: // ſ
			j += 2
		case c == 'k' && b == 0xe2 && j+2 < len(s) && s[j+1] == 0x84 && s[j+2] == 0xaa: // K
			j += 3
		default:
			return -1
		}
	}
	return j
}

// MatchString is re.MatchString(s).
func (g *guardedRe) MatchString(s string) bool { return g.may(s) && g.re.MatchString(s) }

// FindString is re.FindString(s).
func (g *guardedRe) FindString(s string) string {
	if !g.may(s) {
		return ""
	}
	return g.re.FindString(s)
}

// FindStringIndex is re.FindStringIndex(s).
func (g *guardedRe) FindStringIndex(s string) []int {
	if !g.may(s) {
		return nil
	}
	return g.re.FindStringIndex(s)
}

// ReplaceAllString is re.ReplaceAllString(s, repl).
func (g *guardedRe) ReplaceAllString(s, repl string) string {
	if !g.may(s) {
		return s
	}
	return g.re.ReplaceAllString(s, repl)
}

// FindStringSubmatch is re.FindStringSubmatch(s).
func (g *guardedRe) FindStringSubmatch(s string) []string {
	if !g.may(s) {
		return nil
	}
	return g.re.FindStringSubmatch(s)
}

// FindAllStringSubmatch is re.FindAllStringSubmatch(s, n).
func (g *guardedRe) FindAllStringSubmatch(s string, n int) [][]string {
	if !g.may(s) {
		return nil
	}
	return g.re.FindAllStringSubmatch(s, n)
}

// FindAllStringIndex is re.FindAllStringIndex(s, n).
func (g *guardedRe) FindAllStringIndex(s string, n int) [][]int {
	if !g.may(s) {
		return nil
	}
	return g.re.FindAllStringIndex(s, n)
}

// FindAllStringSubmatchIndex is re.FindAllStringSubmatchIndex(s, n).
func (g *guardedRe) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !g.may(s) {
		return nil
	}
	return g.re.FindAllStringSubmatchIndex(s, n)
}

// lowerWords is a list of lower-case words, one of which a text is
// looked for in, as containsAny(strings.ToLower(s), words) looks, but in
// one pass; an ASCII text without lowering a copy.
type lowerWords struct {
	words []string
	// The words by their first and by their second byte: a place of a
	// text is compared with the few words that start with both of its
	// bytes, where many start with its first byte alone.
	first, second [256]uint64
}

func newLowerWords(words ...string) *lowerWords {
	if len(words) > 64 {
		panic("newLowerWords: more than 64 words")
	}
	w := &lowerWords{words: words}
	for k, word := range words {
		if len(word) < 2 {
			panic("newLowerWords: a word of one byte: " + word)
		}
		w.first[word[0]] |= 1 << k
		w.second[word[1]] |= 1 << k
	}
	return w
}

// in reports whether the lower-case s holds one of the words.
func (w *lowerWords) in(s string) bool { return w.inLower(wordsLower(s)) }

// wordsLower returns s as lowerWords compares it: an ASCII s as it is
// (inLower folds its bytes), any other lower-cased by strings.ToLower
// ('İ' lowers to an ASCII 'i', the Kelvin sign to 'k'). Lower a text once
// for several lists.
func wordsLower(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ToLower(s)
		}
	}
	return s
}

// inLower reports whether l, as wordsLower returns it, holds one of the
// words: one pass, each two bytes against the words that start with them.
func (w *lowerWords) inLower(l string) bool {
	for i := 0; i+1 < len(l); i++ {
		m := w.first[lowerASCII(l[i])]
		if m == 0 {
			continue
		}
		for m &= w.second[lowerASCII(l[i+1])]; m != 0; m &= m - 1 {
			if hasPrefixLower(l[i:], w.words[bits.TrailingZeros64(m)]) {
				return true
			}
		}
	}
	return false
}

// wordListSet looks a text up in several lists of lowerWords (eight at
// most) in one pass: headingClass asks three of each heading.
type wordListSet struct {
	lists []*lowerWords
	// The lists by the first and by the second bytes of their words.
	first, second [256]uint8
}

func newWordListSet(lists ...*lowerWords) *wordListSet {
	if len(lists) > 8 {
		panic("newWordListSet: more than 8 lists")
	}
	s := &wordListSet{lists: lists}
	for k, w := range lists {
		for _, word := range w.words {
			s.first[word[0]] |= 1 << k
			s.second[word[1]] |= 1 << k
		}
	}
	return s
}

// inLower returns a bit for each list (1<<k for lists[k]) that l, as
// wordsLower returns it, holds one of the words of.
func (s *wordListSet) inLower(l string) (found uint8) {
	all := uint8(1)<<len(s.lists) - 1
	for i := 0; i+1 < len(l) && found != all; i++ {
		c0, c1 := lowerASCII(l[i]), lowerASCII(l[i+1])
		for k := s.first[c0] & s.second[c1] &^ found; k != 0; k &= k - 1 {
			n := bits.TrailingZeros8(k)
			w := s.lists[n]
			for m := w.first[c0] & w.second[c1]; m != 0; m &= m - 1 {
				if hasPrefixLower(l[i:], w.words[bits.TrailingZeros64(m)]) {
					found |= 1 << n
					break
				}
			}
		}
	}
	return found
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixLower reports whether the lower-case ASCII s starts with w.
func hasPrefixLower(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if lowerASCII(s[i]) != w[i] {
			return false
		}
	}
	return true
}

// checkboxOf is checkboxRe.FindStringSubmatch(s): every match opens s
// with '['.
func checkboxOf(s string) []string {
	if !strings.HasPrefix(s, "[") {
		return nil
	}
	return checkboxRe.FindStringSubmatch(s)
}

// trailingSeps are the separators a level trails a title after, in the
// order labelText tries them.
var trailingSeps = []string{" — ", " – ", " - ", " -- ", " | ", " · "}

// trailSeps returns trailingSeps, or none when s holds none of their
// bytes ('-', '|', the lead byte of a dash, 0xe2, or of a middle dot,
// 0xc2): labelText looked for each of them in every label from its end.
func trailSeps(s string) []string {
	if strings.IndexByte(s, '-') < 0 && strings.IndexByte(s, '|') < 0 && strings.IndexByte(s, 0xe2) < 0 && strings.IndexByte(s, 0xc2) < 0 {
		return nil
	}
	return trailingSeps
}

// colonIndex is strings.IndexAny(s, ":："): a cutset outside ASCII makes
// IndexAny decode every rune of s and look it up in the cutset, some
// thousand instructions for a line of text.
func colonIndex(s string) int {
	i := strings.IndexByte(s, ':')
	if j := strings.Index(s, "："); j >= 0 && (i < 0 || j < i) {
		return j
	}
	return i
}
