package bus

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

func TestIsURL(t *testing.T) {
	for name, want := range map[string]bool{
		"nats://h:4222/r": true, "file:///tmp/x": true, "tls+nats://h/r": true,
		"/tmp/a://b": false, "peer-findings.jsonl": false, "://x": false, "C:\\bus.jsonl": false,
	} {
		if got := IsURL(name); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSchemesOpen: a path and file:// are the file bus; a registered
// scheme goes to its opener; another is ErrScheme.
func TestSchemesOpen(t *testing.T) {
	var opened string
	s := Schemes{"nats": func(_ context.Context, u *url.URL, _ Options) (Backend, error) {
		opened = u.Host + u.Path
		return NewFile("x", Options{}), nil
	}}
	ctx := context.Background()
	if b, err := s.Open(ctx, "/tmp/bus.jsonl", Options{}); err != nil || b.(*FileBackend).Path() != "/tmp/bus.jsonl" {
		t.Errorf("path: %v %v", b, err)
	}
	if b, err := s.Open(ctx, "file:///tmp/bus.jsonl", Options{}); err != nil || b.(*FileBackend).Path() != "/tmp/bus.jsonl" {
		t.Errorf("file://: %v %v", b, err)
	}
	if _, err := s.Open(ctx, "NATS://h:1/run", Options{}); err != nil || opened != "h:1/run" {
		t.Errorf("nats://: opened %q, %v", opened, err)
	}
	if _, err := s.Open(ctx, "kafka://h/r", Options{}); !errors.Is(err, ErrScheme) {
		t.Errorf("kafka://: %v, want ErrScheme", err)
	}
}

// TestFileBackend: Append, Read from a position and Follow of the file bus
// behind the interface agree with the package's functions.
func TestFileBackend(t *testing.T) {
	b := NewFile(filepath.Join(t.TempDir(), "peer-findings.jsonl"), Options{NoSync: true, Interval: 10 * time.Millisecond})
	ctx := context.Background()
	var offs []int64
	for i, sev := range []string{Blocking, Notable, Blocking} {
		off, err := b.Append(ctx, Entry{Kind: EntryFinding, Severity: sev, Agent: "fd-a", Summary: string(rune('a' + i))})
		if err != nil {
			t.Fatal(err)
		}
		offs = append(offs, off)
	}
	var got []string
	next, err := b.Read(ctx, offs[1], Filter{Severity: Blocking}, func(e Entry) error { got = append(got, e.Summary); return nil }, nil)
	if err != nil || len(got) != 1 || got[0] != "c" {
		t.Errorf("Read from %d, blocking: %v %v, want [c]", offs[1], got, err)
	}
	fctx, cancel := context.WithCancel(ctx)
	seen := make(chan string, 4)
	done := make(chan error, 1)
	go func() {
		done <- b.Follow(fctx, next, Filter{}, func(e Entry) error { seen <- e.Summary; return nil }, func(parse.Diagnostic) {})
	}()
	if _, err := b.Append(ctx, Entry{Kind: EntryFinding, Severity: Notable, Agent: "fd-b", Summary: "d"}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-seen:
		if s != "d" {
			t.Errorf("Follow from %d: first %q, want d", next, s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Follow: nothing after 10 s")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Follow: %v", err)
	}
}
