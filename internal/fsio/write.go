package fsio

import (
	"bufio"
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
	"syscall"
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
	return writeTarget(ctx, path, perm, writeBytes(data), func(open opener) (bool, error) { return holds(open, data) })
}

// WriteFileFunc is WriteFile for content too large to hold in memory at
// once: write writes it, once, to the writer it is given (buffered), and an
// error it returns is the write's. A regular file is compared with the
// content as it is written, and left alone when it already held exactly
// that: the temporary file is removed again without being synced.
func WriteFileFunc(ctx context.Context, path string, perm fs.FileMode, write func(io.Writer) error) (changed bool, err error) {
	return writeTarget(ctx, path, perm, write, nil)
}

// opener opens the regular file a write replaces, for reading (Open).
type opener func() (*os.File, fs.FileInfo, error)

// writeTarget is WriteFile and WriteFileFunc: same, when given, tells before
// anything is written whether the target (opened by the opener it is
// given) already holds the content; otherwise the content is compared with
// the target's as it is written. Under Within, a path in its directory is
// written by writeWithin.
func writeTarget(ctx context.Context, path string, perm fs.FileMode, write func(io.Writer) error, same func(open opener) (bool, error)) (changed bool, err error) {
	if w, ok := ctx.Value(withinKey{}).(*within); ok {
		if rel, in := w.contains(path); in {
			return writeWithin(ctx, w, path, rel, perm, write, same)
		}
	}
	info, err := os.Stat(path) // follows links: what would a write reach?
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A new file, or a dangling link: resolve the link by hand.
	case err != nil:
		return false, fmt.Errorf("write %s: %w", path, err)
	case !info.Mode().IsRegular() || special(path):
		return true, writeInPlace(ctx, path, write)
	}
	target, err := resolve(path)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	var old io.Reader
	if same != nil {
		if same, err := same(func() (*os.File, fs.FileInfo, error) { return Open(target) }); err != nil {
			return false, fmt.Errorf("write %s: %w", path, err)
		} else if same {
			return false, nil
		}
	} else if f, _, err := Open(target); err == nil {
		defer f.Close()
		old = f
	}
	changed, err = replaceIn(ctx, osPlace{}, target, perm, write, old)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return changed, nil
}

// AppendFile appends data to the file at path, creating a missing one
// (perm), for targets such as $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT: all
// of data, or (a regular file, a full disk) nothing. The open never blocks:
// a FIFO, device or socket there is written in place as WriteFile writes
// one (a FIFO with no reader is waited for only until ctx ends), and a
// directory is an error naming path.
func AppendFile(ctx context.Context, path string, data []byte, perm fs.FileMode) error {
	if info, err := os.Stat(path); err == nil && (!info.Mode().IsRegular() || special(path)) {
		if info.IsDir() {
			return fmt.Errorf("append %s: %s", path, Kind(info.Mode()))
		}
		return writeInPlace(ctx, path, writeBytes(data))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|writeNonblock, perm)
	if noReader(err) {
		return writeInPlace(ctx, path, writeBytes(data)) // became a FIFO since the stat
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", path, unname(err, path))
	}
	size := int64(-1)
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = info.Size()
	}
	if _, err = f.Write(data); err != nil && size >= 0 {
		// A full disk took part of it: cut that off again, so that the
		// file holds no half entry (half a summary on the job's page, a
		// cut "verdict=" line that the next step's outputs would run on).
		f.Truncate(size)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", path, unname(err, path))
	}
	return nil
}

// special reports whether path is, or reaches through symbolic links, a
// descriptor's name (/dev/stdout, /dev/stderr, /dev/stdin, /dev/fd/N,
// /proc/PID/fd/N): a view of an open file that must never be replaced by a
// regular file, whatever it resolves to. A regular file elsewhere under
// /dev or /proc (/dev/shm/x) is a file like any other.
func special(path string) bool {
	return linkChain(path, func(abs string) bool {
		switch {
		case abs == "/dev/stdout" || abs == "/dev/stderr" || abs == "/dev/stdin",
			strings.HasPrefix(abs, "/dev/fd/"):
			return true
		case strings.HasPrefix(abs, "/proc/"):
			parts := strings.Split(abs, "/") // "", "proc", PID, "fd", N
			return len(parts) == 5 && parts[3] == "fd"
		}
		return false
	})
}

// NamesStdout reports whether path names this process's standard output
// (/dev/stdout, /dev/fd/1, /proc/self/fd/1, /proc/PID/fd/1), directly or
// through symbolic links: a report target there is standard output, as
// "-" is, and shares it with what else the command prints.
func NamesStdout(path string) bool {
	self := "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/1"
	return linkChain(path, func(abs string) bool {
		return abs == "/dev/stdout" || abs == "/dev/fd/1" || abs == "/proc/self/fd/1" || abs == self
	})
}

// linkChain calls is with the absolute form of path and of each path its
// symbolic links lead to (at most 40, as the kernel follows), until is
// returns true (then so does linkChain) or the chain ends.
func linkChain(path string, is func(abs string) bool) bool {
	for range 40 {
		abs, err := filepath.Abs(path)
		if err != nil {
			return false
		}
		if is(abs) {
			return true
		}
		next, ok := readLink(abs)
		if !ok {
			return false
		}
		path = next
	}
	return false
}

// readLink returns the path the symbolic link at path leads to, a relative
// link taken from the link's real directory (its parents' links resolved,
// as the kernel does: "../x" from a directory reached through a link is
// not the textual parent), and ok false when path is not a link.
func readLink(path string) (string, bool) {
	link, err := os.Readlink(path)
	if err != nil {
		return "", false
	}
	if filepath.IsAbs(link) {
		return link, true
	}
	dir := filepath.Dir(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, link), true
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
		if errors.Is(err, syscall.ELOOP) {
			return "", ErrLinkLoop // a loop in a directory on the way
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		next, ok := readLink(path)
		if !ok {
			return "", fmt.Errorf("readlink %s: not a link any more", path)
		}
		path = next
	}
	return "", ErrLinkLoop
}

// ErrNoReader is wrapped by the error of a write to a FIFO that has no
// reader, under a context marked by WithoutWaiting.
var ErrNoReader = errors.New("a FIFO with no reader: not written")

type noWaitKey struct{}

// WithoutWaiting returns ctx marked so that a write to a FIFO with no
// reader fails at once (ErrNoReader) instead of waiting for one until ctx
// ends: for a live watcher's writes at every change, which must not hold
// up the watch (its final reports wait, under a plain context).
func WithoutWaiting(ctx context.Context) context.Context {
	return context.WithValue(ctx, noWaitKey{}, true)
}

// writeInPlace opens path for writing without creating, truncating or
// renaming anything and writes to it what write writes. The open of a FIFO
// with no reader, and a write that a full pipe blocks, end when ctx does;
// under WithoutWaiting the open does not wait.
func writeInPlace(ctx context.Context, path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|writeNonblock, 0)
	if noReader(err) {
		if ctx.Value(noWaitKey{}) != nil {
			return fmt.Errorf("write %s: %w", path, ErrNoReader)
		}
		f, err = openWaiting(ctx, path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, unname(err, path))
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
	bw := bufio.NewWriterSize(f, bufferSize)
	if err = write(bw); err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil && !errors.Is(cerr, os.ErrClosed) {
		err = cerr
	}
	if ctx.Err() != nil {
		return fmt.Errorf("write %s: %w", path, ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, unname(err, path))
	}
	return nil
}

// unname returns the cause of err when err is the error of an operation on
// one of names (a *fs.PathError): the caller's message names the target
// already, and a temporary file's name says nothing the user wrote. Before,
// a full disk read "write /dev/full: write /dev/full: no space left on
// device", or named .summary.md.123.tmp. Other errors are returned as
// they are.
func unname(err error, names ...string) error {
	if pe, ok := err.(*fs.PathError); ok {
		for _, n := range names {
			if pe.Path == n {
				return pe.Err
			}
		}
	}
	return err
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

// place is where replaceIn works: the file system (osPlace) or a root
// (rootPlace). Names are paths, or names inside the root.
type place interface {
	// createTemp creates a new file named by pattern in dir with perm, as
	// the umask lets it: the mode a new target gets.
	createTemp(dir, pattern string, perm fs.FileMode) (f *os.File, name string, err error)
	// perm is the permission of the regular file name, ok false when
	// there is none: a replaced report keeps the mode it was given.
	perm(name string) (perm fs.FileMode, ok bool)
	rename(from, to string) error
	remove(name string) error
	syncDir(dir string)
	key(name string) string // the name RemoveTemps knows the file by
}

type osPlace struct{}

func (osPlace) createTemp(dir, pattern string, perm fs.FileMode) (*os.File, string, error) {
	return tempName(dir, pattern, func(name string) (string, func() (*os.File, error)) {
		return name, func() (*os.File, error) { return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm) }
	})
}
func (osPlace) perm(name string) (fs.FileMode, bool) {
	info, err := os.Lstat(name)
	if err != nil || !info.Mode().IsRegular() {
		return 0, false
	}
	return info.Mode().Perm(), true
}
func (osPlace) rename(from, to string) error { return os.Rename(from, to) }
func (osPlace) remove(name string) error     { return os.Remove(name) }
func (osPlace) syncDir(dir string)           { SyncDir(dir) }
func (osPlace) key(name string) string       { return name }

type rootPlace struct{ root *os.Root }

func (p rootPlace) createTemp(dir, pattern string, perm fs.FileMode) (*os.File, string, error) {
	return tempName(dir, pattern, func(name string) (string, func() (*os.File, error)) {
		return p.key(name), func() (*os.File, error) { return p.root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm) }
	})
}
func (p rootPlace) perm(name string) (fs.FileMode, bool) {
	info, err := p.root.Lstat(name)
	if err != nil || !info.Mode().IsRegular() {
		return 0, false
	}
	return info.Mode().Perm(), true
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
	if _, err := replaceIn(ctx, rootPlace{root}, name, perm, writeBytes(data), nil); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(root.Name(), name), err)
	}
	return nil
}

// replaceIn writes what write writes to a temporary file beside path, syncs
// it and renames it over path, then syncs the directory. The temporary file
// is registered for RemoveTemps while it exists. old, when not nil, is what
// path holds: the content is compared with it as it is written, and when it
// is the same the temporary file is removed and path left alone (changed is
// false).
func replaceIn(ctx context.Context, p place, path string, perm fs.FileMode, write func(io.Writer) error, old io.Reader) (changed bool, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	keep, replaces := p.perm(path)
	tmp, name, err := p.createTemp(dir, "."+base+".*.tmp", perm)
	if err != nil {
		// Name the file being written, not the temporary one beside it:
		// "open nope/.new.sarif.123.tmp" said nothing the user wrote.
		return false, &fs.PathError{Op: "create", Path: path, Err: Cause(err)}
	}
	defer func() {
		if err != nil || !changed {
			p.remove(name)
		}
		temps.forget(p.key(name))
	}()
	bw := bufio.NewWriterSize(tmp, bufferSize)
	var w io.Writer = bw
	var cmp *comparer
	if old != nil {
		cmp = &comparer{w: bw, old: old}
		w = cmp
	}
	if err = write(w); err == nil {
		err = bw.Flush()
	}
	if err == nil && cmp != nil && cmp.same() {
		return false, tmp.Close()
	}
	if err == nil && replaces {
		err = tmp.Chmod(keep) // chmod 600 summary.md stays so: not the default perm again
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
		return false, unname(err, name, tmp.Name())
	}
	p.syncDir(dir)
	return true, nil
}

// bufferSize is the buffer between a streamed content and its file.
const bufferSize = 256 << 10

// writeBytes returns a write function that writes data.
func writeBytes(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// comparer passes what is written on to w and compares it with what old
// holds, piece by piece, until the first difference.
type comparer struct {
	w    io.Writer
	old  io.Reader
	buf  []byte
	diff bool // what was written differs from old's start
}

func (c *comparer) Write(p []byte) (int, error) {
	for q := p; !c.diff && len(q) > 0; {
		if c.buf == nil {
			c.buf = make([]byte, bufferSize)
		}
		n := min(len(q), len(c.buf))
		m, _ := io.ReadFull(c.old, c.buf[:n])
		c.diff = m < n || !bytes.Equal(c.buf[:n], q[:n])
		q = q[n:]
	}
	return c.w.Write(p)
}

// same reports whether old held exactly what was written: the same bytes,
// and nothing after them.
func (c *comparer) same() bool {
	if c.diff {
		return false
	}
	var one [1]byte
	_, err := io.ReadFull(c.old, one[:])
	return err == io.EOF
}

// SyncDir makes a rename in dir durable. It is best effort: some file
// systems refuse to sync a directory, and that does not undo a write.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// tempName creates a file in dir named by pattern, its "*" a random number
// tried again while the name is taken: open(name) gives the name RemoveTemps
// knows the file by and the create, which it runs registered before
// anything is written to the file.
func tempName(dir, pattern string, open func(name string) (string, func() (*os.File, error))) (*os.File, string, error) {
	prefix, suffix, _ := strings.Cut(pattern, "*")
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		key, create := open(name)
		f, err := registered(key, create)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("create a temporary file in %s: too many tries", dir)
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

// holds reports whether the regular file open opens holds exactly data
// (false when it does not exist or is not regular), reading it piece by
// piece: a large report is not held twice in memory to be compared.
func holds(open opener, data []byte) (bool, error) {
	f, info, err := open()
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

// ErrOutside is the error of ResolveIn (and LinkInside) for a name whose
// symbolic links lead out of its directory; ErrLinkLoop for one whose links
// never end.
var (
	ErrOutside  = errors.New("symlink resolves outside the output directory: not followed")
	ErrLinkLoop = errors.New("symlink loop: not followed")
)

// ResolveIn is the one rule of SPEC §1's "symlinks that resolve outside
// OUTPUT_DIR are not followed": it returns where name (a path in dir) leads
// through its symbolic links, relative to dir's real path and
// slash-separated; the file there need not exist (a dangling link), its
// directory must. A name that leads out of dir is ErrOutside, one whose
// links loop ErrLinkLoop; a missing directory on the way wraps
// fs.ErrNotExist.
func ResolveIn(dir, name string) (string, error) {
	realDir, err := filepath.EvalSymlinks(dir)
	if err == nil {
		realDir, err = filepath.Abs(realDir)
	}
	if err != nil {
		return "", err
	}
	last, err := resolve(filepath.Join(dir, name))
	if err != nil {
		return "", err
	}
	targetDir, err := filepath.EvalSymlinks(filepath.Dir(last))
	if err == nil {
		targetDir, err = filepath.Abs(targetDir)
	}
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(realDir, filepath.Join(targetDir, filepath.Base(last)))
	if err != nil || !filepath.IsLocal(rel) {
		return "", ErrOutside
	}
	return filepath.ToSlash(rel), nil
}

// LinkInside returns nil unless dir/name is a symbolic link that leads, or
// (dangling) would lead, out of dir or nowhere (ResolveIn), for the writers
// and readers that take a path in dir (the bus of finding write and finding
// read --dir; a run directory's readers open through an os.Root and ask
// ResolveIn for the links it refuses). The check is by name: the caller
// then opens dir/name itself, so that a lock file next to it keeps its
// name.
func LinkInside(dir, name string) error {
	path := filepath.Join(dir, name)
	if info, err := os.Lstat(path); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	if _, err := ResolveIn(dir, name); err != nil {
		if !errors.Is(err, ErrLinkLoop) {
			err = ErrOutside // a missing directory on the way too: it is not this one
		}
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return nil
}

// Target is the file a write to path replaces: path with the symbolic links
// of its last element followed (to where they lead, existing or not), made
// absolute. Two report targets with one Target are one file.
func Target(path string) string {
	if t, err := resolve(path); err == nil {
		path = t
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path
}
