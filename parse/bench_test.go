package parse_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/parse"
)

// BenchmarkReadReport measures the report parser (MB/s) on generated reports
// of 50 findings in each of the shapes demo writes: the strict Findings
// Index, a table with severity words, legacy YAML front matter, and prose
// without an index (the fallback).
func BenchmarkReadReport(b *testing.B) {
	dir := b.TempDir()
	if err := demo.Generate(dir, demo.Config{Agents: 4, Findings: 50, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) != 4 {
		b.Fatalf("generated %d reports: %v", len(files), err)
	}
	for i, shape := range []string{"strict-index", "table", "yaml", "prose"} {
		data, err := os.ReadFile(files[i]) // fd-agent-000i: demo writes shape i%4
		if err != nil {
			b.Fatal(err)
		}
		b.Run(shape, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var r *parse.Report
			for b.Loop() {
				r = parse.ReadReport(data)
			}
			// Prose lists a repeated title once (SPEC §2.3): fewer findings.
			if len(r.Findings) == 0 || shape != "prose" && len(r.Findings) != 50 {
				b.Fatalf("%s: %d findings, want 50", shape, len(r.Findings))
			}
			if want := map[string]parse.Status{"strict-index": parse.StatusValid, "prose": parse.StatusMalformed}[shape]; want != "" && r.Status != want {
				b.Fatalf("%s: status %s, want %s", shape, r.Status, want)
			}
			b.ReportMetric(float64(len(r.Findings))*float64(b.N)/b.Elapsed().Seconds(), "findings/s")
		})
	}
}

// BenchmarkTitleMatches measures the title rule of SPEC §5.2 on a pair of
// titles that share keywords without being equal: the comparison dedup makes
// for every candidate pair.
func BenchmarkTitleMatches(b *testing.B) {
	x := parse.NewTitle("Race condition in the session cache refresh path")
	y := parse.NewTitle(strings.ToLower("Race conditions in session cache refresh"))
	for b.Loop() {
		x.Matches(&y)
	}
}
