package evidence

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fluxwatch/fluxwatch/parse"
)

// elidedClaims are 60 claims whose elided excerpt's first piece occurs on
// every line of a 256k-line file and whose last piece only at its end, and
// one claim of its last lines. Each costs about one reading of the file, not
// one per occurrence tried (the finder remembers its searches:
// TestFinderIsIndex holds it to the plain search): before, each try searched
// on to the last piece, and the 60 claims took 9 s here; 0.3 s after
// (BenchmarkElidedExcerpt).
func elidedClaims() (*Verifier, []parse.Claim, int) {
	const lines = 1 << 18
	data := strings.Repeat("a\n", lines-1) + "b\n"
	v := New(fstest.MapFS{"f.go": {Data: []byte(data)}}, Options{})
	var claims []parse.Claim
	for i := range 60 {
		claims = append(claims, parse.Claim{Path: "f.go", Start: 1 + i*4000, End: 1 + i*4000, Excerpt: "a\n...\nb\n"})
	}
	claims = append(claims, parse.Claim{Path: "f.go", Start: lines - 1, End: lines, Excerpt: "a\n// ...\nb\n"})
	return v, claims, lines
}

// TestElidedExcerpt: the 60 claims are mismatches (their pieces are a whole
// file apart); the last one is verified.
func TestElidedExcerpt(t *testing.T) {
	v, claims, lines := elidedClaims()
	res := v.Check(claims)
	for i, r := range res[:60] {
		if r.Status != parse.EvidenceMismatch {
			t.Errorf("claim %d: %s (%s), want mismatch: the pieces are %d lines apart", i, r.Status, r.Note, lines-1)
		}
	}
	if r := res[60]; r.Status != parse.EvidenceVerified {
		t.Errorf("last lines: %s (%s), want verified", r.Status, r.Note)
	}
}

func BenchmarkElidedExcerpt(b *testing.B) {
	v, claims, _ := elidedClaims()
	for b.Loop() {
		v.Check(claims)
	}
}
