package verify

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
)

// FuzzClaims: the claim parser never panics, every claim lies on a line of
// the input, and a claim's title is bounded and, for valid UTF-8 input,
// valid UTF-8, and it holds a word or cites an ID.
func FuzzClaims(f *testing.F) {
	for _, b := range txtartest.Files(f, "testdata/golden/*.txtar", txtartest.Named("synthesis.md")) {
		f.Add(b)
	}
	for _, s := range []string{
		"| # | Finding | Agents |\n|---|---|---|\n| 1 | **x** | a, b |",
		"## P0 Findings\n- **T**\n### Sub\n- detail",
		"- [ ] P1-2: Title (3/3 agents: a, b)",
		"```\n- [P0] example\n```",
		"### Convergence 99/7: x",
		"- **",
		"|",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := strings.Count(string(src), "\n") + 1
		for _, c := range Claims(src) {
			if c.Line < 1 || c.Line > lines {
				t.Fatalf("claim line %d outside 1..%d", c.Line, lines)
			}
			if utf8.RuneCountInString(c.Title) > maxTitle || len(c.Text) > maxText {
				t.Fatalf("claim too long: %d runes, text %d bytes", utf8.RuneCountInString(c.Title), len(c.Text))
			}
			if utf8.Valid(src) && (!utf8.ValidString(c.Title) || !utf8.ValidString(c.Text)) {
				t.Fatalf("invalid UTF-8 from valid input: %q", c.Title)
			}
			if !hasKeyword(c.Title) && len(c.Cites) == 0 {
				// A row may name its finding by an ID alone ("| fd-a |
				// RXN-02 | P0 |"); anything else needs a word.
				t.Fatalf("claim without a keyword or an ID: %q", c.Title)
			}
		}
		// Check never panics either, with and without a run.
		Check(Input{Synthesis: src})
	})
}
