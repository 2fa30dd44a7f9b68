package synth_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Synthesise a run from parsed reports, with no filesystem: two agents
// report the same problem (it converges, 2/3), a third finds nothing. The
// watcher builds the same Run from a run directory; here it is built by
// hand. Then render it: findings.json for machines, summary.md for people.
func ExampleSynthesize() {
	finished := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	agent := func(name, report string) synth.Agent {
		r := parse.ReadReportString(report)
		return synth.Agent{Name: name, File: name + ".md", Status: r.Status, ModTime: finished, Report: r, Text: []byte(report)}
	}
	run := &synth.Run{
		Input: "reviews",
		Agents: []synth.Agent{
			agent("fd-safety", "### Findings Index\n- P1 | SA-001 | \"Auth\" | Session token stored in localStorage\nVerdict: needs-changes\n"),
			agent("fd-quality", "### Findings Index\n- P2 | QU-001 | \"Auth\" | Session token stored in localStorage\nVerdict: needs-changes\n"),
			agent("fd-perf", "### Findings Index\nVerdict: safe\n"),
		},
		Newest: finished,
	}
	s := synth.Synthesize(run, synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "example"}})

	fmt.Println("verdict:", s.Verdict, "agents completed:", s.AgentsCompleted)
	for _, f := range s.Findings {
		fmt.Printf("%s %s (%s: %v) %v\n", f.Severity, f.Title, f.ConvergenceDisplay, f.Agents, f.SeverityConflict())
	}

	js, err := synth.RenderJSON(s)
	if err != nil {
		fmt.Println("findings.json:", err)
		return
	}
	var doc struct {
		Verdict  string
		Findings []struct{ Fingerprint string }
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		fmt.Println("findings.json:", err)
		return
	}
	fmt.Printf("findings.json: verdict %s, %d finding\n", doc.Verdict, len(doc.Findings))
	sc := bufio.NewScanner(bytes.NewReader(synth.RenderMarkdown(s)))
	for i := 0; i < 6 && sc.Scan(); i++ {
		fmt.Println(sc.Text())
	}
	// Output:
	// verdict: needs-changes agents completed: [fd-perf fd-quality fd-safety]
	// P1 Session token stored in localStorage (2/3: [fd-quality fd-safety]) map[fd-quality:P2 fd-safety:P1]
	// findings.json: verdict needs-changes, 1 finding
	// # Review Summary
	//
	// **Verdict:** needs-changes (3/3 agents completed, 0 failed)
	//
	// - Input: `reviews`
	// - Reviewed: 2026-11-20T10:00:00Z
}
