package verify

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// A hlabel is one judgement of testdata/corpus-labels.jsonl: what a careful
// reader found, by reading the agents' reports, about one line of a real
// synthesis of the shared corpus (or, for a missing blocker, about one
// finding of an agent that the synthesis leaves out). The file holds paths
// into the corpus, line numbers, outcomes and short notes; no corpus text.
type hlabel struct {
	// Synthesis is the synthesis's path in the corpus.
	Synthesis string `json:"synthesis"`
	// Agents, on a record of its own, lists the reports the synthesis was
	// written from when its directory also holds reports of another run.
	Agents []string `json:"agents"`
	// Line is the claim's line (0 for a missing blocker).
	Line int `json:"line"`
	// Outcome is what the line is:
	//   grounded   the agents said it;
	//   unverifiable the synthesis says too little to tell;
	//   raised     wrong: a severity above every agent's;
	//   count      wrong: an agent count or an agent named that does not
	//              bear it out;
	//   invented   wrong: no agent said anything like it;
	//   missing    an agent's P0/P1 that the synthesis never states;
	//   dropped    a severity below every agent's, all of them blockers:
	//              a note, not an error;
	//   ignore     a line neither claim nor context (a restated
	//              action, a resolved prior finding): any verdict on it
	//              is left uncounted.
	Outcome string `json:"outcome"`
	// Report names the missing finding: "agent-file.md#ID" or
	// "agent-file.md:LINE".
	Report string `json:"report"`
	// Holdout labels were not looked at while tuning the rules.
	Holdout bool `json:"holdout"`
	// Round is the round of issue 28 that labelled it: 0 for the first
	// twenty syntheses (rounds one and two), 3 for the eight held out
	// after the general reader came, 12 for the five labelled in round
	// 12 and measured with the rules as they were before that round, 13
	// for the five labelled in round 13b, measured with the rules before
	// that round, 14 for the syntheses labelled in round 14b (styles the
	// earlier rounds lack: research and adoption reviews, a scoped
	// subset plan, prose reviews; see round14_test.go), measured with
	// main's rules as they were when the round began, 15 for the eight
	// labelled in round 15b (the corpus's last syntheses with their
	// reports beside them, a decision summary, a triage report, three
	// syntheses beside part of their reports; see round15_test.go),
	// measured with main's rules when that round began.
	Round int    `json:"round"`
	Note  string `json:"note"`
}

// freshRounds are the rounds whose labels are kept apart from the two
// parts the rules were tuned and checked on, each a part of its own:
// syntheses no rule was written for, measured before any change of
// their round touched them. Rounds 12 and 13 became development parts in
// the rounds after theirs; round 14 became one in round 15 (verify15a
// read its misses and tuned on it, with rounds 12 and 13). Round 15's
// part (verify15b) is the one never tuned on.
var freshRounds = []int{12, 13, 14, 15}

// errorOutcome reports whether an outcome is an error the gate must trip on.
func errorOutcome(o string) bool {
	switch o {
	case "raised", "count", "invented", "missing":
		return true
	}
	return false
}

// labelKind is the problem kind that reports each error outcome.
var labelKind = map[string]Kind{
	"raised": SeverityRaised, "count": WrongCount, "invented": Invented, "missing": MissingBlocker,
}

// readLabels reads testdata/corpus-labels.jsonl.
func readLabels(t *testing.T) (labels []hlabel, agents map[string][]string) {
	t.Helper()
	fh, err := os.Open("testdata/corpus-labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	agents = map[string][]string{}
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		var l hlabel
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("corpus-labels.jsonl:%d: %v", n, err)
		}
		switch {
		case l.Agents != nil:
			agents[l.Synthesis] = l.Agents
		case l.Outcome == "":
			t.Fatalf("corpus-labels.jsonl:%d: no outcome", n)
		default:
			labels = append(labels, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return labels, agents
}

// corpusCheck verifies a synthesis of the corpus the way `fluxwatch verify`
// does: the run of its directory synthesised as `synth` would, the agents'
// report texts beside it. With agents, only those reports make the run
// (they are copied to a directory of their own).
func corpusCheck(t *testing.T, path string, agents []string) (*Result, *synth.Synthesis) {
	t.Helper()
	dir := filepath.Dir(path)
	if agents != nil {
		tmp := t.TempDir()
		for _, a := range agents {
			data, err := os.ReadFile(filepath.Join(dir, a))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(tmp, a), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dir = tmp
	}
	s, reports := runDir(t, dir)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Check(Input{Synthesis: src, Run: s, Reports: reports}), s
}

// runDir synthesises the run of a directory as `fluxwatch verify` does and
// reads its completed agents' reports.
func runDir(t *testing.T, dir string) (*synth.Synthesis, map[string][]byte) {
	t.Helper()
	s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{MaxLine: bus.DefaultMaxLine, Jobs: 2},
		synth.Options{EvidenceNote: "not checked"})
	if err != nil {
		t.Fatalf("%s: synthesise: %v", dir, err)
	}
	reports := map[string][]byte{}
	for _, a := range s.Agents {
		if a.File != nil && a.Status.Completed() {
			if data, err := os.ReadFile(filepath.Join(dir, *a.File)); err == nil {
				reports[a.Name] = data
			}
		}
	}
	return s, reports
}

// sourceOf reports whether a finding of the run has a source from report
// file ref ("file.md#ID" or "file.md:LINE").
func sourceOf(s *synth.Synthesis, key, ref string) bool {
	file, id, byID := strings.Cut(ref, "#")
	line := 0
	if !byID {
		var n string
		file, n, _ = strings.Cut(ref, ":")
		line, _ = strconv.Atoi(n)
	}
	for i := range s.Findings {
		f := &s.Findings[i]
		if f.Key != key {
			continue
		}
		for _, src := range f.Sources {
			rfile, rline, _ := strings.Cut(src.Ref, ":")
			if filepath.Base(rfile) != file {
				continue
			}
			if n, _ := strconv.Atoi(rline); (byID && src.ID == id) || (!byID && n == line) {
				return true
			}
		}
	}
	return false
}

// tally counts verify's verdicts against the labels of some syntheses.
type tally struct {
	syntheses, claims, errors, found, missed, falseFlags, clean, cleanPass int
	byKind                                                                 map[string][3]int // found, missed, kind right
	// flagsBy counts the false flags by the kind of problem reported.
	flagsBy map[Kind]int
}

func (t *tally) String() string {
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
	}
	s := fmt.Sprintf("%d syntheses, %d labelled lines, %d errors: found %d (%s), missed %d, false flags %d (%s of the errors); error-free syntheses passing: %d/%d",
		t.syntheses, t.claims, t.errors, t.found, pct(t.found, t.errors), t.missed, t.falseFlags, pct(t.falseFlags, t.errors), t.cleanPass, t.clean)
	if len(t.flagsBy) > 0 {
		s += "\n    false flags:"
		for _, k := range Kinds {
			if n := t.flagsBy[k]; n > 0 {
				s += fmt.Sprintf(" %s %d", k, n)
			}
		}
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range t.byKind {
			if !yield(k) {
				return
			}
		}
	}) {
		v := t.byKind[k]
		s += fmt.Sprintf("\n    %-8s found %d (of which reported as its kind %d), missed %d", k, v[0], v[2], v[1])
	}
	return s
}

// TestLabelledSyntheses runs verify on the hand-labelled syntheses of the
// shared corpus (testdata/corpus-labels.jsonl) and prints, per synthesis and
// in total (the tuning part and the held-out part apart), the errors found,
// missed and the false flags (a held-out synthesis shows in the totals only,
// so that tuning the rules does not look at it; VERIFY_TUNING=1 hides
// those too, VERIFY_HELDOUT=1 prints them as the others to classify
// what a round misses): a problem that trips the gate on a line
// labelled grounded, unverifiable, dropped or not labelled at all, or a
// missing blocker that is not a labelled one. Skipped without ../shared.
func TestLabelledSyntheses(t *testing.T) {
	root := corpustest.Root(t)
	labels, agents := readLabels(t)
	bySynth := map[string][]hlabel{}
	var order []string
	for _, l := range labels {
		if _, ok := bySynth[l.Synthesis]; !ok {
			order = append(order, l.Synthesis)
		}
		bySynth[l.Synthesis] = append(bySynth[l.Synthesis], l)
	}
	totals := map[bool]*tally{false: {byKind: map[string][3]int{}, flagsBy: map[Kind]int{}}, true: {byKind: map[string][3]int{}, flagsBy: map[Kind]int{}}}
	// fresh holds the parts labelled in rounds 12 and 13, held out and
	// kept apart: the floors of the two parts above are measured without
	// them.
	fresh := map[int]*tally{}
	for _, r := range freshRounds {
		fresh[r] = &tally{byKind: map[string][3]int{}, flagsBy: map[Kind]int{}}
	}
	rounds := map[int]*tally{} // the same, by the round that labelled them
	for _, name := range order {
		ls := bySynth[name]
		path := filepath.Join(root, filepath.FromSlash(name))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines := strings.Count(string(src), "\n") + 1
		// VERIFY_WHOLEDIR=1 checks a synthesis whose directory holds
		// several runs against the whole directory, as `fluxwatch
		// verify` does without --run: how well verify tells its run.
		only := agents[name]
		if os.Getenv("VERIFY_WHOLEDIR") != "" {
			only = nil
		}
		r, s := corpusCheck(t, path, only)
		tot := totals[ls[0].Holdout]
		if f := fresh[ls[0].Round]; f != nil {
			tot = f
		}
		rnd := rounds[ls[0].Round]
		if rnd == nil {
			rnd = &tally{}
			rounds[ls[0].Round] = rnd
		}
		tot.syntheses++
		rnd.syntheses++
		byLine := map[int]hlabel{}
		for _, l := range ls {
			if l.Holdout != ls[0].Holdout {
				t.Errorf("%s: held out and not held out", name)
			}
			if l.Line < 0 || l.Line > lines || (l.Line == 0) != (l.Outcome == "missing") {
				t.Errorf("%s:%d: %s hlabel at a line the synthesis does not have", name, l.Line, l.Outcome)
			}
			if l.Line > 0 {
				if _, dup := byLine[l.Line]; dup {
					t.Errorf("%s:%d: labelled twice", name, l.Line)
				}
				byLine[l.Line] = l
			}
		}
		var errs, found, missed, falseFlags int
		var notes []string
		flagged := map[int][]Kind{}
		flagMsg := map[int]string{}
		var blockers []Problem
		for _, p := range r.Problems {
			switch {
			case p.Kind == MissingBlocker:
				blockers = append(blockers, p)
			case !p.Kind.Note():
				flagged[p.Line] = append(flagged[p.Line], p.Kind)
				flagMsg[p.Line] = p.Message
			}
		}
		count := func(l hlabel, hit bool, kindRight bool) {
			v := tot.byKind[l.Outcome]
			if hit {
				v[0]++
				if kindRight {
					v[2]++
				}
			} else {
				v[1]++
			}
			tot.byKind[l.Outcome] = v
		}
		usedBlocker := make([]bool, len(blockers))
		for _, l := range ls {
			if l.Outcome != "ignore" {
				tot.claims++
			}
			if !errorOutcome(l.Outcome) {
				continue
			}
			errs++
			hit, kindRight := false, false
			if l.Outcome == "missing" {
				for i, p := range blockers {
					if !usedBlocker[i] && sourceOf(s, p.Finding, l.Report) {
						usedBlocker[i], hit, kindRight = true, true, true
						break
					}
				}
			} else if ks := flagged[l.Line]; len(ks) > 0 {
				hit, kindRight = true, slices.Contains(ks, labelKind[l.Outcome])
			}
			count(l, hit, kindRight)
			if hit {
				found++
			} else {
				missed++
				notes = append(notes, fmt.Sprintf("missed %s %s: %s", lineOrRef(l), l.Outcome, l.Note))
			}
		}
		for _, line := range slices.Sorted(func(yield func(int) bool) {
			for n := range flagged {
				if !yield(n) {
					return
				}
			}
		}) {
			l, ok := byLine[line]
			if ok && (errorOutcome(l.Outcome) || l.Outcome == "ignore") {
				continue
			}
			falseFlags++
			for _, k := range flagged[line] {
				tot.flagsBy[k]++
			}
			notes = append(notes, fmt.Sprintf("false flag at %d (%s): %v: %s", line, cmp(ok, l.Outcome, "unlabelled"), flagged[line], flagMsg[line]))
		}
		for i, p := range blockers {
			if !usedBlocker[i] {
				falseFlags++
				tot.flagsBy[MissingBlocker]++
				notes = append(notes, "false missing blocker: "+p.Message)
			}
		}
		for _, x := range []*tally{tot, rnd} {
			x.errors += errs
			x.found += found
			x.missed += missed
			x.falseFlags += falseFlags
			if errs == 0 {
				x.clean++
				if !r.Ungrounded() {
					x.cleanPass++
				}
			}
		}
		if (ls[0].Holdout && os.Getenv("VERIFY_HELDOUT") == "") || (ls[0].Round == 15 && os.Getenv("VERIFY_ROUND15") == "") {
			// Held out: only its totals are printed, below. Round 15's
			// part is never tuned on: VERIFY_HELDOUT does not print its
			// syntheses either (VERIFY_ROUND15=1 does, to label it).
			continue
		}
		t.Logf("%s: %d errors, found %d, missed %d, false flags %d", name, errs, found, missed, falseFlags)
		for _, n := range notes {
			t.Logf("    %s", n)
		}
	}
	t.Logf("tuning:   %v", totals[false])
	if os.Getenv("VERIFY_TUNING") == "" {
		t.Logf("held out: %v", totals[true])
		for _, r := range freshRounds {
			t.Logf("round %d: %v", r, fresh[r])
		}
	}
	if os.Getenv("VERIFY_TUNING") == "" {
		for _, r := range []int{3} {
			if x := rounds[r]; x != nil {
				t.Logf("  of which labelled in round %d (%d syntheses): %d errors, found %d, false flags %d; error-free passing %d/%d",
					r, x.syntheses, x.errors, x.found, x.falseFlags, x.cleanPass, x.clean)
			}
		}
	}
	if os.Getenv("VERIFY_WHOLEDIR") != "" {
		// Each synthesis against its whole directory: a directory of
		// several runs must be told apart. Round 13b's figures on the
		// held-out part (three of its syntheses share a directory with
		// other runs): 21 false flags before, none after; errors found 36.
		if ho := totals[true]; ho.falseFlags > 0 || ho.found < 36 {
			t.Errorf("whole directories, held out: found %d and %d false flags, want at least 36 and none", ho.found, ho.falseFlags)
		}
		return
	}
	// Floors under today's figures. On the twenty syntheses of rounds one
	// and two, the floors they were set with: errors found at least 60%,
	// false flags at most a tenth of the errors. On the tuning and
	// held-out parts, with the eight held-out syntheses of round 3 (round
	// 12's part is judged apart, below): false flags at most 1% of the
	// errors (the target is a tenth), errors found at least 76%
	// (rounds 12a and 12b together, 90 of 117; the target, 90%, is not
	// reached: verify finds 70% of the held-out errors). Every
	// error-free synthesis but one passes. A change that loses ground fails
	// here.
	first := rounds[0]
	if first == nil {
		first = &tally{}
	}
	if 5*first.found < 3*first.errors {
		t.Errorf("rounds one and two: found %d of %d errors, want at least 60%%", first.found, first.errors)
	}
	if 10*first.falseFlags > first.errors {
		t.Errorf("rounds one and two: %d false flags for %d errors, want at most a tenth", first.falseFlags, first.errors)
	}
	all := tally{errors: totals[false].errors + totals[true].errors, found: totals[false].found + totals[true].found,
		falseFlags: totals[false].falseFlags + totals[true].falseFlags,
		clean:      totals[false].clean + totals[true].clean, cleanPass: totals[false].cleanPass + totals[true].cleanPass}
	if 100*all.found < 76*all.errors {
		t.Errorf("found %d of %d errors, want at least 76%%", all.found, all.errors)
	}
	// Wrong agents and counts, both parts: at least 68% found (round
	// 12a's figure, 39 of 57).
	if c, ho := totals[false].byKind["count"], totals[true].byKind["count"]; 100*(c[0]+ho[0]) < 68*(c[0]+c[1]+ho[0]+ho[1]) {
		t.Errorf("wrong agents and counts: found %d of %d, want at least 68%%", c[0]+ho[0], c[0]+c[1]+ho[0]+ho[1])
	}
	if 100*all.falseFlags > 1*all.errors {
		t.Errorf("%d false flags for %d errors, want at most 1%%", all.falseFlags, all.errors)
	}
	// The held-out part alone, at rounds 12a and 12b's figures: errors
	// found at least 69% (37 of 53), false flags at most 2% of its errors.
	if ho := totals[true]; 100*ho.found < 69*ho.errors || 100*ho.falseFlags > 2*ho.errors {
		t.Errorf("held out: found %d and %d false flags for %d errors, want at least 69%% and at most 2%%", ho.found, ho.falseFlags, ho.errors)
	}
	// Missing blockers and raised severities, both parts together, at
	// round 11's figures: at least 80% of the dropped blockers and every
	// raised severity; no more than 2 blockers reported missing that the
	// synthesis states.
	var missing, raised [3]int
	for _, tot := range totals {
		for i := range 2 {
			missing[i] += tot.byKind["missing"][i]
			raised[i] += tot.byKind["raised"][i]
		}
	}
	if f, n := missing[0], missing[0]+missing[1]; 100*f < 80*n {
		t.Errorf("missing blockers: found %d of %d, want at least 80%%", f, n)
	}
	if raised[1] > 0 {
		t.Errorf("raised severities: missed %d of %d, want none missed", raised[1], raised[0]+raised[1])
	}
	if n := totals[false].flagsBy[MissingBlocker] + totals[true].flagsBy[MissingBlocker]; n > 0 {
		t.Errorf("%d false missing blockers, want none (round 12's figure)", n)
	}
	if all.cleanPass < all.clean-1 {
		t.Errorf("%d of %d error-free syntheses pass, want all but one at most", all.cleanPass, all.clean)
	}
	// Round 12's five syntheses: 3 of 68 errors found and 6 false flags
	// with the rules before that round, 4 and 2 after round 12b, 4 and 3
	// with round 12a's count rules beside it (one wrong count flagged);
	// 18 and 2 after round 13a (counts of tracks, count lines, counts by
	// the IDs a finding's items cite, items citing another's defect); 20
	// and 3 after round 14 (verify14a: an index-less report's blocker
	// whose siblings the synthesis cites by ID is a missing blocker, two
	// more found, one false: a blocker the synthesis states in a theme's
	// conclusion, in words of its own); 21 and 3 with a named agent's
	// unmatched findings holding a raised severity up only when one
	// rated that high says the claim (run.mayRate); 22 and 1 after round
	// 15 (verify15a: a line citing one agent's IDs states no other
	// agent's blocker; a paragraph under a heading naming agents by
	// label speaks of them).
	if f := fresh[12]; f.syntheses > 0 && (f.found < 22 || f.falseFlags > 1) {
		t.Errorf("round 12: found %d and %d false flags for %d errors, want at least 22 and at most 1", f.found, f.falseFlags, f.errors)
	}
	// Round 13's five syntheses, measured before round 13b changed
	// anything: 1 of 32 errors found, 1 false flag. Round 14 (verify14a)
	// makes round 13's part a development part, as round 13 made round
	// 12's: both were read and tuned on, neither is unseen any more (the
	// note on freshRounds that it is never tuned on holds no longer), and
	// round 14's labels (verify14b) are the new held-out part. After
	// round 14: 7 found, no false flag.
	if f := fresh[13]; f.syntheses > 0 && (f.found < 7 || f.falseFlags > 0 || f.cleanPass < f.clean) {
		t.Errorf("round 13: found %d and %d false flags for %d errors, %d of %d error-free passing; want at least 7, none, all", f.found, f.falseFlags, f.errors, f.cleanPass, f.clean)
	}
	// Round 14's nine syntheses (verify14b), held out in round 14,
	// measured with the rules of 42f4adb before any rule of round 14:
	// 18 of 61 errors found, 3 false flags, both error-free syntheses
	// passing; verify14a's and verify14c's rules left those figures as
	// they were. Round 15 (verify15a) made it a development part: 24
	// found, no false flag after its rules (an absent agent's claim is
	// no invention, "fd-a F9" of a numbered index, agent-column tables
	// and their "all agents agree", severity groups of findings inside
	// a recommendations section).
	if f := fresh[14]; f.syntheses > 0 && (f.found < 24 || f.falseFlags > 0 || f.cleanPass < f.clean) {
		t.Errorf("round 14: found %d and %d false flags for %d errors, %d of %d error-free passing; want at least 24, none, all", f.found, f.falseFlags, f.errors, f.cleanPass, f.clean)
	}
}

func lineOrRef(l hlabel) string {
	if l.Line == 0 {
		return l.Report
	}
	return strconv.Itoa(l.Line)
}

func cmp[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}
