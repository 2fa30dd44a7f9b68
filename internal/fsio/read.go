package fsio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular is wrapped by the errors of Open, OpenIn and ReadFile for a
// path that exists but is not a regular file (a FIFO, socket, device or
// directory).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the errors of ReadAll and ReadFile for a file
// over the cap.
var ErrTooLarge = errors.New("file too large")

// ErrNotDir is wrapped by the errors of OpenRoot, OpenRootIn, OpenDirIn and
// StatDir for a path that exists but is not a directory (NotDir).
var ErrNotDir = errors.New("not a directory")

// Kind names what a file mode is, for messages: "a regular file", "a
// directory", "a FIFO", "a socket", "a device", "a symbolic link" or "an
// irregular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// NotRegular returns the error for path whose mode m is not regular: it
// wraps ErrNotRegular and names path and what it is ("a FIFO").
func NotRegular(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(m))}
}

// NotDir returns the error for path whose mode m is not a directory: it
// wraps ErrNotDir and names path and what it is ("a FIFO").
func NotDir(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotDir, Kind(m))}
}

// Open opens the regular file at path for reading, without blocking whatever
// the path is, and returns it with its FileInfo. A path that is not a regular
// file is closed again and refused with an *fs.PathError wrapping
// ErrNotRegular, also when the open itself failed on it (ENXIO for a
// socket); other errors are os.OpenFile's and Stat's.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, readFlags, 0)
	if err != nil {
		return nil, nil, RefineOpenError(path, os.Stat, err)
	}
	return checkRegular(f, path)
}

// OpenIn is Open confined to root: name is resolved by root (no "..", no
// absolute path, no symbolic link out of it), and the file must be regular.
func OpenIn(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, readFlags, 0)
	if err != nil {
		return nil, nil, RefineOpenError(name, root.Stat, err)
	}
	return checkRegular(f, name)
}

// RefineOpenError is err, an error of opening path, or the error saying
// what path is when it is not a regular file (a socket makes open fail
// with "no such device or address", a directory opened for writing with
// "is a directory"): stat looks at it.
func RefineOpenError(path string, stat func(string) (fs.FileInfo, error), err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if info, serr := stat(path); serr == nil && !info.Mode().IsRegular() {
		return NotRegular(path, info.Mode())
	}
	return err
}

// OpenDirIn opens the directory name inside root for listing, without
// blocking whatever name is (".": root itself). Anything but a directory is
// closed again and refused with an error naming name and what it is.
func OpenDirIn(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, readFlags, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.IsDir() {
		err = NotDir(name, info.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func checkRegular(f *os.File, path string) (*os.File, fs.FileInfo, error) {
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, NotRegular(path, info.Mode())
	}
	return f, info, nil
}

// ReadFile reads the regular file at path whole, refusing it (ErrTooLarge)
// when it holds more than limit bytes and (ErrNotRegular) when it is not a
// regular file. It never blocks on a FIFO.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadAll(f, info.Size(), limit)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, nil
}

// ReadAll reads r to its end into a slice sized for size bytes (the size the
// file had when stated: it may have grown since), or fails with ErrTooLarge
// once it holds more than limit. A file that kept its size is read into
// exactly size+1 bytes (the one byte to see EOF), not doubled as
// bytes.Buffer would.
func ReadAll(r io.Reader, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, max(min(size, limit), 0)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // it grew: let append choose
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, fmt.Errorf("%w: over %d bytes", ErrTooLarge, limit)
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// OpenRoot opens the directory at path as an [os.Root], without blocking
// whatever path is, and without a check before the open that a swap could
// outrun. os.OpenRoot opens the last element of a path as it is, so a FIFO
// there waits for a writer; it is opened here as "path/.", which the kernel
// resolves as a directory, refusing anything else at once. Then path is
// stated to say why: a missing path is Stat's error, anything but a
// directory an *fs.PathError naming path and what it is ("not a directory
// (a FIFO)"). The root's Name() is path with "/." after it: clean it, or
// join to it, for a path to show.
func OpenRoot(path string) (*os.Root, error) {
	r, err := os.OpenRoot(dirOnly(path))
	if err != nil {
		return nil, refineDirError(path, os.Stat, err)
	}
	return r, nil
}

// OpenRootIn is OpenRoot for the directory name inside root, resolved by
// root (no "..", no absolute path, no symbolic link out of it).
func OpenRootIn(root *os.Root, name string) (*os.Root, error) {
	r, err := root.OpenRoot(dirOnly(name))
	if err != nil {
		return nil, refineDirError(name, root.Stat, err)
	}
	return r, nil
}

func dirOnly(path string) string { return path + string(filepath.Separator) + "." }

// refineDirError is err, an error of opening path as a directory, said of
// path (not of path/.), or the error saying what path is when stat finds
// it is not a directory.
func refineDirError(path string, stat func(string) (fs.FileInfo, error), err error) error {
	info, serr := stat(path)
	switch {
	case serr != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(serr, fs.ErrNotExist)):
		return serr
	case serr == nil && !info.IsDir():
		return NotDir(path, info.Mode())
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return err
}

// ContextReader reads r until ctx ends, then fails with ctx's error: a long
// read stops at a signal, or at an abandoned call, between two reads.
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// StatDir returns the FileInfo of the directory at path (symbolic links
// followed), or an error naming path when it is missing or not a directory.
func StatDir(path string) (fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, NotDir(path, info.Mode())
	}
	return info, nil
}

// Cause drops the operation and path of an *fs.PathError in err, for a
// message that names the file its own way (relative to a root, or already
// said): "permission denied" rather than "open fd-a.md: permission denied".
// Any other error is returned as it is.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadInput reads the input file path whole ("-": stdin), at most limit
// bytes: a larger input is an error naming it (fsio.ErrTooLarge), read no
// further than limit+1 bytes. Unlike fsio.ReadFile it reads what is not a
// regular file too (a pipe, <(cmd)): the user named it as the input.
func ReadInput(stdin io.Reader, path string, limit int64) ([]byte, error) {
	if path == "-" {
		data, err := ReadAll(stdin, 0, limit)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		return data, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = info.Size()
	}
	data, err := ReadAll(f, size, limit)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}
