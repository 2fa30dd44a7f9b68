package watcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// This file reads a run's bus from a bus.Backend named apart from the run
// directory (`--bus nats://HOST:PORT/RUN`, or a file elsewhere) instead of
// the directory's bus files: SynthesizeFrom for synth, and the follower a
// Watcher tails when Options.Bus is set.
//
// Decisions:
//   - The backend is the run's bus: the bus files of the directory are not
//     read (the command says they are ignored).
//   - A stream is named peer-findings.jsonl in the synthesis, the file it
//     stands in for; a file bus by its base name. So the reports of a run
//     read from a stream are byte for byte those of the same run whose
//     peer-findings.jsonl holds the same records (a record's line is its
//     stream sequence, which is its line in such a file).
//   - A backend that holds no record is no bus, as a missing file is none.
//   - The records of a backend have no modification time: they do not move
//     the reviewed time, in synth and watch alike.

// BusName is the name the records of src have in a synthesis: a file bus's
// base name, else peer-findings.jsonl.
func BusName(src bus.Backend) string {
	if f, ok := src.(*bus.FileBackend); ok {
		return filepath.Base(f.Path())
	}
	return parse.BusNames[1]
}

// SynthesizeFrom is Synthesize with the bus read from src, a snapshot up to
// its last record when it is called, instead of the bus files of dir. The
// errors are Scan's and src's (which name it).
func SynthesizeFrom(ctx context.Context, dir string, src bus.Backend, scan ScanOptions, opts synth.Options) (*synth.Synthesis, error) {
	return synthesizeFrom(ctx, dir, src, scan, opts, readBatch)
}

// synthesizeFrom is SynthesizeFrom handing the synthesis batch records at
// once.
func synthesizeFrom(ctx context.Context, dir string, src bus.Backend, scan ScanOptions, opts synth.Options, batch int) (*synth.Synthesis, error) {
	scan.NoBus = true
	run, err := NewScanner(scan).Scan(ctx, dir)
	if err != nil {
		return nil, err
	}
	run.Bus = []synth.BusFile{{Name: BusName(src)}}
	s, n, err := readBackend(ctx, run, src, opts, batch)
	if err != nil || n > 0 {
		return s, err
	}
	run.Bus = nil // an empty stream is no bus
	if scan.RequireRun && !isRun(run) {
		return nil, noRun(dir)
	}
	return synth.Synthesize(run, opts), nil
}

// readBackend synthesises run, whose one bus is src, reading src as the
// synthesis goes (batch records at a time, which it does not hold), and
// returns the number of records read.
func readBackend(ctx context.Context, run *synth.Run, src bus.Backend, opts synth.Options, batch int) (*synth.Synthesis, int, error) {
	n := 0
	s, err := synth.SynthesizeStream(run, opts, func(name string, add func([]bus.Entry)) ([]parse.Diagnostic, error) {
		var held []bus.Entry
		var diags []parse.Diagnostic
		_, err := src.Read(ctx, 0, bus.Filter{}, func(e bus.Entry) error {
			n++
			if held = append(held, e); len(held) == batch {
				add(held)
				held = held[:0]
			}
			return nil
		}, func(d parse.Diagnostic) {
			n++
			d.Path = name
			diags = append(diags, d)
		})
		add(held)
		return diags, err
	})
	return s, n, err
}

// readBatch is how many records readBackend hands the synthesis at once.
const readBatch = 4096

// follower is a Watcher's tail of Options.Bus: a goroutine follows the
// backend and buffers what it reads until the watcher polls it; ready wakes
// the watcher. It has the methods of a bus.Tail the watcher uses.
type follower struct {
	src   bus.Backend
	ready chan struct{}
	done  chan struct{}

	mu      sync.Mutex
	entries []bus.Entry
	diags   []parse.Diagnostic
	next    int64 // the position after the last record read
	seen    bool  // a record was read: the bus exists
	// restarts counts the times the backend read again from its start (a
	// stream deleted and made again: its positions go back), as handed
	// over by Poll; restarting, those not handed over yet.
	restarts, restarting int
	warned               string // the last warning of the follower, not repeated
	stopped              func()
}

// tailer is what the watcher reads a bus through: a file's bus.Tail or a
// follower.
type tailer interface {
	Poll(entry func(bus.Entry) error, diag func(parse.Diagnostic)) error
	Restarts() int
	Incomplete() (parse.Diagnostic, bool)
	LinesAhead(over int64) int
}

var _ tailer = (*bus.Tail)(nil)

// startFollower reads src up to its last record (an unreachable backend is
// an error within its timeout), then follows it from there in a goroutine
// until ctx ends or stop is called.
func startFollower(ctx context.Context, src bus.Backend) (*follower, error) {
	f := &follower{src: src, ready: make(chan struct{}, 1), done: make(chan struct{})}
	next, err := src.Read(ctx, 0, bus.Filter{}, f.entry, f.diag)
	if err != nil {
		close(f.done)
		return nil, err
	}
	f.next = next
	ctx, cancel := context.WithCancel(ctx)
	f.stopped = cancel
	go func() {
		defer close(f.done)
		// A backend's Follow reads again after trouble, each time with a
		// warning, but fails when it cannot start: then this starts it
		// again, after the record last read.
		for {
			err := src.Follow(ctx, f.from(), bus.Filter{}, f.entry, f.diag)
			if ctx.Err() != nil {
				return
			}
			f.diag(parse.Diagnostic{Level: parse.LevelWarning, Message: fmt.Sprintf("follow: %v; trying again", err)})
			select {
			case <-ctx.Done():
				return
			case <-time.After(250 * time.Millisecond):
			}
		}
	}()
	return f, nil
}

// from is the position after the last record read.
func (f *follower) from() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.next
}

// stop ends the follower and waits for it, up to a bound: a backend that
// does not answer keeps no one waiting.
func (f *follower) stop() {
	if f.stopped != nil {
		f.stopped()
	}
	select {
	case <-f.done:
	case <-time.After(500 * time.Millisecond):
	}
}

func (f *follower) entry(e bus.Entry) error {
	f.mu.Lock()
	if f.seen && e.Offset > 0 && e.Offset < f.next {
		// Read again from the start: the records not handed over yet
		// are the old stream's.
		f.restarting++
		f.entries = nil
	}
	f.entries = append(f.entries, e)
	f.seen, f.next = true, e.Offset+1
	f.mu.Unlock()
	f.wake()
	return nil
}

// diag buffers a diagnostic: a record that cannot be decoded (it has a line)
// or the follower's own warning, once until another one comes.
func (f *follower) diag(d parse.Diagnostic) {
	f.mu.Lock()
	switch {
	case d.Line != 0:
		f.seen = true // (its position is not one to go on from: a file's is a line)
	case d.Message == f.warned:
		f.mu.Unlock()
		return
	default:
		f.warned, d.Path = d.Message, "" // the message names the URL
	}
	f.diags = append(f.diags, d)
	f.mu.Unlock()
	f.wake()
}

func (f *follower) wake() {
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// Poll hands over what was read since the last Poll.
func (f *follower) Poll(entry func(bus.Entry) error, diag func(parse.Diagnostic)) error {
	f.mu.Lock()
	entries, diags := f.entries, f.diags
	f.entries, f.diags = nil, nil
	f.restarts, f.restarting = f.restarts+f.restarting, 0
	if len(entries) > 0 {
		f.warned = "" // reading again: a later trouble is news
	}
	f.mu.Unlock()
	for _, d := range diags {
		diag(d)
	}
	for _, e := range entries {
		if err := entry(e); err != nil {
			return err
		}
	}
	return nil
}

// exists reports whether the backend holds a record.
func (f *follower) exists() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen
}

// Restarts returns how many times the backend read again from its start,
// as of the last Poll: the watcher then drops what it read before.
func (f *follower) Restarts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.restarts
}

// Incomplete is never: a backend hands over whole records.
func (f *follower) Incomplete() (parse.Diagnostic, bool) { return parse.Diagnostic{}, false }

// LinesAhead is the number of records buffered.
func (f *follower) LinesAhead(int64) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.entries)
}

// presence reports whether b exists and its modification time: a file's,
// or a followed backend's (no time).
func (w *Watcher) presence(b *busState) (bool, time.Time, error) {
	if w.follow != nil {
		return w.follow.exists(), time.Time{}, nil
	}
	fi, err := os.Stat(b.path)
	if err != nil {
		return false, time.Time{}, err
	}
	return true, fi.ModTime(), nil
}

// reread synthesises run once more with its bus read again from the start
// (the entries handed over are not held), as synth does. After a signal
// (ctx done) a backend gets half a second: the command must end within one.
func (w *Watcher) reread(ctx context.Context, run *synth.Run, opts synth.Options) (*synth.Synthesis, error) {
	for i := range run.Bus {
		run.Bus[i] = synth.BusFile{Name: run.Bus[i].Name}
	}
	// After a signal, the reading again has what is left of its second.
	rctx, cancel := context.WithoutCancel(ctx), context.CancelFunc(func() {})
	if ctx.Err() != nil && !w.finalBy.IsZero() {
		rctx, cancel = context.WithDeadline(rctx, w.finalBy)
	}
	defer cancel()
	if w.opts.Bus == nil {
		s, err := streamBus(rctx, run, w.dir, w.opts.Scan.Root, w.opts.Scan.MaxLine, opts)
		if err != nil && rctx.Err() != nil {
			err = fmt.Errorf("%w: %w", ErrBusNotReread, rctx.Err())
		}
		return s, err
	}
	s, _, err := readBackend(rctx, run, w.opts.Bus, opts, readBatch)
	if rctx.Err() != nil {
		// Cut short, whether the backend said so (a stream's read
		// fails with the context) or not: part of the bus was read.
		err = fmt.Errorf("%w: %w", ErrBusNotReread, rctx.Err())
	}
	return s, err
}

// ErrBusNotReread is wrapped by the error of a watcher whose final update
// needed the bus read again (it had handed entries over) and could not read
// it within the signal's time: it hands over no final update, so the
// reports of the last change stay, whole, rather than a synthesis of part
// of the bus.
var ErrBusNotReread = errors.New("stopped while reading the bus again: the reports are those of the last change")
