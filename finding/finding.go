package finding

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// Target names the bus of a finding command: Open for a URL bus, else the
// file Path, else the run directory Dir.
type Target struct {
	// Open opens a URL bus (nil: the bus is a file). A bus that cannot be
	// opened or reached is an input error.
	Open func(ctx context.Context) (bus.Backend, error)
	Path string
	Dir  string
}

// InputError is an error the caller caused (exit 2 in the command line):
// an invalid record, a bus that cannot be named, opened or reached, a
// record the bus refuses for good.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }

// open opens t's URL bus; its error is an input error wrapping the
// backend's (a signal during the open shows as ctx's error).
func (t Target) open(ctx context.Context) (bus.Backend, error) {
	bk, err := t.Open(ctx)
	if err != nil {
		return nil, &InputError{err}
	}
	return bk, nil
}

// unavailable makes a bus.ErrUnavailable of an open bus an input error, as
// at the open: a server that stops answering cannot be reached.
func unavailable(err error) error {
	if errors.Is(err, bus.ErrUnavailable) {
		return &InputError{err}
	}
	return err
}

// WriteOptions are a finding write's record and how it is written.
type WriteOptions struct {
	// Entry is the record; a Summary of "-" is read from Stdin, a missing
	// Timestamp is Now's.
	Entry   bus.Entry
	Stdin   io.Reader
	Now     func() time.Time
	MaxLine int
	// NoSync skips the fdatasync before Write returns.
	NoSync bool
}

// Written is where a finding went: the bus (a path, or the backend's
// name) and the record's offset (a byte offset, or a stream sequence).
type Written struct {
	Bus    string `json:"bus"`
	Offset int64  `json:"offset"`
}

// Write appends one finding to t's bus and returns once it is durable: on
// disk (unless NoSync), or acknowledged by the server. A bus file in a run
// directory is watcher.BusToWrite's, never a symbolic link out of it.
func Write(ctx context.Context, t Target, o WriteOptions) (Written, error) {
	ent := o.Entry
	for _, req := range []struct{ flag, val string }{{"severity", ent.Severity}, {"agent", ent.Agent}, {"category", ent.Category}, {"summary", ent.Summary}} {
		if strings.TrimSpace(req.val) == "" {
			return Written{}, inputErrorf("--%s is required", req.flag)
		}
	}
	if ent.Summary == "-" {
		data, err := io.ReadAll(io.LimitReader(o.Stdin, int64(o.MaxLine)+2))
		if err != nil {
			return Written{}, inputErrorf("read the summary from standard input: %v", err)
		}
		ent.Summary = strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	}
	if ent.Timestamp == "" {
		now := o.Now
		if now == nil {
			now = time.Now
		}
		ent.Timestamp = now().UTC().Format(time.RFC3339)
	}
	if ent.FileRefs == nil {
		ent.FileRefs = []string{}
	}
	if err := bus.Validate(ent); err != nil {
		return Written{}, &InputError{err}
	}
	if t.Open != nil {
		return writeRemote(ctx, t, ent)
	}
	path := t.Path
	if path == "" {
		if fi, err := os.Stat(t.Dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = errors.New("not a directory")
			}
			return Written{}, inputErrorf("output directory %s: %v", t.Dir, fsio.Cause(err))
		}
		path = watcher.BusToWrite(t.Dir)
		if err := fsio.LinkInside(t.Dir, filepath.Base(path)); err != nil {
			return Written{}, &InputError{err} // SPEC §1: not followed out of the run
		}
	}
	off, err := bus.AppendContext(ctx, path, ent, bus.WriteOptions{MaxLine: o.MaxLine, NoSync: o.NoSync})
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, bus.ErrInvalid):
		return Written{}, &InputError{err}
	case errors.As(err, &pathErr):
		// The bus or its lock cannot be opened: a FIFO or directory, no
		// permission, no directory, a read-only filesystem. The error names
		// the path (the bus, its directory or its lock file).
		if pathErr.Path == path {
			return Written{}, inputErrorf("%s: %v", path, pathErr.Err)
		}
		return Written{}, inputErrorf("%s: %v", path, err)
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		// A full disk: the bus is an output that cannot be written, and
		// the record was not appended, not even in part.
		return Written{}, &InputError{err}
	case err != nil:
		return Written{}, fmt.Errorf("%s: %w", path, err)
	}
	return Written{Bus: path, Offset: off}, nil
}

// writeRemote is Write to a URL bus: it returns only after the server
// acknowledged the record.
func writeRemote(ctx context.Context, t Target, ent bus.Entry) (Written, error) {
	bk, err := t.open(ctx)
	if err != nil {
		return Written{}, err
	}
	defer bk.Close()
	seq, err := bk.Append(ctx, ent)
	switch {
	case errors.Is(err, bus.ErrInvalid), errors.Is(err, bus.ErrRefused):
		// A record the server refuses for good (over its size limit, a
		// stream full) is bad input, as an invalid one.
		return Written{}, &InputError{err}
	case err != nil:
		return Written{}, unavailable(err)
	}
	return Written{Bus: bk.String(), Offset: seq}, nil
}
