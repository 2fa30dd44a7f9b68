package verify

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// wordsOf is verify's words, renamed where the test shadows it.
var wordsOf = words

// TestCorpusEachIsPlain holds the word index of corpus.each, which tries
// only the paragraphs holding one of a claim's rarest keywords, to the plain
// reading: every paragraph that holds the keywords, in order. Keywords
// repeat, come in plurals and include words no paragraph has.
func TestCorpusEachIsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	vocab := []string{"token", "tokens", "cache", "caches", "login", "query", "queries", "race", "leak", "leaks", "retry", "absent"}
	words := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = vocab[r.IntN(len(vocab))]
		}
		return out
	}
	for trial := range 300 {
		c := newCorpus()
		var all []map[string]bool
		agents := 1 + r.IntN(4)
		for a := range agents {
			c.names = append(c.names, string(rune('a'+a)))
			for range r.IntN(30) {
				ws := wordsOf(strings.Join(words(1+r.IntN(6)), " "))
				c.add(a, ws)
				set := map[string]bool{}
				for _, w := range ws {
					set[w] = true
				}
				all = append(all, set)
			}
		}
		for range 20 {
			var kws []string // stemmed, repeats kept
			for _, w := range words(r.IntN(7)) {
				kws = append(kws, stem(w))
			}
			var want []int
			for i, set := range all {
				n := 0
				for _, k := range kws {
					if set[k] {
						n++
					}
				}
				if len(kws) > 0 && n >= holdsNeed(len(kws)) {
					want = append(want, i)
				}
			}
			var got []int
			c.each(kws, func(i int) bool { got = append(got, i); return true })
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d: each(%q) = %v, want %v", trial, kws, got, want)
			}
		}
	}
}
