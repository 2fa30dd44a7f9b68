package verify

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

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
		var all []paragraph
		agents := 1 + r.IntN(4)
		for a := range agents {
			c.names = append(c.names, string(rune('a'+a)))
			for range r.IntN(30) {
				p := wordSet(strings.Join(words(1+r.IntN(6)), " "))
				c.add(a, p)
				all = append(all, p)
			}
		}
		for range 20 {
			kws := words(r.IntN(7))
			var want []int
			for i, p := range all {
				if p.holds(kws) {
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
