package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzReadReport checks that the report parser never panics, keeps positions
// inside the input, and that its findings survive a round trip through the
// strict grammar: FormatIndex then ReadReport gives the same records back.
func FuzzReadReport(f *testing.F) {
	files, _ := filepath.Glob("testdata/report/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, a := range ar.Files {
			if strings.HasSuffix(a.Name, ".md") {
				f.Add(a.Data)
			}
		}
	}
	if b, err := os.ReadFile("testdata/report/strict.txtar"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := ReadReport(data)
		checkPositions(t, "input", data, r)
		if r.Status == "" {
			t.Fatal("no status")
		}
		again := ReadReport([]byte(FormatIndex(r.Findings, r.Improvements, r.Verdict())))
		want := StatusValid
		switch {
		case r.Verdict() == Error:
			want = StatusError
		case len(r.Improvements) > 0:
			want = StatusVariant // IMP rows are a tolerated variant
		}
		if again.Status != want {
			t.Fatalf("re-parse of the formatted index is %s, want %s:\n%s\n%v", again.Status, want,
				FormatIndex(r.Findings, r.Improvements, r.Verdict()), again.Diagnostics)
		}
		if len(again.Findings) != len(r.Findings) || len(again.Improvements) != len(r.Improvements) {
			t.Fatalf("round trip changed the counts: %d/%d findings, %d/%d improvements",
				len(again.Findings), len(r.Findings), len(again.Improvements), len(r.Improvements))
		}
		for i, g := range again.Findings {
			w := r.Findings[i]
			wantID := idField(w.ID)
			if wantID == "-" {
				wantID = ""
			}
			if g.Severity != w.Severity || g.Title != field1(w.Title) || g.ID != wantID {
				t.Fatalf("round trip changed finding %d: %+v → %+v", i, w, g)
			}
		}
	})
}
