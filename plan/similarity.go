package plan

import (
	"slices"
	"strings"
	"unicode"
)

// stopWords are English function words: never tokens of similarity or slugs.
var stopWords = setOf(`a an the and or but if then else of to in on at by for with from into onto over under
about as is are was were be been being it its this that these those there here we you he she they i me my our
your their them us do does did done doing have has had not no yes so such than too very can could should would
will shall may might must all any each every some more most other own same only just also via per up down out
off again when where why how what which who whom whose while after before between through during without within
both few nor let lets please`)

// genericWords say what is to be done, not what it is done to: they are left
// out of slugs.
var genericWords = setOf(`add adding added fix fixing fixed implement implementing implementation review
reviewing reviewed feature features plan planning task tasks agent agents create creating make making update
updating use using need needs want work working new change changes code write writing run running get set
support handle handling improve improving look check checking app application project repo repository
system thing things stuff`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// words splits s into lowercase runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// stem removes a plural "s": tables → table, but not process, status, analysis.
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") &&
		!strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
		return w[:len(w)-1]
	}
	return w
}

// Tokens returns the set of similarity tokens of s: its words (runs of letters
// and digits, lowercased) of two or more characters that are not stop words,
// with a plural "s" removed.
func Tokens(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words(s) {
		if len([]rune(w)) < 2 || stopWords[w] {
			continue
		}
		set[stem(w)] = true
	}
	return set
}

// Similarity is the overlap coefficient of the token sets of a and b:
// |A ∩ B| / min(|A|, |B|), in [0, 1]; 0 when either has no tokens. It is
// symmetric and deterministic, and a short field (a feature name) that appears
// whole in a long task scores 1.
func Similarity(a, b string) float64 {
	ta, tb := Tokens(a), Tokens(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	common := 0
	for t := range ta {
		if tb[t] {
			common++
		}
	}
	return float64(common) / float64(min(len(ta), len(tb)))
}

// Slug returns the lowercase kebab-case slug of a task: its three most
// frequent keywords (ASCII words of three or more characters that are neither
// stop words nor generic verbs such as "add" or "review"; ties to the one
// that comes first), in the order they first appear, each cut to 20
// characters. A task with no keyword gives "feature".
func Slug(task string) string {
	type kw struct {
		word  string
		count int
		first int
	}
	var kws []*kw
	byStem := map[string]*kw{}
	for i, w := range words(task) {
		if len(w) < 3 || stopWords[w] || genericWords[w] || !isASCIIWord(w) || isNumber(w) {
			continue
		}
		s := stem(w)
		if genericWords[s] {
			continue
		}
		k := byStem[s]
		if k == nil {
			k = &kw{word: w[:min(len(w), 20)], first: i}
			byStem[s] = k
			kws = append(kws, k)
		}
		k.count++
	}
	if len(kws) == 0 {
		return "feature"
	}
	slices.SortStableFunc(kws, func(a, b *kw) int { return b.count - a.count })
	kws = kws[:min(3, len(kws))]
	slices.SortFunc(kws, func(a, b *kw) int { return a.first - b.first })
	parts := make([]string, len(kws))
	for i, k := range kws {
		parts[i] = k.word
	}
	return strings.Join(parts, "-")
}

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func isNumber(w string) bool {
	return strings.Trim(w, "0123456789") == ""
}
