package evidence

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzCheck checks a claim about a fuzzed file: no panic, a status of SPEC
// §5.7, a moved excerpt found inside the file — and the property that makes
// the checker trustworthy: an excerpt cut from the file's own lines a..b,
// cited at a..b, always verifies (also re-indented).
func FuzzCheck(f *testing.F) {
	for _, name := range []string{"verified", "moved", "mismatch"} {
		ar, err := txtar.ParseFile("testdata/" + name + ".txtar")
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if strings.HasPrefix(file.Name, "repo/") {
				f.Add(file.Data, "return err", 3, 5)
			}
		}
	}
	f.Add([]byte("a\n\n  b\r\n…\n"), "a ... b", 1, 2)
	f.Fuzz(func(t *testing.T, data []byte, excerpt string, a, b int) {
		v := New(fstest.MapFS{"f": {Data: data}}, Options{})
		r := v.Check([]parse.Claim{{Path: "f", Start: a, End: b, Excerpt: excerpt}})[0]
		switch r.Status {
		case parse.EvidenceVerified, parse.EvidenceMismatch, parse.EvidenceOutOfRange, parse.EvidenceSkipped:
		case parse.EvidenceMoved:
			if !strings.HasPrefix(r.Found, "f:") {
				t.Fatalf("moved to %q", r.Found)
			}
		default:
			t.Fatalf("status %q", r.Status)
		}
		if r.Status == parse.EvidenceSkipped {
			return // binary: the property below needs text
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(data) == 0 {
			return
		}
		lo := 1 + abs(a%len(lines))
		hi := lo + abs(b%4)
		if hi > len(lines) {
			hi = len(lines)
		}
		own := strings.Join(lines[lo-1:hi], "\n")
		for _, ex := range []string{own, "    " + strings.ReplaceAll(own, "\n", "\n\t ")} {
			r := v.Check([]parse.Claim{{Path: "f", Start: lo, End: hi, Excerpt: ex}})[0]
			if r.Status != parse.EvidenceVerified {
				t.Fatalf("lines %d-%d cited with their own text %q: %s (%s)", lo, hi, ex, r.Status, r.Note)
			}
		}
	})
}
