package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzReadReport checks that the report parser never panics, keeps positions
// inside the input, and that its findings survive a round trip through the
// strict grammar: FormatIndex then ReadReport gives the same records back.
func FuzzReadReport(f *testing.F) {
	for _, b := range txtartest.Files(f, "testdata/report/*.txtar", func(n string) bool { return strings.HasSuffix(n, ".md") }) {
		f.Add(b)
	}
	if b, err := os.ReadFile("testdata/report/strict.txtar"); err == nil {
		f.Add(b)
	}
	// The probes' reports: structures of other review traditions
	// (TestProbe4, TestProbe5), and declared verdicts and tallies
	// (TestVerdictProbes).
	probes, err := filepath.Glob("testdata/probe4/*.md")
	if err != nil {
		f.Fatal(err)
	}
	verdicts, err := filepath.Glob("testdata/verdict4/*.md")
	if err != nil {
		f.Fatal(err)
	}
	probes5, err := filepath.Glob("testdata/probe5/*.md")
	if err != nil {
		f.Fatal(err)
	}
	probes = append(append(probes, probes5...), verdicts...)
	// The structures issue #26 found unread, one mini report each.
	for _, c := range structures5 {
		f.Add([]byte(c.report))
	}
	for _, c := range structures6 {
		f.Add([]byte(c.report))
	}
	for _, c := range structures8 {
		f.Add([]byte(c.report))
	}
	for _, c := range structures9 {
		f.Add([]byte(c.report))
	}
	for _, c := range resolved13 {
		f.Add([]byte(c.report))
	}
	for _, c := range tables13 {
		f.Add([]byte(c.report))
	}
	for _, c := range vocab13 {
		f.Add([]byte(c.report))
	}
	// Declared verdicts, look-alikes and titles the probes read wrong
	// (verdict5, lookalikes, locationTitles), one mini report each.
	for _, c := range verdict5 {
		f.Add([]byte(c.report))
	}
	for _, c := range lookalikes {
		f.Add([]byte(c.report))
	}
	for _, c := range locationTitles {
		f.Add([]byte(c.report))
	}
	for _, p := range probes {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := ReadReport(data)
		checkPositions(t, "input", data, r)
		if r.Status == "" {
			t.Fatal("no status")
		}
		// Never silently safe, and never silently unreadable: each
		// reason is an error at its line (SPEC §2.3).
		if r.Status == StatusUnreadable && !hasLineError(r.Diagnostics) {
			t.Fatalf("unreadable with no error diagnostic at a line: %v", r.Diagnostics)
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

// FuzzEvidenceClaims reads a whole input as one finding's description block:
// no panic, every claim is written on a line of the input, names a path, and
// its excerpt is made of (possibly de-indented) lines of the input.
func FuzzEvidenceClaims(f *testing.F) {
	ar, err := txtar.ParseFile("testdata/report/evidence.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, a := range ar.Files {
		if strings.HasSuffix(a.Name, ".md") {
			f.Add(a.Data)
		}
	}
	f.Add([]byte("**Evidence**:\n- a.go line 3\n  ```\n  x\n  ```\n- b.go#L4-L2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, lines := splitLines(string(data))
		mask(lines)
		input := string(data)
		for _, c := range evidenceClaims(lines, 0, len(lines)) {
			if c.Line < 1 || c.Line > len(lines) || c.Path == "" || len(c.Excerpt) > maxExcerpt {
				t.Fatalf("bad claim %+v (input has %d lines)", c, len(lines))
			}
			if !strings.Contains(lines[c.Line-1].text, c.Path) {
				t.Fatalf("claim %+v: line %d does not name its path", c, c.Line)
			}
			for _, l := range strings.SplitAfter(c.Excerpt, "\n") {
				if l = strings.TrimSuffix(l, "\n"); !strings.Contains(input, l) && utf8.ValidString(input) {
					t.Fatalf("claim %+v: excerpt line %q is not in the input", c, l)
				}
			}
		}
	})
}
