package synth_test

import (
	"bufio"
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// showMissed lists the labelled pairs of the tuning runs left apart; never
// those of held-out runs, which the rule is not tuned on.
var showMissed = flag.Bool("convergence.missed", false, "TestConvergenceLabels: list the same-defect pairs of tuning runs left apart")

// showDetail adds to each pair showMissed lists what the rule read of its
// two findings: agent, ID, section, identifiers, places and the opening of
// the description.
var showDetail = flag.Bool("convergence.detail", false, "TestConvergenceLabels: with -convergence.missed, show what the rule read of each finding")

// showCeiling ranks every labelled pair of different agents by the merge
// rule's pairwise score before any threshold (synth.MergeRank) and prints,
// for each part of the labelled set, the recall that score reaches at a
// given precision: what any threshold on it can merge.
var showCeiling = flag.Bool("convergence.ceiling", false, "TestConvergenceLabels: rank the labelled pairs by the rule's pairwise score and show recall at each precision")

// labelRun is one run of testdata/convergence.txt: where it is (a directory
// under the corpus, or a group of corpus-wild's manifest when wild), whether
// the merge rule was tuned on it, and its labelled findings.
type labelRun struct {
	path, split string
	wild        bool
	findings    []labelled
}

// labelled is one finding: where its agent wrote it, its ID ("-": none),
// and its cluster ("." for a finding no other agent reported).
type labelled struct{ ref, id, cluster string }

func readLabels(t *testing.T, path string) []labelRun {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var runs []labelRun
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case (f[0] == "run" || f[0] == "wild") && len(f) == 3 && (f[2] == "tune" || f[2] == "holdout"):
			runs = append(runs, labelRun{path: f[1], split: f[2], wild: f[0] == "wild"})
		case len(f) == 3 && len(runs) > 0 && strings.Contains(f[0], ":"):
			id := strings.ReplaceAll(f[1], "_", " ")
			runs[len(runs)-1].findings = append(runs[len(runs)-1].findings, labelled{f[0], id, f[2]})
		default:
			t.Fatalf("%s:%d: cannot read %q", path, n, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return runs
}

// wildRun copies the files of corpus-wild's group run:group into a
// temporary run directory, each under the last "__"-separated part of its
// name, and returns the directory.
func wildRun(t *testing.T, root string, entries []corpustest.Entry, group string) string {
	t.Helper()
	dir := t.TempDir()
	n := 0
	for _, e := range entries {
		if e.Group != "run:"+group {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.Path)))
		if err != nil {
			t.Fatal(err)
		}
		name := path.Base(e.Path)
		if i := strings.LastIndex(name, "__"); i >= 0 {
			name = name[i+2:]
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n < 2 {
		t.Fatalf("corpus-wild group run:%s has %d files, want at least 2", group, n)
	}
	return dir
}

// pairCounts counts pairs of labelled findings of different agents: merged
// by fluxwatch and labelled one cluster (tp), merged only (fp), labelled
// only (fn).
type pairCounts struct{ tp, fp, fn int }

func (c *pairCounts) add(o pairCounts) { c.tp, c.fp, c.fn = c.tp+o.tp, c.fp+o.fp, c.fn+o.fn }

func (c pairCounts) precision() float64 { return float64(c.tp) / float64(max(1, c.tp+c.fp)) }
func (c pairCounts) recall() float64    { return float64(c.tp) / float64(max(1, c.tp+c.fn)) }

// TestConvergenceLabels measures the merge rule (SPEC §5.2) against clusters
// labelled by hand on runs of the shared corpus (testdata/convergence.txt):
// merge precision and recall over pairs of P0–P2 findings of different
// agents, for the runs the rule was tuned on and for those held out. Run it
// with -v to see them (make convergence). It fails when a labelled finding
// is no longer read where the labels say, or when precision or recall on
// either part falls under its floor (floors). Skipped when ../shared is
// absent.
func TestConvergenceLabels(t *testing.T) {
	root := corpustest.Root(t)
	wild := corpustest.Wild(t)
	wildEntries := corpustest.Manifest(t, wild)
	runs := readLabels(t, filepath.Join("testdata", "convergence.txt"))
	if len(runs) < 8 {
		t.Fatalf("%d labelled runs, want at least 8", len(runs))
	}
	total := map[string]*pairCounts{"tune": {}, "holdout": {}, "wild": {}}
	ranked := map[string][]rankedPair{}
	findings, clusters := 0, map[string]bool{}
	for _, lr := range runs {
		dir := filepath.Join(root, filepath.FromSlash(lr.path))
		if lr.wild {
			dir = wildRun(t, wild, wildEntries, lr.path)
		}
		s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{Jobs: 2}, synth.Options{EvidenceNote: "not checked"})
		if err != nil {
			t.Fatalf("%s: %v", lr.path, err)
		}
		evidence := func(a, b string) string { return "" }
		rank := func(a, b string) (float64, bool) { return 0, false }
		if *showMissed && lr.split == "tune" || *showCeiling {
			run, err := watcher.NewScanner(watcher.ScanOptions{Jobs: 2, NoBus: true}).Scan(context.Background(), dir)
			if err != nil {
				t.Fatalf("%s: %v", lr.path, err)
			}
			evidence = synth.MergeEvidence(run, *showDetail)
			rank = synth.MergeRank(run)
		}
		type found struct {
			file, cluster, title, ref string
			finding                   int
		}
		merged := map[string]found{} // by "file:line" and "file ID" of each source
		for i, f := range s.Findings {
			for _, src := range f.Sources {
				file, _, _ := strings.Cut(src.Ref, ":")
				merged[src.Ref] = found{file, "", src.Title, path.Base(src.Ref), i}
				if src.ID != "" {
					merged[file+" "+src.ID] = found{file, "", src.Title, path.Base(src.Ref), i}
				}
			}
		}
		var fs []found
		for _, l := range lr.findings {
			file, _, _ := strings.Cut(l.ref, ":")
			f, ok := merged[l.ref]
			if !ok && l.id != "-" {
				f, ok = merged[file+" "+l.id]
			}
			if !ok {
				t.Errorf("%s: labelled finding %s (%s) is not read there", lr.path, l.ref, l.id)
				continue
			}
			f.cluster = l.cluster
			fs = append(fs, f)
			findings++
			if l.cluster != "." {
				clusters[lr.path+" "+l.cluster] = true
			}
		}
		var c pairCounts
		for i := range fs {
			for j := i + 1; j < len(fs); j++ {
				a, b := fs[i], fs[j]
				if a.file == b.file {
					continue
				}
				same, merged := a.cluster != "." && a.cluster == b.cluster, a.finding == b.finding
				if *showCeiling {
					r, ok := rank(a.ref, b.ref)
					if !ok {
						t.Errorf("%s: %s and %s: the merge rule does not read them", lr.path, a.ref, b.ref)
					}
					ranked[lr.split] = append(ranked[lr.split], rankedPair{r, same})
				}
				switch {
				case same && merged:
					c.tp++
				case same:
					c.fn++
					if *showMissed && lr.split == "tune" {
						t.Logf("  labelled together, apart: %s %s: %q and %q: %s", lr.path, a.cluster, a.title, b.title,
							evidence(a.ref, b.ref))
					}
				case merged:
					c.fp++
					if *showMissed && lr.split == "tune" {
						t.Logf("  merged, labelled apart: %s: %q and %q: %s", lr.path, a.title, b.title, evidence(a.ref, b.ref))
					} else {
						t.Logf("  merged, labelled apart: %s: %q and %q", lr.path, a.title, b.title)
					}
				}
			}
		}
		t.Logf("%-7s %-95s precision %3d/%-3d recall %3d/%-3d", lr.split, lr.path, c.tp, c.tp+c.fp, c.tp, c.tp+c.fn)
		total[lr.split].add(c)
		if lr.wild {
			total["wild"].add(c)
		}
	}
	t.Logf("%d runs, %d labelled findings, %d clusters of two agents or more", len(runs), findings, len(clusters))
	for _, split := range []string{"tune", "holdout", "wild"} {
		c := total[split]
		name := split
		if split == "wild" {
			name = "  of it, other authors (corpus-wild)"
		}
		t.Logf("%-7s merge precision %5.1f%% (%d/%d), merge recall %5.1f%% (%d/%d)", name,
			100*c.precision(), c.tp, c.tp+c.fp, 100*c.recall(), c.tp, c.tp+c.fn)
	}
	for _, split := range []string{"tune", "holdout"} {
		if !*showCeiling {
			break
		}
		c := total[split]
		rs := ranked[split]
		if same := countSame(rs); same != c.tp+c.fn {
			t.Errorf("%s: %d same-defect pairs ranked, %d counted", split, same, c.tp+c.fn)
		}
		t.Logf("%-7s the rule's pairwise score, every threshold (%d pairs, %d same-defect): %s", split, len(rs),
			countSame(rs), ceilingOf(rs))
	}
	for split, f := range floors {
		if c := total[split]; c.precision() < f.precision || c.recall() < f.recall {
			t.Errorf("%s: merge precision %.1f%%, recall %.1f%%; want at least %.1f%% and %.1f%%", split,
				100*c.precision(), 100*c.recall(), 100*f.precision, 100*f.recall)
		}
	}
}

// floors are the merge precision and recall TestConvergenceLabels holds the
// rule to, a little under what it measures, per part of the labelled set.
var floors = map[string]struct{ precision, recall float64 }{
	"tune":    {0.93, 0.70},
	"holdout": {0.90, 0.36},
}

// rankedPair is a labelled pair of findings of different agents: the
// rank the merge rule gives it (synth.MergeRank) and whether the labels
// call it one defect.
type rankedPair struct {
	rank float64
	same bool
}

func countSame(ps []rankedPair) int {
	n := 0
	for _, p := range ps {
		if p.same {
			n++
		}
	}
	return n
}

// ceiling is what a threshold on a rank reaches over labelled pairs: the
// best recall at each precision of ceilingPrecisions (and the rank it
// needs), and the precision and number of pairs merged at the first
// threshold whose recall is at least ceilingRecall.
type ceiling struct {
	recall  [len(ceilingPrecisions)]float64
	at      [len(ceilingPrecisions)]float64
	precAtR float64
	pairsAt int
}

var ceilingPrecisions = [...]float64{0.95, 0.90, 0.80}

const ceilingRecall = 0.90

// ceilingOf ranks pairs best first and walks the thresholds between
// distinct ranks (pairs of one rank merge together).
func ceilingOf(ps []rankedPair) ceiling {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b rankedPair) int { return cmp.Compare(b.rank, a.rank) })
	var c ceiling
	c.precAtR = -1
	all := countSame(ps)
	tp := 0
	for k, p := range ps {
		if p.same {
			tp++
		}
		if k+1 < len(ps) && ps[k+1].rank == p.rank {
			continue
		}
		prec, rec := float64(tp)/float64(k+1), float64(tp)/float64(max(1, all))
		for x, want := range ceilingPrecisions {
			if prec >= want && rec > c.recall[x] {
				c.recall[x], c.at[x] = rec, p.rank
			}
		}
		if c.precAtR < 0 && rec >= ceilingRecall {
			c.precAtR, c.pairsAt = prec, k+1
		}
	}
	return c
}

func (c ceiling) String() string {
	var b strings.Builder
	for x, p := range ceilingPrecisions {
		fmt.Fprintf(&b, "recall %.0f%% at precision %.0f%% (rank %.2f); ", 100*c.recall[x], 100*p, c.at[x])
	}
	if c.precAtR < 0 {
		fmt.Fprintf(&b, "never %.0f%% recall", 100*ceilingRecall)
	} else {
		fmt.Fprintf(&b, "%.0f%% recall at precision %.0f%% (the best %d pairs)", 100*ceilingRecall, 100*c.precAtR, c.pairsAt)
	}
	return b.String()
}

// TestCeilingOf checks the curve on pairs whose figures can be counted by
// hand, ties included: pairs of one rank merge together.
func TestCeilingOf(t *testing.T) {
	p := func(rank float64, same bool) rankedPair { return rankedPair{rank, same} }
	cases := []struct {
		name    string
		pairs   []rankedPair
		recall  [len(ceilingPrecisions)]float64
		precAtR float64
		pairsAt int
	}{
		{"separable", []rankedPair{p(0.2, false), p(0.9, true), p(0.1, false), p(0.8, true)},
			[...]float64{1, 1, 1}, 1, 2},
		{"one false pair first", []rankedPair{p(0.9, false), p(0.8, true), p(0.7, true), p(0.6, true), p(0.5, true), p(0.1, false)},
			[...]float64{0, 0, 1}, 0.8, 5},
		// 9 true pairs then a false one tied with the 10th true pair:
		// the tie merges both or neither.
		{"a tie", append(append([]rankedPair{}, repeat(p(0.9, true), 9)...), p(0.5, true), p(0.5, false)),
			[...]float64{0.9, 1, 1}, 1, 9},
		{"never reached", []rankedPair{p(0.9, false), p(0.8, false)}, [...]float64{0, 0, 0}, -1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ceilingOf(c.pairs)
			if got.recall != c.recall || got.precAtR != c.precAtR || got.pairsAt != c.pairsAt {
				t.Errorf("ceilingOf = recall %v, %.2f precision at %d pairs; want recall %v, %.2f at %d",
					got.recall, got.precAtR, got.pairsAt, c.recall, c.precAtR, c.pairsAt)
			}
		})
	}
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}
