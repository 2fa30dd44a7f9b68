// Package bustest is the conformance suite every bus.Backend runs: the
// promises bus.Backend documents, checked the same way for the file and
// for every network store. A backend's package calls Run from its tests
// with a Harness that opens its bus.
//
// It checks: Append's positions grow in append order; Read returns each
// stored record once, in that order, its canonical line intact, from any
// position, filtered by severity, and the position it returns goes on
// after the last record; invalid records are ErrInvalid; an acknowledged
// record is there for a handle opened after the writer closed; concurrent
// writers on their own handles lose nothing and keep each writer's order;
// Follow delivers what is appended after its position (or from the start
// of a new bus), in order, and returns nil when its context ends; and, where the harness can make them,
// ErrRefused on a store's limit and ErrUnavailable on a store away.
package bustest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Harness opens the backend under test.
type Harness struct {
	// New makes a new, empty bus for one subtest and returns how to open a
	// handle on it; each call of open is a new handle (a new connection, a
	// new file backend) on that same bus, closed at the end of the test.
	New func(t *testing.T) (open func(t *testing.T) bus.Backend)
	// Refuse, when set, returns a handle and a valid record its store
	// refuses for good (over a limit of the store).
	Refuse func(t *testing.T) (bus.Backend, bus.Entry)
	// Away, when set, returns a handle whose store has stopped answering
	// after the bus was made (a server shut down).
	Away func(t *testing.T) bus.Backend
	// Wait bounds what the suite waits for a record to be delivered by
	// Follow, or for an error from a store away (0: 30 s).
	Wait time.Duration
}

// Entry is the n-th test record of agent, of severity sev.
func Entry(agent, sev string, n int) bus.Entry {
	return bus.Entry{Kind: bus.EntryFinding, Severity: sev, Agent: agent, Category: "c",
		Summary: fmt.Sprintf("finding %d of %s", n, agent), FileRefs: []string{}, Timestamp: "2026-11-25T04:00:00Z"}
}

// Run runs the suite on h's backend.
func Run(t *testing.T, h Harness) {
	if h.Wait <= 0 {
		h.Wait = 30 * time.Second
	}
	t.Run("AppendRead", func(t *testing.T) { appendRead(t, h.New(t)) })
	t.Run("Invalid", func(t *testing.T) { invalid(t, h.New(t)) })
	t.Run("Durable", func(t *testing.T) { durable(t, h.New(t)) })
	t.Run("ConcurrentWriters", func(t *testing.T) { concurrent(t, h.New(t)) })
	t.Run("FollowNew", func(t *testing.T) { follow(t, h.New(t), 0, h.Wait) })
	t.Run("FollowFrom", func(t *testing.T) { follow(t, h.New(t), 3, h.Wait) })
	t.Run("Refused", func(t *testing.T) {
		if h.Refuse == nil {
			t.Skip("the backend has no limit to refuse a record on")
		}
		b, e := h.Refuse(t)
		if _, err := b.Append(context.Background(), e); !errors.Is(err, bus.ErrRefused) {
			t.Errorf("a record over the store's limit: %v, want an error wrapping ErrRefused", err)
		}
	})
	t.Run("Unavailable", func(t *testing.T) {
		if h.Away == nil {
			t.Skip("the backend has no store to go away")
		}
		unavailable(t, h.Away(t), h.Wait)
	})
}

// ReadAll reads b from since, failing t on an error or a diagnostic.
func ReadAll(t testing.TB, b bus.Backend, since int64, f bus.Filter) (got []bus.Entry, next int64) {
	t.Helper()
	next, err := b.Read(context.Background(), since, f, func(e bus.Entry) error {
		got = append(got, e)
		return nil
	}, func(d parse.Diagnostic) { t.Errorf("%s: diagnostic: %v", b, d) })
	if err != nil {
		t.Fatalf("%s: read from %d: %v", b, since, err)
	}
	return got, next
}

func appendRead(t *testing.T, open func(*testing.T) bus.Backend) {
	b := open(t)
	ctx := context.Background()
	if got, _ := ReadAll(t, b, 0, bus.Filter{}); len(got) != 0 {
		t.Fatalf("a new bus holds %d records", len(got))
	}
	var pos []int64
	var want []bus.Entry
	for i := range 6 {
		sev := bus.Blocking
		if i%2 == 1 {
			sev = bus.Notable
		}
		e := Entry("fd-a", sev, i)
		p, err := b.Append(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		if len(pos) > 0 && p <= pos[len(pos)-1] {
			t.Errorf("append %d: position %d after %d", i, p, pos[len(pos)-1])
		}
		pos, want = append(pos, p), append(want, e)
	}
	got, next := ReadAll(t, b, 0, bus.Filter{})
	if len(got) != len(want) {
		t.Fatalf("read %d records, want %d", len(got), len(want))
	}
	for i, e := range got {
		if e.Offset != pos[i] {
			t.Errorf("record %d: position %d, want %d (Append's)", i, e.Offset, pos[i])
		}
		if line, w := string(bus.Encode(e)), string(bus.Encode(want[i])); line != w {
			t.Errorf("record %d: line %s, want %s", i, line, w)
		}
	}
	if rest, _ := ReadAll(t, b, pos[4], bus.Filter{}); len(rest) != 2 || rest[0].Summary != want[4].Summary {
		t.Errorf("read from record 4's position: %d records, want records 4 and 5", len(rest))
	}
	if notable, _ := ReadAll(t, b, 0, bus.Filter{Severity: bus.Notable}); len(notable) != 3 || notable[0].Severity != bus.Notable {
		t.Errorf("notable only: %d records, want 3", len(notable))
	}
	if none, again := ReadAll(t, b, next, bus.Filter{}); len(none) != 0 || again != next {
		t.Errorf("read from the end (%d): %d records, next %d", next, len(none), again)
	}
	if _, err := b.Append(ctx, Entry("fd-a", bus.Blocking, 6)); err != nil {
		t.Fatal(err)
	}
	if more, _ := ReadAll(t, b, next, bus.Filter{}); len(more) != 1 || more[0].Summary != Entry("fd-a", "", 6).Summary {
		t.Errorf("read on from %d after one more append: %d records, want it alone", next, len(more))
	}
}

func invalid(t *testing.T, open func(*testing.T) bus.Backend) {
	b := open(t)
	for _, e := range []bus.Entry{
		{Kind: bus.EntryFinding, Severity: "urgent", Agent: "fd-a", Summary: "s"},
		{Kind: bus.EntryFinding, Severity: bus.Blocking, Agent: "", Summary: "s"},
	} {
		if _, err := b.Append(context.Background(), e); !errors.Is(err, bus.ErrInvalid) {
			t.Errorf("invalid record %+v: %v, want ErrInvalid", e, err)
		}
	}
	if got, _ := ReadAll(t, b, 0, bus.Filter{}); len(got) != 0 {
		t.Errorf("invalid records stored: %d", len(got))
	}
}

func durable(t *testing.T, open func(*testing.T) bus.Backend) {
	w := open(t)
	for i := range 5 {
		if _, err := w.Append(context.Background(), Entry("fd-d", bus.Notable, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	got, _ := ReadAll(t, open(t), 0, bus.Filter{})
	if len(got) != 5 {
		t.Fatalf("a new handle reads %d of 5 acknowledged records", len(got))
	}
	for i, e := range got {
		if e.Summary != Entry("fd-d", "", i).Summary {
			t.Errorf("record %d: %q", i, e.Summary)
		}
	}
}

func concurrent(t *testing.T, open func(*testing.T) bus.Backend) {
	const writers, each = 4, 25
	handles := make([]bus.Backend, writers)
	for i := range handles {
		handles[i] = open(t)
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w, b := range handles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				if _, err := b.Append(context.Background(), Entry(fmt.Sprintf("fd-w%d", w), bus.Blocking, n)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, _ := ReadAll(t, open(t), 0, bus.Filter{})
	if len(got) != writers*each {
		t.Fatalf("%d writers × %d records: read %d", writers, each, len(got))
	}
	next := map[string]int{}
	for _, e := range got {
		if want := Entry(e.Agent, "", next[e.Agent]).Summary; e.Summary != want {
			t.Fatalf("%s: %q where %q was next: a writer's order broken or a record lost or doubled", e.Agent, e.Summary, want)
		}
		next[e.Agent]++
	}
}

// follow follows a bus from the end of its first `before` records (0: a
// new, empty bus, which a network store may not have made yet).
func follow(t *testing.T, open func(*testing.T) bus.Backend, before int, wait time.Duration) {
	w, r := open(t), open(t)
	for i := range before {
		if _, err := w.Append(context.Background(), Entry("fd-f", bus.Blocking, -1-i)); err != nil {
			t.Fatal(err)
		}
	}
	var since int64
	if before > 0 {
		_, since = ReadAll(t, r, 0, bus.Filter{})
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan bus.Entry, 100)
	done := make(chan error, 1)
	go func() {
		done <- r.Follow(ctx, since, bus.Filter{Severity: bus.Blocking}, func(e bus.Entry) error {
			got <- e
			return nil
		}, func(d parse.Diagnostic) { t.Errorf("diagnostic: %v", d) })
	}()
	var want []string
	for i := 1; i <= 12; i++ {
		sev := bus.Blocking
		if i%4 == 0 {
			sev = bus.Notable
		} else {
			want = append(want, Entry("fd-f", "", i).Summary)
		}
		if _, err := w.Append(context.Background(), Entry("fd-f", sev, i)); err != nil {
			t.Fatal(err)
		}
	}
	timeout := time.After(wait)
	for n := range want {
		select {
		case e := <-got:
			if e.Summary != want[n] || e.Severity != bus.Blocking {
				t.Fatalf("follow from %d: record %d is %q (%s), want %q", since, n, e.Summary, e.Severity, want[n])
			}
		case err := <-done:
			t.Fatalf("follow ended after %d of %d records: %v", n, len(want), err)
		case <-timeout:
			t.Fatalf("follow: %d of %d records after %v", n, len(want), wait)
		}
	}
	cancel()
	testfault.Within(t, wait, "Follow after its context ended", func() {
		if err := <-done; err != nil {
			t.Errorf("Follow after its context ended: %v, want nil", err)
		}
	})
	if len(got) != 0 {
		t.Errorf("follow: %d records more than appended", len(got))
	}
}

func unavailable(t *testing.T, b bus.Backend, wait time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := b.Append(ctx, Entry("fd-u", bus.Blocking, 0)); !errors.Is(err, bus.ErrUnavailable) {
		t.Errorf("append to a store away: %v, want an error wrapping ErrUnavailable", err)
	}
	if ctx.Err() != nil {
		t.Errorf("append to a store away took the whole %v: want an error within the backend's timeout", wait)
	}
}
