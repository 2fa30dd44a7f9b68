package watcher

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/synth"
)

// BenchmarkAppendToReport: from the start of an append to a running Watcher
// having rendered findings.json and summary.md with the record (what watch
// then writes), for the run directory's bus file (fsnotify) and for a
// stream of an embedded hub (--bus nats://…), both syncing before they
// acknowledge; p50 and p99 over b.N appends to a 16-agent run.
func BenchmarkAppendToReport(b *testing.B) {
	h, err := hub.Start(hub.Config{Listen: "127.0.0.1:0", Store: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(h.Shutdown)
	for _, name := range []string{"file", "stream"} {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			if err := demo.Generate(dir, demo.Config{Agents: 16, Findings: 8, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			var sink bus.Backend = bus.NewFile(filepath.Join(dir, "peer-findings.jsonl"), bus.Options{})
			opts := Options{Rescan: -1}
			if name == "stream" {
				schemes := bus.Schemes{natsbus.Scheme: natsbus.Open}
				s, err := schemes.Open(context.Background(), fmt.Sprintf("%s/bench%d", h.URL(), time.Now().UnixNano()), bus.Options{Timeout: 30 * time.Second})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				sink, opts.Bus = s, s
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rendered := make(chan int, 1024) // the records in each update rendered
			done := make(chan error, 1)
			go func() {
				done <- New(dir, opts).Run(ctx, func(u *Update) error {
					synth.RenderJSON(u.Synthesis)
					synth.RenderMarkdown(u.Synthesis)
					if u.Synthesis.Timeline != nil {
						rendered <- u.Synthesis.Timeline.Total
					}
					return nil
				})
			}()
			var lat []time.Duration
			n := 0
			for b.Loop() {
				start := time.Now()
				e := bus.Entry{Kind: bus.EntryFinding, Severity: bus.Blocking, Agent: "fd-agent-0001", Category: "auth",
					Summary: fmt.Sprintf("appended finding %d", n), FileRefs: []string{"internal/x/y.go:12"}, Timestamp: "2026-11-20T09:50:00Z"}
				if _, err := sink.Append(ctx, e); err != nil {
					b.Fatal(err)
				}
				n++
				for total := 0; total < n; {
					select {
					case total = <-rendered:
					case err := <-done:
						b.Fatalf("Run ended: %v", err)
					}
				}
				lat = append(lat, time.Since(start))
			}
			cancel()
			<-done
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
