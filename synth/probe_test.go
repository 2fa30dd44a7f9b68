package synth

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// probePlain is the plain reading of blocks.probe, kept as its reference:
// sort the keys by the size of their block (then by key), stably, looking
// the sizes up at every comparison, and keep all but the two commonest.
func probePlain(bl blocks, prefix string, keys []string) []string {
	if len(keys) <= 3 {
		return keys
	}
	sorted := slices.Clone(keys)
	slices.SortStableFunc(sorted, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(bl[prefix+a]), len(bl[prefix+b])), cmp.Compare(a, b))
	})
	return sorted[:len(sorted)-2]
}

// blocks.probe looks each block's size up once; it must pick exactly the
// keys, in exactly the order, of the plain reading: random blocks, keys
// repeated (two keywords with one 4-letter block), ties of size and of
// key, with and without a prefix.
func TestProbeIsProbePlain(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vocab := []string{"dead", "lock", "race", "leak", "auth", "toke", "sql", "", "miss", "rate", "limi", "cach"}
	for trial := range 2000 {
		prefix := ""
		if trial%2 == 1 {
			prefix = "sec\x00"
		}
		bl := blocks{}
		for range r.IntN(60) {
			bl.add(prefix+vocab[r.IntN(len(vocab))], r.IntN(40))
		}
		keys := make([]string, r.IntN(9))
		for i := range keys {
			keys[i] = vocab[r.IntN(len(vocab))]
		}
		if got, want := bl.probe(prefix, keys), probePlain(bl, prefix, keys); !slices.Equal(got, want) {
			t.Fatalf("trial %d: probe(%q, %q) = %q, want %q", trial, prefix, keys, got, want)
		}
	}
}
