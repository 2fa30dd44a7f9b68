package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

const watchUsage = `Usage: fluxwatch watch [flags] [DIR]

Keeps the synthesis of the review run in DIR current while its agents write
(DIR as for synth: discovery tiers 1-2, else the current directory). After
every change it rewrites summary.md and findings.json (and the --sarif,
--rdjsonl and --junit files) atomically, when their content changed.

On a terminal it shows a live view; off a terminal it prints one line per
change; --events prints NDJSON events instead (first a hello record). It runs
until interrupted (SIGINT or SIGTERM: it writes the final reports and exits
130 or 143) or, with --until-complete, until the run is complete. The final
reports are those synth would write. Exit codes as for synth: 0, 1 when the
--fail-on gate tripped, 2 a usage or input error, 3 an internal error.
When its events or lines cannot be written (a full disk: exit 2), or the
pipe they go to has lost its reader (| head -1: exit 141, as SIGPIPE gives),
it ends too, after writing the final reports. A reader that stops reading
holds up nothing: the reports stay current, and up to 32 MiB of events or
lines wait for it; past that, a change's events are dropped whole and a
diagnostic event then says how many. At the end, watch waits for the
reader to take what is left (after a signal, half a second at most).

With --bus nats://HOST:PORT/RUN (or such a $FLUXWATCH_BUS) the peer findings
come from the run's JetStream stream, read up to its last record at start
(a server that cannot be reached then is an error, exit 2, within
--bus-timeout), then followed: each record updates the synthesis. A server
lost later is a diagnostic, and watch goes on when it is back. Bus files in
DIR are not read, as for synth; --bus FILE follows that bus file instead.

Unlike synth, watch starts on a directory that holds nothing of a run yet,
the current directory included: an orchestrator starts it before its agents
write their first file.

A report target of "-" (standard output) is written once, with the final
reports; it cannot be combined with --events. A device or FIFO target is
written in place at every change (a FIFO only when it has a reader: the
watch never waits for one, but the final reports do, until interrupted), a
symbolic link keeps being a link.

Flags:
`

// watchFlags are the flags of `fluxwatch watch`.
type watchFlags struct {
	reportFlags
	bus           synthBus
	events        bool
	untilComplete bool
	settle        time.Duration
	stallTimeout  time.Duration
	debounce      time.Duration
	rescan        time.Duration
	poll          time.Duration
	serve         string
	servePublic   bool
}

// watchMode is how watch shows changes.
type watchMode int

const (
	modeLines  watchMode = iota // one line per change
	modeView                    // the live terminal view
	modeEvents                  // NDJSON events
	modeQuiet                   // nothing
)

func watchCmd(e *env) *cobra.Command {
	f := &watchFlags{reportFlags: reportFlags{cmd: "watch"}}
	cmd, fs := f.newCommand(&f.bus, "keep the synthesis current while agents write", watchUsage)
	fs.BoolVar(&f.events, "events", false, "print NDJSON events on stdout (a hello record, then one event per change)")
	fs.BoolVar(&f.untilComplete, "until-complete", false, "exit once every --expect agent, or without --expect every agent started, has finished")
	fs.DurationVar(&f.settle, "settle", 10*time.Second, "with --until-complete and no --expect: wait `D` after the last agent started")
	fs.DurationVar(&f.stallTimeout, "stall-timeout", 0, "report an agent whose .partial has not changed for `D` (0: never); with --until-complete it then counts as failed")
	fs.DurationVar(&f.debounce, "debounce", watcher.DefaultDebounce, "read a changed report once it has been quiet for `D`")
	fs.DurationVar(&f.rescan, "rescan", watcher.DefaultRescan, "read the whole directory again every `D` (0: never)")
	fs.DurationVar(&f.poll, "poll", 0, "read the directory every `D` instead of waiting for filesystem events (--poll alone: 500ms)")
	fs.Lookup("poll").NoOptDefVal = watcher.DefaultPoll.String()
	fs.StringVar(&f.serve, "serve", "", "serve the live HTML page on `ADDR` (127.0.0.1:0: a free port; a host-less :PORT is loopback) and print its URL on stderr")
	fs.BoolVar(&f.servePublic, "serve-public", false, "let --serve bind an address other than loopback (the page is then open to the network)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return f.run(cmd.Context(), e, fs) }
	return cmd
}

func (f *watchFlags) run(ctx context.Context, e *env, fs *flag.FlagSet) error {
	dir, _, err := f.runDir(e, fs)
	if err != nil {
		return err
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"settle", f.settle}, {"stall-timeout", f.stallTimeout}, {"debounce", f.debounce}, {"rescan", f.rescan}, {"poll", f.poll}} {
		if d.v < 0 {
			return usageErrorf("watch: --%s %v: want a duration of 0 or more", d.name, d.v)
		}
	}
	if _, err := fsio.StatDir(dir); err != nil {
		if errors.Is(err, fsio.ErrNotDir) {
			err = fsio.Cause(err) // the message names dir already
		}
		return usageErrorf("watch: output directory %s: %v", dir, err)
	}
	opts, scan, src, err := prepare(ctx, e, &f.reportFlags, &f.bus, dir)
	if err != nil {
		return err
	}
	if src != nil {
		defer src.Close()
	}
	if err := f.evidence.apply(e, "watch", dir, &opts); err != nil {
		return err
	}
	targets := f.targets(e, dir)
	data := ""
	if f.events {
		data = "--events"
	}
	stdoutIsData, err := f.checkTargets(targets, dir, data)
	if err != nil {
		return err
	}
	every := targets
	every.SkipStdout = true // written once, after the final update

	mode := modeLines
	switch {
	case f.events:
		mode = modeEvents
	case f.quiet:
		mode = modeQuiet
	case e.isTerminal(e.stdout) && termview.Capable(e.getenv("TERM")):
		mode = modeView
	}
	wopts := watcher.Options{
		Scan:          scan,
		Synth:         opts,
		Debounce:      orNever(f.debounce),
		Rescan:        orNever(f.rescan),
		Poll:          f.poll,
		StallTimeout:  f.stallTimeout,
		UntilComplete: f.untilComplete,
		Settle:        f.settle,
		Bus:           src,
	}
	var view *termview.View
	if mode == modeView {
		wopts.Heartbeat = time.Second
		view = termview.New(e.stdout, termview.Options{Color: e.useColor(e.stdout), Dir: dir, Size: func() (int, int) {
			if c, r, ok := e.terminalSize(e.stdout); ok {
				return c, r
			}
			return 80, 24
		}})
		defer view.Close()
	}
	// Keys (q quits, ? shows the keys) only in the live view and only when
	// stdin is a terminal too: never read an orchestrator's stdin. The
	// terminal's mode is restored by the deferred stop on every way out,
	// SIGTERM included (it ends ctx, so Run returns), and before the
	// summary line is printed: raw mode would print it askew.
	ctx, quit := context.WithCancel(ctx)
	defer quit()
	stopKeys := func() {}
	if in, ok := e.stdin.(*os.File); ok && mode == modeView && e.isTerminal(in) {
		if keys, stop, err := termview.Keys(ctx, in, view); err == nil {
			defer stop()
			stopKeys = stop
			go func() {
				for k := range keys {
					switch k {
					case 'q', 'Q':
						quit()
					case '?':
						view.ToggleHelp()
					}
				}
			}()
		}
	}

	// Events or lines on a pipe whose reader has gone (watch --events |
	// head -1): end the watch with its final reports now, as SIGPIPE would
	// at the next change, but with the files and the GitHub outputs whole.
	var readerGone atomic.Bool
	var gone <-chan struct{}
	if mode == modeEvents || mode == modeLines {
		if gone = termview.ReaderGone(ctx, e.stdout); gone != nil {
			go func() {
				select {
				case <-gone:
					readerGone.Store(true)
					quit()
				case <-ctx.Done():
				}
			}()
		}
	}
	// The events or lines go out from a queue of their own: a reader that
	// stops reading holds up neither the reports nor the final ones after
	// a signal; past maxHeldOutput, changes are dropped (with a notice).
	// A write that fails ends the watch, as a reader gone does.
	var out *outQueue
	if mode == modeEvents || mode == modeLines {
		out = newOutQueue(e.stdout, maxHeldOutput, droppedNotice(mode), gone)
		go func() {
			select {
			case <-out.Failed():
				quit()
			case <-ctx.Done():
			}
		}()
	}

	var live *livepage.Server
	if f.serve != "" {
		ln, err := livepage.Listen(f.serve, f.servePublic)
		if err != nil {
			if errors.Is(err, livepage.ErrNotLoopback) {
				return usageErrorf("watch: --serve %v: add --serve-public to open the page to the network", err)
			}
			return usageErrorf("watch: --serve %v", err)
		}
		live = livepage.NewServer(f.servePublic)
		every.KeepJSON = true // the page serves findings.json
		sctx, stop := context.WithCancel(ctx)
		served := make(chan error, 1)
		go func() { served <- live.Serve(sctx, ln) }()
		defer func() { stop(); <-served }()
		if f.servePublic && !livepage.IsLoopback(ln) {
			fmt.Fprintf(e.stderr, "fluxwatch: warning: --serve-public: the live page of %s is open to anyone who can reach %s\n", dir, ln.Addr())
		}
		fmt.Fprintf(e.stderr, "fluxwatch: live page at %s\n", livepage.URL(ln))
	}

	differ := watcher.NewDiffer()
	var final *synth.Synthesis
	var summary []byte
	first := true
	unread := false  // a FIFO target had no reader at the last change (said once)
	var lost error   // a write of the events or lines to stdout failed: the watch ends
	removed := false // the run directory is gone (said once)
	err = watcher.New(dir, wopts).Run(ctx, func(u *watcher.Update) error {
		if !u.Heartbeat && runRemoved(dir) {
			// The run directory was removed under the watch (an
			// orchestrator cleaned up): its reports are not written, as
			// writing them would make it again. The watch goes on, and
			// writes them once the directory is made again.
			if u.Final {
				return usageErrorf("watch: output directory %s was removed: the final reports are not written", dir)
			}
			if !removed {
				u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelWarning,
					Message: "output directory removed: no reports are written until it is made again"})
			}
			removed = true
		} else if !u.Heartbeat {
			removed = false
			wctx, cancel := writeContext(ctx)
			if !u.Final {
				// A FIFO target with no reader is passed over at a change,
				// not waited for: the watch, its events and its other
				// reports go on. The final reports wait for a reader.
				wctx = fsio.WithoutWaiting(wctx)
			}
			r, err := f.writeReports(wctx, u.Synthesis, every)
			cancel()
			switch {
			case err != nil && u.Final:
				return err
			case errors.Is(err, fsio.ErrNoReader):
				if !unread {
					u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelWarning,
						Message: inert.Line(err.Error()) + " (at each change until it has one; the final reports wait for it)"})
				}
				unread = true
			case err != nil && runRemoved(dir):
				// The directory went between the check above and the
				// write: the same removal, said once.
				if !removed {
					u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelWarning,
						Message: "output directory removed: no reports are written until it is made again"})
				}
				removed = true
			case err != nil:
				// Keep watching: the next change writes them again.
				u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelError, Message: inert.Line(err.Error())})
			default:
				unread = false
			}
			summary = r.Summary
			if live != nil && r.FindingsJSON != nil {
				b, err := page.Render(u.Synthesis, report.PageNames(f.pageOptions(true), u.Synthesis, every.Base))
				if err != nil {
					return exitError{exitInternal, fmt.Errorf("watch: %w", err)}
				}
				live.Publish(b, r.FindingsJSON)
			}
		}
		events := differ.Diff(u)
		var printed []byte
		switch mode {
		case modeEvents:
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if first {
				bus := 0
				if u.Synthesis.Timeline != nil {
					bus = u.Synthesis.Timeline.Total
				}
				enc.Encode(watcher.Hello(u.Time, versionString(), dir, bus))
			}
			for _, ev := range events {
				enc.Encode(ev)
			}
			printed = inert.EscapeJSON(b.Bytes()) // agent text as written, escaped
		case modeView:
			view.Draw(u, events)
		case modeLines:
			var b bytes.Buffer
			for _, ev := range events {
				b.WriteString(ev.Text())
				b.WriteByte('\n')
			}
			printed = b.Bytes()
		}
		first = false
		if u.Final {
			final = u.Synthesis
		}
		if lost == nil && readerGone.Load() {
			lost = syscall.EPIPE
		}
		if lost == nil && out != nil {
			// Nobody gets the events any more (a full disk, a terminal
			// gone; a closed pipe is SIGPIPE): the queue's failure ended
			// the watch, which writes its final reports and says so (exit
			// 2), rather than watch on for no one.
			lost = out.Err()
		}
		if lost == nil && out != nil {
			out.Put(printed, len(events))
		}
		return nil
	})
	stopKeys()
	if view != nil {
		view.Close()
	}
	if lost == nil && readerGone.Load() {
		lost = syscall.EPIPE
	}
	if out != nil {
		// What the reader has not taken yet: waited for while it reads,
		// after a signal only for finalWrite.
		wctx, cancel := writeContext(ctx)
		if err := out.Close(wctx); lost == nil && readerGone.Load() {
			lost = syscall.EPIPE
		} else if lost == nil {
			lost = err
		}
		cancel()
	}
	if err != nil {
		var x exitError
		var u usageError
		if errors.As(err, &x) || errors.As(err, &u) {
			return err
		}
		return usageErrorf("watch: %v", err)
	}
	if final == nil {
		return exitError{exitInternal, errors.New("watch: ended without a final synthesis")}
	}
	wctx, cancel := writeContext(ctx)
	defer cancel()
	if err := f.writeOutputs(wctx, final, targets.StdoutOnly(), github(e, false, stdoutIsData || mode == modeEvents || lost != nil), summary); err != nil {
		return err
	}
	if errors.Is(lost, syscall.EPIPE) {
		return exitError{code: sigpipeStatus} // as a process SIGPIPE ended: no message
	}
	if lost != nil {
		return writeStdout("watch", lost)
	}
	if (mode == modeLines || mode == modeView) && !stdoutIsData {
		if _, err := fmt.Fprintln(e.stdout, oneLineSummary(final, filepath.Join(targets.Dir, "summary.md"))); err != nil {
			return writeStdout("watch", err)
		}
	}
	if err := f.pickedRun(e, final, scan.Run, dir); err != nil {
		if mode == modeEvents {
			if werr := finalEvent(ctx, e, final, exitUsage, []string{err.Error()}); werr != nil {
				return werr
			}
		}
		return err
	}
	d := f.decide(e, final)
	if mode == modeEvents {
		status := exitOK
		if d.Tripped {
			status = exitGate
		}
		if err := finalEvent(ctx, e, final, status, d.Explain()); err != nil {
			return err
		}
	}
	return f.explain(ctx, e, d)
}

// finalEvent writes the last record of watch --events: the verdict of s,
// the exit status and its reasons (watcher.Final).
func finalEvent(ctx context.Context, e *env, s *synth.Synthesis, status int, reasons []string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the other events
	if err := enc.Encode(watcher.Final(time.Now(), s, status, ctx.Err() != nil, reasons)); err != nil {
		return exitError{exitInternal, fmt.Errorf("watch: %w", err)}
	}
	if _, err := e.stdout.Write(inert.EscapeJSON(b.Bytes())); err != nil {
		return writeStdout("watch", err)
	}
	return nil
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

// sigpipeStatus is the status of watch when the reader of its events went
// away: that of a process SIGPIPE ended, 128 + 13.
const sigpipeStatus = 128 + 13

// finalWrite bounds the writes of the final reports after a signal: a FIFO
// target with no reader must not keep the process past it.
const finalWrite = 500 * time.Millisecond

// writeContext is the context of writing reports: ctx while it lasts; once a
// signal ended it, the final reports are still written, for at most
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
