package bus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Severity filters of Filter.
const (
	All = "all"
)

// Filter selects entries: by severity (Blocking or Notable: the
// findings of that severity; "" or All: every entry, events and unknown
// severities included) and by agent ("" for any).
type Filter struct {
	Severity string
	Agent    string
}

// only is the severity the filter keeps, for Decoder.Only: the
// lines certainly of the other one need not be decoded.
func (f Filter) only() string {
	switch f.Severity {
	case Blocking, Notable:
		return f.Severity
	}
	return ""
}

// Match reports whether e passes the filter.
func (f Filter) Match(e Entry) bool {
	if f.Agent != "" && e.Agent != f.Agent {
		return false
	}
	switch f.Severity {
	case "", All:
		return true
	}
	return e.Kind == EntryFinding && e.Severity == f.Severity
}

// tail returns a Tail of the bus file at path started at since, decoding
// only the lines f may keep.
func (f Filter) tail(path string, maxLine int, since int64) (*Tail, error) {
	t := NewTail(path, maxLine)
	t.Only(f.only())
	if err := t.StartAt(since); err != nil {
		return nil, err
	}
	return t, nil
}

// pass returns entry for the records f matches: the others are skipped.
func (f Filter) pass(entry func(Entry) error) func(Entry) error {
	return func(e Entry) error {
		if !f.Match(e) {
			return nil
		}
		return entry(e)
	}
}

// Tail reads one bus file incrementally: each Poll decodes only the bytes
// appended since the previous one. Not safe for concurrent use.
type Tail struct {
	path    string
	maxLine int
	dec     *Decoder
	pos     int64       // the next byte to read
	file    fs.FileInfo // the file at the last poll (nil: it did not exist), for os.SameFile
	// skipLine: lines up to this one began before the offset given to StartAt; what
	// they hold is left out.
	skipLine int
	buf      []byte
	only     string // see Only
	err      error  // the first error of the entry callback
	restarts int    // times Poll went back to the start of the file
	// end holds the last bytes (at most 64) before the decoder's offset as
	// the last Poll read them, endN how many: the next Poll reads them again
	// to tell a file rewritten in place (or removed and made again under
	// the same inode number) that has grown past the offset meanwhile.
	end  [64]byte
	endN int
}

// NewTail returns a Tail at the start of the bus at path. maxLine <= 0 means
// DefaultMaxLine.
func NewTail(path string, maxLine int) *Tail {
	t := &Tail{path: path, maxLine: maxLine}
	t.reset()
	return t
}

// Only makes the tail skip, undecoded, the lines that are certainly findings
// of a severity other than severity (Blocking or Notable;
// anything else decodes every line): see Decoder.Only. Poll may still hand over
// entries of other severities and events: the caller filters them.
func (t *Tail) Only(severity string) {
	t.only = severity
	t.dec.Only(severity)
}

// Restarts returns how many times Poll went back to the start of the file
// because it shrank, was replaced, rewritten or removed. A caller that keeps
// the entries compares it before and after a Poll: when it grew, the entries
// kept are stale and the Poll's entries start again from the first line.
func (t *Tail) Restarts() int { return t.restarts }

// Held returns the number of bytes read after the last complete line: a
// record still being written.
func (t *Tail) Held() int64 { return t.dec.Held() }

// Incomplete returns the info diagnostic about the bytes held after the last
// complete line (a record still being written), with Path set; ok is false
// when none are held.
func (t *Tail) Incomplete() (d parse.Diagnostic, ok bool) {
	d, ok = t.dec.Incomplete()
	d.Path = t.path
	return d, ok
}

// LinesAhead counts the lines of the file after the tail's offset when more
// than over bytes are there, so that a caller can size the slice it keeps
// the entries in once; else, or when the bus cannot be read, it returns 0.
func (t *Tail) LinesAhead(over int64) int {
	f, fi, err := Open(t.path)
	if err != nil {
		return 0
	}
	defer f.Close()
	off := t.dec.Offset()
	if fi.Size()-off <= over {
		return 0
	}
	buf := make([]byte, 256<<10)
	n := 0
	for off < fi.Size() {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), fi.Size()-off)], off)
		n += bytes.Count(buf[:k], []byte{'\n'})
		off += int64(k)
		if err != nil {
			break
		}
	}
	return n
}

// Path returns the path of the bus file.
func (t *Tail) Path() string { return t.path }

// Offset returns the offset just past the last complete line read, and the
// number of lines before it.
func (t *Tail) Offset() (offset int64, line int) { return t.dec.Offset(), t.dec.Line() }

// StartAt positions the tail at the first line that starts at or after byte
// offset since, counting the lines before it so that line numbers stay those
// of the file. A since past the end of the file positions it at the end.
func (t *Tail) StartAt(since int64) error {
	t.reset()
	if since <= 0 {
		return nil
	}
	f, _, err := Open(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	var off int64
	lines := 0
	lastNL := int64(-1) // offset of the last newline before since
	for off < since {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), since-off)], off)
		chunk := buf[:n]
		lines += bytes.Count(chunk, []byte{'\n'})
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			lastNL = off + int64(i)
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err // a *fs.PathError: it names the file
		}
	}
	// Start at the line holding since (or at since, a line start); when since
	// is inside that line, it began before since and is left out. A since
	// past the end of a file that ends with a whole line is the end: the
	// next line appended is the first read.
	t.pos = lastNL + 1
	t.dec.Resume(t.pos, lines)
	if t.pos < since && t.pos != off {
		t.skipLine = lines + 1
	}
	return nil
}

func (t *Tail) reset() {
	t.dec = NewDecoder(t.maxLine)
	t.dec.Only(t.only)
	t.pos, t.skipLine, t.file, t.endN = 0, 0, nil, 0
}

// Poll reads what was appended to the bus since the last Poll (or StartAt) and
// calls entry for each complete record, in file order, and diag for each
// diagnostic (with Path set). A missing file is an empty bus. A file that
// shrank, was replaced (another inode) or rewritten under the tail is read
// again from the start, after a warning. Poll stops at the first error that
// entry returns and returns it, and calls neither entry nor diag after it
// (the Tail is then past entries it did not hand over: start a new one to go
// on); other errors are the filesystem's.
func (t *Tail) Poll(entry func(Entry) error, diag func(parse.Diagnostic)) error {
	t.err = nil
	restart := func() {
		t.reset()
		t.restarts++
	}
	report := func(dg parse.Diagnostic) {
		if t.err != nil || dg.Line > 0 && dg.Line <= t.skipLine {
			return
		}
		if dg.Path == "" {
			dg.Path = t.path
		}
		if diag != nil {
			diag(dg)
		}
	}
	f, fi, err := Open(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		if t.file != nil {
			report(parse.Diagnostic{Level: parse.LevelWarning, Message: "bus removed: reading again from the start when it comes back"})
			restart()
		}
		return nil
	}
	if err != nil {
		return err // a *fs.PathError naming the file; fsio.ErrNotRegular for a FIFO and the like
	}
	defer f.Close()
	size := fi.Size()
	switch {
	case t.file != nil && !os.SameFile(t.file, fi):
		report(parse.Diagnostic{Level: parse.LevelWarning, Message: "bus replaced (new inode): reading again from the start"})
		restart()
	case size < t.pos:
		report(parse.Diagnostic{Level: parse.LevelWarning,
			Message: fmt.Sprintf("bus shrank from %d to %d bytes: reading again from the start", t.pos, size)})
		restart()
	case t.dec.Offset() > 0 && !t.sameEnd(f):
		report(parse.Diagnostic{Level: parse.LevelWarning, Message: "bus rewritten: reading again from the start"})
		restart()
	}
	t.file = fi

	if t.buf == nil {
		t.buf = make([]byte, 1<<20)
	}
	emit := func(e Entry) {
		if t.err != nil || e.Line <= t.skipLine {
			return
		}
		t.err = entry(e)
	}
	for t.pos < size && t.err == nil {
		n, err := f.ReadAt(t.buf[:min(int64(len(t.buf)), size-t.pos)], t.pos)
		t.dec.Feed(t.buf[:n], emit, report)
		t.pos += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err // a *fs.PathError: it names the file
		}
	}
	off := t.dec.Offset()
	n := int(min(off, int64(len(t.end))))
	t.endN, _ = f.ReadAt(t.end[:n], off-int64(n))
	return t.err
}

// sameEnd reports whether f still holds, just before the decoder's offset,
// the bytes the last Poll saw there (a newline at least, when it saw none:
// after StartAt).
func (t *Tail) sameEnd(f *os.File) bool {
	off := t.dec.Offset()
	var b [64]byte
	n := t.endN
	if n == 0 {
		n = 1 // not read yet: the line end before the offset
	}
	if int64(n) > off {
		return false
	}
	got, _ := f.ReadAt(b[:n], off-int64(n))
	if t.endN == 0 {
		return got == 1 && b[0] == '\n'
	}
	return got == n && bytes.Equal(b[:n], t.end[:n])
}

// Read reads a snapshot of the bus at path: the complete lines present when
// it is called, from the first line that starts at or after byte offset since.
// It calls entry for each record in file order and diag for each diagnostic;
// a missing bus is empty. It returns the offset just past the last complete
// line read (where a later Read or Follow goes on), and the first error of
// entry or of the filesystem.
func Read(path string, maxLine int, since int64, entry func(Entry) error, diag func(parse.Diagnostic)) (next int64, err error) {
	return ReadMatching(path, maxLine, since, Filter{}, entry, diag)
}

// ReadMatching is Read for the records that f matches. With a severity in f,
// the lines that are certainly findings of the other severity are not
// decoded (Tail.Only), and give no diagnostics. After an error of entry
// nothing more is called.
func ReadMatching(path string, maxLine int, since int64, f Filter, entry func(Entry) error, diag func(parse.Diagnostic)) (next int64, err error) {
	t, err := f.tail(path, maxLine, since)
	if err != nil {
		return 0, err
	}
	err = t.Poll(f.pass(entry), diag)
	next, _ = t.Offset()
	return next, err
}

// ReadMatchingAhead is ReadMatching with the reading and decoding in a
// goroutine of its own, a batch of records ahead of the caller: entry and
// diag are still called in file order, on the caller's goroutine, while the
// next lines decode. It is for a caller whose entry does real work (finding
// read encodes and prints each record): on two cores the two halves run
// side by side. An error of entry ends the reading, as in ReadMatching, and
// nothing is called after it; next is then where the reading stopped, which
// may be past that record (ReadMatching's too is past it).
func ReadMatchingAhead(path string, maxLine int, since int64, f Filter, entry func(Entry) error, diag func(parse.Diagnostic)) (next int64, err error) {
	type item struct {
		e    Entry
		d    parse.Diagnostic
		diag bool
	}
	const batchLen = 256
	batches := make(chan []item, 4)
	stop := make(chan struct{})
	var readErr error
	go func() {
		defer close(batches)
		batch := make([]item, 0, batchLen)
		send := func() bool { // false: the caller stopped, the batch is dropped
			select {
			case batches <- batch:
				batch = make([]item, 0, batchLen)
				return true
			case <-stop:
				batch = batch[:0]
				return false
			}
		}
		next, readErr = ReadMatching(path, maxLine, since, f, func(e Entry) error {
			batch = append(batch, item{e: e})
			if len(batch) >= batchLen && !send() {
				return errStopped
			}
			return nil
		}, func(d parse.Diagnostic) {
			batch = append(batch, item{d: d, diag: true})
			if len(batch) >= batchLen {
				send()
			}
		})
		if len(batch) > 0 {
			send() // what came before an error of the file too
		}
	}()
	for b := range batches {
		for _, it := range b {
			switch {
			case err != nil:
				// Draining: the reader stops at its next batch.
			case it.diag:
				if diag != nil {
					diag(it.d)
				}
			default:
				if err = entry(it.e); err != nil {
					close(stop)
				}
			}
		}
	}
	if err != nil {
		return next, err
	}
	return next, readErr
}

// errStopped ends a ReadMatchingAhead reader whose caller stopped.
var errStopped = errors.New("the caller stopped reading")

// Open opens the bus at path for reading without blocking (fsio.Open), for
// a caller that decodes it with a Decoder of its own. A path that is not a
// regular file is refused with an error wrapping fsio.ErrNotRegular that
// names it and what it is, also when the open itself failed on it (ENXIO
// for a socket); a missing bus is an error wrapping fs.ErrNotExist.
func Open(path string) (*os.File, fs.FileInfo, error) {
	return fsio.Open(path)
}

// ReadFile reads the whole bus at path at once: its entries in file order
// and its diagnostics (with Path left empty), bytes after the last newline
// included as an info diagnostic. It refuses a path that is not a regular
// file (fsio.ErrNotRegular) without blocking on it; a missing bus is an
// error wrapping fs.ErrNotExist.
func ReadFile(path string, maxLine int) ([]Entry, []parse.Diagnostic, error) {
	f, _, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	entries, diags, err := DecodeAll(f, maxLine)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	return entries, diags, nil
}

// BatchSize is the number of entries DecodeBatches hands over at once.
const BatchSize = 4096

// DecodeBatches decodes the bus in r to its end in a goroutine of its own
// and calls add, in the caller's goroutine, with the entries in file order,
// in batches of up to BatchSize that add must not keep (their arrays are
// reused): decoding overlaps what add does, and memory does not grow with
// the bus. It returns the diagnostics (Path left empty), an incomplete last
// record included, and the error of r.
func DecodeBatches(r io.Reader, maxLine int, add func([]Entry)) ([]parse.Diagnostic, error) {
	// Three batch arrays go round: one being filled, one being read, one
	// waiting in between.
	full := make(chan []Entry, 1)
	free := make(chan []Entry, 3)
	for range 3 {
		free <- make([]Entry, 0, BatchSize)
	}
	var diags []parse.Diagnostic
	var err error
	go func() {
		defer close(full)
		d := NewDecoder(maxLine)
		batch := <-free
		err = d.Decode(r, func(e Entry) {
			batch = append(batch, e)
			if len(batch) == BatchSize {
				full <- batch
				batch = <-free
			}
		}, func(dg parse.Diagnostic) { diags = append(diags, dg) })
		if len(batch) > 0 {
			full <- batch
		}
		if dg, ok := d.Incomplete(); ok && err == nil {
			diags = append(diags, dg)
		}
	}()
	for batch := range full {
		add(batch)
		free <- batch[:0]
	}
	return diags, err
}

// DefaultInterval is how often Follow polls when no filesystem event wakes it.
const DefaultInterval = time.Second

// Follow polls every tail (in order) at once, then again after each
// filesystem event in a bus's directory and at least every interval (<= 0
// means DefaultInterval), until ctx is done. Where inotify is unavailable it
// polls only. It returns nil when ctx is done, or the first error of entry or
// of a Poll.
func Follow(ctx context.Context, tails []*Tail, interval time.Duration, entry func(Entry) error, diag func(parse.Diagnostic)) error {
	return follow(ctx, tails, interval, true, entry, diag)
}

// follow is Follow; without notify it only polls, as where inotify is
// unavailable (the tests check that fallback alone).
func follow(ctx context.Context, tails []*Tail, interval time.Duration, notify bool, entry func(Entry) error, diag func(parse.Diagnostic)) error {
	if interval <= 0 {
		interval = DefaultInterval
	}
	var events <-chan fsnotify.Event
	var errs <-chan error
	if notify {
		if w, err := fsnotify.NewWatcher(); err == nil {
			defer w.Close()
			for _, t := range tails {
				// Best effort: a directory that cannot be watched is polled.
				_ = w.Add(filepath.Dir(t.path))
			}
			events, errs = w.Events, w.Errors
		}
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		for _, t := range tails {
			if err := t.Poll(entry, diag); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-events:
		case <-errs: // an overflow or the like: the poll below catches up
		case <-tick.C:
		}
	}
}
