package runjob

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/termview"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/page/livepage"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// WatchOptions are what only watch is asked: its flags, and the terminal
// it runs on.
type WatchOptions struct {
	Events        bool // NDJSON events on stdout
	UntilComplete bool
	Settle        time.Duration
	StallTimeout  time.Duration // 0: never
	Debounce      time.Duration // 0: never
	Rescan        time.Duration // 0: never
	Poll          time.Duration // 0: filesystem events
	Serve         string        // the address of the live page ("": none)
	ServePublic   bool

	// View: stdout is a terminal that can show the live view, drawn in
	// colour when Color, Size its columns and rows. Keys is standard input
	// when it is a terminal too (nil: no keys are read).
	View  bool
	Color bool
	Size  func() (cols, rows int)
	Keys  *os.File
}

// watchMode is how watch shows changes.
type watchMode int

const (
	modeLines  watchMode = iota // one line per change
	modeView                    // the live terminal view
	modeEvents                  // NDJSON events
	modeQuiet                   // nothing
)

// Watch is `fluxwatch watch`: it keeps the synthesis of the run current,
// writing the reports at each change (watcher.Run's sink) and showing the
// changes as o.Watch asks, until ctx ends, a quit key, the run is complete
// (--until-complete) or nobody reads its output; then it writes the final
// reports, the final event, and judges the gate as synth does.
func Watch(ctx context.Context, o Options) error {
	dir, _, err := o.dir()
	if err != nil {
		return err
	}
	w := o.Watch
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"settle", w.Settle}, {"stall-timeout", w.StallTimeout}, {"debounce", w.Debounce}, {"rescan", w.Rescan}, {"poll", w.Poll}} {
		if d.v < 0 {
			return inputf("watch: --%s %v: want a duration of 0 or more", d.name, d.v)
		}
	}
	if _, err := fsio.StatDir(dir); err != nil {
		if errors.Is(err, fsio.ErrNotDir) {
			err = fsio.Cause(err) // the message names dir already
		}
		return inputf("watch: output directory %s: %v", dir, err)
	}
	j, err := load(ctx, o, dir, false)
	if err != nil {
		return err
	}
	defer j.Close()
	r := &watchRun{Job: j, mode: modeLines, differ: watcher.NewDiffer(), first: true}
	r.every = j.targets
	r.every.SkipStdout = true // written once, after the final update
	switch {
	case w.Events:
		r.mode = modeEvents
	case o.Quiet:
		r.mode = modeQuiet
	case w.View:
		r.mode = modeView
	}
	return r.run(ctx)
}

// watchRun is the state of one watch: what its sink has written and shown.
type watchRun struct {
	*Job
	mode   watchMode
	every  report.Targets // the targets written at each change
	view   *termview.View
	out    *outQueue
	live   *livepage.Server
	differ *watcher.Differ

	final      *synth.Synthesis
	summary    []byte
	first      bool
	unread     bool  // a FIFO target had no reader at the last change (said once)
	lost       error // a write of the events or lines to stdout failed: the watch ends
	removed    bool  // the run directory is gone (said once)
	readerGone atomic.Bool
}

func (r *watchRun) run(ctx context.Context) error {
	w := r.o.Watch
	wopts := watcher.Options{
		Scan:          r.scan,
		Synth:         r.synth,
		Debounce:      orNever(w.Debounce),
		Rescan:        orNever(w.Rescan),
		Poll:          w.Poll,
		StallTimeout:  w.StallTimeout,
		UntilComplete: w.UntilComplete,
		Settle:        w.Settle,
		Bus:           r.bus,
	}
	if r.mode == modeView {
		wopts.Heartbeat = time.Second
		size := w.Size
		if size == nil {
			size = func() (int, int) { return 80, 24 }
		}
		r.view = termview.New(r.o.Stdout, termview.Options{Color: w.Color, Dir: r.dir, Size: size})
		defer r.view.Close()
	}
	ctx, quit := context.WithCancel(ctx)
	defer quit()
	stopKeys := r.keys(ctx, quit)
	defer stopKeys()
	r.watchReader(ctx, quit)
	stopServe, err := r.serve(ctx)
	if err != nil {
		return err
	}
	defer stopServe()

	err = watcher.New(r.dir, wopts).Run(ctx, func(u *watcher.Update) error { return r.sink(ctx, u) })
	stopKeys()
	if r.view != nil {
		r.view.Close()
	}
	r.closeOutput(ctx)
	if err != nil {
		var je *Error
		if errors.As(err, &je) {
			return err
		}
		return inputf("watch: %v", err)
	}
	return r.finish(ctx)
}

// keys reads the keys of the live view (q quits, ? shows the keys), only
// in the view and only when stdin is a terminal too: never an
// orchestrator's stdin. The returned stop restores the terminal's mode; it
// runs on every way out, SIGTERM included (it ends ctx, so Run returns),
// and before the summary line is printed: raw mode would print it askew.
func (r *watchRun) keys(ctx context.Context, quit func()) (stop func()) {
	in := r.o.Watch.Keys
	if in == nil || r.mode != modeView {
		return func() {}
	}
	keys, stop, err := termview.Keys(ctx, in, r.view)
	if err != nil {
		return func() {}
	}
	go func() {
		for k := range keys {
			switch k {
			case 'q', 'Q':
				quit()
			case '?':
				r.view.ToggleHelp()
			}
		}
	}()
	return stop
}

// watchReader starts the queue of the events or lines, and ends the watch
// (quit) when the pipe they go to loses its reader (watch --events | head
// -1: its final reports are written now, as SIGPIPE would at the next
// change, but with the files and the GitHub outputs whole) or a write to
// it fails.
func (r *watchRun) watchReader(ctx context.Context, quit func()) {
	if r.mode != modeEvents && r.mode != modeLines {
		return
	}
	gone := termview.ReaderGone(ctx, r.o.Stdout)
	if gone != nil {
		go func() {
			select {
			case <-gone:
				r.readerGone.Store(true)
				quit()
			case <-ctx.Done():
			}
		}()
	}
	// A reader that stops reading holds up neither the reports nor the
	// final ones after a signal; past maxHeldOutput, changes are dropped
	// (with a notice).
	r.out = newOutQueue(r.o.Stdout, maxHeldOutput, droppedNotice(r.mode), gone)
	go func() {
		select {
		case <-r.out.Failed():
			quit()
		case <-ctx.Done():
		}
	}()
}

// serve starts the live page of --serve; stop ends it.
func (r *watchRun) serve(ctx context.Context) (stop func(), err error) {
	w := r.o.Watch
	if w.Serve == "" {
		return func() {}, nil
	}
	ln, err := livepage.Listen(w.Serve, w.ServePublic)
	if err != nil {
		if errors.Is(err, livepage.ErrNotLoopback) {
			return nil, inputf("watch: --serve %v: add --serve-public to open the page to the network", err)
		}
		return nil, inputf("watch: --serve %v", err)
	}
	r.live = livepage.NewServer(w.ServePublic)
	r.every.KeepJSON = true // the page serves findings.json
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- r.live.Serve(sctx, ln) }()
	if w.ServePublic && !livepage.IsLoopback(ln) {
		fmt.Fprintf(r.o.Stderr, "fluxwatch: warning: --serve-public: the live page of %s is open to anyone who can reach %s\n", r.dir, ln.Addr())
	}
	fmt.Fprintf(r.o.Stderr, "fluxwatch: live page at %s\n", livepage.URL(ln))
	return func() { cancel(); <-served }, nil
}

// sink takes each update of the watcher: it writes the reports (not at a
// heartbeat), publishes the live page, and shows the changes.
func (r *watchRun) sink(ctx context.Context, u *watcher.Update) error {
	if !u.Heartbeat {
		if err := r.write(ctx, u); err != nil {
			return err
		}
	}
	events := r.differ.Diff(u)
	printed, err := r.show(u, events)
	if err != nil {
		return err
	}
	r.first = false
	if u.Final {
		r.final = u.Synthesis
	}
	if r.lost == nil && r.readerGone.Load() {
		r.lost = syscall.EPIPE
	}
	if r.lost == nil && r.out != nil {
		// Nobody gets the events any more (a full disk, a terminal gone; a
		// closed pipe is SIGPIPE): the queue's failure ended the watch,
		// which writes its final reports and says so (exit 2), rather than
		// watch on for no one.
		r.lost = r.out.Err()
	}
	if r.lost == nil && r.out != nil {
		r.out.Put(printed, len(events))
	}
	return nil
}

// removedNotice is the diagnostic of a run directory removed under the
// watch.
const removedNotice = "output directory removed: no reports are written until it is made again"

// write writes the reports of u at a change. A run directory removed under
// the watch (an orchestrator cleaned up) gets none, as writing them would
// make it again: the watch goes on, and writes them once the directory is
// made again. A FIFO target with no reader is passed over at a change, not
// waited for; the final reports wait for a reader. Any other failure is a
// diagnostic of the change, except at the end, where it is the error.
func (r *watchRun) write(ctx context.Context, u *watcher.Update) error {
	if runRemoved(r.dir) {
		if u.Final {
			return inputf("watch: output directory %s was removed: the final reports are not written", r.dir)
		}
		r.sayRemoved(u)
		return nil
	}
	r.removed = false
	wctx, cancel := writeContext(ctx)
	if !u.Final {
		wctx = fsio.WithoutWaiting(wctx)
	}
	rendered, err := r.writeReports(wctx, u.Synthesis, r.every)
	cancel()
	switch {
	case err != nil && u.Final:
		return err
	case errors.Is(err, fsio.ErrNoReader):
		if !r.unread {
			u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelWarning,
				Message: inert.Line(err.Error()) + " (at each change until it has one; the final reports wait for it)"})
		}
		r.unread = true
	case err != nil && runRemoved(r.dir):
		// The directory went between the check above and the write: the
		// same removal, said once.
		r.sayRemoved(u)
	case err != nil:
		// Keep watching: the next change writes them again.
		u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelError, Message: inert.Line(err.Error())})
	default:
		r.unread = false
	}
	r.summary = rendered.Summary
	if r.live != nil && rendered.FindingsJSON != nil {
		b, err := page.Render(u.Synthesis, report.PageNames(r.pageOptions(true), u.Synthesis, r.every.Base))
		if err != nil {
			return internal(fmt.Errorf("watch: %w", err))
		}
		r.live.Publish(b, rendered.FindingsJSON)
	}
	return nil
}

// sayRemoved adds the removal's diagnostic to u, once per removal.
func (r *watchRun) sayRemoved(u *watcher.Update) {
	if !r.removed {
		u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelWarning, Message: removedNotice})
	}
	r.removed = true
}

// show draws the view, or returns the events or lines to print of u.
func (r *watchRun) show(u *watcher.Update, events []watcher.Event) ([]byte, error) {
	var b bytes.Buffer
	switch r.mode {
	case modeEvents:
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if r.first {
			bus := 0
			if u.Synthesis.Timeline != nil {
				bus = u.Synthesis.Timeline.Total
			}
			if err := enc.Encode(watcher.Hello(u.Time, r.o.Version, r.dir, bus)); err != nil {
				return nil, internal(fmt.Errorf("watch: %w", err))
			}
		}
		for _, ev := range events {
			if err := enc.Encode(ev); err != nil {
				return nil, internal(fmt.Errorf("watch: %w", err))
			}
		}
		return inert.EscapeJSON(b.Bytes()), nil // agent text as written, escaped
	case modeView:
		r.view.Draw(u, events)
	case modeLines:
		for _, ev := range events {
			b.WriteString(ev.Text())
			b.WriteByte('\n')
		}
		return b.Bytes(), nil
	}
	return nil, nil
}

// closeOutput waits for the reader to take what is left of the events or
// lines (after a signal only for finalWrite), and notes a reader gone or a
// write that failed.
func (r *watchRun) closeOutput(ctx context.Context) {
	if r.lost == nil && r.readerGone.Load() {
		r.lost = syscall.EPIPE
	}
	if r.out == nil {
		return
	}
	wctx, cancel := writeContext(ctx)
	defer cancel()
	if err := r.out.Close(wctx); r.lost == nil && r.readerGone.Load() {
		r.lost = syscall.EPIPE
	} else if r.lost == nil {
		r.lost = err
	}
}

// finish writes what goes to standard output of the final reports, says
// why the watch ended when nobody read it, prints the one-line summary,
// and judges the gate (the final event says the status and its reasons).
func (r *watchRun) finish(ctx context.Context) error {
	if r.final == nil {
		return internal(errors.New("watch: ended without a final synthesis"))
	}
	wctx, cancel := writeContext(ctx)
	defer cancel()
	gh := r.github(false, r.onStdout || r.mode == modeEvents || r.lost != nil)
	if err := r.writeOutputs(wctx, r.final, r.targets.StdoutOnly(), gh, r.summary); err != nil {
		return err
	}
	if errors.Is(r.lost, syscall.EPIPE) {
		return &Error{Status: StatusSIGPIPE} // as a process SIGPIPE ended: no message
	}
	if r.lost != nil {
		return writeStdout("watch", r.lost)
	}
	if (r.mode == modeLines || r.mode == modeView) && !r.onStdout {
		if err := r.printSummary(r.final); err != nil {
			return err
		}
	}
	if err := r.pickedRun(r.final); err != nil {
		if r.mode == modeEvents {
			if werr := r.finalEvent(ctx, StatusInput, []string{err.Error()}); werr != nil {
				return werr
			}
		}
		return err
	}
	d := r.Judge(r.final)
	if r.mode == modeEvents {
		status := StatusOK
		if d.Tripped {
			status = StatusGate
		}
		if err := r.finalEvent(ctx, status, d.Explain()); err != nil {
			return err
		}
	}
	return r.Explain(ctx, d)
}

// finalEvent writes the last record of watch --events: the verdict of the
// final synthesis, the exit status and its reasons (watcher.Final).
func (r *watchRun) finalEvent(ctx context.Context, status int, reasons []string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the other events
	if err := enc.Encode(watcher.Final(time.Now(), r.final, status, ctx.Err() != nil, reasons)); err != nil {
		return internal(fmt.Errorf("watch: %w", err))
	}
	_, err := r.o.Stdout.Write(inert.EscapeJSON(b.Bytes()))
	return writeStdout("watch", err)
}

// runRemoved reports whether the run directory dir no longer exists.
func runRemoved(dir string) bool {
	_, err := os.Stat(dir)
	return errors.Is(err, fs.ErrNotExist)
}

// droppedNotice returns the maker of the line that says, in mode, that n
// events were dropped because the reader of standard output fell behind.
func droppedNotice(mode watchMode) func(n int) []byte {
	return func(n int) []byte {
		ev := watcher.Diagnostic(time.Now(), parse.LevelWarning, fmt.Sprintf(
			"%d %s dropped: the reader of standard output fell %d MiB behind; the reports are current",
			n, synth.Noun(n, "event"), maxHeldOutput>>20))
		if mode == modeLines {
			return []byte(ev.Text() + "\n")
		}
		b, _ := json.Marshal(ev)
		return append(b, '\n')
	}
}

// finalWrite bounds the writes of the final reports after a signal: a FIFO
// target with no reader must not keep the process past it.
const finalWrite = 500 * time.Millisecond

// writeContext is the context of writing reports: ctx while it lasts; once
// a signal ended it, the final reports are still written, for at most
// finalWrite.
func writeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Err() == nil {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), finalWrite)
}

// orNever turns a flag's 0 ("never") into the watcher's negative.
func orNever(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
