package natsbus_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub/hubtest"
)

// backends returns the file bus and a stream of an embedded hub (same
// machine, both syncing before they acknowledge), by name.
func backends(b *testing.B) []struct {
	name string
	bus  bus.Backend
} {
	b.Helper()
	h := hubtest.Start(b, hub.Config{})
	file := bus.NewFile(filepath.Join(b.TempDir(), "peer-findings.jsonl"), bus.Options{Interval: 50 * time.Millisecond})
	stream := open(b, fmt.Sprintf("%s/bench%d", h.URL(), time.Now().UnixNano()), 0)
	return []struct {
		name string
		bus  bus.Backend
	}{{"file", file}, {"stream", stream}}
}

// BenchmarkPublish: acknowledged appends, one after another, each durable
// before the next.
func BenchmarkPublish(b *testing.B) {
	for _, bk := range backends(b) {
		b.Run(bk.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				if _, err := bk.bus.Append(context.Background(), entry("fd-bench", bus.Notable, n)); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkConsume: reading back 5,000 records.
func BenchmarkConsume(b *testing.B) {
	const records = 5000
	for _, bk := range backends(b) {
		for i := range records {
			if _, err := bk.bus.Append(context.Background(), entry("fd-bench", bus.Notable, -i)); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(bk.name, func(b *testing.B) {
			for b.Loop() {
				n := 0
				if _, err := bk.bus.Read(context.Background(), 0, bus.Filter{}, func(bus.Entry) error { n++; return nil }, nil); err != nil {
					b.Fatal(err)
				}
				if n != records {
					b.Fatalf("read %d records, want %d", n, records)
				}
			}
			b.ReportMetric(float64(b.N*records)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkLatency: from the start of Append to the record reaching a
// follower (Follow: fsnotify on the file, an ordered consumer on the
// stream); p50 and p99 over b.N appends.
func BenchmarkLatency(b *testing.B) {
	for _, bk := range backends(b) {
		b.Run(bk.name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			got := make(chan time.Time, 1)
			ready := make(chan struct{})
			go bk.bus.Follow(ctx, 0, bus.Filter{}, func(e bus.Entry) error {
				if e.Agent == "fd-ready" {
					close(ready)
					return nil
				}
				got <- time.Now()
				return nil
			}, nil)
			if _, err := bk.bus.Append(ctx, entry("fd-ready", bus.Notable, 0)); err != nil {
				b.Fatal(err)
			}
			<-ready
			var lat []time.Duration
			n := 0
			for b.Loop() {
				start := time.Now()
				if _, err := bk.bus.Append(ctx, entry("fd-lat", bus.Blocking, n)); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, (<-got).Sub(start))
				n++
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
