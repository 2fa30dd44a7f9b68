package parse

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// probeWant is what testdata/verdict4/expect.tsv says one probe reads as.
type probeWant struct {
	file     string
	status   Status
	declared Verdict // "" for none
	verdict  Verdict
	p0, p1   int // P0 and P1 findings read, not resolved
	resolved int
}

func readProbeWants(t *testing.T, path string) []probeWant {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []probeWant
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		s := sc.Text()
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		c := strings.Split(s, "\t")
		if len(c) != 7 {
			t.Fatalf("%s:%d: %d columns, want 7", path, n, len(c))
		}
		w := probeWant{file: c[0], status: Status(c[1]), verdict: Verdict(c[3])}
		if c[2] != "-" {
			w.declared = Verdict(c[2])
		}
		for i, p := range []*int{&w.p0, &w.p1, &w.resolved} {
			if *p, err = strconv.Atoi(c[4+i]); err != nil {
				t.Fatalf("%s:%d: column %d: %v", path, n, 5+i, err)
			}
		}
		out = append(out, w)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVerdictProbes reads the probes of testdata/verdict4 — declared
// verdicts in many styles, tallies, resolved items and look-alikes that
// are no report (SPEC §2.3 "Declared verdict", "Never silently safe",
// §2.5 unreadable) — and holds each to its line of expect.tsv. It prints
// how many of each kind read as expected.
func TestVerdictProbes(t *testing.T) {
	dir := filepath.Join("testdata", "verdict4")
	wants := readProbeWants(t, filepath.Join(dir, "expect.tsv"))
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, w := range wants {
		listed[w.file] = true
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s has no line in expect.tsv", f)
		}
	}
	var ok, statusOK, declaredOK, unreadable, unreadableOK, clean, cleanOK int
	for _, w := range wants {
		data, err := os.ReadFile(filepath.Join(dir, w.file))
		if err != nil {
			t.Error(err)
			continue
		}
		r := ReadReport(data)
		got := probeWant{file: w.file, status: r.Status, verdict: r.Verdict(), resolved: len(r.Resolved)}
		if declarable(r.DeclaredVerdict) {
			got.declared = r.DeclaredVerdict
		}
		for _, f := range r.Findings {
			switch f.Severity {
			case P0:
				got.p0++
			case P1:
				got.p1++
			}
		}
		if w.status == StatusUnreadable {
			unreadable++
		} else {
			clean++
		}
		if got.status == w.status {
			statusOK++
			if w.status == StatusUnreadable {
				unreadableOK++
			} else {
				cleanOK++
			}
		}
		if got.declared == w.declared {
			declaredOK++
		}
		if got == w {
			ok++
		} else {
			var ds []string
			for _, d := range r.Diagnostics {
				if d.Level != LevelInfo {
					ds = append(ds, "\t"+d.String())
				}
			}
			t.Errorf("%s: got %s, declared %q, verdict %s, P0 %d, P1 %d, resolved %d; want %s, declared %q, verdict %s, P0 %d, P1 %d, resolved %d\n%s",
				w.file, got.status, got.declared, got.verdict, got.p0, got.p1, got.resolved,
				w.status, w.declared, w.verdict, w.p0, w.p1, w.resolved, strings.Join(ds, "\n"))
		}
		// Never silently safe: an unreadable report says where.
		if r.Status == StatusUnreadable && !hasLineError(r.Diagnostics) {
			t.Errorf("%s: unreadable with no error diagnostic at a line", w.file)
		}
	}
	t.Logf("verdict4: %d of %d probes as expected; status %d/%d, declared verdict %d/%d; unreadable where due %d/%d, not unreadable where not due %d/%d",
		ok, len(wants), statusOK, len(wants), declaredOK, len(wants), unreadableOK, unreadable, cleanOK, clean)
}

// declarable reports whether v is a verdict a report may declare: a
// declared word fluxwatch could not map is not one.
func declarable(v Verdict) bool {
	return v == Safe || v == NeedsChanges || v == Risky
}

func hasLineError(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Level == LevelError && d.Line > 0 {
			return true
		}
	}
	return false
}

// TestNormalizeVerdictForms holds the verdict words and questions of
// SPEC §2.3 read since the verdict4 probes: ok false for free text.
func TestNormalizeVerdictForms(t *testing.T) {
	for _, c := range []struct {
		text string
		want Verdict // "" for none
	}{
		{"Ship it? No", Risky},
		{"Ready to merge? No", NeedsChanges},
		{"Ready for merge: No", NeedsChanges},
		{"Safe to deploy? Yes", Safe},
		{"Should we ship it? No", ""},
		{"Do not deploy", Risky},
		{"nicht freigeben", Risky},
		{"보류", NeedsChanges},
		{"Approved with conditions", NeedsChanges},
		{"⚠️ PRODUCTION-READY WITH CRITICAL GAPS", NeedsChanges},
		{"APPROVE WITH COMMENTS", Safe},
		{"Not approved", NeedsChanges},
		{"4/10", ""},
		{"C", ""},
		{"[APPROVE|REJECT]", ""},
	} {
		v, ok := NormalizeVerdict(c.text)
		if !ok {
			v = ""
		}
		if v != c.want {
			t.Errorf("NormalizeVerdict(%q) = %q, %v; want %q", c.text, v, ok, c.want)
		}
	}
}
