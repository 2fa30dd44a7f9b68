package parse

import (
	"strings"
)

// NormalizeKey normalises a section or title for the dedup key of SPEC §5.2:
// lower case, '-' as a space, every character outside [a-z0-9 ] dropped,
// spaces collapsed.
func NormalizeKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true // drop leading spaces
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '-' || r == ' ' || r == '\t' || r == '\n':
			if !space {
				b.WriteByte(' ')
				space = true
			}
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			space = false
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}

// stopWords are dropped from titles before keywords are compared (§5.2).
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "without": true, "not": true, "are": true,
	"from": true, "that": true, "this": true, "these": true, "those": true, "its": true, "but": true,
	"can": true, "may": true, "will": true, "should": true, "must": true, "has": true, "have": true,
	"was": true, "were": true, "into": true, "than": true, "then": true, "when": true, "which": true,
	"who": true, "all": true, "any": true, "only": true, "also": true, "more": true, "less": true,
	"does": true, "doesnt": true, "dont": true, "there": true, "their": true, "been": true,
	"being": true, "would": true, "could": true, "over": true, "under": true, "via": true,
	"per": true, "one": true, "two": true, "use": true, "uses": true, "used": true, "using": true,
	"about": true, "each": true, "both": true, "between": true,
}

// Keywords returns the distinct keywords of a title: its normalised words
// without stop words and words under three letters, in order.
func Keywords(title string) []string {
	var kws []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(NormalizeKey(title)) {
		if len(w) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		kws = append(kws, w)
	}
	return kws
}

// TitlesMatch applies the title rule of SPEC §5.2 to two titles: they match
// when their normalised forms are equal, when their normalised Levenshtein
// distance is under 0.3, or when they share at least three keywords that
// make up at least half of the shorter title's keywords.
func TitlesMatch(a, b string) bool {
	na, nb := NormalizeKey(a), NormalizeKey(b)
	if na == nb {
		return na != ""
	}
	if na == "" || nb == "" {
		return false
	}
	if LevenshteinRatio(na, nb) < 0.3 {
		return true
	}
	return KeywordsMatch(Keywords(a), Keywords(b))
}

// KeywordsMatch is the keyword half of the title rule: at least three shared
// keywords making up at least half of the shorter list.
func KeywordsMatch(ka, kb []string) bool {
	if len(ka) < 3 || len(kb) < 3 {
		return false
	}
	set := make(map[string]bool, len(ka))
	for _, k := range ka {
		set[k] = true
	}
	shared := 0
	for _, k := range kb {
		if set[k] {
			shared++
		}
	}
	short := min(len(ka), len(kb))
	return shared >= 3 && 2*shared >= short
}

// LevenshteinRatio returns the edit distance between a and b (in bytes)
// divided by the longer length: 0 for equal strings, 1 for nothing shared.
func LevenshteinRatio(a, b string) float64 {
	if a == b {
		return 0
	}
	n := max(len(a), len(b))
	if n == 0 {
		return 0
	}
	// The distance is at least the difference in length: skip the work when
	// that alone reaches the threshold callers use.
	if d := len(a) - len(b); float64(max(d, -d))/float64(n) >= 0.3 {
		return float64(max(d, -d)) / float64(n)
	}
	return float64(levenshtein(a, b)) / float64(n)
}

func levenshtein(a, b string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
