package runjob

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/termview"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// This file is watch's sink, which takes each update of the watcher, and
// its end: the final reports, the final event, the gate.

// sink takes each update of the watcher: it writes the reports (not at a
// heartbeat), publishes the live page, and shows the changes.
func (r *watchRun) sink(ctx context.Context, u *watcher.Update) error {
	if !u.Heartbeat {
		if err := r.write(ctx, u); err != nil {
			return err
		}
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
	put := func([]byte, int) {}
	if r.lost == nil && r.out != nil {
		c := r.out.Begin()
		defer c.End()
		put = c.Put
	}
	if err := r.show(u, put); err != nil {
		return err
	}
	r.first = false
	if u.Final {
		r.final = u.Synthesis
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
	t, done := r.spliceTargets()
	rendered, err := r.writeReports(wctx, u.Synthesis, t)
	done(err)
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
	if r.live != nil && rendered.FindingsJSON != nil {
		b, err := page.Render(u.Synthesis, report.PageNames(r.pageOptions(true), u.Synthesis, r.every.Base))
		if err != nil {
			return internal(fmt.Errorf("watch: %w", err))
		}
		r.live.Publish(b, rendered.FindingsJSON)
	}
	return nil
}

// spliceTargets returns the targets of a change: findings.json and
// summary.md, when they are streamed to files, are written by their
// splices from the files the previous change wrote (findings.json not
// with --serve, whose page keeps it in memory). done, given the error of
// the write, notes the files written for the next change.
func (r *watchRun) spliceTargets() (t report.Targets, done func(error)) {
	t = r.every
	if t.Dir == "" || t.Dir == report.Stdout {
		return t, func(error) {}
	}
	md, mdDone := r.md.writer(t.Dir)
	t.Markdown = md
	if t.KeepJSON {
		return t, mdDone
	}
	json, jsonDone := r.json.writer(t.Dir)
	t.JSON = json
	return t, func(err error) { jsonDone(err); mdDone(err) }
}

// splicedFile is a report that watch writes from the one it wrote at the
// previous change (synth.JSONSplice, synth.MarkdownSplice).
type splicedFile struct {
	name   string
	splice interface {
		Write(w io.Writer, s *synth.Synthesis, old io.ReaderAt) error
		Reset()
		Size() int64
	}
	// last is the file as the previous write left it; nil: none to read
	// from.
	last os.FileInfo
}

// writer returns the writer of the file in dir, which reads from the file
// there when it is still the one written (the same file, size and
// modification time; what is read is then checked against hashes of what
// was written), and done, which, given the error of the write, notes the
// file written. A failed write (but a FIFO target without a reader) leaves
// nothing to read from: the file may be the old one, or none.
func (f *splicedFile) writer(dir string) (write func(io.Writer, *synth.Synthesis) error, done func(error)) {
	path := filepath.Join(dir, f.name)
	var old io.ReaderAt
	fh, info, err := fsio.Open(path)
	if err == nil {
		if was := f.last; was != nil && os.SameFile(info, was) && info.Size() == was.Size() && info.ModTime().Equal(was.ModTime()) {
			old = fh
		}
	}
	write = func(w io.Writer, s *synth.Synthesis) error { return f.splice.Write(w, s, old) }
	return write, func(err error) {
		if fh != nil {
			fh.Close()
		}
		f.last = nil
		if err != nil && !errors.Is(err, fsio.ErrNoReader) {
			f.splice.Reset()
			return
		}
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && info.Size() == f.splice.Size() && f.splice.Size() > 0 {
			f.last = info
		}
	}
}

// sayRemoved adds the removal's diagnostic to u, once per removal.
func (r *watchRun) sayRemoved(u *watcher.Update) {
	if !r.removed {
		u.Diagnostics = append(u.Diagnostics, parse.Diagnostic{Level: parse.LevelWarning, Message: removedNotice})
	}
	r.removed = true
}

// show draws the view, or hands the events or lines to print of u to put
// in pieces of about showPiece bytes, whole lines each, with how many
// events each holds. The events are encoded as the differ makes them,
// never held as a list (Differ.Each), nor as one buffer; the view keeps
// the last few it shows; quiet, nobody reads them and they are not made.
func (r *watchRun) show(u *watcher.Update, put func(out []byte, events int)) (err error) {
	b, events := new(bytes.Buffer), 0
	// piece hands over what b holds once it holds enough (or at the end),
	// escaped (agent text as written), and starts a new one: the queue
	// keeps what it is given.
	piece := func(end bool) {
		if b.Len() == 0 || !end && b.Len() < showPiece {
			return
		}
		out := b.Bytes()
		if r.mode == modeEvents {
			out = inert.EscapeJSON(out)
		}
		put(out, events)
		b, events = new(bytes.Buffer), 0
	}
	switch r.mode {
	case modeEvents:
		// One encoder for every piece: it writes to the piece being made.
		enc := json.NewEncoder(writerFunc(func(p []byte) (int, error) { return b.Write(p) }))
		enc.SetEscapeHTML(false)
		if r.first {
			bus := 0
			if u.Synthesis.Timeline != nil {
				bus = u.Synthesis.Timeline.Total
			}
			if err := enc.Encode(watcher.Hello(u.Time, r.o.Version, r.dir, bus)); err != nil {
				return internal(fmt.Errorf("watch: %w", err))
			}
		}
		r.differ.Each(u, func(ev watcher.Event) {
			if err != nil {
				return
			}
			if e := enc.Encode(ev); e != nil {
				err = internal(fmt.Errorf("watch: %w", e))
			}
			events++
			piece(false)
		})
		if err != nil {
			return err
		}
	case modeView:
		var recent []watcher.Event
		r.differ.Each(u, func(ev watcher.Event) {
			if len(recent) == termview.Recent {
				recent = append(recent[:0], recent[1:]...)
			}
			recent = append(recent, ev)
		})
		r.view.Draw(u, recent)
		return nil
	case modeLines:
		r.differ.Each(u, func(ev watcher.Event) {
			b.WriteString(ev.Text())
			b.WriteByte('\n')
			events++
			piece(false)
		})
	}
	piece(true)
	return nil
}

// writerFunc is a function as an io.Writer.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// showPiece is about how many bytes of events or lines show hands over at
// once.
const showPiece = 64 << 10

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
	if err := r.writeOutputs(wctx, r.final, r.targets.StdoutOnly(), gh); err != nil {
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
