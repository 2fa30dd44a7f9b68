package runjob

import (
	"bytes"
	"context"
	"io"
	"sync"
)

// outQueue writes what watch prints for each change (its NDJSON events, or
// its lines) to standard output from a goroutine of its own, so that a
// reader that stops reading never stops the watch (SPEC §10): the reports
// stay current, and a signal still writes the final ones.
//
// What the reader has not taken is held, up to max bytes. Past that, the
// output of a change is dropped whole (never a part of a line), and the
// next change held is preceded by a notice (notice(n): n events dropped).
// A reader that pauses loses events, never the reports; one that only
// lags behind a burst loses nothing until max bytes are waiting.
//
// Each write(2) is at most pipeBuf bytes and ends at a line's end where
// lines allow: a pipe takes such a write whole or not at all, so a process
// that ends with output still held (a signal, a reader still paused) leaves
// the reader whole lines (a single line longer than pipeBuf excepted).
type outQueue struct {
	w      io.Writer
	max    int
	notice func(dropped int) []byte
	gone   <-chan struct{} // closed when the pipe has no reader: stop writing

	mu      sync.Mutex
	held    [][]byte
	size    int
	dropped int  // events dropped since the last change held
	closed  bool // no more Puts: the goroutine ends once held is written
	err     error

	wake   chan struct{} // a Put or Close happened
	failed chan struct{} // closed on the first write error
	done   chan struct{} // closed when the goroutine has returned
}

// maxHeldOutput is how many bytes of watch's output a reader may leave
// unread before changes are dropped.
const maxHeldOutput = 32 << 20

// pipeBuf is the size up to which a write to a pipe is atomic (PIPE_BUF
// on Linux; POSIX asks for at least 512).
const pipeBuf = 4096

// newOutQueue starts writing to w. notice makes the line that says how
// many events were dropped; gone (may be nil) ends the writing when
// closed.
func newOutQueue(w io.Writer, max int, notice func(int) []byte, gone <-chan struct{}) *outQueue {
	q := &outQueue{w: w, max: max, notice: notice, gone: gone,
		wake: make(chan struct{}, 1), failed: make(chan struct{}), done: make(chan struct{})}
	go q.run()
	return q
}

// Put holds out, the output of one change of n events, for writing, or
// drops it when max bytes are held already (an empty queue takes any).
func (q *outQueue) Put(out []byte, n int) {
	c := q.Begin()
	c.Put(out, n)
	c.End()
}

// outChange is the output of one change, put in pieces as it is made
// (Begin, Put, End), so that it is never held whole on its way to the
// queue: the first update of a 16 MiB strict index is 201k finding_added
// events, 70 MB of NDJSON.
//
// A change is held or dropped whole, by Put's rule. Begun on an empty
// queue it is held, and each piece is written as it comes. Begun while
// output waits, its pieces are kept aside until the queue empties (then
// it is held) or they would take it past max bytes (then it is dropped,
// and the pieces to come only counted): what is kept aside is at most
// max bytes.
type outChange struct {
	q       *outQueue
	held    bool // its pieces go to the queue as they come
	dropped bool // its pieces are counted, not kept
	aside   [][]byte
	size    int
	events  int
}

// Begin starts the output of a change.
func (q *outQueue) Begin() *outChange {
	c := &outChange{q: q}
	q.mu.Lock()
	c.held = q.size == 0
	q.mu.Unlock()
	return c
}

// Put adds out, whole lines holding n events, to the change.
func (c *outChange) Put(out []byte, n int) {
	c.events += n
	if len(out) == 0 || c.dropped {
		return
	}
	q := c.q
	q.mu.Lock()
	switch {
	case q.closed || q.err != nil:
		c.drop()
	case c.held || q.size == 0: // the reader took what waited: the change goes in
		c.hold(out)
	case q.size+c.size+len(out) > q.max:
		c.drop()
	default:
		c.aside = append(c.aside, out)
		c.size += len(out)
	}
	q.mu.Unlock()
	q.signal()
}

// End ends the change: what was kept aside is held, by Put's rule, and
// the events of a change dropped are counted for the notice.
func (c *outChange) End() {
	q := c.q
	q.mu.Lock()
	switch {
	case c.dropped || c.held || c.size == 0:
	case q.closed || q.err != nil:
		c.drop()
	case q.size > 0 && q.size+c.size > q.max:
		c.drop()
	default:
		c.hold(nil)
	}
	if c.dropped {
		q.dropped += c.events
	}
	q.mu.Unlock()
	q.signal()
}

// hold puts the notice of the changes dropped before this one, the
// pieces kept aside, then out, on the queue. q.mu is held.
func (c *outChange) hold(out []byte) {
	q := c.q
	q.flushNotice()
	c.held = true
	for _, b := range c.aside {
		q.held = append(q.held, b)
		q.size += len(b)
	}
	c.aside = nil
	if len(out) > 0 {
		q.held = append(q.held, out)
		q.size += len(out)
	}
}

// drop drops the change: what was kept aside goes, and the pieces to come
// are only counted. q.mu is held.
func (c *outChange) drop() { c.dropped, c.aside = true, nil }

// flushNotice holds the notice of the events dropped, if any. q.mu is
// held.
func (q *outQueue) flushNotice() {
	if q.dropped > 0 {
		b := q.notice(q.dropped)
		q.held = append(q.held, b)
		q.size += len(b)
		q.dropped = 0
	}
}

func (q *outQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Failed is closed when a write failed (Err says why).
func (q *outQueue) Failed() <-chan struct{} { return q.failed }

// Err returns the error of the write that failed, or nil.
func (q *outQueue) Err() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

// Close takes no more output and waits until what is held is written (with
// the notice of events dropped last), a write fails, the reader is gone,
// or ctx ends: then what is still held is not written. It returns the
// error of a write that failed.
func (q *outQueue) Close(ctx context.Context) error {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		if q.err == nil {
			q.flushNotice()
		}
	}
	q.mu.Unlock()
	q.signal()
	select {
	case <-q.done:
	case <-ctx.Done():
	}
	return q.Err()
}

func (q *outQueue) run() {
	defer close(q.done)
	for {
		q.mu.Lock()
		if len(q.held) == 0 {
			closed := q.closed
			q.mu.Unlock()
			if closed {
				return
			}
			select {
			case <-q.wake:
			case <-q.gone:
				return
			}
			continue
		}
		b := q.held[0]
		q.held[0] = nil
		q.held = q.held[1:]
		q.size -= len(b)
		q.mu.Unlock()
		if err := q.write(b); err != nil {
			q.mu.Lock()
			q.err, q.held, q.size = err, nil, 0
			q.mu.Unlock()
			close(q.failed)
			return
		}
	}
}

// write writes b in pieces of at most pipeBuf bytes cut after a newline
// (a longer line is one piece), unless the reader is gone.
func (q *outQueue) write(b []byte) error {
	for len(b) > 0 {
		select {
		case <-q.gone:
			return nil // nothing more is written: the watch is ending
		default:
		}
		n := len(b)
		if n > pipeBuf {
			if i := bytes.LastIndexByte(b[:pipeBuf], '\n'); i >= 0 {
				n = i + 1
			} else if i := bytes.IndexByte(b, '\n'); i >= 0 {
				n = i + 1
			}
		}
		if _, err := q.w.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}
