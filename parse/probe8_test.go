package parse

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// probe8 is a fourth held-out probe of the general reader (SPEC §2.3,
// §2.5): reports imitating review reports from the wild (bots, scanners,
// audits, trackers, twelve languages, unusual level words), written
// without reading the corpora, the other probes or the reader's rules.
// The test measures; it fails only when the expectation data is
// malformed. Titles are matched with probe6Match.

type probe8Expect struct {
	Note    string         `json:"note"`
	Reports []probe8Report `json:"reports"`
}

type probe8Report struct {
	File     string          `json:"file"`
	Class    string          `json:"class"` // unsafe, safe or negative
	Shape    string          `json:"shape"` // structure class, for per-class figures
	Findings []probe6Finding `json:"findings"`
}

func loadProbe8(t *testing.T) (string, probe8Expect) {
	t.Helper()
	dir := filepath.Join("testdata", "probe8")
	data, err := os.ReadFile(filepath.Join(dir, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ex probe8Expect
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ex); err != nil {
		t.Fatalf("expect.json: %v", err)
	}
	seen := map[string]bool{}
	for _, r := range ex.Reports {
		if seen[r.File] {
			t.Fatalf("expect.json: %s listed twice", r.File)
		}
		seen[r.File] = true
		if _, err := os.Stat(filepath.Join(dir, r.File)); err != nil {
			t.Fatalf("expect.json: %v", err)
		}
		if r.Shape == "" {
			t.Fatalf("expect.json: %s: no shape", r.File)
		}
		open := 0
		for _, f := range r.Findings {
			if f.Level != "P0" && f.Level != "P1" {
				t.Fatalf("expect.json: %s: level %q is not P0/P1", r.File, f.Level)
			}
			if len(strings.Fields(probe6Norm(f.Words))) == 0 {
				t.Fatalf("expect.json: %s: empty words", r.File)
			}
			if !f.Resolved {
				open++
			}
		}
		switch {
		case r.Class == "unsafe" && open == 0:
			t.Fatalf("expect.json: %s: unsafe with no open P0/P1", r.File)
		case r.Class == "safe" && open > 0:
			t.Fatalf("expect.json: %s: safe with an open P0/P1", r.File)
		case r.Class == "negative" && len(r.Findings) > 0:
			t.Fatalf("expect.json: %s: negative with findings", r.File)
		case r.Class != "unsafe" && r.Class != "safe" && r.Class != "negative":
			t.Fatalf("expect.json: %s: class %q", r.File, r.Class)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".md") && !seen[e.Name()] {
			t.Fatalf("expect.json: %s has no expectation", e.Name())
		}
	}
	return dir, ex
}

func TestProbe8ExpectWellFormed(t *testing.T) {
	_, ex := loadProbe8(t)
	if len(ex.Reports) == 0 {
		t.Fatal("expect.json: no reports")
	}
	// Every expected finding's words must be in its report's text, so a
	// typo in the words cannot pass for a miss of the reader.
	dir := filepath.Join("testdata", "probe8")
	for _, r := range ex.Reports {
		data, err := os.ReadFile(filepath.Join(dir, r.File))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, f := range r.Findings {
			ok := false
			for _, line := range strings.Split(text, "\n") {
				if probe6Match(f.Words, line) {
					ok = true
					break
				}
			}
			if !ok {
				t.Errorf("expect.json: %s: words %q match no line of the report", r.File, f.Words)
			}
		}
	}
}

// probe8Tally is one structure class's count of open P0/P1 findings.
type probe8Tally struct{ want, found, high, exact int }

// TestProbe8 prints the probe's figures: recall of the open P0/P1
// findings, invented P0/P1, exact severity, unsafe reports called safe,
// negatives read as reports, per-class recall and each report's misses.
func TestProbe8(t *testing.T) {
	dir, ex := loadProbe8(t)
	var (
		want, found, exact, foundHigh int
		readHigh, invented            int
		resolvedCounted, resolvedWant int
		unsafeN, calledSafe           int
		unsafeUnreadable              int
		safeN, safeAlarm              int
		negN, negBad                  int
		lines                         []string
	)
	shapes := map[string]*probe8Tally{}
	for _, rep := range ex.Reports {
		data, err := os.ReadFile(filepath.Join(dir, rep.File))
		if err != nil {
			t.Fatal(err)
		}
		r := ReadReport(data)
		sh := shapes[rep.Shape]
		if sh == nil {
			sh = &probe8Tally{}
			shapes[rep.Shape] = sh
		}
		var miss []string
		if rep.Class == "negative" {
			negN++
			if len(r.Findings) > 0 || r.Status == StatusUnreadable {
				negBad++
				for _, f := range r.Findings {
					miss = append(miss, fmt.Sprintf("read %s %q (line %d)", f.Severity, f.Title, f.Line))
				}
				if r.Status == StatusUnreadable {
					miss = append(miss, "status unreadable")
				}
			}
		} else {
			used := make([]bool, len(r.Findings))
			for _, ef := range rep.Findings {
				i := -1
				for j, f := range r.Findings {
					if !used[j] && probe6Match(ef.Words, f.Title) {
						i = j
						break
					}
				}
				if ef.Resolved {
					resolvedWant++
					if i >= 0 {
						used[i] = true
						resolvedCounted++
						miss = append(miss, fmt.Sprintf("resolved %s %q counted as %s", ef.Level, ef.Words, r.Findings[i].Severity))
					}
					continue
				}
				want++
				sh.want++
				if i < 0 {
					miss = append(miss, fmt.Sprintf("missed %s %q", ef.Level, ef.Words))
					continue
				}
				used[i] = true
				found++
				sh.found++
				got := r.Findings[i].Severity
				if got == P0 || got == P1 {
					foundHigh++
					sh.high++
				}
				if string(got) == ef.Level {
					exact++
					sh.exact++
				} else {
					miss = append(miss, fmt.Sprintf("level %s %q read as %s", ef.Level, ef.Words, got))
				}
			}
			for i, f := range r.Findings {
				if f.Severity != P0 && f.Severity != P1 {
					continue
				}
				readHigh++
				if !used[i] {
					invented++
					miss = append(miss, fmt.Sprintf("invented %s %q (line %d)", f.Severity, f.Title, f.Line))
				}
			}
			switch rep.Class {
			case "unsafe":
				unsafeN++
				switch {
				case r.Status == StatusUnreadable:
					unsafeUnreadable++
				case r.Verdict() == Safe:
					calledSafe++
					miss = append(miss, "CALLED SAFE")
				}
			case "safe":
				safeN++
				if r.Status == StatusUnreadable || r.Verdict() != Safe {
					safeAlarm++
					miss = append(miss, fmt.Sprintf("safe report read %s/%s", r.Status, r.Verdict()))
				}
			}
		}
		if len(miss) > 0 {
			lines = append(lines, fmt.Sprintf("  %s (%s) [%s, %s, %d read, %d resolved]:\n    %s",
				rep.File, rep.Shape, r.Status, r.Verdict(), len(r.Findings), len(r.Resolved), strings.Join(miss, "\n    ")))
		}
	}
	pct := func(a, b int) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
	}
	names := make([]string, 0, len(shapes))
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	var per []string
	for _, n := range names {
		s := shapes[n]
		if s.want == 0 {
			continue
		}
		per = append(per, fmt.Sprintf("  %-15s found %2d/%-2d at P0/P1 %2d exact %2d", n, s.found, s.want, s.high, s.exact))
	}
	t.Logf("probe8: %d reports (%d unsafe, %d safe, %d negatives)", len(ex.Reports), unsafeN, safeN, negN)
	t.Logf("recall (open P0/P1 found at any level): %d/%d = %s; found at P0/P1: %d/%d = %s",
		found, want, pct(found, want), foundHigh, want, pct(foundHigh, want))
	t.Logf("exact severity of found: %d/%d = %s", exact, found, pct(exact, found))
	t.Logf("invented P0/P1: %d of %d read = %s", invented, readHigh, pct(invented, readHigh))
	t.Logf("resolved P0/P1 counted as open: %d/%d", resolvedCounted, resolvedWant)
	t.Logf("unsafe reports called safe (not unreadable): %d/%d; unsafe reports unreadable: %d/%d",
		calledSafe, unsafeN, unsafeUnreadable, unsafeN)
	t.Logf("safe reports not read safe: %d/%d", safeAlarm, safeN)
	t.Logf("negatives with a finding or unreadable: %d/%d", negBad, negN)
	t.Logf("per structure class (open P0/P1):\n%s", strings.Join(per, "\n"))
	t.Logf("per report:\n%s", strings.Join(lines, "\n"))
}
