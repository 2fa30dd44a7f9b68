package parse

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// citedIDsPlain is citedIDs as it was first written, every text split
// into a slice of words: the reference.
func citedIDsPlain(text, own string) []string {
	var out []string
	for _, m := range citedWordIDRe.FindAllStringSubmatch(text, 4) {
		w := strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:])
		out = append(out, w+" "+m[2])
	}
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == '/' ||
			r == '`' || r == '*' || r == ';' || r == '|'
	}) {
		tok = strings.TrimRight(tok, ":.")
		if tok == own || len(out) == 8 || !IsFindingID(tok) {
			continue
		}
		if _, ok := severityPrefix(tok); !ok && IsPLevel(tok) {
			continue // a severity, not an ID
		}
		out = append(out, tok)
	}
	return out
}

// citePieces are the words restating items are made of: IDs, word IDs,
// levels, separators and words without digits.
var citePieces = []string{
	"H1", "P0-B", "P1", "SEC-001", "Finding 1", "issue #2.1", "riſk 3", "C1.", "AR-2:", "(F-3)", "[Q1]", "`X-9`",
	"**CRIT-3**", "HIGH-012", "Fix", "first", "the", "paths", " ", " ", "\t", ",", "/", ";", "|", "١٢", "Ｐ1", "x",
	// Word IDs and near misses of them (mayCiteWordID): other words,
	// white space, a '#' after the space or before it, a word glued on.
	"Item\t4", "GAP #7", "Concern  12", "ISSUE: 3", "Findings 3", "observation#5", "risK 2", "Problem # 4", "subissue 6",
	"#", "9", "issue", "Risk",
}

// TestCitedIDsAsPlain compares citedIDs with citedIDsPlain on every line
// of the golden reports and on random restating items.
func TestCitedIDsAsPlain(t *testing.T) {
	var inputs []string
	for _, s := range goldenReports(t) {
		inputs = append(inputs, strings.Split(s, "\n")...)
	}
	r := rand.New(rand.NewPCG(26, 10))
	for range 50000 {
		var b strings.Builder
		for n := r.IntN(10); n > 0; n-- {
			b.WriteString(citePieces[r.IntN(len(citePieces))])
			if r.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		inputs = append(inputs, b.String())
	}
	cited := 0
	for _, s := range inputs {
		for _, own := range []string{"", "H1", "SEC-001"} {
			got, want := citedIDs(s, own), citedIDsPlain(s, own)
			if !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("citedIDs(%q, %q) = %q; plain: %q", s, own, got, want)
			}
			if len(got) > 0 {
				cited++
			}
		}
	}
	if cited < 10000 {
		t.Errorf("%d texts cite an ID; want 10000 or more", cited)
	}
}
