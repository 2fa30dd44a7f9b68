package watcher

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// BenchmarkAppend measures what the watcher does for one bus append, without
// the filesystem events and the report writes: read the appended line, bring
// the synthesis up to date, render findings.json and summary.md. SPEC §9: the
// cost on a 1M-line bus must be within 1.5× of the cost on a 1k-line bus.
// The 1M case writes a 200 MB run: run it with -bench 'Append/bus=1M'
// (make bench-watch does).
func BenchmarkAppend(b *testing.B) {
	for _, lines := range []int{1_000, 1_000_000} {
		b.Run(fmt.Sprintf("bus=%s", map[int]string{1_000: "1k", 1_000_000: "1M"}[lines]), func(b *testing.B) {
			w, dir := benchWatcher(b, lines)
			w.live.Update(w.run())
			busFile := w.bus[0]
			path := filepath.Join(dir, parse.BusNames[0])
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				f.Write(bus.Encode(bus.Entry{Severity: bus.Blocking, Agent: "fd-agent-0001", Category: "auth",
					Summary: fmt.Sprintf("Appended finding %d", i), FileRefs: []string{"internal/x/y.go:12"},
					Timestamp: "2026-11-20T09:50:00Z"}))
				w.poll(busFile)
				w.live.Update(w.run())
				s := w.live.Synthesis()
				must(synth.RenderJSON(s))
				synth.RenderMarkdown(s)
			}
			b.ReportMetric(float64(busFile.dropped+len(busFile.entries)), "bus-entries")
		})
	}
}

// BenchmarkComplete measures what the watcher does when an agent completes
// (SPEC §9: agent report rename → report, p50 ≤ 100 ms): the findings merge
// again, and the bus is matched against them; then findings.json and
// summary.md are rendered. Each iteration alternates between the run
// without its last agent and the whole run. The 1M case writes a 200 MB run:
// run it with -bench 'Complete/bus=1M' (make bench-watch does).
func BenchmarkComplete(b *testing.B) {
	for _, lines := range []int{1_000, 1_000_000} {
		b.Run(fmt.Sprintf("bus=%s", map[int]string{1_000: "1k", 1_000_000: "1M"}[lines]), func(b *testing.B) {
			w, _ := benchWatcher(b, lines)
			whole := w.run()
			fewer := *whole
			fewer.Agents = whole.Agents[:len(whole.Agents)-1]
			w.live.Update(whole)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				run := whole
				if i%2 == 0 {
					run = &fewer
				}
				w.live.Update(run)
				s := w.live.Synthesis()
				must(synth.RenderJSON(s))
				synth.RenderMarkdown(s)
			}
		})
	}
}

// benchWatcher generates a 64-agent run with a bus of lines lines (skipped
// beyond 1k lines with -short) and returns a watcher that has read it all,
// and the run directory.
func benchWatcher(b *testing.B, lines int) (*Watcher, string) {
	if lines > 1_000 && testing.Short() {
		b.Skip("-short")
	}
	dir := b.TempDir()
	if err := demo.Generate(dir, demo.Config{Agents: 64, Findings: 12, BusLines: lines, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	w := New(dir, Options{})
	if err := w.rescan(context.Background()); err != nil {
		b.Fatal(err)
	}
	w.pollAll()
	return w, dir
}

// BenchmarkCompleteAgents is BenchmarkComplete on a demo run of
// WATCH_BENCH_AGENTS agents × 50 findings with a 1k-line bus (issue 29:
// a report renamed into place at 8,000 agents); skipped when the variable
// is not set. Each iteration alternates between the run without its last
// agent and the whole run, and renders findings.json and summary.md; with
// quiet=true the last agent's report holds no finding.
func BenchmarkCompleteAgents(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("WATCH_BENCH_AGENTS"))
	if n <= 0 {
		b.Skip("WATCH_BENCH_AGENTS not set")
	}
	dir := b.TempDir()
	if err := demo.Generate(dir, demo.Config{Agents: n, Findings: 50, BusLines: 1_000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	w := New(dir, Options{})
	if err := w.rescan(context.Background()); err != nil {
		b.Fatal(err)
	}
	w.pollAll()
	whole := w.run()
	for _, quiet := range []bool{false, true} {
		b.Run(fmt.Sprintf("quiet=%v", quiet), func(b *testing.B) {
			// quiet: the last agent's report holds no finding (the merge
			// is kept, synth/incremental.go).
			run := *whole
			run.Agents = slices.Clone(whole.Agents)
			if quiet {
				last := &run.Agents[len(run.Agents)-1]
				rep := *last.Report
				rep.Findings = nil
				last.Report = &rep
			}
			fewer := run
			fewer.Agents = run.Agents[:len(run.Agents)-1]
			w.live.Update(&run)
			w.live.Synthesis()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				r := &run
				if i%2 == 0 {
					r = &fewer
				}
				w.live.Update(r)
				s := w.live.Synthesis()
				if err := synth.WriteJSON(io.Discard, s); err != nil {
					b.Fatal(err)
				}
				synth.WriteMarkdown(io.Discard, s)
			}
		})
	}
}
