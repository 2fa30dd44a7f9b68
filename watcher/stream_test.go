package watcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub/hubtest"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// streamRun is a generated run without a bus and a stream of a hub that
// holds no record yet: put appends the same records to the stream and to the
// run's peer-findings.jsonl, which a run read from the stream ignores.
type streamRun struct {
	dir    string
	hub    *hub.Hub
	stream bus.Backend
}

func newStreamRun(t *testing.T) *streamRun {
	t.Helper()
	r := &streamRun{dir: filepath.Join(t.TempDir(), "run")}
	if err := demo.Generate(r.dir, demo.Config{Agents: 4, Findings: 3, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	r.hub = hubtest.Start(t, hub.Config{NoSync: true})
	r.stream = r.open(t, 5*time.Second)
	return r
}

// open opens the run's stream with a timeout, by its URL as the command
// does.
func (r *streamRun) open(t *testing.T, timeout time.Duration) bus.Backend {
	t.Helper()
	schemes := bus.Schemes{natsbus.Scheme: natsbus.Open}
	b, err := schemes.Open(context.Background(), r.hub.URL()+"/watchertest", bus.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// put appends n records, numbered from first, to the stream and the file.
func (r *streamRun) put(t *testing.T, first, n int) {
	t.Helper()
	for i := first; i < first+n; i++ {
		e := bus.Entry{Kind: bus.EntryFinding, Severity: []string{bus.Blocking, bus.Notable}[i%2],
			Agent: fmt.Sprintf("fd-agent-%04d", i%4), Category: "c", Summary: fmt.Sprintf("record %d", i),
			FileRefs: []string{}, Timestamp: "2026-11-20T10:00:00Z"}
		if _, err := r.stream.Append(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		if _, err := bus.Append(filepath.Join(r.dir, "peer-findings.jsonl"), e, bus.WriteOptions{NoSync: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// streamOpts synthesise with a fixed reviewed time: a bus file's time
// counts toward it, a stream's does not.
var streamOpts = synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "test"},
	Reviewed: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}

// reports are the bytes of findings.json and summary.md of s.
func reports(s *synth.Synthesis) []byte {
	return append(append(must(synth.RenderJSON(s)), "\n---\n"...), synth.RenderMarkdown(s)...)
}

// TestSynthesizeFrom: a run whose bus is a stream synthesises byte for byte
// as the same run whose peer-findings.jsonl holds the same records, an empty
// stream as no bus; the directory's own bus files are not read.
func TestSynthesizeFrom(t *testing.T) {
	const batch = 16
	r := newStreamRun(t)
	ctx := context.Background()
	check := func(what string) {
		t.Helper()
		want, err := Synthesize(ctx, r.dir, ScanOptions{}, streamOpts)
		if err != nil {
			t.Fatal(err)
		}
		write(t, r.dir, "findings.jsonl", `{"severity":"blocking","agent":"fd-file","summary":"not read"}`+"\n", 0)
		defer os.Remove(filepath.Join(r.dir, "findings.jsonl"))
		got, err := synthesizeFrom(ctx, r.dir, r.stream, ScanOptions{}, streamOpts, batch)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := reports(got), reports(want); !bytes.Equal(g, w) {
			t.Errorf("%s: the stream's reports differ from the file's:\n%s", what, txtartest.FirstDiff(w, g))
		}
	}
	check("empty stream")
	r.put(t, 0, 2*batch+5) // several batches
	check("stream")
}

// TestWatchStream: a Watcher following a stream sees records appended while
// it runs, and its final synthesis is SynthesizeFrom's over the same
// records, also when it handed entries over and dropped them. The final
// reading has a minute, not the second of a signal (a loaded machine read
// 15 of the 210 records in it; TestWatchStreamFinalRereadCut).
func TestWatchStream(t *testing.T) {
	r := newStreamRun(t)
	r.put(t, 0, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan *Update, 1000)
	done := make(chan error, 1)
	w := New(r.dir, Options{Synth: streamOpts, Bus: r.stream, Poll: time.Hour, Rescan: -1, handOver: 64,
		finalBudget: time.Minute})
	go func() { done <- w.Run(ctx, func(u *Update) error { updates <- u; return nil }) }()
	total := func(u *Update) int {
		if u.Synthesis.Timeline == nil {
			return 0
		}
		return u.Synthesis.Timeline.Total
	}
	wait := func(n int) {
		t.Helper()
		for timeout := time.After(15 * time.Second); ; {
			select {
			case u := <-updates:
				if total(u) == n {
					return
				}
			case err := <-done:
				t.Fatalf("Run ended: %v", err)
			case <-timeout:
				t.Fatalf("no update with %d records after 15 s", n)
			}
		}
	}
	wait(10)
	r.put(t, 10, 200)
	wait(210)
	cancel()
	testfault.Within(t, 2*time.Minute, "Run after its context ended", func() {
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	var final *Update
	for final == nil && len(updates) > 0 {
		if u := <-updates; u.Final {
			final = u
		}
	}
	if final == nil {
		t.Fatal("no final update")
	}
	want, err := SynthesizeFrom(context.Background(), r.dir, r.stream, ScanOptions{}, streamOpts)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := reports(final.Synthesis), reports(want); !bytes.Equal(g, w) {
		t.Errorf("the watcher's final reports differ from SynthesizeFrom's:\n%s", txtartest.FirstDiff(w, g))
	}
}

// TestWatchStreamFinalRereadCut: after a signal, a watcher following a
// stream, which handed entries over, that cannot read the stream again
// within what is left of the second hands over no final update and says
// why (ErrBusNotReread), as for a bus file
// (TestWatchFinalRereadCutBySignal), so that the reports of the last change
// stay whole. Before, the stream's own error for the read cut short was
// taken for another: the final update was a synthesis of the few records
// still held, and TestWatchStream failed under load with 15 records of 210.
// A report comes after the last update (read at the final rescan only:
// Debounce -1), so the final update must merge again and cannot be made
// from the Live, which read the entries handed over (Live.Final).
func TestWatchStreamFinalRereadCut(t *testing.T) {
	r := newStreamRun(t)
	r.put(t, 0, 50)
	w := New(r.dir, Options{Synth: streamOpts, Bus: r.stream, Poll: time.Hour, Rescan: -1, handOver: 7,
		finalBudget: time.Nanosecond, Debounce: -1, finalScan: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan *Update, 100)
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, func(u *Update) error { updates <- u; return nil }) }()
	select {
	case <-updates:
	case err := <-done:
		t.Fatalf("Run ended before its first update: %v", err)
	}
	if !w.droppedAny() {
		t.Fatal("no entries handed over: the case tests nothing")
	}
	write(t, r.dir, "fd-late.md", report("P2 Cache without a bound"), 0)
	cancel()
	var err error
	testfault.Within(t, 10*time.Second, "Run after its context ended", func() { err = <-done })
	final := false
	for len(updates) > 0 {
		final = final || (<-updates).Final
	}
	if !errors.Is(err, ErrBusNotReread) || final {
		t.Errorf("no time left: Run = %v, final update %v; want ErrBusNotReread and none", err, final)
	}
}

// TestWatchStreamServerGone: a server that is not there is an error of Run
// within the stream's timeout; one that stops while Run follows is a
// warning, and Run still ends at once when its context does.
func TestWatchStreamServerGone(t *testing.T) {
	r := newStreamRun(t)
	r.put(t, 0, 3)
	stream := r.open(t, time.Second)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan *Update, 100)
	done := make(chan error, 1)
	go func() {
		done <- New(r.dir, Options{Synth: streamOpts, Bus: stream, Poll: time.Hour, Rescan: -1}).Run(ctx, func(u *Update) error {
			updates <- u
			return nil
		})
	}()
	first := <-updates
	if first.Synthesis.Timeline == nil || first.Synthesis.Timeline.Total != 3 {
		t.Fatalf("first update: %+v, want the 3 records", first.Synthesis.Timeline)
	}
	r.hub.Shutdown()
	var warned bool
	for timeout := time.After(10 * time.Second); !warned; {
		select {
		case u := <-updates:
			for _, d := range u.Diagnostics {
				warned = warned || strings.Contains(d.Message, stream.String())
			}
		case <-timeout:
			t.Fatal("no warning naming the stream 10 s after its server stopped")
		}
	}
	cancel()
	testfault.Within(t, 2*time.Second, "Run after its context ended, the server gone", func() {
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})

	start := time.Now()
	err := New(r.dir, Options{Synth: streamOpts, Bus: stream, Poll: time.Hour}).Run(context.Background(), func(*Update) error { return nil })
	if err == nil || !strings.Contains(err.Error(), stream.String()) {
		t.Errorf("Run with the server gone: %v, want an error naming %s", err, stream)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Run took %v to fail with a 1 s timeout", took)
	}
}

// BenchmarkAppendToReport: from the start of an append to a running Watcher
// having rendered findings.json and summary.md with the record (what watch
// then writes), for the run directory's bus file (fsnotify) and for a
// stream of an embedded hub (--bus nats://…), both syncing before they
// acknowledge; p50 and p99 over b.N appends to a 16-agent run.
func BenchmarkAppendToReport(b *testing.B) {
	h := hubtest.Start(b, hub.Config{})
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
					must(synth.RenderJSON(u.Synthesis))
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

// remadeBackend is a stream that is deleted and made again while followed:
// Read gives records 1-3; Follow gives record 4, then, once remade is
// closed, the new stream's records 1-2, as natsbus's Follow does.
type remadeBackend struct{ remade chan struct{} }

func (b *remadeBackend) rec(off int64, summary string) bus.Entry {
	return bus.Entry{Kind: bus.EntryFinding, Severity: bus.Notable, Agent: "fd-agent-0001", Category: "c",
		Summary: summary, FileRefs: []string{}, Timestamp: "2026-11-20T10:00:00Z", Offset: off}
}

func (b *remadeBackend) Append(context.Context, bus.Entry) (int64, error) { return 0, nil }
func (b *remadeBackend) String() string                                   { return "nats://test/remade" }
func (b *remadeBackend) Close() error                                     { return nil }

func (b *remadeBackend) Read(ctx context.Context, since int64, f bus.Filter, entry func(bus.Entry) error, diag func(parse.Diagnostic)) (int64, error) {
	for i := int64(1); i <= 3; i++ {
		if err := entry(b.rec(i, fmt.Sprintf("old record %d", i))); err != nil {
			return 0, err
		}
	}
	return 4, nil
}

func (b *remadeBackend) Follow(ctx context.Context, since int64, f bus.Filter, entry func(bus.Entry) error, diag func(parse.Diagnostic)) error {
	entry(b.rec(4, "old record 4"))
	select {
	case <-b.remade:
	case <-ctx.Done():
		return nil
	}
	diag(parse.Diagnostic{Level: parse.LevelWarning, Message: "follow: the stream was made again: reading it from its first record"})
	entry(b.rec(1, "new record 1"))
	entry(b.rec(2, "new record 2"))
	<-ctx.Done()
	return nil
}

// TestWatchStreamRemade: a stream deleted and made again is read again from
// its first record by its backend; the watcher then holds the new stream's
// records only, as a synth of it would, not the old ones beside them.
func TestWatchStreamRemade(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := demo.Generate(dir, demo.Config{Agents: 4, Findings: 3, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	src := &remadeBackend{remade: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan *Update, 1000)
	done := make(chan error, 1)
	w := New(dir, Options{Synth: streamOpts, Bus: src, Poll: time.Hour, Rescan: -1})
	go func() { done <- w.Run(ctx, func(u *Update) error { updates <- u; return nil }) }()
	summaries := func(u *Update) string {
		var out []string
		if tl := u.Synthesis.Timeline; tl != nil {
			for _, e := range tl.Entries {
				out = append(out, e.Summary)
			}
			out = append(out, fmt.Sprint(tl.Total))
		}
		return strings.Join(out, ", ")
	}
	wait := func(want string) {
		t.Helper()
		var last string
		for timeout := time.After(10 * time.Second); ; {
			select {
			case u := <-updates:
				if last = summaries(u); last == want {
					return
				}
			case err := <-done:
				t.Fatalf("Run ended: %v", err)
			case <-timeout:
				t.Fatalf("no update with %q after 10 s; the last: %q", want, last)
			}
		}
	}
	wait("old record 1, old record 2, old record 3, old record 4, 4")
	close(src.remade)
	wait("new record 1, new record 2, 2")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
