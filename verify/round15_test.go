package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Round 15 of the hand labels (round 15b of issue 28) is eight syntheses
// of the shared corpus, each labelled by reading every agent's report
// before the synthesis, none of them checked by verify before it was
// labelled and committed. The first five are the last syntheses of the
// corpus that have their reports beside them and are not copies of
// labelled ones; the other three are copies that sit beside part of
// their reports (the other reports were not carried over):
//
//   - a research synthesis of five reports on an agent self-dispatch loop,
//     with a build order P0-P6 of its own, risk levels and parameter
//     tables, error-free;
//   - a research synthesis of four reports on an algedonic signal design,
//     ending in a source map that credits each source to an agent,
//     error-free;
//   - a research synthesis of ten reports (an eleventh report of another
//     run sits beside them: an agents record) whose themes open with
//     "Converges:" lines naming agents and whose evidence bullets and
//     source map credit agents: six of those credits name an agent whose
//     report says nothing of it;
//   - a decision summary drawn from a research synthesis of eight adoption
//     reviews: five fixes, a pattern table, P1-001 style items citing the
//     other synthesis's IDs, one lowered severity and 45 blockers it never
//     states (praise of the reference codebase is not counted a blocker,
//     as parse/praise.go rules);
//   - a triage report whose claims are per-agent tallies, IDs cited in an
//     expansion log and one sentence naming a speculative agent's
//     blockers in four words each: eight blockers only tallied;
//   - a plan synthesis beside two of its three reports, a PRD synthesis
//     beside four of its eight and a research synthesis beside five of its
//     eight: the claims that rest on the absent reports are unverifiable;
//     the rest hold five raised severities, 38 lowered ones (notes), two
//     wrong counts (a count of verdicts, a finding credited to the wrong
//     agent) and 22 blockers never stated.
//
// 754 labelled lines (686 claims), 88 errors: 8 wrong counts or agents, 5
// raised severities, 75 missing blockers; 39 lowered severities (notes).
// Measured with main's rules when the round began (2bd41a6), by
// `VERIFY_HELDOUT=1 go test -run 'TestLabelledSyntheses$' -v ./verify/`.
// The first seven, measured before the eighth (the research synthesis
// beside five of its reports) was labelled: found 12 of 64 errors (3
// raised severities, 9 missing blockers, no wrong count), 8 false flags:
// an agent count in a test step ("5 agents, 3 beads"), a roadmap heading
// read as a claim ("Medium Impact"), a blocker stated as the fix of its
// twin finding on the same lines, two blockers stated in a parenthesised
// list of two-word paraphrases under the agent's name, and three claims
// resting on reports absent from the directory (a run-level "3 agents",
// a row naming an absent agent, a row of an absent agent read as
// invented); one of the two error-free syntheses passes. All eight:
// found 12 of 88, 16 false flags (the eighth adds six claims of absent
// reports read as invented and two tied to an unrelated P2 and called
// raised), one of two error-free syntheses passing. Of the misses, 44
// are the decision summary's and 22 the eighth's blockers of reports
// without a findings index (kept as notes), 6 are agent credits of
// research reports with no findings to tie a claim to, the other four
// a per-agent summary cell crediting a P2 at P1 (the reader took that
// report's findings from its verdict's lead-ins, not its finding
// headings), a count of verdicts ("1 agent says NEEDS_REWORK") verify
// does not read, a P1 item heading over a priority field whose only
// source rates it P2, and a finding credited to the agent whose section
// the bullet sits in.

// round15Floor is what main's rules find in round 15 (above): a floor, not
// a target. It fails when a rule tuned on the other parts costs this one.
var round15Floor = struct{ found, falseFlags, cleanPass int }{found: 12, falseFlags: 16, cleanPass: 1}

// TestRound15Floor scores verify on round 15's syntheses alone, as
// TestLabelledSyntheses scores each synthesis, and holds the figures at
// round15Floor. Skipped without ../shared.
func TestRound15Floor(t *testing.T) {
	root := corpustest.Root(t)
	labels, agents := readLabels(t)
	bySynth := map[string][]hlabel{}
	var order []string
	for _, l := range labels {
		if l.Round != 15 {
			continue
		}
		if bySynth[l.Synthesis] == nil {
			order = append(order, l.Synthesis)
		}
		bySynth[l.Synthesis] = append(bySynth[l.Synthesis], l)
	}
	if len(order) == 0 {
		t.Fatal("no round 15 labels")
	}
	var errs, found, falseFlags, clean, cleanPass int
	for _, name := range order {
		path := filepath.Join(root, filepath.FromSlash(name))
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
		r, s := corpusCheck(t, path, agents[name])
		e, f, ff := scoreLabels(r, s, bySynth[name])
		errs, found, falseFlags = errs+e, found+f, falseFlags+ff
		if e == 0 {
			clean++
			if !r.Ungrounded() {
				cleanPass++
			}
		}
	}
	t.Logf("round 15: %d syntheses, %d errors, found %d, false flags %d, error-free passing %d/%d",
		len(order), errs, found, falseFlags, cleanPass, clean)
	if found < round15Floor.found || falseFlags > round15Floor.falseFlags || cleanPass < round15Floor.cleanPass {
		t.Errorf("round 15: found %d, %d false flags, %d error-free passing; want at least %d, at most %d, at least %d",
			found, falseFlags, cleanPass, round15Floor.found, round15Floor.falseFlags, round15Floor.cleanPass)
	}
}

// scoreLabels counts one synthesis's errors, the errors verify finds and
// its false flags by the rules of TestLabelledSyntheses: a labelled wrong
// claim is found when a gate-tripping problem sits on its line, a labelled
// missing blocker when a missing-blocker problem has its source; a flag on
// a line labelled neither wrong nor ignore, or a missing blocker no label
// names, is false.
func scoreLabels(r *Result, s *synth.Synthesis, ls []hlabel) (errs, found, falseFlags int) {
	byLine := map[int]hlabel{}
	for _, l := range ls {
		if l.Line > 0 {
			byLine[l.Line] = l
		}
	}
	flagged := map[int]bool{}
	var blockers []Problem
	for _, p := range r.Problems {
		switch {
		case p.Kind == MissingBlocker:
			blockers = append(blockers, p)
		case !p.Kind.Note():
			flagged[p.Line] = true
		}
	}
	used := make([]bool, len(blockers))
	for _, l := range ls {
		if !errorOutcome(l.Outcome) {
			continue
		}
		errs++
		if l.Outcome != "missing" {
			if flagged[l.Line] {
				found++
			}
			continue
		}
		for i, p := range blockers {
			if !used[i] && sourceOf(s, p.Finding, l.Report) {
				used[i] = true
				found++
				break
			}
		}
	}
	for line := range flagged {
		if l, ok := byLine[line]; !ok || !errorOutcome(l.Outcome) && l.Outcome != "ignore" {
			falseFlags++
		}
	}
	for i := range blockers {
		if !used[i] {
			falseFlags++
		}
	}
	return errs, found, falseFlags
}
