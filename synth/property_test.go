package synth_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// world is a small run that random events change, as a watcher sees it: the
// agent files of a directory and two bus files that only grow, until one is
// truncated (and the Live told so).
type world struct {
	r      *rand.Rand
	clock  time.Time
	agents map[string]synth.Agent // by name; absent: no file
	bus    [2][]bus.Entry
	spec   []synth.SpecialistFile
	rewind bool // the bus was truncated since the last Update
}

var (
	propAgents   = []string{"fd-a", "fd-b", "fd-c", "fd-d", "fd-e"}
	propSections = []string{"Auth", "Storage", "API"}
	propTitles   = []string{"Token leaks in logs", "Tokens leak into the logs", "Cache grows without bound",
		"Unbounded cache growth", "No rate limit on login", "Rate limiting missing on login", "Race on shutdown"}
	propRefs = []string{"src/a.go:12", "src/a.go:12-14", "src/b.go:3", ".env:1", "src/c.go"}
	// propDescs name defect classes and anchors (the evidence of meaning)
	// that the titles do not.
	propDescs = []string{"The token reaches `log_request` in plaintext.", "Concurrent logins race on `session_map`.",
		"`session_map` grows without bound.", "No timeout on POST /login.", "POST /login has no rate limit.", ""}
)

// propBaseline and propSuppressions compare and accept some of the findings
// the world makes: Live must mark them as Synthesize does.
var (
	propBaseline = &synth.Baseline{Path: "old/findings.json", Findings: []synth.Finding{
		{Key: "auth:token leaks in logs", Fingerprint: "0123456789abcdef0123456789abcdef", Section: "Auth", Title: "Token leaks in logs"},
		{Key: "api:race on shutdown", Fingerprint: "1123456789abcdef0123456789abcdef", Section: "API", Title: "Race on shutdown"},
	}}
	propSuppressions = []synth.Suppression{
		{File: "c.yaml", Line: 2, Match: synth.SuppressionMatch{Severity: parse.P0, Title: "cache"}, Reason: "r"},
		{File: "c.yaml", Line: 5, Match: synth.SuppressionMatch{File: "src/b.go"}, Reason: "r", Expires: "2026-01-01"},
		{File: "c.yaml", Line: 8, Match: synth.SuppressionMatch{File: ".env"}, Reason: "r"},
	}
)

func (w *world) tick() time.Time {
	w.clock = w.clock.Add(time.Duration(1+w.r.IntN(90)) * time.Second)
	return w.clock
}

func (w *world) pick(l []string) string { return l[w.r.IntN(len(l))] }

// report writes a new report for agent name: a few findings from a small pool
// of titles (so that merges happen), improvements, and a text that sometimes
// names a peer or a file ref (the acknowledgement rule).
func (w *world) report(name string) (*parse.Report, []byte) {
	rep := &parse.Report{Status: parse.StatusValid, Complete: true, Diagnostics: []parse.Diagnostic{}}
	if w.r.IntN(5) == 0 {
		rep.Status = parse.StatusMalformed
		if w.r.IntN(2) == 0 { // agents_unreadable, kept by Live as by Synthesize
			rep.Status = parse.StatusUnreadable
			rep.Diagnostics = append(rep.Diagnostics, parse.Diagnostic{Line: 1, Level: parse.LevelError, Message: "not read"})
		}
	}
	for i := range w.r.IntN(4) {
		f := parse.Finding{Severity: parse.Severity(fmt.Sprintf("P%d", w.r.IntN(4))), Section: w.pick(propSections),
			Title: w.pick(propTitles), Line: i + 2, Confidence: parse.ConfidenceHigh}
		if w.r.IntN(2) == 0 {
			f.ID = fmt.Sprintf("%s-%d", strings.ToUpper(name[3:]), i+1)
		}
		for range w.r.IntN(3) {
			f.FileRefs = append(f.FileRefs, w.pick(propRefs))
		}
		f.Description = w.pick(propDescs)
		if w.r.IntN(3) == 0 {
			f.Evidence = []parse.Claim{{Path: "src/a.go", Start: 1 + w.r.IntN(20), End: 21, Line: i + 2}}
		}
		rep.Findings = append(rep.Findings, f)
	}
	if w.r.IntN(3) == 0 {
		rep.Improvements = []parse.Improvement{{ID: "IMP-1", Section: w.pick(propSections), Title: "Document the cache", Line: 9}}
	}
	text := "report of " + name
	if w.r.IntN(2) == 0 {
		text += "\nPer " + w.pick(propAgents) + "'s peer finding, see " + w.pick(propRefs) + "."
	}
	return rep, []byte(text)
}

// step applies one random event and says what it was.
func (w *world) step() string {
	name := w.pick(propAgents)
	a, exists := w.agents[name]
	switch k := w.r.IntN(12); {
	case k == 0 && !exists:
		w.agents[name] = synth.Agent{Name: name, File: name + ".md.partial", Status: parse.StatusPartial, ModTime: w.tick()}
		return "start " + name
	case k <= 2:
		rep, text := w.report(name)
		w.agents[name] = synth.Agent{Name: name, File: name + ".md", Status: rep.Status, ModTime: w.tick(), Report: rep, Text: text}
		if exists && a.Status.Completed() {
			return "rewrite " + name
		}
		return "complete " + name
	case k == 3 && exists:
		delete(w.agents, name)
		return "remove " + name
	case k == 4:
		w.agents[name] = synth.Agent{Name: name, File: name + ".md", Status: parse.StatusError, ModTime: w.tick(),
			Report:      &parse.Report{Status: parse.StatusError},
			Diagnostics: []parse.Diagnostic{{Level: parse.LevelError, Message: "agent failed"}}}
		return "fail " + name
	case k == 5:
		w.agents["fd-other"] = synth.Agent{Name: "fd-other", File: "fd-other.run-2.md", Run: "run-2",
			Status: parse.StatusForeign, ModTime: w.tick()}
		return "foreign file"
	case k == 6 && len(w.bus[0])+len(w.bus[1]) > 0:
		f := w.r.IntN(2)
		w.bus[f] = w.bus[f][:w.r.IntN(len(w.bus[f])+1)]
		w.rewind = true
		return fmt.Sprintf("truncate bus %d", f)
	case k == 7:
		sp := &parse.Specialist{Name: name, Approaches: []parse.Approach{{Number: 1, Description: "split the cache"}}}
		w.spec = []synth.SpecialistFile{{Name: name, File: "findings/" + name + ".yaml", Specialist: sp}}
		return "specialist " + name
	default:
		f := w.r.IntN(2)
		for range 1 + w.r.IntN(4) {
			w.bus[f] = append(w.bus[f], w.entry())
		}
		return fmt.Sprintf("append bus %d", f)
	}
}

func (w *world) entry() bus.Entry {
	t := w.tick()
	switch w.r.IntN(8) {
	case 0: // a clock ahead: implausible until the run's files catch up with it
		t = t.Add(time.Duration(55+w.r.IntN(30)) * time.Minute)
	case 1: // far behind: implausible
		t = t.Add(-time.Duration(7*24+1+w.r.IntN(72)) * time.Hour)
	}
	e := bus.Entry{Agent: w.pick(propAgents), Severity: w.pick([]string{"blocking", "notable", "blocking", "info"}),
		Summary: w.pick(propTitles), Category: "c", Timestamp: t.Format(time.RFC3339), Time: t, FileRefs: []string{}}
	if w.r.IntN(2) == 0 {
		e.FileRefs = append(e.FileRefs, w.pick(propRefs))
	}
	if w.r.IntN(10) == 0 {
		e.Kind, e.Severity = bus.EntryStall, ""
	}
	if w.r.IntN(4) == 0 {
		e.ID = "FD-" + fmt.Sprint(w.r.IntN(3))
	}
	return e
}

// run is the world as a Run: agents sorted by file, bus files in order.
func (w *world) run() *synth.Run {
	run := &synth.Run{Input: "run", Newest: w.clock, Specialists: w.spec}
	for _, a := range w.agents {
		run.Agents = append(run.Agents, a)
	}
	slices.SortFunc(run.Agents, func(a, b synth.Agent) int { return strings.Compare(a.File, b.File) })
	for i, name := range []string{"findings.jsonl", "peer-findings.jsonl"} {
		entries := slices.Clone(w.bus[i])
		for j := range entries {
			entries[j].Line = j + 1
		}
		run.Bus = append(run.Bus, synth.BusFile{Name: name, Entries: entries})
	}
	return run
}

// TestLiveAgainstReference feeds random runs through a Live in random event
// orders (agents starting, completing, rewriting, failing, removed; bus
// entries appended to either file; a bus truncated; specialist files) and
// checks after every step that it renders findings.json byte for byte as the
// batch Synthesize, the reference, does.
func TestLiveAgainstReference(t *testing.T) {
	seeds, steps := 60, 80
	if testing.Short() {
		seeds = 15
	}
	for seed := range seeds {
		opts := synth.Options{MaxEntries: 1 + seed%9, Watching: seed%2 == 0, Expect: []string{"fd-a", "fd-late"},
			Dedup: synth.Dedup(seed % 3 / 2), EvidenceNote: "not checked"}
		if seed%3 == 0 {
			opts.Evidence, opts.EvidenceRepo = oddLines{}, "repo"
		}
		if seed%4 == 1 {
			opts.Baseline, opts.Suppressions, opts.Today = propBaseline, propSuppressions, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
		}
		w := &world{r: rand.New(rand.NewPCG(uint64(seed), 7)), clock: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
			agents: map[string]synth.Agent{}}
		live := synth.NewLive(opts)
		var events []string
		for step := range steps {
			events = append(events, w.step())
			if w.rewind {
				live.Rewind()
				w.rewind = false
			}
			run := w.run()
			live.Update(run)
			got := must(synth.RenderJSON(live.Synthesis()))
			want := must(synth.RenderJSON(synth.Synthesize(run, opts)))
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d: Live differs from Synthesize after %s:\n%s", seed, step,
					strings.Join(events[max(0, len(events)-8):], ", "), txtartest.FirstDiff(want, got))
			}
		}
	}
}

// TestPrematchAgainstOneGoroutine: entries matched ahead on several
// goroutines (prematch) give findings.json byte for byte as matching each
// entry in turn does, for a one-shot synthesis and for a Live whose agents
// complete after a large bus was read (a rebase matches its keys again). The
// buses are large enough to be shared out, their summaries mostly distinct
// (titles of the findings, restated, with numbers) and some repeated.
func TestPrematchAgainstOneGoroutine(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := range seeds {
		opts := synth.Options{MaxEntries: 1 + seed%9, Watching: seed%2 == 0, Dedup: synth.Dedup(seed % 3 / 2)}
		w := &world{r: rand.New(rand.NewPCG(uint64(seed), 11)), clock: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
			agents: map[string]synth.Agent{}}
		for range 30 {
			w.step()
		}
		for range 1500 + w.r.IntN(1500) {
			e := w.entry()
			switch w.r.IntN(3) {
			case 0: // a summary of its own, close to a finding's title or not
				e.Summary = fmt.Sprintf("%s %d", w.pick(propTitles), w.r.IntN(100000))
			case 1:
				e.Summary = fmt.Sprintf("entry %d about %s", w.r.IntN(100000), w.pick(propRefs))
			}
			f := w.r.IntN(2)
			w.bus[f] = append(w.bus[f], e)
		}
		run := w.run()
		one, four := opts, opts
		one.Workers, four.Workers = 1, 4
		want := must(synth.RenderJSON(synth.Synthesize(run, one)))
		got := must(synth.RenderJSON(synth.Synthesize(run, four)))
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d: Synthesize with prematch differs:\n%s", seed, txtartest.FirstDiff(want, got))
		}
		// A Live that read the bus before its agents completed.
		early := *run
		early.Agents = nil
		live := synth.NewLive(four)
		live.Update(&early)
		live.Update(run)
		got = must(synth.RenderJSON(live.Synthesis()))
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d: Live with prematch differs:\n%s", seed, txtartest.FirstDiff(want, got))
		}
	}
}
