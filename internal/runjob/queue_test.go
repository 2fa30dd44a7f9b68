package runjob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// gateWriter blocks every Write until open is closed, and records each
// write's bytes.
type gateWriter struct {
	open   chan struct{}
	mu     sync.Mutex
	writes [][]byte
}

func (g *gateWriter) Write(p []byte) (int, error) {
	<-g.open
	g.mu.Lock()
	defer g.mu.Unlock()
	g.writes = append(g.writes, bytes.Clone(p))
	return len(p), nil
}

// TestOutQueue: a reader that stops reading holds up no Put; past the
// bound, changes are dropped whole and a notice says how many events; the
// reader then gets whole lines in pieces of at most pipeBuf bytes (a
// longer line alone).
func TestOutQueue(t *testing.T) {
	g := &gateWriter{open: make(chan struct{})}
	notice := func(n int) []byte { return fmt.Appendf(nil, "dropped %d\n", n) }
	q := newOutQueue(g, 10_000, notice, nil)
	change := func(i int) []byte {
		var b bytes.Buffer
		for j := range 10 {
			fmt.Fprintf(&b, "change %d event %d %s\n", i, j, strings.Repeat("x", 80))
		}
		return b.Bytes()
	}
	start := time.Now()
	for i := range 100 { // about 100 KB, ten times the bound
		q.Put(change(i), 10)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("100 Puts to a reader that does not read took %v", took)
	}
	q.mu.Lock()
	held := q.size
	q.mu.Unlock()
	if held > 10_000+len(change(0)) {
		t.Errorf("%d bytes held, over the bound", held)
	}
	long := strings.Repeat("y", 3*pipeBuf) + "\n"
	q.Put([]byte(long), 1) // dropped too: the queue is full
	close(g.open)
	time.Sleep(50 * time.Millisecond) // the reader catches up
	q.Put([]byte(long+"after\n"), 2)
	if err := q.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for _, w := range g.writes {
		if len(w) > pipeBuf && (bytes.Count(w, []byte("\n")) != 1 || w[len(w)-1] != '\n') {
			t.Errorf("a write of %d bytes that is not one line", len(w))
		}
		if w[len(w)-1] != '\n' {
			t.Errorf("a write that ends inside a line: ...%q", w[max(0, len(w)-20):])
		}
		all.Write(w)
	}
	lines := strings.Split(strings.TrimSuffix(all.String(), "\n"), "\n")
	kept := 0
	var dropped int
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "change "):
			kept++
		case strings.HasPrefix(l, "dropped "):
			var n int
			fmt.Sscanf(l, "dropped %d", &n)
			dropped += n
		}
	}
	if kept%10 != 0 || kept+dropped != 100*10+1 {
		t.Errorf("%d change events kept and %d dropped: want whole changes, 1001 in all", kept, dropped)
	}
	if lines[len(lines)-1] != "after" || lines[len(lines)-2] != long[:len(long)-1] {
		t.Errorf("the change after the reader caught up is not last, whole")
	}
}

type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

// A write that fails ends the queue: Failed is closed, Err says why, and
// Close returns it.
func TestOutQueueWriteError(t *testing.T) {
	q := newOutQueue(errWriter{errors.New("disk full")}, 1000, func(int) []byte { return nil }, nil)
	q.Put([]byte("a\n"), 1)
	select {
	case <-q.Failed():
	case <-time.After(5 * time.Second):
		t.Fatal("not failed")
	}
	if err := q.Close(context.Background()); err == nil || q.Err() == nil {
		t.Errorf("Close = %v, Err = %v; want the write's error", err, q.Err())
	}
}

// Close waits for a paused reader only until its context ends.
func TestOutQueueCloseBounded(t *testing.T) {
	g := &gateWriter{open: make(chan struct{})}
	defer close(g.open)
	q := newOutQueue(g, 1000, func(int) []byte { return nil }, nil)
	q.Put([]byte("a\n"), 1)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	q.Close(ctx)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Close took %v with a paused reader", took)
	}
}

// TestOutChange: a change begun on an empty queue is written as its pieces
// come, before it ends; one begun while output waits is kept aside, and
// dropped whole once it would take the queue past its bound, its pieces to
// come counted in the notice, never kept.
func TestOutChange(t *testing.T) {
	g := &gateWriter{open: make(chan struct{})}
	notice := func(n int) []byte { return fmt.Appendf(nil, "dropped %d\n", n) }
	q := newOutQueue(g, 1000, notice, nil)
	line := func(c, i int) []byte {
		return fmt.Appendf(nil, "change %d piece %d %s\n", c, i, strings.Repeat("x", 80))
	}

	first := q.Begin()
	for i := range 30 { // 3 KB: three times the bound, taken by an empty queue
		first.Put(line(1, i), 1)
	}
	second := q.Begin() // output waits (the reader is paused)
	for i := range 30 {
		second.Put(line(2, i), 1)
		if len(second.aside) > 0 && second.size > 1000 {
			t.Fatalf("piece %d: %d bytes kept aside, over the bound", i, second.size)
		}
	}
	second.End()
	close(g.open)
	deadline := time.Now().Add(5 * time.Second)
	for { // the first change is written while it is still open
		g.mu.Lock()
		n := len(g.writes)
		g.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("nothing of a change begun on an empty queue written before it ended")
		}
		time.Sleep(time.Millisecond)
	}
	first.End()
	third := q.Begin()
	third.Put(line(3, 0), 1)
	third.End()
	if err := q.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for _, w := range g.writes {
		all.Write(w)
	}
	got := all.String()
	if strings.Contains(got, "change 2 ") {
		t.Errorf("the second change, over the bound, was written:\n%s", got)
	}
	if c := strings.Count(got, "change 1 "); c != 30 {
		t.Errorf("%d lines of the first change written, want 30", c)
	}
	if !strings.HasSuffix(got, "dropped 30\n"+string(line(3, 0))) {
		t.Errorf("want the notice of the 30 events dropped, then the third change, last; got ...%q", got[max(0, len(got)-200):])
	}
}
