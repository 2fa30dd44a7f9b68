package synth_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// labelRun is one run of testdata/convergence.txt: its directory under the
// corpus, whether the merge rule was tuned on it, and its labelled findings.
type labelRun struct {
	path, split string
	findings    []labelled
}

// labelled is one finding: where its agent wrote it, its ID ("-": none), and
// its cluster ("." for a finding no other agent reported).
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
		case f[0] == "run" && len(f) == 3 && (f[2] == "tune" || f[2] == "holdout"):
			runs = append(runs, labelRun{path: f[1], split: f[2]})
		case len(f) == 3 && len(runs) > 0 && strings.Contains(f[0], ":"):
			runs[len(runs)-1].findings = append(runs[len(runs)-1].findings, labelled{f[0], f[1], f[2]})
		default:
			t.Fatalf("%s:%d: cannot read %q", path, n, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return runs
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
// is no longer read where the labels say, or when precision on the tuning
// runs falls under 95%. Skipped when ../shared is absent.
func TestConvergenceLabels(t *testing.T) {
	root := corpustest.Root(t)
	runs := readLabels(t, filepath.Join("testdata", "convergence.txt"))
	if len(runs) < 8 {
		t.Fatalf("%d labelled runs, want at least 8", len(runs))
	}
	total := map[string]*pairCounts{"tune": {}, "holdout": {}}
	findings, clusters := 0, map[string]bool{}
	for _, lr := range runs {
		dir := filepath.Join(root, filepath.FromSlash(lr.path))
		s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{Jobs: 2}, synth.Options{EvidenceNote: "not checked"})
		if err != nil {
			t.Fatalf("%s: %v", lr.path, err)
		}
		type found struct {
			file, cluster, title string
			finding              int
		}
		merged := map[string]found{} // by "file:line" and "file ID" of each source
		for i, f := range s.Findings {
			for _, src := range f.Sources {
				file, _, _ := strings.Cut(src.Ref, ":")
				merged[src.Ref] = found{file, "", src.Title, i}
				if src.ID != "" {
					merged[file+" "+src.ID] = found{file, "", src.Title, i}
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
				switch {
				case same && merged:
					c.tp++
				case same:
					c.fn++
				case merged:
					c.fp++
					t.Logf("  merged, labelled apart: %s: %q and %q", lr.path, a.title, b.title)
				}
			}
		}
		t.Logf("%-7s %-95s precision %3d/%-3d recall %3d/%-3d", lr.split, lr.path, c.tp, c.tp+c.fp, c.tp, c.tp+c.fn)
		total[lr.split].add(c)
	}
	t.Logf("%d runs, %d labelled findings, %d clusters of two agents or more", len(runs), findings, len(clusters))
	for _, split := range []string{"tune", "holdout"} {
		c := total[split]
		t.Logf("%-7s merge precision %5.1f%% (%d/%d), merge recall %5.1f%% (%d/%d)", split,
			100*c.precision(), c.tp, c.tp+c.fp, 100*c.recall(), c.tp, c.tp+c.fn)
	}
	if c := total["tune"]; c.precision() < 0.95 {
		t.Errorf("merge precision on the tuning runs %.1f%%, want at least 95%%", 100*c.precision())
	}
}
