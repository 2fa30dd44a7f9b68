package hub

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// startUnenforced starts a hub with limits whose own enforcer is stopped
// (else it would put a stream within them at once: only the test's may),
// and a connection to it.
func startUnenforced(t *testing.T) (*Hub, *nats.Conn, jetstream.JetStream) {
	t.Helper()
	h, err := Start(Config{Listen: "127.0.0.1:0", Store: t.TempDir(), NoSync: true,
		Limits: Limits{MaxBytes: 8 << 20, MaxAge: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Shutdown)
	h.enforcer.stop()
	nc, js := connectTo(t, h)
	return h, nc, js
}

// connectTo connects to h, until the test ends.
func connectTo(t *testing.T, h *Hub) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, err := nats.Connect(h.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

// TestSweepPutsMissedStreamWithinLimits: a stream the advisories did not
// bring to the enforcer (the server sends a stream's created advisory
// before the stream can be looked up, so enforce may find nothing) is put
// within the limits by the next sweep, called here directly, without a
// ticker. Before, such a stream kept no MaxAge and was never deleted:
// TestIdleStreamsSwept failed under load, the stream still there 20 s on.
func TestSweepPutsMissedStreamWithinLimits(t *testing.T) {
	h, nc, js := startUnenforced(t)
	// No advisory reaches this enforcer: it sees a stream only as the
	// sweep lists it, as after a missed advisory.
	e := &enforcer{nc: nc, js: js, limits: h.enforcer.limits}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := jetstream.StreamConfig{Name: "FLUXWATCH_missed", Subjects: []string{"fluxwatch.missed.findings.*"},
		MaxBytes: 1 << 20, Discard: jetstream.DiscardOld, Duplicates: 10 * time.Minute}
	if _, err := js.CreateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	get := func() jetstream.StreamConfig {
		t.Helper()
		s, err := js.Stream(ctx, cfg.Name)
		if err != nil {
			t.Fatal(err)
		}
		return s.CachedInfo().Config
	}
	if c := get(); c.MaxAge != 0 || c.Discard != jetstream.DiscardOld {
		t.Fatalf("before the sweep: max_age %v discard %v; want the stream as made (no enforcer running)", c.MaxAge, c.Discard)
	}
	e.sweep()
	if c := get(); c.MaxAge != time.Hour || c.Discard != jetstream.DiscardNew || c.MaxMsgSize <= 0 {
		t.Errorf("after a sweep: max_age %v discard %v max_msg_size %d; want the hub's limits",
			c.MaxAge, c.Discard, c.MaxMsgSize)
	}
}

// TestEnforcerLooksAgain: a stream whose advisory reached the enforcer
// before the server could look it up (nats-server sends the created
// advisory first) is put within the limits by the enforcer's next
// lookups, with no sweep. Before, it waited for the sweep, a minute on
// with these limits: TestStreamLimitsEnforced failed under load.
func TestEnforcerLooksAgain(t *testing.T) {
	h, nc, js := startUnenforced(t)
	const name = "FLUXWATCH_late"
	// Each lookup is a request on the server's API, seen here too.
	looked := make(chan struct{}, 64)
	if _, err := nc.Subscribe("$JS.API.STREAM.INFO."+name, func(*nats.Msg) {
		select {
		case looked <- struct{}{}:
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	enc, ejs := connectTo(t, h)
	e := &enforcer{nc: enc, js: ejs, limits: h.enforcer.limits, every: time.Hour, work: make(chan lookup, 8),
		done: make(chan struct{})}
	e.wg.Add(1)
	go e.run()
	t.Cleanup(e.stop)

	// A guard against a hang, not a speed bar.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e.queue(lookup{name: name}) // its advisory, before the stream is there
	// A second lookup is made only after the first found nothing.
	for i := range 2 {
		select {
		case <-looked:
		case <-ctx.Done():
			t.Fatalf("%d lookups of a stream not there yet; want the enforcer to look again", i)
		}
	}
	cfg := jetstream.StreamConfig{Name: name, Subjects: []string{"fluxwatch.late.findings.*"},
		MaxBytes: 1 << 20, Discard: jetstream.DiscardOld}
	if _, err := js.CreateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	for {
		s, err := js.Stream(ctx, name)
		if err == nil {
			c := s.CachedInfo().Config
			if c.MaxAge == time.Hour && c.Discard == jetstream.DiscardNew && c.MaxMsgSize > 0 {
				return
			}
			err = fmt.Errorf("max_age %v discard %v max_msg_size %d", c.MaxAge, c.Discard, c.MaxMsgSize)
		}
		if ctx.Err() != nil {
			t.Fatalf("a stream made after its advisory's lookup: %v; want the hub's limits, with no sweep", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
