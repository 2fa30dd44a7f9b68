package synth_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
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
	if rc.n >= int64(findings) {
		t.Errorf("an append that touches a finding read all %d bytes of the findings", rc.n)
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
