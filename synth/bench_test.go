package synth_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// generatedRun writes a demo run and reads it back as a synth.Run. The bus is
// decoded here with encoding/json when the scanner returned no entries, so the
// benchmark measures the synthesis whatever state the bus reader is in.
func generatedRun(b *testing.B, cfg demo.Config) *synth.Run {
	b.Helper()
	dir := b.TempDir()
	if err := demo.Generate(dir, cfg); err != nil {
		b.Fatal(err)
	}
	run, err := watcher.Scan(context.Background(), dir, watcher.ScanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, f := range run.Bus {
		n += len(f.Entries)
	}
	if n == 0 && cfg.BusLines > 0 {
		fh, err := os.Open(filepath.Join(dir, "findings.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		defer fh.Close()
		var entries []bus.Entry
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for line := 1; sc.Scan(); line++ {
			var e bus.Entry
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				continue
			}
			e.Line = line
			e.Time, _ = time.Parse(time.RFC3339, e.Timestamp)
			entries = append(entries, e)
		}
		run.Bus = []synth.BusFile{{Name: "findings.jsonl", Entries: entries}}
	}
	return run
}

func benchSynth(b *testing.B, cfg demo.Config) {
	run := generatedRun(b, cfg)
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "bench"}}
	findings := 0
	b.ResetTimer()
	for b.Loop() {
		s := synth.Synthesize(run, opts)
		must(synth.RenderJSON(s))
		synth.RenderMarkdown(s)
		findings = len(s.Findings)
	}
	b.ReportMetric(float64(findings), "merged-findings")
}

// BenchmarkSynthesize64Agents200kBus is the one-shot size of SPEC §9: 64
// agents and a 200k-line bus (synthesis and rendering, not reading).
func BenchmarkSynthesize64Agents200kBus(b *testing.B) {
	benchSynth(b, demo.Config{Agents: 64, Findings: 12, BusLines: 200_000, Seed: 1})
}

// BenchmarkSynthesize64Agents200kUniqueBus is the same size with a bus whose
// 200k summaries are all different, as agents that each word their own
// findings write them: the timeline matches every entry, where the demo
// bus's repeated summaries are matched once each.
func BenchmarkSynthesize64Agents200kUniqueBus(b *testing.B) {
	run := generatedRun(b, demo.Config{Agents: 64, Findings: 12, BusLines: 0, Seed: 1})
	var lines bytes.Buffer
	sevs := []string{"blocking", "notable"}
	for i := range 200_000 {
		fmt.Fprintf(&lines, `{"severity":%q,"agent":"fd-agent-%04d","summary":"Finding %d: null check missing in handler %d",`+
			`"file_refs":["src/f%d.go:%d"],"timestamp":"2026-11-20T10:00:00Z"}`+"\n", sevs[i%2], i%64, i, i%97, i%500, i%90+1)
	}
	var entries []bus.Entry
	err := bus.NewDecoder(1<<20).Decode(&lines, func(e bus.Entry) { entries = append(entries, e) }, func(d parse.Diagnostic) {
		b.Fatalf("bench bus: %v", d)
	})
	if err != nil || len(entries) != 200_000 {
		b.Fatalf("bench bus: %d entries, %v", len(entries), err)
	}
	run.Bus = []synth.BusFile{{Name: "peer-findings.jsonl", Entries: entries}}
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "bench"}}
	for b.Loop() {
		s := synth.Synthesize(run, opts)
		must(synth.RenderJSON(s))
		synth.RenderMarkdown(s)
	}
}

// BenchmarkSynthesizeFindings shows how the synthesis grows with the number
// of findings: 1,000 agents × 10, 50 and 100 findings.
func BenchmarkSynthesizeFindings(b *testing.B) {
	for _, f := range []int{10, 50, 100} {
		b.Run(fmt.Sprintf("findings=%dk", f), func(b *testing.B) {
			benchSynth(b, demo.Config{Agents: 1000, Findings: f, BusLines: 1000, Seed: 1})
		})
	}
}

// BenchmarkDedup measures dedup alone (SPEC §5.2, fuzzy) at 10k, 50k and
// 100k findings (1,000 agents): the time per finding should stay flat as
// the findings grow (candidates come from blocks, not from every pair).
func BenchmarkDedup(b *testing.B) {
	for _, f := range []int{10, 50, 100} {
		b.Run(fmt.Sprintf("findings=%dk", f), func(b *testing.B) {
			run := generatedRun(b, demo.Config{Agents: 1000, Findings: f, BusLines: 0, Seed: 1})
			var sources, groups int
			for b.Loop() {
				sources, groups = synth.DedupGroups(run, synth.DedupFuzzy)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sources), "ns/finding")
			b.ReportMetric(float64(groups), "groups")
		})
	}
}

// BenchmarkRenderMarkdown measures summary.md alone (every agent text
// escaped by mdText) for 1,000 agents × 10 findings and a 1,000-line bus.
func BenchmarkRenderMarkdown(b *testing.B) {
	run := generatedRun(b, demo.Config{Agents: 1000, Findings: 10, BusLines: 1000, Seed: 1})
	s := synth.Synthesize(run, synth.Options{})
	n := 0
	for b.Loop() {
		n = len(synth.RenderMarkdown(s))
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkRenderUnreadable shows every rendering of a run whose reports
// could not be fully read, each with 200 reasons (a large report gives one
// a line it could not account for), at 1×, 2×, 4× and 8× the agents: the
// time per agent should stay flat (summary.md, SARIF and JUnit list a
// bounded number of reasons each).
func BenchmarkRenderUnreadable(b *testing.B) {
	for _, n := range []int{250, 500, 1000, 2000} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			run := &synth.Run{}
			for i := range n {
				rep := &parse.Report{Status: parse.StatusUnreadable, DeclaredVerdict: parse.Risky,
					Findings: []parse.Finding{{Severity: parse.P3, Title: fmt.Sprintf("Note %d", i), Line: 2, Confidence: parse.ConfidenceLow}}}
				for l := range 200 {
					rep.Diagnostics = append(rep.Diagnostics, parse.Diagnostic{Line: 3 + l, Level: parse.LevelError, Message: `P1 "HIGH" here gave no finding`})
				}
				name := fmt.Sprintf("audit-%04d", i)
				run.Agents = append(run.Agents, synth.Agent{Name: name, File: name + ".md", Status: parse.StatusUnreadable, Report: rep})
			}
			opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "bench"}}
			for b.Loop() {
				s := synth.Synthesize(run, opts)
				must(synth.RenderJSON(s))
				synth.RenderMarkdown(s)
				if _, err := synth.RenderSARIF(s, "run"); err != nil {
					b.Fatal(err)
				}
				must(synth.RenderJUnit(s, "run"))
				must(synth.RenderRDJSONL(s, "run"))
				synth.RenderAnnotations(s, "run")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
		})
	}
}
