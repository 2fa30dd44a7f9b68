package parse

import (
	"slices"
	"testing"
)

var guardCases = []string{
	"", "Finding 3: x", "finding #2.1", "ISSUE 4", "riſk 2", "Risk 2", "Kelvin", "Gap 1", "Observation 9", "2. Title",
	"2) x", "12.3 Title", "x 2. y", "P1 title", "**P0** x", "[P2] y", "(P3)", "__P1__", "p1 lower", "Title (AR-001)",
	"Title (C1):", "no paren", "(x) y", "Ｐ1", "é", "*x", "_y", "[z", "(w",
	"[HIGH] x", "(critical)", "**Major** y", "CRITICAL: x", "low - y", "Nit", "**Severity:** P1", "- severity: high",
	"__SEVERITY__: low", "ſeverity: P2", "Severity P1", "* **severity**:**P0**",
}

// FuzzRegexpGuards: each guard answers as its regexp alone does.
func FuzzRegexpGuards(f *testing.F) {
	for _, s := range guardCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := stripNumbering(s), numberingRe.ReplaceAllString(s, ""); got != want {
			t.Fatalf("stripNumbering(%q) = %q; numberingRe gives %q", s, got, want)
		}
		if got, want := wordIDAt(s), wordIDRe.FindStringSubmatchIndex(s); !slices.Equal(got, want) {
			t.Fatalf("wordIDAt(%q) = %v; wordIDRe gives %v", s, got, want)
		}
		if got, want := trailingIDOf(s), trailingIDRe.FindStringSubmatch(s); !slices.Equal(got, want) {
			t.Fatalf("trailingIDOf(%q) = %q; trailingIDRe gives %q", s, got, want)
		}
		if got, want := plevelAtStart(s), plevelAt.FindStringSubmatchIndex(s); !slices.Equal(got, want) {
			t.Fatalf("plevelAtStart(%q) = %v; plevelAt gives %v", s, got, want)
		}
		if got, want := wrappedWordAtStart(s), wrappedWordAt.FindStringSubmatchIndex(s); !slices.Equal(got, want) {
			t.Fatalf("wrappedWordAtStart(%q) = %v; wrappedWordAt gives %v", s, got, want)
		}
		if got, want := bareWordAtStart(s), bareWordAt.FindStringSubmatchIndex(s); !slices.Equal(got, want) {
			t.Fatalf("bareWordAtStart(%q) = %v; bareWordAt gives %v", s, got, want)
		}
		if got, want := severityLineOf(s), severityLineRe.FindStringSubmatch(s); !slices.Equal(got, want) {
			t.Fatalf("severityLineOf(%q) = %q; severityLineRe gives %q", s, got, want)
		}
	})
}
