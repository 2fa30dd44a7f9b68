package page_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// BenchmarkRender renders the page of the example run and of a generated
// run of 1,000 agents × 50 findings (6,344 merged findings, a 1,000-line
// bus), and reports its size (page-bytes; goal: under 2 MB) beside the time
// (goal: under 1 s for the large run). make bench runs it.
func BenchmarkRender(b *testing.B) {
	for _, c := range []struct {
		name string
		make func(dir string) error
	}{
		{"example", demo.Example},
		{"1000x50", func(dir string) error {
			return demo.Generate(dir, demo.Config{Agents: 1000, Findings: 50, BusLines: 1000, Seed: 1})
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "run")
			if err := c.make(dir); err != nil {
				b.Fatal(err)
			}
			s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{Jobs: 4, MaxLine: 1 << 20},
				synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "bench"}})
			if err != nil {
				b.Fatal(err)
			}
			var size int
			for b.Loop() {
				out, err := page.Render(s, page.Options{Gate: synth.Gate{FailOn: parse.NeedsChanges}})
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(size), "page-bytes")
			b.ReportMetric(float64(len(s.Findings)), "findings")
		})
	}
}
