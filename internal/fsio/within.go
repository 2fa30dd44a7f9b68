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

// This file is the one rule of SPEC §10's "writes stay where they belong"
// for the writes of WriteFile and WriteFileFunc into a directory that
// others write too (a run directory, which agents write): a path there is
// written only where it leads inside the directory, never through a
// symbolic link out of it, and never over a file the caller refuses (an
// input of the run).

type withinKey struct{}

// within is the directory a context marked by Within keeps writes in.
type within struct {
	dir    string
	refuse func(name string) error
}

// Within returns ctx marked so that WriteFile and WriteFileFunc keep a write
// to a path that lies in dir (by its name, or by where its directory really
// is) inside dir (SPEC §10):
//
//   - the path's symbolic links are followed only while they stay inside
//     dir: one that leads, or (dangling) would lead, out of it or nowhere
//     is refused with an *fs.PathError naming the path and wrapping
//     ErrOutside (ErrLinkLoop for a loop); so is one through a directory
//     that does;
//   - refuse, when not nil, is asked about the file the write would
//     replace (its name in dir, slash-separated, links followed), and an
//     error it returns refuses the write the same way;
//   - a missing directory on the way is created, the temporary file and
//     the rename are made through an os.Root of dir, so a link swapped in
//     after the checks cannot lead the write out either: the rename
//     replaces the link itself;
//   - a FIFO there is written only when it has a reader (ErrNoReader
//     otherwise): what a stranger plants never holds the writer up.
//
// A path outside dir is written by the usual rules. An unmarked ctx, or dir
// "", writes every path by the usual rules.
func Within(ctx context.Context, dir string, refuse func(name string) error) context.Context {
	if dir == "" {
		return ctx
	}
	return context.WithValue(ctx, withinKey{}, &within{dir: dir, refuse: refuse})
}

// CheckWithin makes the checks of a write under Within(ctx, dir, refuse) to
// path without writing anything, for a caller that refuses a target before
// it reads its inputs: nil for a path outside dir, or one inside it whose
// write would stay inside and that refuse accepts. A missing directory on
// the way is not an error: it would be created inside dir; nor is a dir
// that is not a directory (there is nothing to stay in: the readers of dir
// say what it is).
func CheckWithin(dir, path string, refuse func(name string) error) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil
	}
	w := &within{dir: dir, refuse: refuse}
	rel, in := w.contains(path)
	if !in {
		return nil
	}
	_, err := w.resolve(path, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Inside reports whether path lies in dir as Within sees it: by its name,
// or because its directory is really inside dir. A write there under
// Within creates its missing directories itself, inside dir.
func Inside(dir, path string) bool {
	_, in := (&within{dir: dir}).contains(path)
	return in
}

// contains returns the name of path in w.dir when it lies there: by its
// name (dir/x, dir/sub/../x), or because its directory is really inside
// dir (a link to dir, or into it, on the way).
func (w *within) contains(path string) (rel string, in bool) {
	absDir, err1 := filepath.Abs(w.dir)
	abs, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absDir, abs); err == nil && filepath.IsLocal(rel) {
			return rel, true
		}
	}
	realDir, err1 := filepath.EvalSymlinks(w.dir)
	parent, err2 := filepath.EvalSymlinks(filepath.Dir(path))
	if err1 != nil || err2 != nil {
		return "", false
	}
	realDir, err1 = filepath.Abs(realDir)
	parent, err2 = filepath.Abs(parent)
	if err1 != nil || err2 != nil {
		return "", false
	}
	if rel, err := filepath.Rel(realDir, filepath.Join(parent, filepath.Base(path))); err == nil && filepath.IsLocal(rel) {
		return rel, true
	}
	return "", false
}

// resolve returns the name in w.dir (OS-separated) of the file a write to
// path, named rel in the directory, replaces, its links followed inside the
// directory, once refuse accepted it. A missing directory on the way wraps
// fs.ErrNotExist.
func (w *within) resolve(path, rel string) (string, error) {
	name, err := ResolveIn(w.dir, rel)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			err = ErrOutside // a link into a missing directory: not one of dir's
		} else if !w.existingInside(filepath.Dir(filepath.Join(w.dir, rel))) {
			err = ErrOutside // a missing directory under a link out
		}
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", &fs.PathError{Op: "write", Path: path, Err: err}
	case errors.Is(err, ErrOutside), errors.Is(err, ErrLinkLoop):
		return "", &fs.PathError{Op: "write", Path: path, Err: err}
	default:
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if w.refuse != nil {
		if err := w.refuse(name); err != nil {
			return "", &fs.PathError{Op: "write", Path: path, Err: err}
		}
	}
	return filepath.FromSlash(name), nil
}

// existingInside reports whether sub (a path in w.dir, perhaps missing)
// really lies inside w.dir: where a missing directory would be made. With
// w.dir itself missing there is nothing to leave: true (the write fails on
// the missing directory).
func (w *within) existingInside(sub string) bool {
	realDir, err := filepath.EvalSymlinks(w.dir)
	if err != nil {
		return true
	}
	realDir, err1 := filepath.Abs(realDir)
	real, err2 := RealPath(sub)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(realDir, real)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// RealPath is path made absolute with every symbolic link resolved: where
// a read or write of path really goes. A missing tail is kept as written
// after its deepest existing directory, resolved; a dangling link is
// followed to where it leads (where a write would create the file).
func RealPath(path string) (string, error) {
	for range 40 {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", err
		}
		var tail []string
		for d := abs; ; {
			real, err := filepath.EvalSymlinks(d)
			if err == nil {
				return filepath.Join(append([]string{real}, tail...)...), nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			if next, ok := readLink(d); ok {
				// A dangling link: go on from where it leads.
				path = filepath.Join(append([]string{next}, tail...)...)
				break
			}
			parent := filepath.Dir(d)
			if parent == d {
				return abs, nil
			}
			tail = append([]string{filepath.Base(d)}, tail...)
			d = parent
		}
	}
	return "", ErrLinkLoop
}

// writeWithin is writeTarget for path, named rel in w.dir: see Within.
func writeWithin(ctx context.Context, w *within, path, rel string, perm fs.FileMode, write func(io.Writer) error, same func(open opener) (bool, error)) (changed bool, err error) {
	root, err := OpenRoot(w.dir)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	defer root.Close()
	if sub := filepath.Dir(rel); sub != "." {
		// Through the root: a link on the way that leads out is an error,
		// never a directory made elsewhere.
		if err := root.MkdirAll(sub, 0o755); err != nil {
			if _, rerr := w.resolve(path, rel); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				return false, rerr
			}
			return false, fmt.Errorf("write %s: %w", path, Cause(err))
		}
	}
	name, err := w.resolve(path, rel)
	if err != nil {
		return false, err
	}
	open := func() (*os.File, fs.FileInfo, error) { return OpenIn(root, name) }
	switch info, err := root.Stat(name); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return false, fmt.Errorf("write %s: %w", path, Cause(err))
	case !info.Mode().IsRegular():
		// A FIFO or device planted in the directory: written in place, as
		// any such target, but never waited for.
		return true, writeInPlace(WithoutWaiting(ctx), filepath.Join(w.dir, name), write)
	}
	var old io.Reader
	if same != nil {
		if same, err := same(open); err != nil {
			return false, fmt.Errorf("write %s: %w", path, err)
		} else if same {
			return false, nil
		}
	} else if f, _, err := open(); err == nil {
		defer f.Close()
		old = f
	}
	changed, err = replaceIn(ctx, rootPlace{root}, name, perm, write, old)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return changed, nil
}
