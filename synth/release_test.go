package synth

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
)

// TestSynthesizeStreamReleasing: SynthesizeStream of a run without a bus
// and evidence, which makes the Sources before the merged findings and lets
// go of the parsed findings between the two (findingsReleasing), writes
// findings.json and summary.md byte for byte as Synthesize does, which
// makes them from the sources of the merge (findingsOf) — on random runs
// whose file refs are written every way (as Ref.String writes them, with
// "./" or backticks, without a path), with low and absent confidences,
// under both dedup modes, a baseline and a suppression, with and without
// the reports' diagnostics (which it lets go of once the agents are
// listed) — and leaves run as it was.
func TestSynthesizeStreamReleasing(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 10))
	refs := []string{"a.go:1", "./a.go:1", "`b.go:10`", "b.go:10", "c.go:5-9", "c.go:5", "c.go", "no path here", "a.go:2"}
	confs := []string{parse.ConfidenceHigh, parse.ConfidenceLow, ""}
	noBus := func(string, func([]record.Entry)) ([]parse.Diagnostic, error) {
		t.Fatal("a run without a bus read one")
		return nil, nil
	}
	for i := range 300 {
		run := randomRun(r, 1+r.IntN(8))
		for _, a := range run.Agents {
			for k := range a.Report.Findings {
				f := &a.Report.Findings[k]
				f.FileRefs = nil
				for range r.IntN(4) {
					f.FileRefs = append(f.FileRefs, refs[r.IntN(len(refs))])
				}
				f.Confidence = confs[r.IntN(len(confs))]
			}
			for k := range r.IntN(3) {
				a.Report.Diagnostics = append(a.Report.Diagnostics,
					parse.Diagnostic{Line: 1 + r.IntN(9), Level: parse.LevelInfo, Message: fmt.Sprintf("note %d", k)})
			}
		}
		held := make([][]parse.Finding, len(run.Agents))
		heldDiags := make([][]parse.Diagnostic, len(run.Agents))
		for k, a := range run.Agents {
			held[k] = slices.Clone(a.Report.Findings)
			heldDiags[k] = slices.Clone(a.Report.Diagnostics)
		}
		opts := Options{Dedup: Dedup(r.IntN(2))}
		if r.IntN(3) == 0 {
			opts.Baseline = baselineOf(t, randomRun(r, 1+r.IntN(4)))
		}
		if r.IntN(3) == 0 {
			opts.Suppressions = []Suppression{{File: "c.yaml", Line: 1, Match: SuppressionMatch{Title: "retry"}, Reason: "known"}}
		}
		want := Synthesize(run, opts)
		got, err := SynthesizeStream(run, opts, noBus)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := must(RenderJSON(got)), must(RenderJSON(want)); !bytes.Equal(g, w) {
			t.Fatalf("case %d: findings.json differs:\n%s", i, txtartest.FirstDiff(w, g))
		}
		if g, w := RenderMarkdown(got), RenderMarkdown(want); !bytes.Equal(g, w) {
			t.Fatalf("case %d: summary.md differs:\n%s", i, txtartest.FirstDiff(w, g))
		}
		for k, a := range run.Agents {
			if !slices.EqualFunc(a.Report.Findings, held[k], func(x, y parse.Finding) bool { return x.ID == y.ID && x.Title == y.Title }) {
				t.Fatalf("case %d: SynthesizeStream modified the findings of %s", i, a.Name)
			}
			if !slices.Equal(a.Report.Diagnostics, heldDiags[k]) {
				t.Fatalf("case %d: SynthesizeStream modified the diagnostics of %s", i, a.Name)
			}
		}
	}
}

// coLocateByMap is coLocate as it was: every point's text mapped to the
// findings citing it. The reference for TestCoLocateAgainstMap.
func coLocateByMap(fs []Finding) map[int][]CoLocation {
	byPoint := map[string][]int{}
	for i, f := range fs {
		seen := map[string]bool{}
		for _, r := range f.FileRefs {
			p := ParseRef(r).point()
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			byPoint[p] = append(byPoint[p], i)
		}
	}
	co := map[int][]CoLocation{}
	for _, p := range sortedKeys(byPoint) {
		l := byPoint[p]
		for _, i := range l {
			for _, j := range l {
				if i != j {
					co[i] = append(co[i], CoLocation{Key: fs[j].Key, ID: fs[j].ID, Ref: p})
				}
			}
		}
	}
	for _, l := range co {
		slices.SortFunc(l, func(a, b CoLocation) int {
			return cmp.Or(compareRef(ParseRef(a.Ref), ParseRef(b.Ref)), cmp.Compare(a.Key, b.Key))
		})
	}
	return co
}

// TestCoLocateAgainstMap: coLocate, which sorts the citations, finds the
// co-locations the map of every point's text found, on random findings
// citing a few files and lines every way (a line twice, a range, a file
// without a line, no path).
func TestCoLocateAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 11))
	refs := []string{"a.go:1", "./a.go:1", "a.go:1-3", "a.go:2", "`b.go:10`", "b.go:10-12", "b.go", "c/d.go:7", "no path", "a.go:10"}
	for n := range 300 {
		fs := make([]Finding, 1+r.IntN(12))
		for i := range fs {
			fs[i].Key = fmt.Sprintf("s:title %d", i)
			fs[i].ID = fmt.Sprintf("X-%d", r.IntN(5))
			for range r.IntN(4) {
				fs[i].FileRefs = append(fs[i].FileRefs, refs[r.IntN(len(refs))])
			}
		}
		want := coLocateByMap(fs)
		coLocate(fs)
		for i := range fs {
			if got := fs[i].CoLocatedWith(); !slices.Equal(got, want[i]) {
				t.Fatalf("case %d, finding %d: co-located with %v, want %v", n, i, got, want[i])
			}
		}
	}
}
