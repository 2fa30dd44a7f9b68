package synth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/internal/procbench/reportgen"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// prefixRun is run with its agents cut to the first nAgents (the others not
// yet written) and each bus file cut to its first cut[i] entries.
func prefixRun(run *synth.Run, nAgents int, cut []int) *synth.Run {
	r := *run
	r.Agents = run.Agents[:nAgents]
	r.Bus = make([]synth.BusFile, len(run.Bus))
	for i, b := range run.Bus {
		r.Bus[i] = synth.BusFile{Name: b.Name, Entries: b.Entries[:cut[i]], Diagnostics: b.Diagnostics}
	}
	return &r
}

// demoRun generates the run of cfg and returns it as scanned, and its
// directory.
func demoRun(t *testing.T, cfg demo.Config) (*synth.Run, string) {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Generate(dir, cfg); err != nil {
		t.Fatal(err)
	}
	run, err := watcher.Scan(context.Background(), dir, watcher.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return run, dir
}

// TestLiveMatchesSynthesize grows a run step by step (bus entries appended to
// either file, agents completing, a bus rewound) and checks after every step
// that the Live synthesis renders byte for byte like a fresh Synthesize, and
// that a synthesis already returned does not change afterwards.
func TestLiveMatchesSynthesize(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 12, Findings: 8, BusLines: 600, Seed: 7})
	// Some agents acknowledge others by name only (SPEC §5.5).
	for i := range full.Agents {
		if i%3 == 0 {
			a := &full.Agents[i]
			a.Text = append(append([]byte{}, a.Text...), fmt.Sprintf("\nPer fd-agent-%04d's peer finding.\n", (i+1)%12)...)
		}
	}
	// Split the generated bus over both bus files so that appends land in
	// either, and add the example run's blocking entries for acknowledgements.
	entries := full.Bus[0].Entries
	full.Bus = []synth.BusFile{
		{Name: "findings.jsonl", Entries: entries[:400]},
		{Name: "peer-findings.jsonl", Entries: entries[400:]},
	}
	for _, tc := range []struct {
		watching bool
		verifier synth.Verifier
	}{{false, nil}, {true, nil}, {true, oddLines{}}} {
		watching := tc.watching
		opts := synth.Options{MaxEntries: 7, Watching: watching, Expect: []string{"fd-agent-0000", "fd-late"},
			Evidence: tc.verifier, EvidenceRepo: "repo", EvidenceNote: "not checked"}
		r := rand.New(rand.NewPCG(1, 2))
		live := synth.NewLive(opts)
		nAgents, cut := 0, []int{0, 0}
		type kept struct {
			s    *synth.Synthesis
			json []byte
		}
		var earlier []kept
		for step := 0; step < 120; step++ {
			switch k := r.IntN(10); {
			case k == 0 && nAgents < len(full.Agents):
				nAgents++ // an agent completes: the findings merge again
			case k == 1:
				// The bus is truncated and rewritten: read again from the start.
				cut[0], cut[1] = r.IntN(cut[0]+1), 0
				live.Rewind()
			case k < 6:
				cut[0] = min(len(full.Bus[0].Entries), cut[0]+r.IntN(20))
			default:
				if cut[0] > 0 { // the second file grows once the first has entries
					cut[1] = min(len(full.Bus[1].Entries), cut[1]+r.IntN(20))
				}
			}
			run := prefixRun(full, nAgents, cut)
			live.Update(run)
			got := must(synth.RenderJSON(live.Synthesis()))
			want := must(synth.RenderJSON(synth.Synthesize(run, opts)))
			if !bytes.Equal(got, want) {
				t.Fatalf("watching=%v step %d (%d agents, bus %v): live synthesis differs from Synthesize:\n%s",
					watching, step, nAgents, cut, txtartest.FirstDiff(want, got))
			}
			if step%10 == 0 {
				s := live.Synthesis()
				earlier = append(earlier, kept{s, must(synth.RenderJSON(s))})
			}
		}
		for i, k := range earlier {
			if got := must(synth.RenderJSON(k.s)); !bytes.Equal(got, k.json) {
				t.Fatalf("synthesis %d changed after later updates:\n%s", i, txtartest.FirstDiff(k.json, got))
			}
		}
	}
}

// TestLiveFinal: a watching Live's Final is Synthesize not watching, byte
// for byte, at any point of a growing run (agents completing, bus entries
// appended to either file, a bus rewound), without a merge when the
// completed agents are those of its last Update; with one more completed
// agent it declines and is unchanged.
func TestLiveFinal(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 10, Findings: 8, BusLines: 400, Seed: 3})
	entries := full.Bus[0].Entries
	full.Bus = []synth.BusFile{
		{Name: "findings.jsonl", Entries: entries[:250]},
		{Name: "peer-findings.jsonl", Entries: entries[250:]},
	}
	watching := synth.Options{MaxEntries: 7, Watching: true, Expect: []string{"fd-agent-0000", "fd-late"}}
	final := watching
	final.Watching = false
	type step struct {
		nAgents int
		cut     []int
		rewind  bool
	}
	r := rand.New(rand.NewPCG(3, 4))
	var steps []step
	nAgents, cut := 0, []int{0, 0}
	for range 60 {
		rewind := false
		switch k := r.IntN(10); {
		case k == 0 && nAgents < len(full.Agents):
			nAgents++
		case k == 1:
			cut[0], cut[1], rewind = r.IntN(cut[0]+1), 0, true
		case k < 6:
			cut[0] = min(len(full.Bus[0].Entries), cut[0]+r.IntN(20))
		default:
			if cut[0] > 0 {
				cut[1] = min(len(full.Bus[1].Entries), cut[1]+r.IntN(20))
			}
		}
		steps = append(steps, step{nAgents, slices.Clone(cut), rewind})
	}
	finals, declined := 0, 0
	for n := 1; n <= len(steps); n += 1 + r.IntN(4) {
		live := synth.NewLive(watching)
		for _, st := range steps[:n] {
			if st.rewind {
				live.Rewind()
			}
			live.Update(prefixRun(full, st.nAgents, st.cut))
		}
		last := steps[n-1]
		if last.nAgents < len(full.Agents) {
			// One more agent completed since: the Live declines.
			more := prefixRun(full, last.nAgents+1, last.cut)
			before := must(synth.RenderJSON(live.Synthesis()))
			if s, ok := live.Final(more); ok || s != nil {
				t.Fatalf("step %d: Final of a run with one more completed agent made a synthesis", n)
			}
			if got := must(synth.RenderJSON(live.Synthesis())); !bytes.Equal(got, before) {
				t.Fatalf("step %d: a Final that declined changed the Live:\n%s", n, txtartest.FirstDiff(before, got))
			}
			declined++
		}
		run := prefixRun(full, last.nAgents, last.cut)
		s, ok := live.Final(run)
		if !ok {
			t.Fatalf("step %d: Final declined a run whose completed agents are those merged", n)
		}
		got, want := must(synth.RenderJSON(s)), must(synth.RenderJSON(synth.Synthesize(run, final)))
		if !bytes.Equal(got, want) {
			t.Fatalf("step %d (%d agents, bus %v): Final differs from Synthesize not watching:\n%s",
				n, last.nAgents, last.cut, txtartest.FirstDiff(want, got))
		}
		finals++
	}
	if finals < 10 || declined == 0 {
		t.Fatalf("%d finals, %d declined: the test tests too little", finals, declined)
	}
	// Evidence checked: Synthesize reads the cited files again, so Final
	// declines, and the Live is unchanged.
	checked := watching
	checked.Evidence, checked.EvidenceRepo = oddLines{}, "repo"
	live := synth.NewLive(checked)
	run := prefixRun(full, len(full.Agents), []int{10, 10})
	live.Update(run)
	before := must(synth.RenderJSON(live.Synthesis()))
	if s, ok := live.Final(run); ok || s != nil {
		t.Fatalf("Final made a synthesis with evidence checked")
	}
	if got := must(synth.RenderJSON(live.Synthesis())); !bytes.Equal(got, before) {
		t.Fatalf("a Final that declined changed the Live:\n%s", txtartest.FirstDiff(before, got))
	}
}

// TestLiveExpectedWhileWatching: an expected agent with no file yet is still
// running while watching, failed otherwise.
func TestLiveExpectedWhileWatching(t *testing.T) {
	run := &synth.Run{Agents: []synth.Agent{{Name: "fd-a", File: "fd-a.md", Status: parse.StatusValid,
		Report: &parse.Report{Status: parse.StatusValid}}}}
	for _, tt := range []struct {
		watching          bool
		failed, partial   int
		status            parse.Status
		verdictOfExpected parse.Verdict
	}{
		{false, 1, 0, parse.StatusError, parse.Error},
		{true, 0, 1, parse.StatusPartial, parse.Pending},
	} {
		s := synth.Synthesize(run, synth.Options{Watching: tt.watching, Expect: []string{"fd-b"}})
		if len(s.AgentsFailed) != tt.failed || len(s.AgentsPartial) != tt.partial || len(s.AgentsLaunched) != 2 {
			t.Errorf("watching=%v: failed %v partial %v launched %v; want %d failed, %d partial, 2 launched",
				tt.watching, s.AgentsFailed, s.AgentsPartial, s.AgentsLaunched, tt.failed, tt.partial)
		}
		b := s.Agents[1]
		if b.Name != "fd-b" || b.Status != tt.status || b.Verdict != tt.verdictOfExpected || b.File != nil {
			t.Errorf("watching=%v: expected agent = %+v; want status %s, verdict %s, no file", tt.watching, b, tt.status, tt.verdictOfExpected)
		}
	}
}

// TestIndentJSON compares the indenter with json.Indent on awkward compact
// JSON: empty objects and arrays, nesting, escapes, raw UTF-8, '<'.
func TestIndentJSON(t *testing.T) {
	for _, compact := range []string{
		`{}`,
		`[]`,
		`{"a":[],"b":{},"c":[1,"x",null,true,{"d":[[]]}]}`,
		`"quote \" backslash \\ brace { bracket [ comma , colon : newline \n tab \t unicode é \u2028 <html>"`,
		`["\\","\\\\","\"\\\"","\\u0000","end\\"]`,
		`{"k\"ey":{"nested":[1.5,-2,30000000000]}}`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(compact), "", "  "); err != nil {
			t.Fatalf("%s: %v", compact, err)
		}
		if got := synth.IndentJSON(nil, []byte(compact)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("indent of %s:\n%s\nwant\n%s", compact, got, want.Bytes())
		}
	}
}

// FuzzIndentJSON: for any valid JSON, compacted, the indenter agrees with
// json.Indent.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"c\"}"}],"d":{}}`, `"\\"`, `[[],[{}]]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(s)) != nil {
			return
		}
		var want bytes.Buffer
		json.Indent(&want, compact.Bytes(), "", "  ")
		if got := synth.IndentJSON(nil, compact.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indent of %s:\n%s\nwant\n%s", compact.Bytes(), got, want.Bytes())
		}
	})
}

// oddLines is a verifier that holds claims on odd lines and refutes the
// others.
type oddLines struct{}

func (oddLines) Verify(claims []parse.EvidenceClaim) []parse.ClaimResult {
	out := make([]parse.ClaimResult, len(claims))
	for i, c := range claims {
		out[i] = parse.ClaimResult{EvidenceClaim: c, Status: parse.EvidenceMismatch}
		if c.Start%2 == 1 {
			out[i].Status = parse.EvidenceVerified
		}
	}
	return out
}

// The evidence package's verifier is a Verifier (it shares only package
// parse's claim types with synth, and does not import it).
var _ synth.Verifier = (*evidence.Verifier)(nil)

// TestLiveSnapshotsReadOnly: the syntheses a Live hands out share their
// findings with it and with each other, so every writer must only read
// them. Each synthesis is rendered in every format by two goroutines at
// once while the Live goes on updating and handing out the next ones:
// under -race a writer that modifies a finding, or a Live that modifies
// findings it handed out, is a reported race; and each synthesis must
// render at the end as it did when it was handed out.
func TestLiveSnapshotsReadOnly(t *testing.T) {
	full, dir := demoRun(t, demo.Config{Agents: 8, Findings: 6, BusLines: 300, Seed: 11})
	render := func(s *synth.Synthesis) []byte {
		var b bytes.Buffer
		b.Write(must(synth.RenderJSON(s)))
		b.Write(synth.RenderMarkdown(s))
		b.Write(must(synth.RenderSARIF(s, dir)))
		b.Write(must(synth.RenderJUnit(s, dir)))
		b.Write(must(synth.RenderRDJSONL(s, dir)))
		b.Write(must(synth.RenderCodeClimate(s, dir)))
		b.Write(synth.RenderAnnotations(s, dir))
		return b.Bytes()
	}
	live := synth.NewLive(synth.Options{Watching: true})
	r := rand.New(rand.NewPCG(29, 6))
	type kept struct {
		s     *synth.Synthesis
		first []byte
	}
	var (
		wg    sync.WaitGroup
		snaps []kept
	)
	nAgents, entries := 1, 0
	for step := range 40 {
		if r.IntN(4) == 0 && nAgents < len(full.Agents) {
			nAgents++
		} else {
			entries = min(len(full.Bus[0].Entries), entries+1+r.IntN(10))
		}
		live.Update(prefixRun(full, nAgents, []int{entries}))
		s := live.Synthesis()
		if step%3 == 0 {
			s = live.Synthesis() // a second one of the same update shares the first's findings
		}
		snaps = append(snaps, kept{s: s, first: render(s)})
		for range 2 {
			wg.Go(func() { render(s) })
		}
	}
	wg.Wait()
	for i, k := range snaps {
		if got := render(k.s); !bytes.Equal(got, k.first) {
			t.Fatalf("synthesis %d changed after later updates:\n%s", i, txtartest.FirstDiff(k.first, got))
		}
	}
}

// TestLiveBusComesLate: a Live whose run had no bus entries when its
// findings merged lets the merge's sources go, and makes them again when
// entries come (appended, after a rewind, or read against a new merge):
// on random runs, every step renders byte for byte like Synthesize.
func TestLiveBusComesLate(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 10, Findings: 8, BusLines: 400, Seed: 3})
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 29))
		opts := synth.Options{MaxEntries: 9, Watching: seed%2 == 0}
		live := synth.NewLive(opts)
		nAgents, cut, matched := 1+r.IntN(4), []int{0}, false
		early := r.IntN(3) // the steps that merge more agents before any entry
		for step := range 30 {
			switch k := r.IntN(8); {
			case step < early && nAgents < len(full.Agents):
				nAgents++ // merges with no bus yet
			case k == 0 && nAgents < len(full.Agents):
				nAgents++ // a merge against the entries read
			case k == 1:
				cut[0] = 0 // the bus emptied: the next entries come to a run without any
				live.Rewind()
			default:
				cut[0] = min(len(full.Bus[0].Entries), cut[0]+r.IntN(30))
			}
			run := prefixRun(full, nAgents, cut)
			live.Update(run)
			s := live.Synthesis()
			got := must(synth.RenderJSON(s))
			want := must(synth.RenderJSON(synth.Synthesize(run, opts)))
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d, step %d (%d agents, %d entries): live synthesis differs from Synthesize:\n%s",
					seed, step, nAgents, cut[0], txtartest.FirstDiff(want, got))
			}
			if s.Timeline != nil {
				for _, e := range s.Timeline.Entries {
					matched = matched || e.Finding != ""
				}
			}
		}
		if !matched {
			t.Fatalf("seed %d: no entry matched a finding: the test tests nothing", seed)
		}
	}
}

// TestLiveAppendTouchesOnly: a bus append that matches no finding hands
// out the findings of the synthesis before (no copy); one that matches a
// finding hands out a copy, the synthesis before unchanged; both render as
// Synthesize does.
func TestLiveAppendTouchesOnly(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 6, Findings: 5, BusLines: 40, Seed: 5})
	opts := synth.Options{Watching: true}
	live := synth.NewLive(opts)
	entries := slices.Clone(full.Bus[0].Entries)
	step := func(es []record.Entry) *synth.Synthesis {
		run := *full
		run.Bus = []synth.BusFile{{Name: full.Bus[0].Name, Entries: es}}
		live.Update(&run)
		s := live.Synthesis()
		if got, want := must(synth.RenderJSON(s)), must(synth.RenderJSON(synth.Synthesize(&run, opts))); !bytes.Equal(got, want) {
			t.Fatalf("%d entries: live synthesis differs from Synthesize:\n%s", len(es), txtartest.FirstDiff(want, got))
		}
		return s
	}
	s1 := step(entries)
	before := must(synth.RenderJSON(s1))
	entries = append(entries, record.Entry{Severity: record.Notable, Agent: "fd-late", Summary: "zyxw qvut nothing like it"})
	s2 := step(entries)
	if &s2.Findings[0] != &s1.Findings[0] {
		t.Errorf("an append that matches no finding copied the findings")
	}
	i := slices.IndexFunc(s1.Findings, func(f synth.Finding) bool { return f.DiscoveredBy() == nil })
	if i < 0 {
		t.Fatal("every finding is discovered on the bus: nothing left to touch")
	}
	f := s1.Findings[i]
	entries = append(entries, record.Entry{Severity: record.Notable, Agent: "fd-late", Summary: f.Title, FileRefs: f.FileRefs})
	s3 := step(entries)
	if &s3.Findings[0] == &s1.Findings[0] || s3.Findings[i].DiscoveredBy() == nil {
		t.Errorf("an append that matches %q: not discovered, or written over the findings handed out", f.Title)
	}
	if got := must(synth.RenderJSON(s1)); !bytes.Equal(got, before) {
		t.Fatalf("the first synthesis changed:\n%s", txtartest.FirstDiff(before, got))
	}
}

// TestLiveAppendAllocates: a bus append that matches no finding of a
// large report allocates less than a copy of its findings (it makes none).
func TestLiveAppendAllocates(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fd-index.md"), reportgen.Report(reportgen.Strict, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	full, err := watcher.Scan(context.Background(), dir, watcher.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	live := synth.NewLive(synth.Options{Watching: true})
	entries := []record.Entry{{Severity: record.Notable, Agent: "fd-other", Summary: "zyxw qvut nothing like it"}}
	update := func() *synth.Synthesis {
		run := *full
		run.Bus = []synth.BusFile{{Name: "findings.jsonl", Entries: entries}}
		live.Update(&run)
		return live.Synthesis()
	}
	s := update()
	update() // handed out: from now on, copy on write
	entries = append(entries, record.Entry{Severity: record.Notable, Agent: "fd-other", Summary: "zyxw qvut nothing like it either"})
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	update()
	runtime.ReadMemStats(&m1)
	copied := uint64(len(s.Findings)) * uint64(unsafe.Sizeof(synth.Finding{}))
	if got := m1.TotalAlloc - m0.TotalAlloc; got >= copied/4 {
		t.Errorf("an append that matches no finding allocated %d bytes; a copy of the %d findings is %d", got, len(s.Findings), copied)
	}
}

// TestLiveSnapshotSharesNames: a synthesis made again names the agents that
// did not acknowledge a blocking entry with the lists of the synthesis
// before (a record does not change), rather than make them again: up to
// 500 records × every completed agent at each change of a watch.
func TestLiveSnapshotSharesNames(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 300, Findings: 2, BusLines: 600, Seed: 1})
	live := synth.NewLive(synth.Options{Watching: true})
	live.Update(full)
	first := live.Synthesis().Timeline.Unacknowledged
	again := live.Synthesis().Timeline.Unacknowledged
	if len(first) == 0 || len(again) != len(first) {
		t.Fatalf("%d and %d unacknowledged entries: the test tests nothing", len(first), len(again))
	}
	for i := range first {
		if !slices.Equal(first[i].By, again[i].By) {
			t.Fatalf("entry %d: by %v, then %v", i, first[i].By, again[i].By)
		}
		if unsafe.SliceData(first[i].By) != unsafe.SliceData(again[i].By) {
			t.Fatalf("entry %d: its %d names made again", i, len(again[i].By))
		}
	}
}
