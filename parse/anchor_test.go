package parse

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// anyFieldRePlain is anyFieldRe as first written, a ^ in each
// alternative: Go's regexps try such a one at every position of a line.
var anyFieldRePlain = regexp.MustCompile(`^(?:[-*+]\s+)?(?:\*\*|__)([^*_]{1,40}?)(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)|^(?:[-*+]\s+)?([A-Z][A-Za-z /()-]{0,30}):\s`)

// fieldPieces are the parts random field lines are made of.
var fieldPieces = []string{
	"-", "*", "+", " ", "\t", "**", "__", "_", ":", ": ", "Location", "Fix", "impact", "Status", "A", "x", "(a)", "/",
	"[x]", "✅", "résumé", strings.Repeat("y", 41), "1.", "**Location:**", "- **Impact**:", "Fix: ",
}

// fieldNamePieces are fieldPieces and more for anyFieldName: names at and
// over the limits, colons inside a bold name, white space of every kind,
// runes and bytes outside ASCII.
var fieldNamePieces = append([]string{strings.Repeat("z", 29), "A" + strings.Repeat("b", 30), "C" + strings.Repeat("d", 31), strings.Repeat("é", 39), "Q", "a: b", ":\t", "\n",
	"\f", "\r", "**\n", "\xff", "é", "-", ")"}, fieldPieces...)

// fieldLines are every golden line and n random lines of 1 to 8 pieces.
func fieldLines(t *testing.T, r *rand.Rand, n int, pieces []string) []string {
	var lines []string
	for _, s := range goldenReports(t) {
		lines = append(lines, strings.Split(s, "\n")...)
	}
	for range n {
		var b strings.Builder
		for k := 1 + r.IntN(8); k > 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	return lines
}

// TestAnyFieldNameAsRegexp compares anyFieldName with anyFieldRe on
// every golden line and random field lines.
func TestAnyFieldNameAsRegexp(t *testing.T) {
	inputs := fieldLines(t, rand.New(rand.NewPCG(29, 10)), 200000, fieldNamePieces)
	matched := 0
	for _, s := range inputs {
		want, wantOK := "", false
		if m := anyFieldRe.FindStringSubmatch(s); m != nil {
			want, wantOK = m[1], true
			if want == "" {
				want = m[2]
			}
		}
		if got, ok := anyFieldName(s); got != want || ok != wantOK {
			t.Fatalf("anyFieldName(%q) = %q, %v; regexp: %q, %v", s, got, ok, want, wantOK)
		}
		if wantOK {
			matched++
		}
	}
	if matched < 15000 {
		t.Errorf("%d field lines; want 15000 or more", matched)
	}
}

// TestAnyFieldReAnchored compares anyFieldRe with its plain form on
// every golden line and random field lines.
func TestAnyFieldReAnchored(t *testing.T) {
	inputs := fieldLines(t, rand.New(rand.NewPCG(26, 11)), 100000, fieldPieces)
	matched := 0
	for _, s := range inputs {
		got, want := anyFieldRe.FindStringSubmatch(s), anyFieldRePlain.FindStringSubmatch(s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("anyFieldRe on %q: %q; plain: %q", s, got, want)
		}
		if got != nil {
			matched++
		}
	}
	if matched < 10000 {
		t.Errorf("%d field lines; want 10000 or more", matched)
	}
}
