package evidence

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestFinderIsIndex holds the finder, which remembers its last search of
// each piece, to the plain search it stands for: the first occurrence of the
// piece at or after y, or -1. Starts go forward (matchFrom), backward (the
// backward search's later pieces) and anywhere.
func TestFinderIsIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	word := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab "[r.IntN(3)]
		}
		return b
	}
	for trial := range 2000 {
		norm := word(r.IntN(80))
		segs := [][]byte{word(1 + r.IntN(3)), word(1 + r.IntN(3)), word(1 + r.IntN(4))}
		f := newFinder(norm, segs)
		y := r.IntN(len(norm) + 1)
		for step := range 40 {
			k := r.IntN(len(segs))
			switch trial % 3 {
			case 0: // forward
				y = min(len(norm), y+r.IntN(5))
			case 1: // backward
				y = max(0, y-r.IntN(5))
			default:
				y = r.IntN(len(norm) + 1)
			}
			want := bytes.Index(norm[y:], segs[k])
			if want >= 0 {
				want += y
			}
			if got := f.index(k, y); got != want {
				t.Fatalf("trial %d step %d: index(%q in %q, from %d) = %d, want %d", trial, step, segs[k], norm, y, got, want)
			}
		}
	}
}
