package verify

import (
	"strings"
	"testing"
)

// TestBlock: a finding's block is its index line's region and the first
// other line that opens with its ID, in any of the shapes reports write;
// a table row that restates it is not its description.
func TestBlock(t *testing.T) {
	for _, tt := range []struct {
		name, report, id, want, not string
	}{
		{"ID and a dot", "- P0 | PN-1 | \"Pitch\" | Present tense\n\nPN-1. P0: the pitch implies shipped parts.\n", "PN-1", "shipped parts", ""},
		{"bold after a number and a severity", "- P1 | ARCH-1 | \"API\" | No write API\n\n1. **P1 — ARCH-1: AgMoDB write API is missing**. Everything depends on it.\n", "ARCH-1", "depends on it", ""},
		{"heading", "- P1 | P1-2 | \"S\" | Fatigue\n\n#### P1-2: Decision fatigue\nThree prompts in a row.\n", "P1-2", "prompts in a row", ""},
		{"a dotted ID", "- P0 | P0.2 | \"S\" | Drift\n\nP0.2 — the counter drifts under load.\n", "P0.2", "drifts under load", ""},
		{"a table row is not the description", "- P1 | Q-1 | \"S\" | Token leak\n\n| Q-1 | P1 | leaked in a table |\n\nQ-1: the token is logged.\n", "Q-1", "token is logged", "leaked in a table"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rl := reportLines{}
			got := rl.of("fd-a", map[string][]byte{"fd-a": []byte(tt.report)}).block("fd-a.md:1", tt.id)
			if !strings.Contains(got, tt.want) || (tt.not != "" && strings.Contains(got, tt.not)) {
				t.Errorf("block = %q, want it to hold %q and not %q", got, tt.want, tt.not)
			}
		})
	}
}

func TestResolvedTitle(t *testing.T) {
	for title, want := range map[string]bool{
		"FIXED — ships with Wave 1":            true,
		"Resolved: lease renewed on failover":  true,
		"✅ Fixed - retries now bounded":        true,
		"Fixed-size buffer overflows on input": false,
		"Fixed timeout is too short":           false,
		"Cache — resolved keys leak":           false,
	} {
		if got := resolvedTitle(title); got != want {
			t.Errorf("resolvedTitle(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestStem(t *testing.T) {
	for _, ws := range [][]string{
		{"surface", "surfaced", "surfaces", "surfacing"},
		{"cache", "cached", "caches"},
	} {
		for _, w := range ws[1:] {
			if stem(w) != stem(ws[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q: want one word", w, stem(w), ws[0], stem(ws[0]))
			}
		}
	}
	if stem("free") != "free" || stem("made") != "made" {
		t.Errorf("stem folds short words or a double e: %q %q", stem("free"), stem("made"))
	}
}
