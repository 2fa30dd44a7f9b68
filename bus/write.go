package bus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
)

// ErrInvalid is wrapped by the errors of Validate (and so of Append) for a
// record that must not be written.
var ErrInvalid = errors.New("invalid record")

// WriteOptions tune Append.
type WriteOptions struct {
	// MaxLine caps the size of the encoded line, newline excluded; <= 0 means
	// DefaultMaxLine, the longest line readers accept by default.
	MaxLine int
	// NoSync skips the fdatasync that makes an appended record durable
	// before Append returns (SPEC §3: acknowledged means durable). For
	// throwaway runs and tests only.
	NoSync bool
}

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
}

// Validate checks that e may be written to the bus: a finding (not an event),
// severity blocking or notable, a valid agent name (parse.ValidName), a
// non-empty summary, an RFC 3339 timestamp when one is given, a priority
// P0–P3 when one is given, and file refs that are non-empty single lines.
// Its errors wrap ErrInvalid.
func Validate(e Entry) error {
	if e.Kind != EntryFinding {
		return invalid("kind %q cannot be written; only findings can", e.Kind)
	}
	if e.Severity != Blocking && e.Severity != Notable {
		return invalid("severity %q: want blocking or notable", e.Severity)
	}
	if err := parse.ValidName(e.Agent); err != nil {
		return invalid("agent %q: %v", e.Agent, err)
	}
	if strings.TrimSpace(e.Summary) == "" {
		return invalid("summary is empty")
	}
	if e.Timestamp != "" {
		if _, err := time.Parse(time.RFC3339, e.Timestamp); err != nil {
			return invalid("timestamp %q is not RFC 3339 (like 2026-11-20T10:00:00Z)", e.Timestamp)
		}
	}
	if e.Priority != "" && e.Priority.Rank() > 3 {
		return invalid("priority %q: want P0, P1, P2 or P3", e.Priority)
	}
	for _, r := range e.FileRefs {
		if strings.TrimSpace(r) == "" {
			return invalid("a file ref is empty")
		}
		if strings.ContainsAny(r, "\n\r\x00") {
			return invalid("file ref %q holds a line break or NUL", r)
		}
	}
	return nil
}

// Encode returns the canonical line of e (SPEC §3), newline included.
func Encode(e Entry) []byte { return AppendLine(nil, e) }

// Append validates e and appends its canonical line to the bus at path,
// creating the file when it does not exist (its directory must). It returns
// the offset of the line's first byte. When it returns nil the record is
// durable (fdatasync, unless opt.NoSync) and every reader will read it once.
//
// Under an exclusive lock on path+".lock" (fsio.Lock: the lock file and lock
// the shell helper takes with flock -x), it looks at the last byte of the
// bus: a writer killed mid-line leaves a fragment with no newline, which
// Append ends with "\n" in the same write(2) as its own line, so that the
// fragment becomes one invalid line for readers and never swallows the
// record (SPEC §3). The bus is never truncated: readers hold offsets. So
// that a full disk cannot make such a fragment itself, the room for the
// line is reserved before it is written (reserve: fallocate on Linux): an
// append that runs out of space fails with ENOSPC and adds nothing.
//
// A path that is not a regular file (a FIFO, socket, device or directory) is
// refused at once with an error wrapping fsio.ErrNotRegular; nothing blocks
// on it. Errors of validation wrap ErrInvalid; errors of opening or locking
// are *fs.PathError naming the file; others are of writing or syncing.
func Append(path string, e Entry, opt WriteOptions) (offset int64, err error) {
	return AppendContext(context.Background(), path, e, opt)
}

// AppendContext is Append for a caller that can be interrupted: when ctx
// has ended by the time the lock is held (a signal while another writer
// held it), nothing is written and the error is ctx's. A record is thus
// written only when its writer can still acknowledge it: a writer that
// exits on the signal never leaves behind a record its caller, seeing the
// failure, would write again.
func AppendContext(ctx context.Context, path string, e Entry, opt WriteOptions) (offset int64, err error) {
	if err := Validate(e); err != nil {
		return 0, err
	}
	line := Encode(e)
	maxLine := opt.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	if n := len(line) - 1; n > maxLine {
		return 0, invalid("record is %d bytes, over the %d-byte limit of a bus line (--max-line)", n, maxLine)
	}
	if err := checkTarget(path); err != nil {
		return 0, err
	}

	unlock, err := fsio.Lock(path + ".lock")
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		unlock()
		return 0, err
	}
	f, offset, err := appendLocked(path, line)
	unlock()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	// The sync comes after the lock is released: the data is already in
	// place, and other writers need not wait for this one's disk.
	if !opt.NoSync {
		if err := datasync(f); err != nil {
			return 0, fmt.Errorf("sync %s: %w", path, err)
		}
		if offset == 0 {
			// This write may have created the file: make its name durable too.
			if err := syncDir(filepath.Dir(path)); err != nil {
				return 0, fmt.Errorf("sync %s: %w", filepath.Dir(path), err)
			}
		}
	}
	return offset, f.Close()
}

// checkTarget refuses a bus path that exists and is not a regular file, and
// one whose directory is missing, before anything is opened or locked.
func checkTarget(path string) error {
	info, err := os.Stat(path)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return fsio.NotRegular(path, info.Mode())
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	_, err = fsio.StatDir(filepath.Dir(path))
	if pe, ok := err.(*fs.PathError); ok && errors.Is(err, fs.ErrNotExist) {
		return &fs.PathError{Op: "open", Path: path, Err: pe.Err} // its directory is missing
	}
	return err
}

// appendLocked appends line to the bus, ending a dangling fragment first. It
// runs under the lock and returns the open file (for the sync) and the
// offset of the line.
func appendLocked(path string, line []byte) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|appendFlags, 0o666)
	if err != nil {
		return nil, 0, fsio.RefineOpenError(path, os.Stat, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !info.Mode().IsRegular() { // replaced since checkTarget
		f.Close()
		return nil, 0, fsio.NotRegular(path, info.Mode())
	}
	size := info.Size()
	offset := size
	if offset > 0 {
		dangling, err := endsDangling(path, offset)
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		if dangling {
			// One write: the newline that ends the fragment, then the line.
			line = append([]byte{'\n'}, line...)
			offset++
		}
	}
	// Room first: a full disk fails the append here, before a byte is
	// written, rather than half way through the line.
	if err := reserve(f, size, len(line)); err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("write %s: %w", path, err)
	}
	if err := writeOnce(f, line); err != nil {
		f.Close()
		// A short write (where no room could be reserved) leaves a
		// fragment: the next writer ends it.
		return nil, 0, fmt.Errorf("write %s: %w", path, err)
	}
	return f, offset, nil
}

// endsDangling reports whether the bus of the given size does not end in a
// newline: a writer died mid-line.
func endsDangling(path string, size int64) (bool, error) {
	r, _, err := fsio.Open(path)
	if err != nil {
		return false, err
	}
	defer r.Close()
	var b [1]byte
	if _, err := r.ReadAt(b[:], size-1); err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	return b[0] != '\n', nil
}

// syncDir makes the entries of the directory at path durable.
func syncDir(path string) error {
	d, err := os.Open(path)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !ignorableDirSyncError(err) {
		return err
	}
	return nil
}
