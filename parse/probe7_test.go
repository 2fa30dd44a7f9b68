package parse

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// probe7 is the third held-out probe of the general reader (SPEC §2.3,
// §2.5): reports imitating review bots, scanners, audits, threat models,
// readiness reviews and reports in seven languages, written without reading
// the corpora, the other probes' reports or the reader's rules. The test
// measures; it fails only when the expectation data is malformed. It
// shares probe6's expectation format and title matcher (probe6Match).

type probe7Expect struct {
	Note    string         `json:"note"`
	Reports []probe7Report `json:"reports"`
}

type probe7Report struct {
	File     string          `json:"file"`
	Class    string          `json:"class"` // unsafe, safe or negative
	Findings []probe7Finding `json:"findings"`
}

type probe7Finding struct {
	Words    string `json:"words"`
	Level    string `json:"level"`
	Resolved bool   `json:"resolved"`
}

func loadProbe7(t *testing.T) (string, probe7Expect) {
	t.Helper()
	dir := filepath.Join("testdata", "probe7")
	data, err := os.ReadFile(filepath.Join(dir, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ex probe7Expect
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
			for _, alt := range strings.Split(f.Words, " | ") {
				if len(strings.Fields(probe6Norm(alt))) == 0 {
					t.Fatalf("expect.json: %s: empty words in %q", r.File, f.Words)
				}
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

func TestProbe7ExpectWellFormed(t *testing.T) {
	_, ex := loadProbe7(t)
	if len(ex.Reports) == 0 {
		t.Fatal("expect.json: no reports")
	}
	// The matcher must tell titles apart, in scripts without spaces too.
	if !probe6Match("重複チェック", "【高】メールアドレスの重複チェックに競合状態がある") ||
		probe6Match("目录遍历", "上传接口未校验文件类型") ||
		!probe6Match("x | cve-2024-5535", "CVE-2024-5535") {
		t.Fatal("probe6Match is broken")
	}
}

// probe7Pick returns the index of the first finding not yet used whose
// title holds the expected words, or -1.
func probe7Pick(fs []Finding, used []bool, words string) int {
	for i := range fs {
		if !used[i] && probe6Match(words, fs[i].Title) {
			return i
		}
	}
	return -1
}

// TestProbe7 prints the probe's figures: recall of the open P0/P1
// findings, invented P0/P1, exact severity, unsafe reports whose computed
// verdict is safe (and how many of those are not unreadable, the ones a
// gate would pass), negatives read as reports, and each report's misses.
func TestProbe7(t *testing.T) {
	dir, ex := loadProbe7(t)
	var (
		want, found, exact, foundHigh int
		readHigh, invented            int
		resolvedCounted, resolvedWant int
		unsafeN, safeVerdict, passed  int
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
				i := probe7Pick(r.Findings, used, ef.Words)
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
				if r.Verdict() == Safe {
					safeVerdict++
					if r.Status != StatusUnreadable {
						passed++
						miss = append(miss, "CALLED SAFE")
					} else {
						miss = append(miss, "computed safe, status unreadable")
					}
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
	t.Logf("probe7: %d reports (%d unsafe, %d safe, %d negatives)", len(ex.Reports), unsafeN, safeN, negN)
	t.Logf("recall (open P0/P1 found at any level): %d/%d = %s; found at P0/P1: %d/%d = %s",
		found, want, pct(found, want), foundHigh, want, pct(foundHigh, want))
	t.Logf("exact severity of found: %d/%d = %s", exact, found, pct(exact, found))
	t.Logf("invented P0/P1: %d of %d read = %s", invented, readHigh, pct(invented, readHigh))
	t.Logf("resolved P0/P1 counted as open: %d/%d", resolvedCounted, resolvedWant)
	t.Logf("unsafe reports computed safe: %d/%d, of which not unreadable (CALLED SAFE): %d",
		safeVerdict, unsafeN, passed)
	t.Logf("safe reports not read safe: %d/%d", safeAlarm, safeN)
	t.Logf("negatives with a finding or unreadable: %d/%d", negBad, negN)
	t.Logf("per report:\n%s", strings.Join(lines, "\n"))
}
