package bus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// flaky is a backend whose Append fails with err the first fails times:
// a server away (ErrUnavailable), a limit (ErrRefused), or a fault.
type flaky struct {
	Backend
	mu    sync.Mutex
	fails int
	err   error
	tries int
	read  chan struct{} // closed at the first Read, if not nil
}

func (f *flaky) Read(ctx context.Context, since int64, fl Filter, entry func(Entry) error, diag func(parse.Diagnostic)) (int64, error) {
	f.mu.Lock()
	if f.read != nil {
		close(f.read)
		f.read = nil
	}
	f.mu.Unlock()
	return f.Backend.Read(ctx, since, fl, entry, diag)
}

func (f *flaky) Append(ctx context.Context, e Entry) (int64, error) {
	f.mu.Lock()
	f.tries++
	if f.fails > 0 {
		f.fails--
		f.mu.Unlock()
		return 0, f.err
	}
	f.mu.Unlock()
	return f.Backend.Append(ctx, e)
}

func relayFile(t *testing.T, name string) *FileBackend {
	return NewFile(filepath.Join(t.TempDir(), name), Options{NoSync: true, Interval: 5 * time.Millisecond})
}

func summaries(t *testing.T, b Backend) []string {
	t.Helper()
	var got []string
	_, err := b.Read(context.Background(), 0, Filter{}, func(e Entry) error {
		got = append(got, e.Kind+":"+e.Summary)
		if e.Kind == EntryStall {
			got[len(got)-1] = e.Kind + ":"
		}
		return nil
	}, func(d parse.Diagnostic) { t.Errorf("diag: %v", d) })
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func appendAll(t *testing.T, b Backend, es ...Entry) {
	t.Helper()
	for _, e := range es {
		if _, err := b.Append(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
}

// appendStall appends a stall event as a watchdog writes one (Append
// writes findings only).
func appendStall(t *testing.T, b *FileBackend) {
	t.Helper()
	f, err := os.OpenFile(b.Path(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(`{"ts":"2026-11-21T08:00:00Z","agent":"fd-s","kind":"stall","severity":"warn","message":"quiet"}` + "\n"); err != nil {
		t.Fatal(err)
	}
}

// TestRelayOnce: each finding present on one side only is copied to the
// other, once, in either direction asked; a stall stays where it is; a
// second relay copies nothing.
func TestRelayOnce(t *testing.T) {
	for _, c := range []struct {
		name                 string
		toStream, toFile     bool
		wantFile, wantStream string
	}{
		{"both", true, true, ":one :two stall: :three", ":two :three :one"},
		{"to-stream", true, false, ":one :two stall:", ":two :three :one"},
		{"to-file", false, true, ":one :two stall: :three", ":two :three"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file, stream := relayFile(t, "file.jsonl"), relayFile(t, "stream.jsonl")
			appendAll(t, file, finding("fd-a", Blocking, "one"), finding("fd-a", Notable, "two"))
			appendStall(t, file)
			appendAll(t, stream, finding("fd-a", Notable, "two"), finding("fd-b", Blocking, "three"))
			opt := RelayOptions{Once: true, ToStream: c.toStream, ToFile: c.toFile,
				Diag: func(d parse.Diagnostic) { t.Errorf("diag: %v", d) }}
			for range 2 {
				if err := Relay(context.Background(), file, stream, opt); err != nil {
					t.Fatal(err)
				}
				if got := strings.Join(summaries(t, file), " "); got != c.wantFile {
					t.Errorf("file = %q, want %q", got, c.wantFile)
				}
				if got := strings.Join(summaries(t, stream), " "); got != c.wantStream {
					t.Errorf("stream = %q, want %q", got, c.wantStream)
				}
			}
		})
	}
}

// waitFor polls until cond holds, or fails the test after a generous
// deadline (the relay follows by polling every few milliseconds).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestRelayWaitsForUnavailable: a side that does not answer (an error
// wrapping ErrUnavailable, whatever the backend) is retried, with one
// warning, and the record arrives when it answers; records appended while
// the relay follows are copied both ways, once; ctx ending ends it, nil.
func TestRelayWaitsForUnavailable(t *testing.T) {
	file := relayFile(t, "file.jsonl")
	stream := &flaky{Backend: relayFile(t, "stream.jsonl"), fails: 3,
		err: fmt.Errorf("bus x: publish: %w", ErrUnavailable), read: make(chan struct{})}
	read := stream.read
	var mu sync.Mutex
	var warnings []string
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Relay(ctx, file, stream, RelayOptions{ToStream: true, ToFile: true, Retry: time.Millisecond,
			Diag: func(d parse.Diagnostic) {
				mu.Lock()
				warnings = append(warnings, d.String())
				mu.Unlock()
			}})
	}()
	<-read // the file is read: what comes now is the relay's to follow
	appendAll(t, file, finding("fd-a", Blocking, "one"))
	waitFor(t, "the record in the stream", func() bool { return len(summaries(t, stream)) == 1 })
	appendAll(t, stream.Backend, finding("fd-b", Notable, "two"))
	waitFor(t, "the record in the file", func() bool { return len(summaries(t, file)) == 2 })
	time.Sleep(50 * time.Millisecond) // a copy coming back would show by now
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Relay after cancel = %v, want nil", err)
	}
	if got := strings.Join(summaries(t, stream), " "); got != ":one :two" {
		t.Errorf("stream = %q, want each record once", got)
	}
	if got := strings.Join(summaries(t, file), " "); got != ":one :two" {
		t.Errorf("file = %q, want each record once", got)
	}
	if stream.tries != 4 {
		t.Errorf("%d appends to the stream, want 3 refused and 1 stored", stream.tries)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "copying again when it answers") {
		t.Errorf("warnings = %q, want one saying it copies again", warnings)
	}
}

// relayFailingOnce relays two findings once to a stream whose first
// Append fails with err, and returns Relay's warnings, the stream and
// Relay's error.
func relayFailingOnce(t *testing.T, err error) ([]string, Backend, error) {
	t.Helper()
	file := relayFile(t, "file.jsonl")
	stream := &flaky{Backend: relayFile(t, "stream.jsonl"), fails: 1, err: err}
	appendAll(t, file, finding("fd-a", Blocking, "one"), finding("fd-a", Blocking, "two"))
	var warnings []string
	err = Relay(context.Background(), file, stream, RelayOptions{Once: true, ToStream: true,
		Diag: func(d parse.Diagnostic) { warnings = append(warnings, d.String()) }})
	return warnings, stream.Backend, err
}

// TestRelayRefused: a record refused for good is a warning, and stays on
// its side; the others are copied.
func TestRelayRefused(t *testing.T) {
	warnings, stream, err := relayFailingOnce(t, fmt.Errorf("record over --max-line: %w", ErrRefused))
	if err != nil {
		t.Fatalf("Relay = %v, want nil", err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "stays on the other side only") {
		t.Errorf("warnings = %q, want one saying the record stays", warnings)
	}
	if got := strings.Join(summaries(t, stream), " "); got != ":two" {
		t.Errorf("stream = %q, want the refused record left out", got)
	}
}

// TestRelayFault: an error that is neither ErrRefused nor ErrUnavailable
// ends the relay, naming the side.
func TestRelayFault(t *testing.T) {
	fault := errors.New("disk on fire")
	_, _, err := relayFailingOnce(t, fault)
	if !errors.Is(err, fault) || !strings.Contains(err.Error(), "bus relay: to ") {
		t.Fatalf("Relay = %v, want the fault, naming the side", err)
	}
}
