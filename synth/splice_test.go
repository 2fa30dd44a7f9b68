package synth_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
	"github.com/fluxwatch/fluxwatch/synth"
)

// readCounter is a file's bytes as an io.ReaderAt that counts what is read.
type readCounter struct {
	r *bytes.Reader
	n int64
}

func (c *readCounter) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// splice writes s with sp, old the previous output (nil: none), and
// returns what it wrote.
func splice(t *testing.T, sp *synth.JSONSplice, s *synth.Synthesis, old []byte) ([]byte, *readCounter) {
	t.Helper()
	var rc *readCounter
	var buf bytes.Buffer
	var err error
	if old != nil {
		rc = &readCounter{r: bytes.NewReader(old)}
		err = sp.Write(&buf, s, rc)
	} else {
		err = sp.Write(&buf, s, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if sp.Size() != int64(buf.Len()) {
		t.Fatalf("Size %d after writing %d bytes", sp.Size(), buf.Len())
	}
	return buf.Bytes(), rc
}

// spliceMD is splice for summary.md.
func spliceMD(t *testing.T, ms *synth.MarkdownSplice, s *synth.Synthesis, old []byte) ([]byte, *readCounter) {
	t.Helper()
	var rc *readCounter
	var buf bytes.Buffer
	var err error
	if old != nil {
		rc = &readCounter{r: bytes.NewReader(old)}
		err = ms.Write(&buf, s, rc)
	} else {
		err = ms.Write(&buf, s, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if ms.Size() != int64(buf.Len()) {
		t.Fatalf("Size %d after writing %d bytes", ms.Size(), buf.Len())
	}
	return buf.Bytes(), rc
}

// TestJSONSpliceIsWriteJSON grows a run step by step through a Live, as a
// watcher does (bus entries appended, some matching findings and some not,
// agents completing, a bus read again from the start, the final update),
// and checks after every step that the spliced findings.json is WriteJSON's
// byte for byte, and the spliced summary.md WriteMarkdown's: from the previous output, from none, from a file that is
// not the one written, and from the one written, written over.
func TestJSONSpliceIsWriteJSON(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 10, Findings: 8, BusLines: 300, Seed: 11})
	entries := full.Bus[0].Entries
	r := rand.New(rand.NewPCG(5, 6))
	opts := synth.Options{MaxEntries: 9, Watching: true, Expect: []string{"fd-agent-0000", "fd-late"}}
	live := synth.NewLive(opts)
	var sp synth.JSONSplice
	var md synth.MarkdownSplice
	var prev, prevMD []byte
	copiedMD := 0
	nAgents, cut := 0, 0
	var extra []record.Entry // appended entries that match a finding, or none
	copied := 0
	check := func(step int, s *synth.Synthesis) {
		want := must(synth.RenderJSON(s))
		old := prev
		switch k := r.IntN(8); {
		case k == 0:
			old = nil
		case k == 1 && prev != nil:
			old = append([]byte{' '}, prev...) // not the file written
		case k == 2 && prev != nil:
			// Written over in place, the same size: a finding's title.
			old = slices.Clone(prev)
			if at := bytes.Index(old, []byte(`"title": "`)); at >= 0 {
				old[at+len(`"title": "`)] ^= 1
			}
		}
		got, rc := splice(t, &sp, s, old)
		if !bytes.Equal(got, want) {
			t.Fatalf("step %d (%d agents, %d entries): the splice differs from WriteJSON:\n%s", step, nAgents, cut+len(extra),
				txtartest.FirstDiff(want, got))
		}
		if rc != nil && rc.n > int64(len(want))/2 {
			copied++
		}
		prev = got

		// summary.md the same way.
		wantMD := synth.RenderMarkdown(s)
		oldMD := prevMD
		switch k := r.IntN(8); {
		case k == 0:
			oldMD = nil
		case k == 1 && prevMD != nil:
			oldMD = append([]byte{' '}, prevMD...)
		case k == 2 && prevMD != nil:
			oldMD = slices.Clone(prevMD)
			if at := bytes.Index(oldMD, []byte("\n- **")); at >= 0 {
				oldMD[at+len("\n- **")] ^= 1
			}
		}
		gotMD, rc := spliceMD(t, &md, s, oldMD)
		if !bytes.Equal(gotMD, wantMD) {
			t.Fatalf("step %d (%d agents, %d entries): the summary.md splice differs from WriteMarkdown:\n%s", step, nAgents,
				cut+len(extra), txtartest.FirstDiff(wantMD, gotMD))
		}
		if rc != nil && rc.n > int64(len(wantMD))/2 {
			copiedMD++
		}
		prevMD = gotMD
	}
	for step := range 150 {
		switch k := r.IntN(12); {
		case k == 0 && nAgents < len(full.Agents):
			nAgents++
		case k == 1:
			cut, extra = r.IntN(cut+1), nil
			live.Rewind()
		case k < 4 && nAgents > 0:
			// An entry that matches a finding: it is discovered.
			s := live.Synthesis()
			f := s.Findings[r.IntN(len(s.Findings))]
			extra = append(extra, record.Entry{Severity: record.Blocking, Agent: "fd-late", Summary: f.Title, FileRefs: f.FileRefs})
		case k < 6:
			extra = append(extra, record.Entry{Severity: record.Notable, Agent: "fd-late", Summary: "zyxw qvut nothing like it"})
		default:
			if len(extra) == 0 {
				cut = min(len(entries), cut+r.IntN(15))
			}
		}
		run := *full
		run.Agents = full.Agents[:nAgents]
		run.Bus = []synth.BusFile{{Name: full.Bus[0].Name, Entries: append(slices.Clip(entries[:cut]), extra...)}}
		live.Update(&run)
		check(step, live.Synthesis())
	}
	run := *full
	run.Bus = []synth.BusFile{{Name: full.Bus[0].Name, Entries: append(slices.Clip(entries[:cut]), extra...)}}
	run.Agents = full.Agents[:nAgents]
	if s, ok := live.Final(&run); ok {
		check(-1, s)
	}
	if copied < 20 || copiedMD < 20 {
		t.Errorf("%d and %d of 150 writes of findings.json and summary.md copied most of the previous output: the splices reuse too little",
			copied, copiedMD)
	}
}

// TestJSONSpliceCopiesUnchanged: a bus append that touches no finding is
// written from the previous output for all its findings; one that touches
// a finding renders that one.
func TestJSONSpliceCopiesUnchanged(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 8, Findings: 10, BusLines: 50, Seed: 4})
	opts := synth.Options{Watching: true}
	live := synth.NewLive(opts)
	es := slices.Clone(full.Bus[0].Entries)
	step := func(es []record.Entry) *synth.Synthesis {
		run := *full
		run.Bus = []synth.BusFile{{Name: full.Bus[0].Name, Entries: es}}
		live.Update(&run)
		return live.Synthesis()
	}
	var sp synth.JSONSplice
	s := step(es)
	first, _ := splice(t, &sp, s, nil)
	es = append(es, record.Entry{Severity: record.Notable, Agent: "fd-late", Summary: "zyxw qvut nothing like it"})
	s = step(es)
	got, rc := splice(t, &sp, s, first)
	if want := must(synth.RenderJSON(s)); !bytes.Equal(got, want) {
		t.Fatalf("the splice differs from WriteJSON:\n%s", txtartest.FirstDiff(want, got))
	}
	findings := bytes.Index(got, []byte("\n  \"improvements\"")) - bytes.Index(got, []byte("\n  \"findings\""))
	if rc.n < int64(findings)*9/10 {
		t.Errorf("an append that touches no finding read %d bytes of the previous output, want the findings' %d", rc.n, findings)
	}
	untouched := rc.n
	i := slices.IndexFunc(s.Findings, func(f synth.Finding) bool { return f.DiscoveredBy() == nil })
	if i < 0 {
		t.Fatal("every finding is discovered on the bus: nothing left to touch")
	}
	f := s.Findings[i]
	es = append(es, record.Entry{Severity: record.Notable, Agent: "fd-late", Summary: f.Title, FileRefs: f.FileRefs})
	s = step(es)
	if s.Findings[i].DiscoveredBy() == nil {
		t.Fatalf("an entry titled %q did not discover it", f.Title)
	}
	third, rc := splice(t, &sp, s, got)
	if want := must(synth.RenderJSON(s)); !bytes.Equal(third, want) {
		t.Fatalf("the splice of a touched finding differs from WriteJSON:\n%s", txtartest.FirstDiff(want, third))
	}
	if rc.n >= untouched {
		t.Errorf("an append that touches a finding read %d bytes of the previous output, one that touches none %d", rc.n, untouched)
	}
}

// memberSpan returns how many bytes the member that begins with open takes
// in doc, up to the member that begins with next (0 when one is missing).
func memberSpan(doc []byte, open, next string) int64 {
	i := bytes.Index(doc, []byte(open))
	if i < 0 {
		return 0
	}
	j := bytes.Index(doc[i:], []byte(next))
	if j < 0 {
		return 0
	}
	return int64(j)
}

// TestJSONSpliceCopiesLists: a bus append that adds an entry no completed
// agent acknowledged copies the agents and the unacknowledged entries
// written before from the previous output, with the findings; an agent
// that changes is rendered, the others copied.
func TestJSONSpliceCopiesLists(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 8, Findings: 6, BusLines: 80, Seed: 9})
	opts := synth.Options{Watching: true, MaxEntries: 20}
	live := synth.NewLive(opts)
	es := slices.Clone(full.Bus[0].Entries)
	step := func(run synth.Run, es []record.Entry) *synth.Synthesis {
		run.Bus = []synth.BusFile{{Name: full.Bus[0].Name, Entries: es}}
		live.Update(&run)
		return live.Synthesis()
	}
	var sp synth.JSONSplice
	s := step(*full, es)
	if s.Timeline == nil || len(s.Timeline.Unacknowledged) < 2 {
		t.Fatal("the run has fewer than two unacknowledged entries: nothing to copy")
	}
	first, _ := splice(t, &sp, s, nil)
	es = append(es, record.Entry{Severity: record.Blocking, Agent: "fd-late", Summary: "zyxw qvut nothing like it"})
	s = step(*full, es)
	got, rc := splice(t, &sp, s, first)
	if want := must(synth.RenderJSON(s)); !bytes.Equal(got, want) {
		t.Fatalf("the splice differs from WriteJSON:\n%s", txtartest.FirstDiff(want, got))
	}
	findings := memberSpan(got, "\n  \"findings\": [", "\n  \"improvements\"")
	agents := memberSpan(got, "\n  \"agents\": [", "\n  \"agents_launched\"")
	unacked := memberSpan(got, "\n    \"unacknowledged\": [", "\n    \"unacknowledged_total\"")
	if findings == 0 || agents == 0 || unacked == 0 {
		t.Fatalf("findings.json without its lists: findings %d, agents %d, unacknowledged %d bytes", findings, agents, unacked)
	}
	last := s.Timeline.Unacknowledged[len(s.Timeline.Unacknowledged)-1]
	lastSize := int64(len(must(json.MarshalIndent(last, "      ", "  "))))
	if min := findings + agents + unacked - lastSize - 200; rc.n < min {
		t.Errorf("an append read %d bytes of the previous output, want at least %d (findings %d, agents %d, unacknowledged %d less the new entry's %d)",
			rc.n, min, findings, agents, unacked, lastSize)
	}

	// One agent's report changes (its declared verdict): it alone is
	// rendered again.
	run := *full
	run.Agents = slices.Clone(full.Agents)
	a := &run.Agents[len(run.Agents)/2]
	rep := *a.Report
	a.Report = &rep
	if rep.DeclaredVerdict == parse.Risky {
		rep.DeclaredVerdict = parse.Safe
	} else {
		rep.DeclaredVerdict = parse.Risky
	}
	s = step(run, es)
	third, rc := splice(t, &sp, s, got)
	if want := must(synth.RenderJSON(s)); !bytes.Equal(third, want) {
		t.Fatalf("the splice after an agent changed differs from WriteJSON:\n%s", txtartest.FirstDiff(want, third))
	}
	agents = memberSpan(third, "\n  \"agents\": [", "\n  \"agents_launched\"")
	one := int64(len(must(json.MarshalIndent(s.Agents[len(run.Agents)/2], "    ", "  "))))
	if min := agents - 2*one; rc.n < min {
		t.Errorf("after one agent changed, the splice read %d bytes of the previous output, want at least the other agents' %d", rc.n, min)
	}
}

// TestJSONSpliceAfterMerge: when an agent completes, the findings are
// merged again and every convergence_display changes (N/M, M one more);
// the findings the new agent left alone are copied from the previous
// output with their display made again, in their new places, and the
// output is WriteJSON's.
func TestJSONSpliceAfterMerge(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 12, Findings: 8, BusLines: 60, Seed: 3})
	live := synth.NewLive(synth.Options{Watching: true})
	var sp synth.JSONSplice
	var prev []byte
	for n := len(full.Agents) - 4; n <= len(full.Agents); n++ {
		run := *full
		run.Agents = full.Agents[:n]
		live.Update(&run)
		s := live.Synthesis()
		got, rc := splice(t, &sp, s, prev)
		if want := must(synth.RenderJSON(s)); !bytes.Equal(got, want) {
			t.Fatalf("%d agents: the splice differs from WriteJSON:\n%s", n, txtartest.FirstDiff(want, got))
		}
		if prev != nil {
			findings := memberSpan(got, "\n  \"findings\": [", "\n  \"improvements\"")
			if rc.n < findings/2 {
				t.Errorf("%d agents: the splice read %d bytes of the previous output, want at least half the findings' %d",
					n, rc.n, findings)
			}
		}
		prev = got
	}
}

// TestJSONSpliceNoFindings: a synthesis without findings (null or []) is
// WriteJSON's, and the one after it renders every finding.
func TestJSONSpliceNoFindings(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 3, Findings: 4, BusLines: 5, Seed: 2})
	var sp synth.JSONSplice
	none := synth.Synthesize(&synth.Run{Input: "x"}, synth.Options{})
	a, _ := splice(t, &sp, none, nil)
	if want := must(synth.RenderJSON(none)); !bytes.Equal(a, want) {
		t.Fatalf("no findings: the splice differs from WriteJSON:\n%s", txtartest.FirstDiff(want, a))
	}
	s := synth.Synthesize(full, synth.Options{})
	b, _ := splice(t, &sp, s, a)
	if want := must(synth.RenderJSON(s)); !bytes.Equal(b, want) {
		t.Fatalf("after no findings: the splice differs from WriteJSON:\n%s", txtartest.FirstDiff(want, b))
	}
}

// TestSameFindingFields fails when Finding gains or loses a field: the
// splice's sameFinding must then compare it (a field it does not compare
// would be written as it was).
func TestSameFindingFields(t *testing.T) {
	var got []string
	for f := range reflect.TypeFor[synth.Finding]().Fields() {
		got = append(got, f.Name)
	}
	want := []string{"ID", "Key", "Fingerprint", "Severity", "Section", "Title", "Agents", "Sources", "Convergence",
		"ConvergenceDisplay", "Confidence", "FileRefs", "Independent", "more", "srcs"}
	if !slices.Equal(got, want) {
		t.Errorf("Finding's fields are %v, sameFinding compares %v: compare the new ones in synth/splice.go", got, want)
	}
}

// TestSameUnacknowledgedFields fails when Unacknowledged gains or loses a
// field: the splice's unackedFrom must then compare it.
func TestSameUnacknowledgedFields(t *testing.T) {
	var got []string
	for f := range reflect.TypeFor[synth.Unacknowledged]().Fields() {
		got = append(got, f.Name)
	}
	if want := []string{"Seq", "Agent", "Summary", "By"}; !slices.Equal(got, want) {
		t.Errorf("Unacknowledged's fields are %v, unackedFrom compares %v: compare the new ones in synth/splice.go", got, want)
	}
}

// BenchmarkJSONSplice measures findings.json of 1,000 agents × 50 findings
// after a bus append that touches no finding, as a watcher writes it:
// rendered again (WriteJSON) or spliced from the previous output.
func BenchmarkJSONSplice(b *testing.B) {
	run := generatedRun(b, demo.Config{Agents: 1000, Findings: 50, BusLines: 1000, Seed: 1})
	live := synth.NewLive(synth.Options{Watching: true})
	live.Update(run)
	first := live.Synthesis()
	run.Bus[0].Entries = append(slices.Clip(run.Bus[0].Entries), record.Entry{Severity: record.Notable, Agent: "fd-late",
		Summary: "zyxw qvut nothing like it"})
	live.Update(run)
	s := live.Synthesis()
	var sp synth.JSONSplice
	var prev bytes.Buffer
	if err := sp.Write(&prev, first, nil); err != nil {
		b.Fatal(err)
	}
	old := bytes.NewReader(prev.Bytes())
	b.Run("render", func(b *testing.B) {
		b.SetBytes(int64(prev.Len()))
		for b.Loop() {
			if err := synth.WriteJSON(io.Discard, s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("splice", func(b *testing.B) {
		b.SetBytes(int64(prev.Len()))
		for b.Loop() {
			b.StopTimer()
			var again synth.JSONSplice
			again.Write(io.Discard, first, nil) // the state after the first write
			b.StartTimer()
			if err := again.Write(io.Discard, s, old); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkJSONSpliceComplete measures findings.json of 1,000 agents × 50
// findings after the last agent completed (the findings merged again,
// every convergence_display changed), spliced from the output before it.
func BenchmarkJSONSpliceComplete(b *testing.B) {
	run := generatedRun(b, demo.Config{Agents: 1000, Findings: 50, BusLines: 1000, Seed: 1})
	live := synth.NewLive(synth.Options{Watching: true})
	fewer := *run
	fewer.Agents = run.Agents[:len(run.Agents)-1]
	live.Update(&fewer)
	first := live.Synthesis()
	var sp synth.JSONSplice
	var prev bytes.Buffer
	if err := sp.Write(&prev, first, nil); err != nil {
		b.Fatal(err)
	}
	live.Update(run)
	s := live.Synthesis()
	old := bytes.NewReader(prev.Bytes())
	b.SetBytes(int64(prev.Len()))
	for b.Loop() {
		b.StopTimer()
		var again synth.JSONSplice
		again.Write(io.Discard, first, nil) // the state after the first write
		b.StartTimer()
		if err := again.Write(io.Discard, s, old); err != nil {
			b.Fatal(err)
		}
	}
}
