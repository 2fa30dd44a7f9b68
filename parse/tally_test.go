package parse

import (
	"slices"
	"testing"
)

func TestWordTallies(t *testing.T) {
	// want: the count of P0..P3 stated, -1 for a level not stated; nil
	// for a line that is no tally.
	for _, c := range []struct {
		line string
		want []int
	}{
		{"Total issues (by severity): Low: 1, Medium: 0, High: 1.", []int{-1, 1, 0, 1}},
		{"2 vulnerabilities (1 high, 1 critical)", []int{1, 1, -1, -1}},
		{"**Critical:** 0 · **High:** 3", []int{0, 3, -1, -1}},
		{"critical: 1, blocker: 2, low: 4", []int{3, -1, -1, 4}},
		{"One critical path runs through 1 critical section", nil},
		{"Found 1 critical issue in the parser", nil},
		{"P0: 1, P1: 2", nil}, // plevelTallies' own
		{"Error: 3, Warning: 2", nil},
	} {
		g := countsOf(wordTallies(c.line))
		if !slices.Equal(g, c.want) {
			t.Errorf("wordTallies(%q) = %v; want %v", c.line, g, c.want)
		}
	}
}

func TestCountAfterColon(t *testing.T) {
	for s, want := range map[string]bool{
		"General issues: 1 issue found":   true,
		"Concurrency: 0 issues":           true,
		"Error handling: 3 findings":      true,
		"Security: all looks good":        false,
		"Retry: 3 attempts are too many":  false,
		"Token leak in src/auth.go:42":    false,
		"Cache key ignores the tenant":    false,
		"Checks: 2 problems identified":   true,
		"Review: 5 reviewers disagreed":   false,
		"Uploads: 1 issue found. Fix now": false,
	} {
		if got := countAfterColon(s); got != want {
			t.Errorf("countAfterColon(%q) = %v; want %v", s, got, want)
		}
	}
}

func TestOptionList(t *testing.T) {
	for v, want := range map[string]bool{
		"Critical | High | Medium | Low": true,
		"P0/P1/P2/P3":                    true,
		"High/Critical":                  false,
		"Medium-High":                    false,
		"High | data loss | now":         false,
		"Critical":                       false,
	} {
		if got := optionList(v); got != want {
			t.Errorf("optionList(%q) = %v; want %v", v, got, want)
		}
	}
}

func TestSLevel(t *testing.T) {
	for w, want := range map[string]Severity{"S0": P0, "S1": P0, "s2": P1, "S3": P2, "S4": P3, "S9": P3, "S12": "", "SX": "", "Sev1": ""} {
		got, ok := sLevel(w)
		if ok != (want != "") || got != want {
			t.Errorf("sLevel(%q) = %q, %v; want %q", w, got, ok, want)
		}
	}
	if _, _, ok := severityValue("S1", true); ok {
		t.Error(`severityValue("S1", true) reads a severity; S-levels belong to severity slots only`)
	}
	if sev, _, ok := slotSeverity("**S1**"); !ok || sev != P0 {
		t.Errorf(`slotSeverity("**S1**") = %q, %v; want P0`, sev, ok)
	}
}

func TestCutScopeTag(t *testing.T) {
	for rest, want := range map[string]string{
		" WP1: Stored XSS":          " Stored XSS",
		" WP12: Stored XSS":         " Stored XSS",
		" P1: Stored XSS":           " P1: Stored XSS",
		" Sev2: Stored XSS":         " Sev2: Stored XSS",
		" Stored XSS: the nickname": " Stored XSS: the nickname",
		" API-2: Stored XSS":        " API-2: Stored XSS",
	} {
		if got := cutScopeTag(rest); got != want {
			t.Errorf("cutScopeTag(%q) = %q; want %q", rest, got, want)
		}
	}
}

func TestResolvedHeading(t *testing.T) {
	for h, want := range map[string]bool{
		"Fixed":                        true,
		"Resolved":                     true,
		"✅ Resolved issues (3)":        true,
		"Fixed since the last review":  true,
		"Addressed Findings":           true,
		"Fixed-point arithmetic drift": false,
		"Resolved questions of scope":  false,
		"Closed-loop control":          false,
		"Open issues":                  false,
	} {
		if got := resolvedHeading(h); got != want {
			t.Errorf("resolvedHeading(%q) = %v; want %v", h, got, want)
		}
	}
}

func TestNounTallies(t *testing.T) {
	// want: the count of P0..P3 stated, -1 for a level not stated; nil
	// for a line that states none.
	for _, c := range []struct {
		line string
		want []int
	}{
		{"3 critical issues found.", []int{3, -1, -1, -1}},
		{"Found 2 high-severity issues in the config loader", []int{-1, 2, -1, -1}},
		{"We found 1 high priority bug and 4 minor findings", []int{-1, 1, -1, 4}},
		{"Overall: FAIL (2 critical)", []int{2, -1, -1, -1}},
		{"0 critical vulnerabilities", []int{0, -1, -1, -1}},
		{"One critical path runs through 1 critical section", nil},
		{"Count them, e.g. \"2 critical issues found\"", nil},
		{"`3 critical issues` is what a summary says", nil},
		{"Three blocking issues:", nil}, // number words are not read
		{"v12 critical issues", nil},    // not a count: part of a word
		{"fix within 2 high days", nil},
		{"Fail the build when there are at least 2 critical issues", nil},
		{"no more than 1 high issue, e.g. 2 critical issues fail it", nil},
		{"List the top 3 critical issues first", nil},
	} {
		g := countsOf(nounTallies(c.line))
		if !slices.Equal(g, c.want) {
			t.Errorf("nounTallies(%q) = %v; want %v", c.line, g, c.want)
		}
	}
}

func TestResolvedTally(t *testing.T) {
	for _, c := range []struct {
		line string
		noun bool
		want bool
	}{
		{"Resolved: 3 critical, 1 high", false, true},
		{"Fixed since the last review: P0: 2, P1: 1", false, true},
		{"Summary. Resolved: 3 critical, 1 high", false, true},
		{"Critical: 2 | High: 1 | Medium: 0", false, false},
		{"Aggregate: 2 P1, 7 P2, and 5 resolved findings", false, false},
		{"All 3 critical issues from the first review are resolved.", true, true},
		{"The previous review found 3 critical issues.", true, true},
		{"3 critical issues found; 1 fixed.", true, false},
		{"3 critical issues were fixed, 2 remain open.", true, false},
		{"3 critical issues found.", true, false},
		{"Sprint goal: close 5 high-priority bugs", true, true},
		{"There are 2 high-priority issues that should be addressed", true, false},
		{"Fix the 3 critical issues found above before the release", true, false},
	} {
		if got := resolvedTally(c.line, c.noun); got != c.want {
			t.Errorf("resolvedTally(%q, %v) = %v; want %v", c.line, c.noun, got, c.want)
		}
	}
}

func TestTallyHeading(t *testing.T) {
	for s, want := range map[string]bool{
		"Findings (2 critical, 1 high)":                          true,
		"3 Critical Issues Found":                                true,
		"Summary: P0: 1, P1: 2":                                  true,
		"🔴 Critical (2)":                                         false, // a group's own count (general.go), no line tally
		"Findings":                                               false, // no count
		"2. The Spec Has 2 P0 Defects and 12 P1 Gaps":            false,
		"Token reuse after logout (CVE-2024-1234)":               false,
		"Phase 2: fix the 3 critical issues in the import paths": false,
	} {
		if got := tallyHeading(s); got != want {
			t.Errorf("tallyHeading(%q) = %v; want %v", s, got, want)
		}
	}
}

func TestExampleLine(t *testing.T) {
	for s, want := range map[string]bool{
		"Example: Found 2 high-severity issues":   true,
		"e.g. 3 critical issues found":            true,
		"Sample output: 2 critical issues found":  true,
		"3 critical issues found in the uploader": false,
		"Found 2 high-severity issues":            false,
	} {
		if got := exampleLine(s); got != want {
			t.Errorf("exampleLine(%q) = %v; want %v", s, got, want)
		}
	}
}

// countsOf lists a tally's count of each level, P0 first, -1 for a level
// it does not state; nil when it is no tally.
func countsOf(c sevCounts, ok bool) []int {
	if !ok {
		return nil
	}
	g := make([]int, 4)
	for k := range g {
		g[k] = -1
		if c.seen[k] {
			g[k] = c.n[k]
		}
	}
	return g
}
