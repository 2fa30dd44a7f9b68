package watcher

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// fullCopyDiffer is the Differ's finding events as they were made before
// it kept digests: the previous synthesis kept whole, each source by its
// agent and key as a string. TestDifferDigest holds the Differ to it.
type fullCopyDiffer struct {
	prev    *synth.Synthesis
	sources map[string]int
}

func (d *fullCopyDiffer) diff(s *synth.Synthesis) []Event {
	var out []Event
	sources := map[string]int{}
	for _, f := range s.Findings {
		before := 0
		for _, src := range f.Sources {
			k := src.Agent + "\x00" + parse.Key(src.Section, src.Title)
			sources[k] = f.Convergence
			before = max(before, d.sources[k])
		}
		switch {
		case before == 0:
			out = append(out, Event{Type: EventFindingAdded, Key: f.Key, ID: f.ID, Severity: string(f.Severity), Section: f.Section,
				Title: f.Title, Agents: f.Agents, Convergence: f.Convergence, ConvergenceDisplay: f.ConvergenceDisplay})
		case before != f.Convergence:
			out = append(out, Event{Type: EventConvergenceChanged, Key: f.Key, ID: f.ID, Severity: string(f.Severity), Title: f.Title,
				Agents: f.Agents, FromConvergence: before, Convergence: f.Convergence, ConvergenceDisplay: f.ConvergenceDisplay})
		}
	}
	d.sources = sources
	from := parse.Pending
	if d.prev != nil {
		from = d.prev.Verdict
	}
	if s.Verdict != from {
		counts := s.Counts
		out = append(out, Event{Type: EventVerdictChanged, From: from, Verdict: s.Verdict, Counts: &counts})
	}
	d.prev = s
	return out
}

// randomSynthesis is a synthesis of findings drawn from a small shared
// vocabulary of agents, sections and titles (so that sources of the same
// agent and key recur across updates, split and merge), each finding a
// fresh slice of sources (as a new merge makes them).
func randomSynthesis(r *rand.Rand) *synth.Synthesis {
	agents := []string{"fd-a", "fd-b", "fd-c", "fd-d"}
	sections := []string{"", "Auth", "auth", "Uploads"}
	titles := []string{"SQL injection", "sql  injection", "Path traversal", "Race in cache", "Token leak"}
	verdicts := []parse.Verdict{parse.Pending, parse.Verdict("safe"), parse.Verdict("needs-changes"), parse.Verdict("risky")}
	s := &synth.Synthesis{Verdict: verdicts[r.IntN(len(verdicts))]}
	for i := range r.IntN(8) {
		var f synth.Finding
		names := map[string]bool{}
		for range 1 + r.IntN(4) {
			src := synth.Source{Agent: agents[r.IntN(len(agents))], Section: sections[r.IntN(len(sections))],
				Title: titles[r.IntN(len(titles))]}
			f.Sources = append(f.Sources, src)
			if !names[src.Agent] {
				names[src.Agent] = true
				f.Agents = append(f.Agents, src.Agent)
			}
		}
		f.Convergence = len(f.Agents)
		f.Key = fmt.Sprintf("k%d", i)
		f.Title, f.Section = f.Sources[0].Title, f.Sources[0].Section
		f.Severity = parse.Severity(fmt.Sprintf("P%d", r.IntN(4)))
		f.ConvergenceDisplay = fmt.Sprintf("%d/4", f.Convergence)
		s.Findings = append(s.Findings, f)
	}
	return s
}

// TestDifferDigest: the Differ, which keeps a digest of the previous
// update, gives the finding and verdict events of one that kept the
// previous synthesis and every source's key, over random runs.
func TestDifferDigest(t *testing.T) {
	at := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	events := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 29))
		d, ref := NewDiffer(), &fullCopyDiffer{}
		for step := range 12 {
			s := randomSynthesis(r)
			var got []Event
			for _, e := range d.Diff(&Update{Time: at, Synthesis: s}) {
				switch e.Type {
				case EventFindingAdded, EventConvergenceChanged, EventVerdictChanged:
					e.Time = ""
					got = append(got, e)
				}
			}
			want := ref.diff(s)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, step %d: events\n%+v\nwant\n%+v", seed, step, got, want)
			}
			events += len(want)
		}
	}
	if events == 0 {
		t.Fatal("no events: the test tests nothing")
	}
}
