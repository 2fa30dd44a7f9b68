package bus

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"

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
	// Sync makes Append fsync the bus before it releases the lock.
	Sync bool
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
// the offset of the line's first byte.
//
// It holds an exclusive flock on path+".lock" for the write, which is one
// write(2) of the whole line on an O_APPEND descriptor; should the kernel
// write less (a full disk), the partial line is cut off again before the lock
// is released, so readers never see a torn record. Errors of validation wrap
// ErrInvalid; the others are the filesystem's.
func Append(path string, e Entry, opt WriteOptions) (offset int64, err error) {
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

	unlock, err := lock(path + ".lock")
	if err != nil {
		return 0, err
	}
	defer unlock()

	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	offset = fi.Size()
	if err := writeOnce(f, line); err != nil {
		if terr := f.Truncate(offset); terr != nil {
			return 0, fmt.Errorf("write %s: %w (and the partial line could not be removed: %v)", path, err, terr)
		}
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	if opt.Sync {
		if err := f.Sync(); err != nil {
			return 0, fmt.Errorf("sync %s: %w", path, err)
		}
	}
	return offset, f.Close()
}

// writeOnce writes b with a single write(2), retried only when the call was
// interrupted before writing anything.
func writeOnce(f *os.File, b []byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var n int
	var werr error
	if err := rc.Write(func(fd uintptr) bool {
		for {
			n, werr = unix.Write(int(fd), b)
			if werr != unix.EINTR {
				return true
			}
		}
	}); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if n != len(b) {
		return fmt.Errorf("short write: %d of %d bytes", n, len(b))
	}
	return nil
}

// lock takes an exclusive flock on the file at path, creating it, and returns
// the function that releases it.
func lock(path string) (unlock func(), err error) {
	lf, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	rc, err := lf.SyscallConn()
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("lock: %w", err)
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = unix.Flock(int(fd), unix.LOCK_EX)
			if ferr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		ferr = err
	}
	if ferr != nil {
		lf.Close()
		return nil, fmt.Errorf("lock %s: %w", path, ferr)
	}
	// Closing the descriptor releases the lock.
	return func() { lf.Close() }, nil
}
