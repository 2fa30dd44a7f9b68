package parse

import (
	"regexp"
	"testing"
)

// tallyRe is the reference isTally reads by hand.
var tallyRe = regexp.MustCompile(`(?i):\s*\d+\s*$|\bP[0-4]\s*:\s*\d+`)

// tallyCases are titles where isTally could part from tallyRe: spaces of
// every kind, digits after and before the colon, P in either case, the
// word boundary before it.
var tallyCases = []string{
	"", ":", ":1", ": 1 ", "x:\t12\n", "x:1a", "x: a1", "12", "x 12", "x::3", "x :  3  ", "x:\v3",
	"P1: 48, P2: 36", "p3 :7", "P5: 1", "xP1: 2", "_P1: 2", "(P1:2)", "P1:", "P1: x", "P1 :\t\t9",
	"éP1: 3", "P1:é", "Race condition in the cache: path.go:12 is hot", "a.go:12-14", "P12: 3",
}

// TestIsTallyMatchesRegexp: the scanner answers what the expression answers.
func TestIsTallyMatchesRegexp(t *testing.T) {
	for _, s := range tallyCases {
		if got, want := isTally(s), tallyRe.MatchString(s); got != want {
			t.Errorf("isTally(%q) = %v; tallyRe says %v", s, got, want)
		}
	}
}

// FuzzIsTally: on any input, the scanner and the expression agree.
func FuzzIsTally(f *testing.F) {
	for _, s := range tallyCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isTally(s), tallyRe.MatchString(s); got != want {
			t.Fatalf("isTally(%q) = %v; tallyRe says %v", s, got, want)
		}
	})
}

var groupWordCases = []string{
	"", "Findings", "findings (2)", "Open issues and risks", "Issuesfound", "Risk", "riſk", "RIſK levels",
	"Kelvin", "Critical findings", "Race in the cache", "Other", "Others", "orange", "12 items", "— Summary",
	"Items — found", "ﬁndings", "Problems:", "Ordering", "Level 3", "Bugs & gaps", "gap/risk", "Findingsé",
}

// TestOnlyGroupWordsMatchesRegexp: the first-word filter never turns away a
// title the expression matches.
func TestOnlyGroupWordsMatchesRegexp(t *testing.T) {
	for _, s := range groupWordCases {
		if got, want := onlyGroupWords(s), groupWordsRe.MatchString(stripParens(s)); got != want {
			t.Errorf("onlyGroupWords(%q) = %v; groupWordsRe says %v", s, got, want)
		}
	}
}

// FuzzOnlyGroupWords: on any input, the filtered test and the expression
// agree.
func FuzzOnlyGroupWords(f *testing.F) {
	for _, s := range groupWordCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := onlyGroupWords(s), groupWordsRe.MatchString(stripParens(s)); got != want {
			t.Fatalf("onlyGroupWords(%q) = %v; groupWordsRe says %v", s, got, want)
		}
	})
}
