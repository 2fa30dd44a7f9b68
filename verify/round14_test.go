package verify

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Round 14 of the hand labels (round 14b of issue 28) is nine syntheses of
// the shared corpus in styles the earlier rounds lack, each labelled by
// reading every agent's report before the synthesis, none of them
// checked by verify before it was labelled:
//
//   - a 37-line synthesis scoping the reviews of a six-feature plan down to
//     a three-feature subset, restating severities as lowered for it
//     ("[CRITICAL→MEDIUM for trio]") and leaving out the rest;
//   - an adoption review of eight agents that rate a reference codebase's
//     patterns P0-P3 and report its defects: bug items, a table with one
//     column per agent, AO-xx items with Priority fields, "key insights"
//     sections per agent, plans;
//   - a competitive analysis of five reports without a findings index,
//     whose top ten each claim "Convergence: N/5 agents";
//   - a pillar-by-pillar relevance review: items "**1.6: …**" under
//     "#### P2 Findings (…)" group headings, a headline table, a checkbox
//     roadmap with P-tags, one of its five agents absent from the corpus;
//   - a hard-wrapped research synthesis of four researchers (no
//     severities), error-free;
//   - a prose doctrine synthesis of two oracle reviews, error-free;
//   - a research synthesis of six reports whose convergences open with
//     "Who agrees:" lines naming the agents by labels, with "X & Y say:"
//     bullets and an "all six frameworks" claim;
//   - a research synthesis of five reports with "From **fd-agent:**"
//     sections, ranked recommendations with rationale bullets and
//     cross-agent findings ("All five agents converge …");
//   - a design synthesis of five research reports ending in a table
//     whose Confidence cells credit agents by short names ("schema,
//     evidence, multiagent, dispatch agree").
//
// The last three were labelled after the first six were measured, each
// before verify was run on it. 521 labelled lines, 61 errors: 24 wrong
// counts or agents, 4 raised severities, 1 invented claim, 32 missing
// blockers; 25 lowered severities (notes). Measured with main's rules
// when the round began (42f4adb), by
// `VERIFY_HELDOUT=1 go test -run 'TestLabelledSyntheses$' -v ./verify/`:
// found 18 (9 wrong counts, 9 missing blockers, no raised severity, no
// invented claim), missed 43, 3 false flags (an ID the agent never wrote,
// a blocker stated in other words, a claim of an agent the run lacks);
// both error-free syntheses pass. Most misses are claims verify does not
// read (bold numbered items over a Priority field or under a severity
// group heading, tables whose columns are agents, insight bullets under a
// heading naming one agent, "Who agrees:" and "X & Y say:" lines,
// rationale bullets, tables without a severity or ID column, prose
// counts) and the blockers of reports without a findings index, which
// verify keeps as notes.

// TestLabelRefs: every missing blocker of testdata/corpus-labels.jsonl
// labelled from round 14 on names a finding its run holds (its
// "file.md#ID" or "file.md:LINE" is a source of one of the run's
// findings), and every agents record lists reports its synthesis's
// directory holds. A label no finding of the run can answer counts as
// missed whatever verify reports. An earlier round's label that no longer
// resolves (the reader has changed since it was written) is logged, not
// failed: the label file is only appended to. Skipped without ../shared.
func TestLabelRefs(t *testing.T) {
	root := corpustest.Root(t)
	labels, agents := readLabels(t)
	for name, files := range agents {
		dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(name)))
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("%s: agents record: %v", name, err)
			}
		}
	}
	bySynth := map[string][]hlabel{}
	var order []string
	for _, l := range labels {
		if l.Outcome != "missing" {
			continue
		}
		if bySynth[l.Synthesis] == nil {
			order = append(order, l.Synthesis)
		}
		bySynth[l.Synthesis] = append(bySynth[l.Synthesis], l)
	}
	for _, name := range order {
		_, s := corpusCheck(t, filepath.Join(root, filepath.FromSlash(name)), agents[name])
		for _, l := range bySynth[name] {
			if slices.ContainsFunc(s.Findings, func(f synth.Finding) bool { return sourceOf(s, f.Key, l.Report) }) {
				continue
			}
			report := t.Errorf
			if l.Round < 14 {
				report = t.Logf
			}
			report("%s: round %d missing blocker %s: no finding of the run has that source", name, l.Round, l.Report)
		}
	}
}
