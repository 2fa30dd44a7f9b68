package fsio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

func errorsIs(err, target error) bool { return errors.Is(err, target) }

// WriteFile writes data to the output target at path (SPEC §6, §7) and
// reports whether anything was written:
//
//   - a regular file, or a path that does not exist yet, is replaced
//     atomically (temporary file in the same directory, fsync, rename,
//     directory sync), and left alone — not even its modification time
//     changes — when it already holds exactly data;
//   - a symbolic link is resolved and its final target replaced the same way:
//     the link stays a link;
//   - a device, FIFO or socket, or any path under /dev or /proc (/dev/stdout,
//     /dev/fd/1), is written in place and never renamed over; a FIFO with no
//     reader is waited for only until ctx ends.
//
// Errors name the file.
func WriteFile(ctx context.Context, path string, data []byte, perm fs.FileMode) (changed bool, err error) {
	info, err := os.Stat(path) // follows links: what would a write reach?
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A new file, or a dangling link: resolve the link by hand.
	case err != nil:
		return false, fmt.Errorf("write %s: %w", path, err)
	case !info.Mode().IsRegular() || special(path):
		return true, writeInPlace(ctx, path, data)
	}
	target, err := resolve(path)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	if same, err := holds(target, data); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	} else if same {
		return false, nil
	}
	if err := replace(ctx, target, data, perm); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return true, nil
}

// AppendFile appends data to the file at path, creating a missing one
// (perm), for targets such as $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT. The
// open never blocks: a FIFO, device or socket there is written in place as
// WriteFile writes one (a FIFO with no reader is waited for only until ctx
// ends), and a directory is an error naming path.
func AppendFile(ctx context.Context, path string, data []byte, perm fs.FileMode) error {
	if info, err := os.Stat(path); err == nil && (!info.Mode().IsRegular() || special(path)) {
		if info.IsDir() {
			return fmt.Errorf("append %s: %s", path, Kind(info.Mode()))
		}
		return writeInPlace(ctx, path, data)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|writeNonblock, perm)
	if noReader(err) {
		return writeInPlace(ctx, path, data) // became a FIFO since the stat
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	return nil
}

// special reports whether path lies under /dev or /proc, where a name is a
// view of something else (a descriptor, a terminal) and must never be
// replaced by a regular file, whatever it resolves to.
func special(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	return strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")
}

// resolve follows the symbolic links of path's last element (at most 40, as
// the kernel does) and returns the path a rename must replace so that the
// link survives. A link whose target does not exist resolves to that target.
func resolve(path string) (string, error) {
	for range 40 {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

// writeInPlace opens path for writing without creating, truncating or
// renaming anything and writes data. The open of a FIFO with no reader, and a
// write that a full pipe blocks, end when ctx does.
func writeInPlace(ctx context.Context, path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|writeNonblock, 0)
	if noReader(err) {
		f, err = openWaiting(ctx, path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			f.Close() // unblocks a Write waiting on a full pipe
		case <-done:
		}
	}()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil && !errors.Is(cerr, os.ErrClosed) {
		err = cerr
	}
	if ctx.Err() != nil {
		return fmt.Errorf("write %s: %w", path, ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// openWaiting opens a FIFO for writing, waiting for a reader until ctx ends.
func openWaiting(ctx context.Context, path string) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	ch := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		ch <- result{f, err}
	}()
	select {
	case r := <-ch:
		return r.f, r.err
	case <-ctx.Done():
		go func() { // the open may still succeed: close what it gives
			if r := <-ch; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, fmt.Errorf("waiting for a reader of the FIFO: %w", ctx.Err())
	}
}

// replace writes data to a temporary file beside path, syncs it and renames
// it over path, then syncs the directory. The temporary file is registered
// for RemoveTemps while it exists.
func replace(ctx context.Context, path string, data []byte, perm fs.FileMode) error {
	return replaceIn(ctx, osPlace{}, path, data, perm)
}

// place is where replaceIn works: the file system (osPlace) or a root
// (rootPlace). Names are paths, or names inside the root.
type place interface {
	createTemp(dir, pattern string) (f *os.File, name string, err error)
	rename(from, to string) error
	remove(name string) error
	syncDir(dir string)
	key(name string) string // the name RemoveTemps knows the file by
}

type osPlace struct{}

func (osPlace) createTemp(dir, pattern string) (*os.File, string, error) {
	f, err := createTemp(dir, pattern)
	if err != nil {
		return nil, "", err
	}
	return f, f.Name(), nil
}
func (osPlace) rename(from, to string) error { return os.Rename(from, to) }
func (osPlace) remove(name string) error     { return os.Remove(name) }
func (osPlace) syncDir(dir string)           { SyncDir(dir) }
func (osPlace) key(name string) string       { return name }

type rootPlace struct{ root *os.Root }

func (p rootPlace) createTemp(dir, pattern string) (*os.File, string, error) {
	prefix, suffix, _ := strings.Cut(pattern, "*")
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := registered(p.key(name), func() (*os.File, error) {
			return p.root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		})
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("create a temporary file in %s: too many tries", dir)
}
func (p rootPlace) rename(from, to string) error { return p.root.Rename(from, to) }
func (p rootPlace) key(name string) string       { return filepath.Join(p.root.Name(), name) }
func (p rootPlace) remove(name string) error     { return p.root.Remove(name) }
func (p rootPlace) syncDir(dir string) {
	if d, err := p.root.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// WriteFileIn replaces the regular file name inside root atomically with
// data, as WriteFile replaces a regular file: a temporary file beside it,
// fsync, rename, directory sync; every step resolved inside root, so no
// symbolic link leads the write out of it. A name that is a symbolic link
// is replaced by the file, not followed. Errors name the file.
func WriteFileIn(ctx context.Context, root *os.Root, name string, data []byte, perm fs.FileMode) error {
	if err := replaceIn(ctx, rootPlace{root}, name, data, perm); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(root.Name(), name), err)
	}
	return nil
}

func replaceIn(ctx context.Context, p place, path string, data []byte, perm fs.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, name, err := p.createTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			p.remove(name)
		}
		temps.forget(p.key(name))
	}()
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ctx.Err() // a signal arrived: leave the old file as it was
	}
	if err == nil {
		err = p.rename(name, path)
	}
	if err != nil {
		return err
	}
	p.syncDir(dir)
	return nil
}

// SyncDir makes a rename in dir durable. It is best effort: some file
// systems refuse to sync a directory, and that does not undo a write.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// createTemp is os.CreateTemp, registering the file for RemoveTemps before
// anything is written to it.
func createTemp(dir, pattern string) (*os.File, error) {
	var f *os.File
	_, err := registered("", func() (*os.File, error) {
		var err error
		f, err = os.CreateTemp(dir, pattern)
		return f, err
	})
	return f, err
}

// registered runs create under the lock of temps and registers the file it
// makes (as name, or by its own name when name is ""), unless RemoveTemps
// already ran.
func registered(name string, create func() (*os.File, error)) (*os.File, error) {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.closed {
		return nil, errors.New("the process is ending: no new output")
	}
	f, err := create()
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = f.Name()
	}
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[name] = true
	return f, nil
}

// temps holds the temporary files of atomic writes in flight. It is the
// package's one piece of process-wide state, there for RemoveTemps: a signal
// may end the process while any goroutine is between create and rename.
var temps tempSet

type tempSet struct {
	mu     sync.Mutex
	names  map[string]bool
	closed bool // RemoveTemps ran: no new temporary file
}

func (t *tempSet) forget(name string) {
	t.mu.Lock()
	delete(t.names, name)
	t.mu.Unlock()
}

// RemoveTemps removes every temporary file of an atomic write still in
// flight and keeps any new one from being renamed into place; it returns the
// names it removed. Main calls it when a signal ends the process before its
// commands return, so no partial output is left behind.
func RemoveTemps() []string {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	temps.closed = true
	var removed []string
	for name := range temps.names {
		if os.Remove(name) == nil {
			removed = append(removed, name)
		}
		delete(temps.names, name)
	}
	return removed
}

// holds reports whether the regular file at path holds exactly data (false
// when it does not exist or is not regular), reading it piece by piece: a
// large report is not held twice in memory to be compared.
func holds(path string, data []byte) (bool, error) {
	f, info, err := Open(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotRegular) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if info.Size() != int64(len(data)) {
		return false, nil
	}
	buf := make([]byte, min(len(data), 256<<10)+1)
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(data) || !bytes.Equal(buf[:n], data[:n]) {
			return false, nil
		}
		data = data[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(data) == 0, nil
		case err != nil:
			return false, err
		}
	}
}
