package finding

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// ReadOptions say what finding read prints and how.
type ReadOptions struct {
	Filter bus.Filter
	// Since skips the lines before this byte offset of one bus file (a
	// stream sequence for a URL bus).
	Since int64
	// Follow prints entries as they are appended, one JSON object a line,
	// until ctx ends; Interval is the longest wait between two polls.
	Follow   bool
	Interval time.Duration
	// Offsets adds "offset" and "line" to each entry.
	Offsets bool
	MaxLine int
	// Diag is told the bus's diagnostics (nil: none); Skipped the bus
	// files of a run directory that are not read (a FIFO, a symbolic link
	// out), each named.
	Diag    func(parse.Diagnostic)
	Skipped func(error)
}

// Read prints t's bus on out: a JSON array of canonical entries ([] when
// there is none), or with Follow one entry a line as they arrive. A run
// directory's bus files are watcher.BusPaths's; when it has none yet,
// the file a writer would create (watcher.BusToWrite), read as empty.
func Read(ctx context.Context, t Target, o ReadOptions, out io.Writer) error {
	switch o.Filter.Severity {
	case bus.Blocking, bus.Notable, bus.All:
	default:
		return inputErrorf("--severity %q: want blocking, notable or all", o.Filter.Severity)
	}
	if o.Since < 0 {
		return inputErrorf("--since %d: want an offset >= 0", o.Since)
	}
	if o.Diag == nil {
		o.Diag = func(parse.Diagnostic) {}
	}
	p := &printer{w: bufio.NewWriterSize(out, 64<<10), offsets: o.Offsets, ctx: ctx}
	diag := func(d parse.Diagnostic) {
		p.w.Flush()
		o.Diag(d)
	}
	if t.Open != nil {
		return readRemote(ctx, t, o, p, diag)
	}
	paths, err := t.paths(o)
	if err != nil {
		return err
	}
	if o.Follow {
		tails := make([]*bus.Tail, len(paths))
		for i, path := range paths {
			tails[i] = bus.NewTail(path, o.MaxLine)
			tails[i].Only(o.Filter.Severity)
			if err := tails[i].StartAt(o.Since); err != nil {
				return readError(err)
			}
		}
		err := bus.Follow(ctx, tails, o.Interval, func(ent bus.Entry) error {
			if !o.Filter.Match(ent) {
				return nil
			}
			return p.line(ent)
		}, diag)
		if err != nil {
			return readError(err)
		}
		return p.w.Flush()
	}
	for _, path := range paths {
		if _, err := bus.ReadMatchingAhead(path, o.MaxLine, o.Since, o.Filter, p.element, diag); err != nil {
			return readError(err)
		}
	}
	return p.end()
}

// paths returns the bus files to read: the file named, or the bus files of
// the run directory. Following a directory, every bus name of it is
// tailed (the bus may yet appear under either) but those skipped.
func (t Target) paths(o ReadOptions) ([]string, error) {
	if t.Path != "" {
		return []string{t.Path}, nil
	}
	fi, err := os.Stat(t.Dir)
	if err != nil {
		return nil, inputErrorf("output directory: %v", err)
	}
	if !fi.IsDir() {
		return nil, inputErrorf("%s is not a directory", t.Dir)
	}
	found, skipped, err := watcher.BusPaths(t.Dir)
	switch {
	case err != nil:
		return nil, &InputError{err}
	case len(found) == 0 && len(skipped) > 0:
		return nil, &InputError{skipped[0]}
	case len(found) == 0:
		found = []string{watcher.BusToWrite(t.Dir)}
	}
	for _, err := range skipped {
		if o.Skipped != nil {
			o.Skipped(err)
		}
	}
	if o.Since > 0 && len(found) > 1 {
		return nil, inputErrorf("--since is an offset in one file, and %s holds two buses: name one with --bus", t.Dir)
	}
	if o.Follow {
		found = nil
		for _, name := range parse.BusNames {
			path := filepath.Join(t.Dir, name)
			if !slices.ContainsFunc(skipped, func(err error) bool { return names(err, path) }) {
				found = append(found, path)
			}
		}
	}
	return found, nil
}

// names reports whether err, one of watcher.BusPaths's skipped, names path.
func names(err error, path string) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return true
	}
	msg := err.Error()
	return len(msg) > len(path) && msg[:len(path)+1] == path+":"
}

// readRemote is Read of a URL bus: --since and "offset" are stream
// sequences.
func readRemote(ctx context.Context, t Target, o ReadOptions, p *printer, diag func(parse.Diagnostic)) error {
	bk, err := t.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	if o.Follow {
		if err := bk.Follow(ctx, o.Since, o.Filter, p.line, diag); err != nil {
			return unavailable(err)
		}
		return p.w.Flush()
	}
	if _, err := bk.Read(ctx, o.Since, o.Filter, p.element, diag); err != nil {
		return unavailable(err)
	}
	return p.end()
}

// readError maps an error of reading a bus file: one that cannot be read
// (a directory, no permission) is an input error; others are the system's.
func readError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &InputError{err}
	}
	return err
}

// printer writes entries: followed ones a line each, flushed at once; read
// ones as the elements of one JSON array (n of them so far).
type printer struct {
	w       *bufio.Writer
	ctx     context.Context
	offsets bool
	buf     []byte
	n       int
}

// encode is ent's canonical line without its newline (with "offset" and
// "line" when asked), its control characters escaped.
func (p *printer) encode(ent bus.Entry) []byte {
	buf := bus.AppendLine(p.buf[:0], ent)
	buf = buf[:len(buf)-1] // the newline
	if p.offsets {
		buf = append(buf[:len(buf)-1], `,"offset":`...)
		buf = strconv.AppendInt(buf, ent.Offset, 10)
		buf = append(buf, `,"line":`...)
		buf = strconv.AppendInt(buf, int64(ent.Line), 10)
		buf = append(buf, '}')
	}
	p.buf = inert.EscapeJSON(buf)
	return p.buf
}

func (p *printer) line(ent bus.Entry) error {
	p.w.Write(p.encode(ent))
	p.w.WriteByte('\n')
	return p.w.Flush()
}

func (p *printer) element(ent bus.Entry) error {
	if err := p.ctx.Err(); err != nil {
		// A signal: stop between two records, and print what is buffered,
		// so that the output ends at a record's end.
		p.w.Flush()
		return err
	}
	if p.n == 0 {
		p.w.WriteString("[\n")
	} else {
		p.w.WriteString(",\n")
	}
	p.n++
	_, err := p.w.Write(p.encode(ent))
	return err
}

// end ends the JSON array.
func (p *printer) end() error {
	if p.n == 0 {
		p.w.WriteString("[]\n")
	} else {
		p.w.WriteString("\n]\n")
	}
	return p.w.Flush()
}
