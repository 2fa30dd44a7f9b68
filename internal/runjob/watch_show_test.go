package runjob

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// randomUpdate is an update of a random run drawn from a small vocabulary
// (agents that start, complete and fail; findings whose sources recur,
// split and merge; bus entries appended; diagnostics that repeat), with
// text that inert.EscapeJSON must escape now and then.
func randomUpdate(r *rand.Rand, at time.Time) *watcher.Update {
	agents := []string{"fd-a", "fd-b", "fd-c\u202e", "fd-d"}
	statuses := []parse.Status{parse.StatusPartial, parse.StatusValid, parse.StatusUnreadable, parse.StatusError, parse.StatusForeign}
	titles := []string{"SQL injection", "Path traversal", "Race in cache\u0085", "Token leak"}
	verdicts := []parse.Verdict{parse.Pending, parse.Verdict("safe"), parse.Verdict("needs-changes")}
	s := &synth.Synthesis{Verdict: verdicts[r.IntN(len(verdicts))]}
	for _, a := range agents {
		if r.IntN(4) == 0 {
			continue
		}
		file := a + ".md"
		s.Agents = append(s.Agents, synth.AgentResult{Name: a, File: &file, Status: statuses[r.IntN(len(statuses))]})
		s.AgentsLaunched = append(s.AgentsLaunched, a)
	}
	for i := range r.IntN(6) {
		var f synth.Finding
		for range 1 + r.IntN(3) {
			src := synth.Source{Agent: agents[r.IntN(len(agents))], Title: titles[r.IntN(len(titles))]}
			f.Sources = append(f.Sources, src)
			f.Agents = append(f.Agents, src.Agent)
		}
		f.Convergence = len(f.Agents)
		f.Key, f.Title, f.Severity = fmt.Sprintf("k%d", i), f.Sources[0].Title, parse.P1
		s.Findings = append(s.Findings, f)
	}
	for range r.IntN(3) {
		s.Diagnostics = append(s.Diagnostics, synth.Diagnostic{File: "fd-a.md", Line: 1 + r.IntN(2), Level: parse.LevelWarning, Message: "odd"})
	}
	u := &watcher.Update{Time: at, Synthesis: s}
	for i := range r.IntN(3) {
		u.Appended = append(u.Appended, watcher.BusEntry{File: "findings.jsonl", Seq: i + 1,
			Entry: bus.Entry{Severity: bus.Blocking, Agent: agents[r.IntN(len(agents))], Summary: titles[r.IntN(len(titles))]}})
	}
	if r.IntN(5) == 0 {
		u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelError, Message: "read: gone"})
	}
	return u
}

// TestWatchShowStreams: watch prints, in each mode, what it printed when
// it made the list of a change's events first (Differ.Diff, then each
// encoded or written as a line), over random runs: the events are encoded
// as the differ makes them now.
func TestWatchShowStreams(t *testing.T) {
	at := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	for _, mode := range []watchMode{modeEvents, modeLines} {
		printed := 0
		for seed := range uint64(100) {
			r := rand.New(rand.NewPCG(seed, 29))
			run := &watchRun{Job: &Job{dir: "run"}, mode: mode, differ: watcher.NewDiffer(), first: true}
			run.o.Version = "v0"
			ref := watcher.NewDiffer()
			for step := range 10 {
				u := randomUpdate(r, at.Add(time.Duration(step)*time.Second))
				got, n, _, err := shown(run, u)
				if err != nil {
					t.Fatal(err)
				}
				run.first = false
				events := ref.Diff(u)
				var want bytes.Buffer
				enc := json.NewEncoder(&want)
				enc.SetEscapeHTML(false)
				if mode == modeEvents && step == 0 {
					enc.Encode(watcher.Hello(u.Time, "v0", "run", 0))
				}
				for _, ev := range events {
					if mode == modeEvents {
						enc.Encode(ev)
					} else {
						want.WriteString(ev.Text() + "\n")
					}
				}
				w := want.Bytes()
				if mode == modeEvents {
					w = inert.EscapeJSON(w)
				}
				if !bytes.Equal(got, w) || n != len(events) {
					t.Fatalf("mode %d, seed %d, step %d: printed %d events\n%s\nwant %d\n%s", mode, seed, step, n, got, len(events), w)
				}
				printed += n
			}
		}
		if printed == 0 {
			t.Fatalf("mode %d: no events: the test tests nothing", mode)
		}
	}
}

// shown returns what run.show hands over for u: the pieces joined, how
// many events they hold, and the size of the largest piece.
func shown(run *watchRun, u *watcher.Update) (out []byte, events, largest int, err error) {
	err = run.show(u, func(p []byte, n int) {
		out = append(out, p...)
		events += n
		largest = max(largest, len(p))
	})
	return out, events, largest, err
}

// TestWatchShowPieces: a change of many events (the first update of a
// large run: one finding_added per finding) is handed to the queue in
// pieces of about showPiece bytes, each whole lines, never as one buffer
// of the whole change; joined, they are what the change prints.
func TestWatchShowPieces(t *testing.T) {
	at := time.Date(2026, 11, 29, 7, 0, 0, 0, time.UTC)
	s := &synth.Synthesis{Verdict: parse.Verdict("needs-changes")}
	for i := range 5000 {
		src := synth.Source{Agent: "fd-a", Title: fmt.Sprintf("Finding number %d with a title of some length", i)}
		s.Findings = append(s.Findings, synth.Finding{Key: fmt.Sprintf("k%d", i), Title: src.Title, Severity: parse.P2,
			Sources: []synth.Source{src}, Agents: []string{"fd-a"}, Convergence: 1})
	}
	for _, mode := range []watchMode{modeEvents, modeLines} {
		run := &watchRun{Job: &Job{dir: "run"}, mode: mode, differ: watcher.NewDiffer(), first: true}
		u := &watcher.Update{Time: at, Synthesis: s}
		got, n, largest, err := shown(run, u)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if mode == modeEvents {
			enc.Encode(watcher.Hello(at, "", "run", 0))
		}
		events := watcher.NewDiffer().Diff(u)
		for _, ev := range events {
			if mode == modeEvents {
				enc.Encode(ev)
			} else {
				want.WriteString(ev.Text() + "\n")
			}
		}
		if !bytes.Equal(got, want.Bytes()) || n != len(events) {
			t.Fatalf("mode %d: printed %d bytes of %d events, want %d bytes of %d", mode, len(got), n, want.Len(), len(events))
		}
		if want.Len() < 256<<10 {
			t.Fatalf("mode %d: the change is %d bytes: too small to test pieces of %d", mode, want.Len(), showPiece)
		}
		if largest > showPiece+1024 || largest > want.Len()/4 {
			t.Errorf("mode %d: a piece of %d bytes for a change of %d: the change was held whole, not in pieces of about %d",
				mode, largest, want.Len(), showPiece)
		}
	}
}
