package watcher

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Defaults of Options.
const (
	DefaultDebounce = 50 * time.Millisecond
	DefaultRescan   = 30 * time.Second
	DefaultKeepGood = 2 * time.Second
	// DefaultPoll is the polling interval when inotify is unavailable and
	// Options.Poll is not set.
	DefaultPoll = 500 * time.Millisecond
)

// ErrStop, returned by an update handler, ends Run after a final update.
var ErrStop = errors.New("stop watching")

// Options steer a Watcher.
type Options struct {
	// Scan reads the directory. NoBus is forced (the Watcher tails the bus
	// itself); KeepGood 0 means DefaultKeepGood, negative none.
	Scan ScanOptions
	// Synth synthesises. Watching is forced, except for the final update.
	Synth synth.Options
	// Debounce is how long reports and YAML files must be quiet before they
	// are read again (0: DefaultDebounce; negative: not at all). A file that
	// keeps changing is read at least every ten debounce periods.
	Debounce time.Duration
	// Rescan is how often the whole directory is read again whatever the
	// events say (0: DefaultRescan; negative: never).
	Rescan time.Duration
	// Poll, when positive, reads the directory this often instead of
	// waiting for filesystem events (for filesystems without inotify).
	Poll time.Duration
	// StallTimeout, when positive, reports an agent whose .partial has not
	// changed for this long; with UntilComplete, that agent then counts as
	// failed (so the run can complete) until its .partial changes again.
	StallTimeout time.Duration
	// Heartbeat, when positive, calls the handler this often even when
	// nothing changed (a live view redraws its clocks).
	Heartbeat time.Duration
	// UntilComplete ends Run (after a final update) once the run is
	// complete: every expected agent (Synth.Expect) has finished, or without
	// expected agents, every agent started has finished and no new one
	// started for Settle.
	UntilComplete bool
	Settle        time.Duration
	// Bus, when set, is the run's bus instead of the directory's bus files
	// (a stream, or a file elsewhere): read up to its last record at start
	// (an error then ends Run), then followed (stream.go).
	Bus bus.Backend

	// handOver is the most bus entries a long read holds before handing
	// them over to the synth.Live (0: handOverBatch); finalBudget bounds
	// the final update's reading after a signal (0: finalAfterSignal).
	// Tests make them small. finalScan bounds the final rescan after a
	// signal (0: finalScanAfterSignal); tests of the reading after it make
	// it long, so that a loaded machine does not cut the scan instead.
	handOver    int
	finalBudget time.Duration
	finalScan   time.Duration
}

// Update is what the handler of Run receives after each change.
type Update struct {
	// Time is when the update was made.
	Time time.Time
	// Synthesis is the run as it now is.
	Synthesis *synth.Synthesis
	// Appended are the bus entries read since the previous update, in
	// reading order. After a bus was truncated or replaced they start again
	// from its first line (a Diagnostic says so). The first update holds
	// none: the bus read at start is in the synthesis.
	Appended []BusEntry
	// Diagnostics are the watcher's own since the previous update: a bus
	// read again from the start, a scan that failed, an event queue that
	// overflowed. They are not part of the synthesis.
	Diagnostics []parse.Diagnostic
	// Stalled are the agents found stalled (Options.StallTimeout) since the
	// previous update.
	Stalled []Stall
	// Agents are the clocks of the agents of the run, by name.
	Agents map[string]AgentTimes
	// Started is when the watcher started.
	Started time.Time
	// Heartbeat is set when nothing was read: only time passed.
	Heartbeat bool
	// Final is set on the last update, made when Run ends (the context was
	// cancelled or the handler returned ErrStop). Its synthesis is that of a
	// one-shot `synth`: not watching, so an expected agent without a file has
	// failed and a run with no completed agent is an error.
	Final bool
}

// BusEntry is a bus entry with its file and its number in the timeline.
type BusEntry struct {
	File string
	Seq  int
	bus.Entry
}

// Stall is an agent whose .partial has not changed for the stall timeout.
type Stall struct {
	Agent string
	File  string
	Idle  time.Duration
}

// AgentTimes are the watcher's clocks of one agent.
type AgentTimes struct {
	// FirstSeen is when the watcher first saw a file of the agent (when it
	// started, for an agent already there).
	FirstSeen time.Time
	// Done is when the watcher first saw the agent finished (completed or
	// failed); zero while it runs.
	Done time.Time
	// Stalled is set while its .partial has not changed for the stall
	// timeout.
	Stalled bool
}

// Watcher keeps the synthesis of one output directory current (SPEC §8).
// One goroutine, the one calling Run, owns all of its state.
type Watcher struct {
	dir  string
	opts Options
	// finalBy, after a signal, is when the final update's reading must end.
	finalBy time.Time

	scanner *Scanner
	live    *synth.Live
	// newSource makes the event source; tests replace it.
	newSource func() (source, error)

	scanned *synth.Run // the last successful scan (bus entries not filled in)
	bus     []*busState
	follow  *follower              // the tail of Options.Bus, the one bus when set
	allowed map[string]bool        // bus files the last scan listed
	watched map[string]*watchedDir // directories watched (or once watched), by path
	self    string                 // dir's absolute path, as events from its parent name it
	agents  map[string]*agentState
	started time.Time
	retryAt time.Time        // after a failed scan: no timed rescan before
	scanErr string           // the error of the last scan, said once while it lasts (and the directories stay)
	collect bool             // keep the entries read for Update.Appended
	last    *synth.Synthesis // of the last update

	// What the next update reports.
	appended []BusEntry
	diags    []parse.Diagnostic
	stalls   []Stall
}

// busState is one bus file, tailed.
type busState struct {
	name, path string
	tail       tailer
	entries    []bus.Entry
	// dropped counts the entries read before entries: handed over to the
	// synth.Live and no longer held (see drop).
	dropped int
	diags   []parse.Diagnostic // the decoder's, positioned: part of the synthesis
	present bool
	mod     time.Time
}

// watchedDir is the directory watched at a path.
type watchedDir struct {
	info fs.FileInfo // which directory: its identity
	live bool        // watched now; false once removed or renamed away
	// unwatched: the event source refused it (out of inotify watches):
	// it is polled, and added again at each poll.
	unwatched bool
}

// agentState is what the watcher remembers of an agent between scans.
type agentState struct {
	file      string
	mod       time.Time
	partial   bool
	firstSeen time.Time
	changed   time.Time // when its .partial last changed
	done      time.Time
	stalled   bool
}

// New returns a Watcher of dir with opts.
func New(dir string, opts Options) *Watcher {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Rescan == 0 {
		opts.Rescan = DefaultRescan
	}
	switch {
	case opts.Scan.KeepGood == 0:
		opts.Scan.KeepGood = DefaultKeepGood
	case opts.Scan.KeepGood < 0:
		opts.Scan.KeepGood = 0
	}
	opts.Scan.NoBus = true
	opts.Scan.Unreadable = true // one file that cannot be read must not stop the watch
	opts.Synth.Watching = true
	if opts.handOver <= 0 {
		opts.handOver = handOverBatch
	}
	if opts.finalBudget <= 0 {
		opts.finalBudget = finalAfterSignal
	}
	if opts.finalScan <= 0 {
		opts.finalScan = finalScanAfterSignal
	}
	w := &Watcher{
		dir:     dir,
		opts:    opts,
		scanner: NewScanner(opts.Scan),
		live:    synth.NewLive(opts.Synth),
		allowed: map[string]bool{},
		watched: map[string]*watchedDir{},
		agents:  map[string]*agentState{},
	}
	w.newSource = w.fsnotifySource
	if opts.Bus != nil {
		w.bus = []*busState{{name: BusName(opts.Bus)}} // its tail is the follower Run starts
		return w
	}
	for _, name := range parse.BusNames {
		path := filepath.Join(dir, name)
		w.bus = append(w.bus, &busState{name: name, path: path, tail: bus.NewTail(path, opts.Scan.MaxLine)})
	}
	return w
}

// source is where filesystem events come from: fsnotify, or nothing when
// polling. Tests feed events by hand.
type source interface {
	Add(dir string) error
	Remove(dir string) error
	Events() <-chan fsnotify.Event
	Errors() <-chan error
	Close() error
}

type fsSource struct{ w *fsnotify.Watcher }

func (s fsSource) Add(dir string) error          { return s.w.Add(dir) }
func (s fsSource) Remove(dir string) error       { return s.w.Remove(dir) }
func (s fsSource) Events() <-chan fsnotify.Event { return s.w.Events }
func (s fsSource) Errors() <-chan error          { return s.w.Errors }
func (s fsSource) Close() error                  { return s.w.Close() }

// noSource never sends: the polling mode.
type noSource struct{}

func (noSource) Add(string) error              { return nil }
func (noSource) Remove(string) error           { return nil }
func (noSource) Events() <-chan fsnotify.Event { return nil }
func (noSource) Errors() <-chan error          { return nil }
func (noSource) Close() error                  { return nil }

func (w *Watcher) fsnotifySource() (source, error) {
	if w.opts.Poll > 0 {
		return noSource{}, nil
	}
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	return fsSource{fw}, nil
}

// Run reads the directory, calls handle with the first update, then with one
// update after each change until ctx is done or handle returns ErrStop; then
// it reads the directory once more and calls handle with the final update.
// handle runs on Run's goroutine: while it runs, events wait. Run returns nil
// after the final update, the error of a handle call other than ErrStop,
// an error naming the directory when it cannot be read at start, or
// ErrNotRead (and no final update) when ctx ends before the directory was
// first read.
func (w *Watcher) Run(ctx context.Context, handle func(*Update) error) error {
	w.started = time.Now()
	src, err := w.newSource()
	if err != nil {
		w.opts.Poll = DefaultPoll
		w.diag("", parse.LevelWarning, fmt.Sprintf("no filesystem events (%v): polling every %v", err, DefaultPoll))
		src = noSource{}
	}
	defer src.Close()
	var streamC <-chan struct{}
	if w.opts.Bus != nil {
		f, err := startFollower(ctx, w.opts.Bus)
		if err != nil {
			return err
		}
		defer f.stop()
		w.follow, w.bus[0].tail, streamC = f, f, f.ready
	}
	w.watchParent(src)
	w.watchDirs(src)
	if err := w.rescan(ctx); err != nil {
		if ctx.Err() != nil {
			return w.final(ctx, handle) // interrupted while starting
		}
		return err
	}
	w.pollAll()
	w.collect = true // the first update holds the bus in its synthesis only
	if err := w.emit(handle, false); err != nil {
		return w.stop(ctx, handle, err)
	}
	if done, _ := w.complete(time.Now()); done {
		return w.final(ctx, handle)
	}

	var tickers []*time.Ticker
	defer func() {
		for _, t := range tickers {
			t.Stop()
		}
	}()
	tick := func(d time.Duration) <-chan time.Time {
		if d <= 0 {
			return nil
		}
		t := time.NewTicker(d)
		tickers = append(tickers, t)
		return t.C
	}
	rescanC, pollC, heartbeatC := tick(w.opts.Rescan), tick(w.opts.Poll), tick(w.opts.Heartbeat)
	// The polling of directories that could not be watched, while there
	// are some (and Options.Poll does not poll already).
	var fallback *time.Ticker
	defer func() {
		if fallback != nil {
			fallback.Stop()
		}
	}()
	var fallbackC <-chan time.Time
	fallBack := func() {
		switch need := pollC == nil && w.polling(); {
		case need && fallback == nil:
			fallback = time.NewTicker(DefaultPoll)
			fallbackC = fallback.C
		case !need && fallback != nil:
			fallback.Stop()
			fallback, fallbackC = nil, nil
		}
	}
	fallBack()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	events, errs := src.Events(), src.Errors()

	var scanDue, firstDirty time.Time // a debounced read of the reports; zero: none
	busDirty := make([]bool, len(w.bus))
	dirty := func(now time.Time) {
		if firstDirty.IsZero() {
			firstDirty = now
		}
		due := now.Add(max(w.opts.Debounce, 0))
		if limit := firstDirty.Add(10 * max(w.opts.Debounce, 0)); due.After(limit) {
			due = limit
		}
		scanDue = due
	}
	note := func(ev fsnotify.Event) {
		switch act, i := w.classify(ev); act {
		case actSubdir:
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.forget(src, filepath.Join(w.dir, filepath.Base(ev.Name)))
			}
			w.watchDirs(src)
			dirty(time.Now())
		case actDir:
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.forget(src, filepath.Clean(w.dir))
			}
			if w.watchDirs(src) {
				dirty(time.Now()) // gone, back, or another directory: read it
			}
		case actBus:
			if fi, err := os.Lstat(ev.Name); err == nil && (!fi.Mode().IsRegular() || !w.allowed[parse.BusNames[i]]) {
				scanDue = time.Now() // new, or a symlink: the scan decides whether it is read
			}
			busDirty[i] = true
		case actFile:
			dirty(time.Now())
		}
	}

	for {
		next := w.deadline(scanDue)
		if !wake.Stop() {
			select {
			case <-wake.C:
			default:
			}
		}
		if !next.IsZero() {
			wake.Reset(max(time.Until(next), 0))
		}
		heartbeat, full := false, false
		select {
		case <-ctx.Done():
			return w.final(ctx, handle)
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			note(ev)
		drain:
			for {
				select {
				case ev, ok := <-events:
					if !ok {
						events = nil
						break drain
					}
					note(ev)
				default:
					break drain
				}
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			full = true
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.diag("", parse.LevelInfo, "filesystem event queue overflowed: read the whole directory again")
			} else {
				w.diag("", parse.LevelWarning, "filesystem events: "+err.Error())
			}
		case <-rescanC:
			full = true
		case <-pollC:
			full = true
		case <-fallbackC:
			full = true
		case <-heartbeatC:
			heartbeat = true
		case <-streamC:
			busDirty[0] = true
		case <-wake.C:
		}

		t := time.Now()
		due := !scanDue.IsZero() && !t.Before(scanDue)
		if next := w.deadline(time.Time{}); !next.IsZero() && !t.Before(next) {
			due = true // a kept parse expires, an agent stalls
		}
		changed := false
		if full || due {
			scanDue, firstDirty = time.Time{}, time.Time{}
			w.watchDirs(src) // a directory removed and made again is watched again
			if err := w.rescan(ctx); err != nil {
				if ctx.Err() != nil {
					return w.final(ctx, handle)
				}
				// Said once while it lasts: a directory removed under the
				// watch fails every scan until it is made again.
				if msg := err.Error(); msg != w.scanErr {
					w.diag("", parse.LevelError, msg)
					w.scanErr = msg
				}
				w.retryAt = t.Add(time.Second)
			} else {
				w.scanErr = ""
				if w.scanner.Changed() {
					changed = true
				}
			}
			for i := range busDirty {
				busDirty[i] = true // the scan may have changed which bus files count
			}
		}
		for i, d := range busDirty {
			if d {
				busDirty[i] = false
				if w.poll(w.bus[i]) {
					changed = true
				}
			}
		}
		fallBack()
		w.checkStalls(time.Now())
		if changed || heartbeat || len(w.diags) > 0 || len(w.stalls) > 0 {
			if err := w.emit(handle, heartbeat && !changed); err != nil {
				return w.stop(ctx, handle, err)
			}
		}
		if done, _ := w.complete(time.Now()); done {
			return w.final(ctx, handle)
		}
	}
}

// complete reports whether the run is complete (Options.UntilComplete), and
// when not, the time it will be unless something changes (zero: none).
func (w *Watcher) complete(now time.Time) (bool, time.Time) {
	s := w.last
	if !w.opts.UntilComplete || s == nil {
		return false, time.Time{}
	}
	if len(w.opts.Synth.Expect) > 0 {
		status := map[string]parse.Status{}
		for _, a := range s.Agents {
			if a.Status != parse.StatusForeign {
				status[a.Name] = a.Status
			}
		}
		for _, name := range w.opts.Synth.Expect {
			if st := status[name]; !st.Completed() && st != parse.StatusError {
				return false, time.Time{}
			}
		}
		return true, time.Time{}
	}
	if !Converged(s) {
		return false, time.Time{}
	}
	var last time.Time
	for _, st := range w.agents {
		if st.firstSeen.After(last) {
			last = st.firstSeen
		}
	}
	at := last.Add(w.opts.Settle)
	return !now.Before(at), at
}

// action is what an event asks for.
type action int

const (
	actIgnore action = iota // not an input: fluxwatch's own writes, temporary files, …
	actBus                  // a bus file: tail it
	actFile                 // a report, .partial, abort marker or YAML file: read it after the debounce
	actSubdir               // findings/ or design/ came or went: watch it, read it
	actDir                  // the directory itself went, came or was replaced: watch it again
)

// classify says what ev asks for; for actBus, i is the bus file's index in
// parse.BusNames.
func (w *Watcher) classify(ev fsnotify.Event) (act action, i int) {
	if w.self != "" && filepath.Clean(ev.Name) == w.self {
		return actDir, 0
	}
	rel, err := filepath.Rel(w.dir, ev.Name)
	if err == nil && rel == "." {
		return actDir, 0
	}
	if err != nil || strings.HasPrefix(rel, "..") {
		return actIgnore, 0
	}
	rel = filepath.ToSlash(rel)
	if rel == "findings" || rel == "design" {
		return actSubdir, 0
	}
	switch parse.ClassifyName(rel).Kind {
	case parse.KindBus:
		if w.opts.Bus != nil {
			return actIgnore, 0 // the run's bus is elsewhere
		}
		return actBus, slices.Index(parse.BusNames, rel)
	case parse.KindReport, parse.KindPartial, parse.KindAbort, parse.KindSpecialist, parse.KindDesign, parse.KindManifest:
		return actFile, 0
	}
	return actIgnore, 0
}

// stop ends Run after handle returned err.
func (w *Watcher) stop(ctx context.Context, handle func(*Update) error, err error) error {
	if errors.Is(err, ErrStop) {
		return w.final(ctx, handle)
	}
	return err
}

// ErrNotRead is the error of a Watcher stopped before its first Scan of the
// directory finished: it hands over no final update, so that no report of
// an unread run replaces one already written.
var ErrNotRead = errors.New("stopped before the directory was first read: no reports written")

// finalScanAfterSignal bounds the last rescan after a signal, and
// finalAfterSignal all the reading of the final update (the rescan, then
// the bus read again): main ends the process 750 ms after the signal.
const finalScanAfterSignal = 400 * time.Millisecond

const finalAfterSignal = 600 * time.Millisecond

// final reads the directory once more, with no last good parse kept, and
// hands over the final update.
func (w *Watcher) final(ctx context.Context, handle func(*Update) error) error {
	w.scanner.opts.KeepGood = 0
	sctx := context.WithoutCancel(ctx)
	if ctx.Err() != nil {
		w.finalBy = time.Now().Add(w.opts.finalBudget)
		// A signal: the final reports must be out within SPEC §7's second,
		// so a rescan still parsing a huge report gives way to the last one.
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(sctx, w.opts.finalScan)
		defer cancel()
	}
	if err := w.rescan(sctx); errors.Is(err, context.DeadlineExceeded) {
		w.diag("", parse.LevelWarning, "the last rescan was cut short by the signal: these reports are those of the scan before it")
	} else if err != nil {
		w.diag("", parse.LevelError, err.Error())
	}
	if w.scanned == nil {
		// No scan has finished (a signal during the first one of a large
		// run): a synthesis of nothing would replace good reports with an
		// empty one. Nothing is handed over, and nothing is written.
		return ErrNotRead
	}
	w.pollAll()
	w.refill()
	w.last = nil
	// Mostly the run is the one merged at the last update (its last report
	// completed, then it settled): the Live makes the final synthesis from
	// the merge it holds, as it makes each update, with the bus entries it
	// has read (those handed over included).
	s, ok := w.live.Final(w.run())
	if ok {
		u := w.update(s, false)
		u.Final = true
		return finalErr(handle(u))
	}
	// Otherwise the Live is not used again: it goes before the final
	// synthesis is made, not beside it (with it, the final synthesis of a
	// finished run of 1,000 agents held twice the live heap of synth's).
	w.live = synth.NewLive(w.opts.Synth)
	opts := w.opts.Synth
	opts.Watching = false
	if w.droppedAny() {
		// The entries handed over are not held: read the bus again, as
		// fluxwatch synth does.
		var err error
		if s, err = w.reread(ctx, w.run(), opts); errors.Is(err, ErrBusNotReread) {
			return err
		} else if err != nil {
			w.diag("", parse.LevelError, err.Error())
			s = synth.Synthesize(w.run(), opts) // what is held, at least
		}
	} else {
		s = synth.Synthesize(w.run(), opts)
	}
	u := w.update(s, false)
	u.Final = true
	return finalErr(handle(u))
}

// finalErr is the error of the final update's handler: ErrStop is none.
func finalErr(err error) error {
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// deadline is the earliest time something is due without an event: the
// debounced scan, a kept parse that expires, a stall (not before retryAt,
// after a scan failed).
func (w *Watcher) deadline(scanDue time.Time) time.Time {
	var next time.Time
	_, settled := w.complete(time.Now())
	for _, t := range []time.Time{w.scanner.Expiry(), w.stallDeadline(), settled} {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	if !next.IsZero() && next.Before(w.retryAt) {
		next = w.retryAt
	}
	if !scanDue.IsZero() && (next.IsZero() || scanDue.Before(next)) {
		next = scanDue
	}
	return next
}

// watchParent watches the directory holding dir, for the events of dir's
// own entry there: removed, renamed, made again. Without it (a parent that
// cannot be watched) a directory made again is found by the next scan.
func (w *Watcher) watchParent(src source) {
	abs, err := filepath.Abs(w.dir)
	if err != nil {
		return
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return // the root of the filesystem
	}
	if err := src.Add(parent); err != nil {
		return
	}
	w.self = abs
}

// watchDirs watches the directory and its findings/ and design/
// subdirectories that exist, and reports whether it changed what it
// watches. A directory is known by its identity, not its path: one made
// again at a watched path (an orchestrator recreates the run directory
// between runs) is watched again, with an info diagnostic.
func (w *Watcher) watchDirs(src source) bool {
	changed := false
	for _, sub := range []string{"", "findings", "design"} {
		path := filepath.Join(w.dir, sub)
		old := w.watched[path]
		fi, err := os.Stat(path)
		ok := err == nil && fi.IsDir() && (sub == "" || subdirInside(w.dir, sub))
		if old != nil && old.live && ok && os.SameFile(old.info, fi) {
			if old.unwatched && src.Add(path) == nil {
				old.unwatched = false // watches to spare again
			}
			continue
		}
		if old != nil && old.live {
			w.forget(src, path)
			changed = true
		}
		if !ok {
			continue
		}
		// Also when it cannot be watched (the user's inotify watches
		// are used up: ENOSPC; a stranger can use them up): said once,
		// and polled (see polling) until it can be.
		d := &watchedDir{info: fi, live: true}
		w.watched[path] = d
		if err := src.Add(path); err != nil {
			d.unwatched = true
			w.diag(sub, parse.LevelWarning, fmt.Sprintf("cannot watch the directory (%v): reading it every %v instead", err, DefaultPoll))
			continue
		}
		if old != nil {
			msg := "removed or replaced: watching the directory now at its path"
			if sub == "" {
				msg = "output directory " + msg
			}
			w.diag(sub, parse.LevelInfo, msg)
		}
		changed = true
	}
	if changed {
		w.scanErr = "" // a scan that fails now is news again
	}
	return changed
}

// polling reports whether a directory the watcher reads could not be
// watched: the directory must then be read on a timer (DefaultPoll), or
// a new report would be seen only at a rescan (never with --rescan 0).
func (w *Watcher) polling() bool {
	for _, d := range w.watched {
		if d.live && d.unwatched {
			return true
		}
	}
	return false
}

// forget stops watching the directory at path, which was removed or renamed
// (its inode may be reused at once by a new directory there, so its
// identity alone does not tell).
func (w *Watcher) forget(src source, path string) {
	if d := w.watched[path]; d != nil && d.live {
		src.Remove(path) // an error: the system dropped the watch itself
		d.live = false
	}
}

// rescan reads the directory again (files that did not change keep their
// parse) and notes the agents' clocks.
func (w *Watcher) rescan(ctx context.Context) error {
	run, err := w.scanner.Scan(ctx, w.dir)
	if err != nil {
		return err
	}
	w.scanned = run
	clear(w.allowed)
	if w.opts.Bus != nil {
		w.allowed[w.bus[0].name] = true // the directory's bus files are not read
	} else {
		for _, b := range run.Bus {
			w.allowed[b.Name] = true
		}
	}
	now := time.Now()
	seen := map[string]bool{}
	for _, a := range run.Agents {
		if a.Status == parse.StatusForeign {
			continue
		}
		seen[a.Name] = true
		st := w.agents[a.Name]
		if st == nil {
			st = &agentState{firstSeen: now, changed: now}
			w.agents[a.Name] = st
		}
		partial := a.Status == parse.StatusPartial
		if partial && (!a.ModTime.Equal(st.mod) || a.File != st.file || !st.partial) {
			// Idle since the file last changed: its modification time, not
			// when the watcher first saw it (a .partial an hour old at start
			// has been idle an hour), unless that time is in the future.
			st.changed, st.stalled = now, false
			if !a.ModTime.IsZero() && a.ModTime.Before(now) {
				st.changed = a.ModTime
			}
		}
		switch {
		case partial:
			st.done = time.Time{}
		case st.done.IsZero():
			st.done = now
		}
		st.file, st.mod, st.partial = a.File, a.ModTime, partial
	}
	for name := range w.agents {
		if !seen[name] {
			delete(w.agents, name)
		}
	}
	return nil
}

// pollAll reads what was appended to every bus file.
func (w *Watcher) pollAll() {
	for _, b := range w.bus {
		w.poll(b)
	}
}

// poll reads what was appended to b and reports whether anything changed.
// The entries are appended to b.entries in place: a Run made before holds
// a shorter slice of the same array and never sees them.
func (w *Watcher) poll(b *busState) bool {
	if !w.allowed[b.name] {
		// Not listed by the last scan (missing, or a symlink out of the
		// directory): not read.
		changed := b.present
		b.present = false
		return changed
	}
	restarts := b.tail.Restarts()
	if len(b.entries) == 0 && b.dropped == 0 {
		b.entries = make([]bus.Entry, 0, w.capacityFor(b))
	}
	n0 := len(b.entries)
	handed := false
	var decoded []parse.Diagnostic
	err := b.tail.Poll(func(e bus.Entry) error {
		b.entries = append(b.entries, e)
		// A long read (the first one of a large bus) hands its entries
		// over as it goes, so as not to hold them all at once.
		if len(b.entries) >= w.opts.handOver && !w.collect && b.tail.Restarts() == restarts && w.mayDrop() {
			b.present = true // being read (its time is set after the read)
			w.live.Update(w.run())
			w.drop()
			n0, handed = 0, true
		}
		return nil
	}, func(d parse.Diagnostic) {
		if d.Path != "" || w.opts.Bus == nil {
			d.Path = b.name // (a follower's own warnings name the URL)
		}
		if d.Line == 0 {
			w.diags = append(w.diags, d) // the tail's own: it read again from the start
			return
		}
		decoded = append(decoded, d)
	})
	restarted := b.tail.Restarts() != restarts
	if restarted {
		// Read again from the start: the entries before this poll are stale.
		b.entries, b.diags, b.dropped, n0 = slices.Clone(b.entries[n0:]), nil, 0, 0
		w.live.Rewind()
	}
	got := b.entries[n0:]
	changed := restarted || handed || len(got) > 0 || len(decoded) > 0
	if err != nil {
		w.diag(b.name, parse.LevelError, "read: "+err.Error())
	}
	if w.collect {
		seq := b.dropped + n0 // entries before the new ones, over the files in reading order
		for _, o := range w.bus {
			if o == b {
				break
			}
			if w.allowed[o.name] && o.present {
				seq += o.dropped + len(o.entries)
			}
		}
		for i, e := range got {
			w.appended = append(w.appended, BusEntry{File: b.name, Seq: seq + i + 1, Entry: e})
		}
	}
	b.diags = append(b.diags, decoded...)
	present, mod, err := w.presence(b)
	if present != b.present || present && !mod.Equal(b.mod) {
		changed = true
	}
	b.present = present
	if present {
		b.mod = mod
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		w.diag(b.name, parse.LevelError, err.Error())
	}
	return changed
}

// capacityFor is the capacity to give b's entries when they are read from
// the tail's offset: the lines there when there are many (over 1 MiB of
// them), counted, so that the entries are allocated once rather than grown
// and copied, plus a quarter more for the appends to come (growing a slice of
// a million entries copies them all: a pause on one append); else 0. When the
// entries are handed over as they are read, no more than a batch of them.
func (w *Watcher) capacityFor(b *busState) int {
	n := b.tail.LinesAhead(1 << 20)
	n += n / 4
	if w.mayDrop() {
		n = min(n, w.opts.handOver)
	}
	return n
}

// handOverBatch is the most entries a long read holds before handing them
// over to the synth.Live (Options.handOver).
const handOverBatch = 1 << 14

// mayDrop reports whether the entries handed over to the synth.Live may be
// dropped: when at most one bus file holds entries. The Live then never
// reads them again (it reads appended entries only, and rebases from its own
// memo); with entries in both bus files, appends to the first make it read
// the whole bus again.
func (w *Watcher) mayDrop() bool {
	n := 0
	for _, b := range w.bus {
		if b.dropped+len(b.entries) > 0 {
			n++
		}
	}
	return n <= 1
}

// drop drops the entries held, which the synth.Live has read (it was just
// updated; an update drops them once they are handOverBatch or more, a few
// MB, so that a small run keeps its entries and its updates append to one
// array): what the watcher keeps of the bus is then the Live's (bounded
// timeline lists, running totals, per match key data, a few bytes an entry),
// not every entry. It does nothing when the entries may not be dropped.
func (w *Watcher) drop() {
	if !w.mayDrop() {
		return
	}
	for _, b := range w.bus {
		if len(b.entries) > 0 {
			b.dropped += len(b.entries)
			b.entries = nil // a Run made before keeps the entries it holds
		}
	}
}

// refill reads again from the start every bus file whose entries were
// dropped, when they may no longer be (a second bus file holds entries):
// the Live will read the whole bus again. A bus file with dropped entries
// that is no longer listed is read from its start when it is again (the
// Live forgets a file that goes).
func (w *Watcher) refill() {
	multi := !w.mayDrop()
	reread := false
	collect := w.collect
	w.collect = false // entries reported before are not appended again
	for _, b := range w.bus {
		listed := w.allowed[b.name] && b.present
		if b.dropped == 0 || listed && !multi {
			continue
		}
		b.tail, b.entries, b.diags, b.dropped = bus.NewTail(b.path, w.opts.Scan.MaxLine), nil, nil, 0
		if listed {
			w.poll(b)
			reread = true
		}
	}
	w.collect = collect
	if reread {
		w.live.Rewind()
	}
}

// held returns the number of bus entries held.
func (w *Watcher) held() int {
	n := 0
	for _, b := range w.bus {
		n += len(b.entries)
	}
	return n
}

// dropped reports whether entries were dropped from any bus file.
func (w *Watcher) droppedAny() bool {
	for _, b := range w.bus {
		if b.dropped > 0 {
			return true
		}
	}
	return false
}

// run is the last scan with the bus as tailed.
func (w *Watcher) run() *synth.Run {
	if w.scanned == nil {
		return &synth.Run{Input: w.dir}
	}
	run := *w.scanned
	run.Bus = nil
	run.Agents = w.failStalled(run.Agents)
	for _, b := range w.bus {
		if !w.allowed[b.name] || !b.present {
			continue
		}
		diags := b.diags
		if d, ok := b.tail.Incomplete(); ok {
			d.Path = b.name
			diags = append(slices.Clip(diags), d)
		}
		run.Bus = append(run.Bus, synth.BusFile{Name: b.name, Entries: b.entries, Dropped: b.dropped, Diagnostics: diags})
		if b.mod.After(run.Newest) {
			run.Newest = b.mod
		}
	}
	return &run
}

// emit synthesises and calls handle with what happened since the last
// update.
func (w *Watcher) emit(handle func(*Update) error, heartbeat bool) error {
	if !heartbeat || w.last == nil {
		w.refill()
		w.live.Update(w.run())
		w.last = w.live.Synthesis()
		if w.held() >= w.opts.handOver {
			w.drop()
		}
	}
	return handle(w.update(w.last, heartbeat))
}

func (w *Watcher) update(s *synth.Synthesis, heartbeat bool) *Update {
	u := &Update{
		Time:        time.Now(),
		Synthesis:   s,
		Appended:    w.appended,
		Diagnostics: w.diags,
		Stalled:     w.stalls,
		Agents:      make(map[string]AgentTimes, len(w.agents)),
		Started:     w.started,
		Heartbeat:   heartbeat,
	}
	for name, st := range w.agents {
		u.Agents[name] = AgentTimes{FirstSeen: st.firstSeen, Done: st.done, Stalled: st.stalled}
	}
	w.appended, w.diags, w.stalls = nil, nil, nil
	return u
}

func (w *Watcher) diag(path string, level parse.Level, msg string) {
	w.diags = append(w.diags, parse.Diagnostic{Path: path, Level: level, Message: msg})
}

// stallDeadline is when the next running agent stalls if its .partial does
// not change (zero: none can).
func (w *Watcher) stallDeadline() time.Time {
	if w.opts.StallTimeout <= 0 {
		return time.Time{}
	}
	var next time.Time
	for _, st := range w.agents {
		if !st.partial || st.stalled {
			continue
		}
		if t := st.changed.Add(w.opts.StallTimeout); next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next
}

// failStalled returns agents with each stalled one (its .partial has not
// grown for the stall timeout) failed, under UntilComplete: a run whose
// agent hangs must still end (SPEC §10), with that agent counted among the
// failed, its reason an error diagnostic. agents is not changed: a copy is
// made when one is stalled. Without UntilComplete a stalled agent stays
// partial (a stalled event says so): it may yet finish.
func (w *Watcher) failStalled(agents []synth.Agent) []synth.Agent {
	if !w.opts.UntilComplete || w.opts.StallTimeout <= 0 {
		return agents
	}
	copied := false
	for i, a := range agents {
		st := w.agents[a.Name]
		if a.Status != parse.StatusPartial || st == nil || !st.stalled || st.file != a.File {
			continue
		}
		if !copied {
			agents, copied = slices.Clone(agents), true
		}
		a.Status = parse.StatusError
		a.Diagnostics = append(slices.Clip(a.Diagnostics), parse.Diagnostic{Level: parse.LevelError,
			Message: fmt.Sprintf("stalled: its .partial has not grown for %v (--stall-timeout): counted as failed", w.opts.StallTimeout)})
		agents[i] = a
	}
	return agents
}

// checkStalls marks the running agents whose .partial has not changed for
// the stall timeout.
func (w *Watcher) checkStalls(now time.Time) {
	if w.opts.StallTimeout <= 0 {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(w.agents)) {
		st := w.agents[name]
		if !st.partial || st.stalled || now.Sub(st.changed) < w.opts.StallTimeout {
			continue
		}
		st.stalled = true
		w.stalls = append(w.stalls, Stall{Agent: name, File: st.file, Idle: now.Sub(st.changed)})
	}
}
