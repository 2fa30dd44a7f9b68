package runjob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/termview"
	"github.com/fluxwatch/fluxwatch/page/livepage"
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
	r := &watchRun{Job: j, mode: modeLines, differ: watcher.NewDiffer(), first: true,
		json: splicedFile{name: "findings.json", splice: &synth.JSONSplice{}},
		md:   splicedFile{name: "summary.md", splice: &synth.MarkdownSplice{}}}
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
	// json and md write findings.json and summary.md at each change from
	// the ones written before.
	json, md splicedFile

	final      *synth.Synthesis
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
