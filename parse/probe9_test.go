package parse

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// probe9 is a held-out probe of the general reader (SPEC §2.3, §2.5):
// reports imitating review reports committed into repositories by agents
// and people (audits, PR reviews, checklists, re-reviews, eight languages)
// and negatives from the same repositories, written without reading the
// corpora, the other probes or the reader's rules. The test measures; it
// fails only when the expectation data is malformed.

type probe9Expect struct {
	Note    string         `json:"note"`
	Reports []probe9Report `json:"reports"`
}

type probe9Report struct {
	File     string          `json:"file"`
	Class    string          `json:"class"` // unsafe, safe or negative
	Findings []probe9Finding `json:"findings"`
}

type probe9Finding struct {
	Words    string `json:"words"`
	Level    string `json:"level"`
	Resolved bool   `json:"resolved"`
}

// probe9Norm lower-cases s and turns every rune but letters, digits and
// - / + _ into a space, so expected words match a read title whatever its
// marks and code spans.
func probe9Norm(s string) string {
	s = strings.ToLower(s)
	return " " + strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-/+_", r)
	}), " ") + " "
}

// probe9Match reports whether every expected word occurs in title; words
// may hold alternatives split by " | " (for an item whose title a careful
// reader could take from either of two lines).
func probe9Match(words, title string) bool {
	t := probe9Norm(title)
	for _, alt := range strings.Split(words, " | ") {
		ok := true
		for _, w := range strings.Fields(probe9Norm(alt)) {
			if !strings.Contains(t, w) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func loadProbe9(t *testing.T) (string, probe9Expect) {
	t.Helper()
	dir := filepath.Join("testdata", "probe9")
	data, err := os.ReadFile(filepath.Join(dir, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ex probe9Expect
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
		open := 0
		for _, f := range r.Findings {
			if f.Level != "P0" && f.Level != "P1" {
				t.Fatalf("expect.json: %s: level %q is not P0/P1", r.File, f.Level)
			}
			if len(strings.Fields(probe9Norm(f.Words))) == 0 {
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

func TestProbe9ExpectWellFormed(t *testing.T) {
	_, ex := loadProbe9(t)
	if len(ex.Reports) == 0 {
		t.Fatal("expect.json: no reports")
	}
	// The matcher must tell a title apart: the words of one expected
	// finding must not match an unrelated title.
	if !probe9Match("n+1 listing", "### PERF-1: N+1 queries when listing orders") ||
		probe9Match("double close jobs", "Retry loop ignores context cancellation") ||
		!probe9Match("xyz | retry loop", "**[P1] Retry loop ignores `ctx`**") ||
		!probe9Match("库存扣减", "【严重】库存扣减存在超卖问题") {
		t.Fatal("probe9Match is broken")
	}
}

// TestProbe9 prints the probe's figures: recall of the open P0/P1
// findings, invented P0/P1, exact severity, unsafe reports called safe,
// negatives read as reports, and each report's misses.
func TestProbe9(t *testing.T) {
	dir, ex := loadProbe9(t)
	var (
		want, found, exact, foundHigh int
		readHigh, invented            int
		resolvedCounted, resolvedWant int
		unsafeN, calledSafe           int
		safeVerdict, unsafeUnreadable int
		safeN, safeAlarm              int
		negN, negBad                  int
		lines                         []string
	)
	for _, rep := range ex.Reports {
		data, err := os.ReadFile(filepath.Join(dir, rep.File))
		if err != nil {
			t.Fatal(err)
		}
		r := ReadReport(data)
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
				i := slices.IndexFunc(r.Findings, func(f Finding) bool { return probe9Match(ef.Words, f.Title) })
				for i >= 0 && used[i] {
					j := slices.IndexFunc(r.Findings[i+1:], func(f Finding) bool { return probe9Match(ef.Words, f.Title) })
					if j < 0 {
						i = -1
						break
					}
					i += 1 + j
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
				if i < 0 {
					miss = append(miss, fmt.Sprintf("missed %s %q", ef.Level, ef.Words))
					continue
				}
				used[i] = true
				found++
				got := r.Findings[i].Severity
				if got == P0 || got == P1 {
					foundHigh++
				}
				if string(got) == ef.Level {
					exact++
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
				if r.Status == StatusUnreadable {
					unsafeUnreadable++
				}
				if r.Verdict() == Safe {
					safeVerdict++
				}
				if r.Status != StatusUnreadable && r.Verdict() == Safe {
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
			lines = append(lines, fmt.Sprintf("  %s [%s, %s, %d read, %d resolved]:\n    %s",
				rep.File, r.Status, r.Verdict(), len(r.Findings), len(r.Resolved), strings.Join(miss, "\n    ")))
		}
	}
	pct := func(a, b int) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
	}
	t.Logf("probe9: %d reports (%d unsafe, %d safe, %d negatives)", len(ex.Reports), unsafeN, safeN, negN)
	t.Logf("recall (open P0/P1 found at any level): %d/%d = %s; found at P0/P1: %d/%d = %s",
		found, want, pct(found, want), foundHigh, want, pct(foundHigh, want))
	t.Logf("exact severity of found: %d/%d = %s", exact, found, pct(exact, found))
	t.Logf("invented P0/P1: %d of %d read = %s", invented, readHigh, pct(invented, readHigh))
	t.Logf("resolved P0/P1 counted as open: %d/%d", resolvedCounted, resolvedWant)
	t.Logf("unsafe reports with a computed safe verdict: %d/%d, of them not unreadable (CALLED SAFE): %d; unsafe reports unreadable: %d/%d",
		safeVerdict, unsafeN, calledSafe, unsafeUnreadable, unsafeN)
	t.Logf("safe reports not read safe: %d/%d", safeAlarm, safeN)
	t.Logf("negatives with a finding or unreadable: %d/%d", negBad, negN)
	t.Logf("per report:\n%s", strings.Join(lines, "\n"))
}
