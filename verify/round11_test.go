package verify

import (
	"testing"

	"github.com/fluxwatch/fluxwatch/synth"
)

// TestSectionUnder: a finding's section falls under an improvement's when
// it is the same (any case) or a part of it after a colon; a section that
// only starts with the same words is another.
func TestSectionUnder(t *testing.T) {
	for _, tt := range []struct {
		s, of string
		want  bool
	}{
		{"Phase 4", "Phase 4", true},
		{"phase 4 ", "Phase 4", true},
		{"Phase 4: Steps 4.1-4.4", "Phase 4", true},
		{"Phase 4 : Step 4.2", "Phase 4", true},
		{"Phase 40: Scoring", "Phase 4", false},
		{"Phase 4 — Step 4.3", "Phase 4", false},
		{"Phase 4", "Phase 4: Steps", false},
		{"", "Phase 4", false},
	} {
		if got := sectionUnder(tt.s, tt.of); got != tt.want {
			t.Errorf("sectionUnder(%q, %q) = %v, want %v", tt.s, tt.of, got, tt.want)
		}
	}
}

// TestZeroTallies: a tally table gives an agent none of a severity when
// the agent's row holds 0 under a column headed by that P-level alone;
// another header, a count above 0, a row naming no agent of the run (its
// verdict "safe" is not fd-safety), or a row whose cell writes an agent's
// name in a title, give nothing.
func TestZeroTallies(t *testing.T) {
	s := &synth.Synthesis{AgentsCompleted: []string{"fd-perf", "fd-safety"}}
	r := newRun(s, nil)
	src := "| Agent | Verdict | P0 | **P1** | P2 blockers |\n|---|---|---|---|---|\n" +
		"| [fd-perf](fd-perf.md) | safe | 0 | 0 | 0 |\n| **fd-safety** | risky | 1 | 0 |\n| fd-other | safe | 0 | 0 |\n\n" +
		"| Finding | P0 |\n|---|---|\n| fd-safety leaks | 0 |\n"
	got := r.zeroTallies([]byte(src))
	want := map[string]bool{"fd-perf\x00P0": true, "fd-perf\x00P1": true, "fd-safety\x00P1": true}
	for k := range want {
		if !got[k] {
			t.Errorf("zeroTallies lacks %q: %v", k, got)
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("zeroTallies has %q, not a zero of the agent table: %v", k, got)
		}
	}
}
