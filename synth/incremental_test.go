package synth_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
	"github.com/fluxwatch/fluxwatch/synth"
)

// TestLiveKeepsMerge drives a Live through random changes of the agents
// (agents completing with findings and without, reports written again
// with the same findings and with others, a report cut short by a writer
// killed mid-write, agents removed, a report's file renamed) and bus
// appends, and checks after every step that its synthesis renders as
// Synthesize's of the same run, findings.json and summary.md byte for
// byte, and that a synthesis returned before is not changed by later
// steps. It fails too when the Live merged at every change of the agents:
// the changes that leave the findings alone must keep the merge.
func TestLiveKeepsMerge(t *testing.T) {
	full, _ := demoRun(t, demo.Config{Agents: 10, Findings: 6, BusLines: 200, Seed: 21})
	entries := full.Bus[0].Entries
	for _, seed := range []uint64{1, 2, 3} {
		r := rand.New(rand.NewPCG(seed, 99))
		opts := synth.Options{MaxEntries: 9, Watching: true, Expect: []string{"fd-agent-0000", "fd-late"}}
		live := synth.NewLive(opts)
		var agents []synth.Agent
		next, cut, changes, kept := 0, 0, 0, 0
		type earlier struct {
			s    *synth.Synthesis
			json []byte
		}
		var before []earlier
		later := func(a synth.Agent) synth.Agent {
			a.ModTime = a.ModTime.Add(time.Duration(1+r.IntN(60)) * time.Second)
			return a
		}
		for step := range 90 {
			what := ""
			switch k := r.IntN(12); {
			case k == 0 && next < len(full.Agents):
				what = "an agent completes"
				agents = append(agents, full.Agents[next])
				next++
			case k == 1:
				what = "an agent completes without a finding"
				a := full.Agents[r.IntN(len(full.Agents))]
				rep := *a.Report
				rep.Findings = nil
				a.Report, a.Name, a.File = &rep, fmt.Sprintf("fd-quiet-%02d", step), fmt.Sprintf("fd-quiet-%02d.md", step)
				agents = append(agents, a)
			case k == 2 && len(agents) > 0:
				what = "a report is written again with the same findings"
				i := r.IntN(len(agents))
				a := later(agents[i])
				if a.Report != nil {
					rep := *a.Report
					rep.Findings = slices.Clone(rep.Findings)
					a.Report = &rep
				}
				a.Text = append(slices.Clip(a.Text), "\nPer fd-agent-0001's peer finding, nothing more.\n"...)
				agents[i] = a
			case k == 3 && len(agents) > 0:
				what = "a report is written again with other findings"
				i := r.IntN(len(agents))
				a := later(agents[i])
				if a.Report != nil && len(a.Report.Findings) > 0 {
					rep := *a.Report
					rep.Findings = slices.Clone(rep.Findings[1:])
					a.Report = &rep
				}
				agents[i] = a
			case k == 4 && len(agents) > 0:
				what = "a report cut short by a killed writer"
				i := r.IntN(len(agents))
				a := later(agents[i])
				text := a.Text[:r.IntN(len(a.Text)+1)]
				a.Text, a.Report = text, parse.ReadReport(text)
				a.Status = a.Report.Status
				agents[i] = a
			case k == 5 && len(agents) > 0:
				what = "an agent's file is removed"
				i := r.IntN(len(agents))
				agents = slices.Delete(agents, i, i+1)
			case k == 6 && len(agents) > 0:
				what = "an agent's report is renamed"
				i := r.IntN(len(agents))
				a := agents[i]
				a.File = "renamed-" + a.File
				agents[i] = a
			case k < 9:
				what = "a bus append matching a finding"
				if s := live.Synthesis; len(agents) > 0 && step > 0 {
					fs := s().Findings
					if len(fs) > 0 {
						f := fs[r.IntN(len(fs))]
						entries = append(slices.Clip(entries), record.Entry{Severity: record.Blocking, Agent: "fd-late",
							Summary: f.Title, FileRefs: f.FileRefs, Timestamp: "2026-11-20T09:50:00Z"})
					}
				}
				cut = min(len(entries), cut+1+r.IntN(5))
			default:
				what = "a bus append"
				cut = min(len(entries), cut+1+r.IntN(10))
			}
			run := *full
			run.Agents = slices.Clone(agents)
			run.Bus = []synth.BusFile{{Name: full.Bus[0].Name, Entries: entries[:cut]}}
			merges := live.Merges()
			live.Update(&run)
			if what != "a bus append" && what != "a bus append matching a finding" {
				changes++
				if live.Merges() == merges {
					kept++
				}
			}
			s := live.Synthesis()
			want := synth.Synthesize(&run, opts)
			if got, want := must(synth.RenderJSON(s)), must(synth.RenderJSON(want)); !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d (%s): findings.json differs from Synthesize's:\n%s", seed, step, what,
					txtartest.FirstDiff(want, got))
			}
			if got, want := synth.RenderMarkdown(s), synth.RenderMarkdown(want); !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d (%s): summary.md differs from Synthesize's:\n%s", seed, step, what,
					txtartest.FirstDiff(want, got))
			}
			if step%9 == 0 {
				before = append(before, earlier{s, must(synth.RenderJSON(s))})
			}
		}
		for i, e := range before {
			if got := must(synth.RenderJSON(e.s)); !bytes.Equal(got, e.json) {
				t.Fatalf("seed %d: synthesis %d changed after later updates:\n%s", seed, i, txtartest.FirstDiff(e.json, got))
			}
		}
		if kept == 0 || kept == changes {
			t.Errorf("seed %d: %d of %d changes of the agents kept the merge: want some, not all", seed, kept, changes)
		}
		t.Logf("seed %d: %d of %d changes of the agents kept the merge (%d merges)", seed, kept, changes, live.Merges())
	}
}
