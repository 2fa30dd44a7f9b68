package verify

import (
	"flag"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want parts of testdata/golden/*.txtar")

// runOf synthesises the agent reports of an archive (agents/NAME.md) the way
// the watcher would, and returns them by name for Check.
func runOf(t testing.TB, a *txtar.Archive) (*synth.Synthesis, map[string][]byte) {
	t.Helper()
	run := &synth.Run{Input: "run"}
	reports := map[string][]byte{}
	for _, f := range a.Files {
		name, ok := strings.CutPrefix(f.Name, "agents/")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, ".md")
		rep := parse.ReadReport(f.Data)
		run.Agents = append(run.Agents, synth.Agent{Name: name, File: name + ".md", Status: rep.Status, Report: rep, Text: f.Data})
		reports[name] = f.Data
	}
	sort.Slice(run.Agents, func(i, j int) bool { return run.Agents[i].Name < run.Agents[j].Name })
	return synth.Synthesize(run, synth.Options{}), reports
}

// checked checks the synthesis.md of archive a against the run of its
// agent reports.
func checked(t *testing.T, a *txtar.Archive) *Result {
	t.Helper()
	s, reports := runOf(t, a)
	return Check(Input{Synthesis: txtartest.File(a, "synthesis.md").Data, Run: s, Reports: reports})
}

// resultOf checks the golden archive name.
func resultOf(t *testing.T, name string) *Result {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return checked(t, a)
}

// TestGolden checks each kind of error against its archive: the text
// report (want) and the gate.
func TestGolden(t *testing.T) {
	txtartest.Each(t, "testdata/golden/*.txtar", func(t *testing.T, path string, a *txtar.Archive) {
		txtartest.Golden(t, path, a, "want", checked(t, a).Text("synthesis.md"), *update)
	})
}

// TestGoldenKinds pins what each archive is about, so that a -update that
// loses the point of a fixture fails.
func TestGoldenKinds(t *testing.T) {
	for _, tc := range []struct {
		archive    string
		kind       Kind // the kind the fixture shows; "" for none
		ungrounded bool
	}{
		{"clean", "", false},
		{"invented", Invented, true},
		{"raised", SeverityRaised, true},
		{"dropped", SeverityDropped, false},
		{"missing", MissingBlocker, true},
		{"count", WrongCount, true},
		{"unverifiable", Unverifiable, false},
		{"cited", "", false},
		{"wrongagent", WrongCount, true},
		{"passing", WrongCount, true},
		{"fixstated", MissingBlocker, true},
		{"folded", "", false},
		{"otherrun", MissingBlocker, true},
		{"severalruns", "", false},
		{"runending", "", false},
		{"rununtold", MissingBlocker, true},
		{"rosterlabels", "", false},
		{"restated", MissingBlocker, true},
		{"madeupid", WrongCount, true},
		{"identifier", WrongCount, true},
		{"planlabels", MissingBlocker, true},
		{"citedraised", SeverityRaised, true},
		{"twoseverities", SeverityRaised, true},
		{"otherwords", SeverityRaised, true},
		{"indexless", MissingBlocker, true},
		{"unmatchedcount", WrongCount, true},
		{"themetable", WrongCount, true},
		{"proseagents", WrongCount, true},
		{"whosaid", WrongCount, true},
		{"codeneighbour", WrongCount, true},
		{"refneighbour", WrongCount, true},
		{"countheading", WrongCount, true},
		{"labelcount", WrongCount, true},
		{"trackcount", WrongCount, true},
		{"itemscount", WrongCount, true},
		{"findingno", SeverityRaised, true},
		{"dashlabels", WrongCount, true},
		{"siblingscited", MissingBlocker, true},
	} {
		t.Run(tc.archive, func(t *testing.T) {
			r := resultOf(t, tc.archive)
			if got := r.Ungrounded(); got != tc.ungrounded {
				t.Errorf("Ungrounded() = %v, want %v\n%s", got, tc.ungrounded, r.Text("synthesis.md"))
			}
			for _, k := range Kinds {
				n := r.Tally[k]
				switch {
				case k == tc.kind && n == 0:
					t.Errorf("no %s problem:\n%s", k, r.Text("synthesis.md"))
				case k != tc.kind && n != 0:
					t.Errorf("%d unexpected %s problems:\n%s", n, k, r.Text("synthesis.md"))
				}
			}
		})
	}
}

// TestOwnSummaryGrounded: fluxwatch's own summary.md of a run is a
// synthesis that says exactly what the run says: verify finds nothing in
// it. A claim parser that misreads summary.md's shapes (ID lead-ins,
// convergence lists, the timeline table) fails here.
func TestOwnSummaryGrounded(t *testing.T) {
	txtartest.Each(t, "testdata/golden/*.txtar", func(t *testing.T, _ string, a *txtar.Archive) {
		s, reports := runOf(t, a)
		md := synth.RenderMarkdown(s)
		r := Check(Input{Synthesis: md, Run: s, Reports: reports})
		if len(r.Problems) > 0 || len(r.Claims) < len(s.Findings) {
			t.Errorf("%d claims for %d findings; problems:\n%s\n%s", len(r.Claims), len(s.Findings), r.Text("summary.md"), md)
		}
	})
}
