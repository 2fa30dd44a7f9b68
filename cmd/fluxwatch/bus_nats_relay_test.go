package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub/hubtest"
	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestRelayServerAway: a running relay outlives its server's restart: a
// record written to the file while the server is away goes to the stream
// once the server is back, and the relay goes on. Before, the relay ended
// (exit 3, "no reply from the server") --bus-timeout after the record, and
// whoever ran it had to start it again.
func TestRelayServerAway(t *testing.T) {
	store := t.TempDir()
	h := hubtest.Start(t, hub.Config{Store: store, NoSync: true})
	addr := h.Addr()
	url := h.URL() + "/away"
	file := filepath.Join(t.TempDir(), "peer-findings.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, _, errb := natsEnv("")
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"bus", "relay", "--bus-timeout", "500ms", file, url}, e) }()

	ent := func(summary string) bus.Entry {
		return bus.Entry{Kind: bus.EntryFinding, Severity: "notable", Agent: "fd-shell", Category: "c", Summary: summary, FileRefs: []string{}}
	}
	inStream := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			stream := bus.Backend(nil)
			if b, err := (&busflag.Flags{Path: url, Timeout: time.Second}).Open(context.Background(), e.getenv, false); err == nil {
				stream = b
			}
			n := 0
			if stream != nil {
				stream.Read(context.Background(), 0, bus.Filter{}, func(bus.Entry) error { n++; return nil }, nil)
				stream.Close()
			}
			if n == want {
				return
			}
			select {
			case err := <-done:
				t.Fatalf("relay ended: %v (%s)", err, errb.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("after 5 s: %d records in the stream, want %d (%s)", n, want, errb.String())
			}
		}
	}
	if _, err := bus.Append(file, ent("before"), bus.WriteOptions{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	inStream(1)
	h.Shutdown()
	if _, err := bus.Append(file, ent("while the server is away"), bus.WriteOptions{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // three times --bus-timeout
	hubtest.Start(t, hub.Config{Listen: addr, Store: store, NoSync: true})
	inStream(2)
	cancel()
	testfault.Within(t, 2*time.Second, "relay after its context ended", func() {
		if err := <-done; err != nil {
			t.Errorf("relay: %v", err)
		}
	})
}
