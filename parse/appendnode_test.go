package parse

import (
	"math/rand/v2"
	"testing"
)

// TestAppendNodeAsAppend holds appendNode to append: the same nodes in the
// same order, whatever the lines' count and the nodes' lines; and its
// growth within a quarter and double of the list once it is large.
func TestAppendNodeAsAppend(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for range 50 {
		lines := 1 + r.IntN(200000)
		var got, want []gnode
		at := 0
		for k := r.IntN(20000); k > 0 && at < lines; k-- {
			n := gnode{i: at, text: "x", count: k}
			c := cap(got)
			got = appendNode(got, n, lines)
			want = append(want, n)
			if c >= 1024 && len(got)-1 == c && (cap(got) < c+c/4 || cap(got) > 2*c) {
				t.Fatalf("grown from %d to %d at line %d of %d; want a quarter to double", c, cap(got), at, lines)
			}
			at += r.IntN(3)
		}
		if len(got) != len(want) {
			t.Fatalf("%d nodes; append: %d", len(got), len(want))
		}
		for i := range got {
			if got[i].i != want[i].i || got[i].count != want[i].count || got[i].text != want[i].text {
				t.Fatalf("node %d: %+v; append: %+v", i, got[i], want[i])
			}
		}
	}
}
