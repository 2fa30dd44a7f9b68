package watcher

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
)

// BusFile is one bus file of a run directory, open for reading.
type BusFile struct {
	// Name is its name in the directory, one of parse.BusNames.
	Name string
	// File is the file opened inside the directory: read it, not its
	// path again (the name may have been replaced since by a symbolic
	// link out). The caller closes it.
	File *os.File
	// Size is its size when it was opened: a snapshot reads up to it.
	Size int64
}

// ErrBusOutside is wrapped by the error of OpenBus for a bus name that is
// a symbolic link out of the run directory (SPEC §1: never followed out).
// It is fsio.ErrOutside, the refusal of every other reader and writer of a
// run: one wording for one rule.
var ErrBusOutside = fsio.ErrOutside

// OpenBus opens the bus files of the run directory open as dir: the names
// of parse.BusNames that are there, in reading order, each opened inside
// dir without blocking. A name that is absent is left out. A name that is
// not a regular file (a FIFO, a directory) or that is a symbolic link out
// of dir is left out too, and said in skipped, naming it (errors wrapping
// fsio.ErrNotRegular or ErrBusOutside): the other name may hold the bus.
// Any other error closes what was opened and is returned, naming the file.
// Errors name a file as filepath.Join(shown, name), shown the directory as
// the caller's user named it; a skipped one as fsio's refusals do
// (*fs.PathError, "open PATH: ...").
func OpenBus(dir *os.Root, shown string) (files []BusFile, skipped []error, err error) {
	_, err = dir.Stat("..")
	escapes := fsio.Cause(err) // os.Root's error for a path that leads out (not exported)
	for _, name := range parse.BusNames {
		path := filepath.Join(shown, name)
		f, info, err := fsio.OpenIn(dir, name)
		switch {
		case err == nil:
			files = append(files, BusFile{Name: name, File: f, Size: info.Size()})
		case errors.Is(err, fs.ErrNotExist):
		case escapes != nil && errors.Is(err, escapes):
			skipped = append(skipped, &fs.PathError{Op: "open", Path: path, Err: ErrBusOutside})
		case errors.Is(err, fsio.ErrNotRegular):
			skipped = append(skipped, &fs.PathError{Op: "open", Path: path, Err: fsio.Cause(err)})
		default:
			for _, b := range files {
				b.File.Close()
			}
			return nil, skipped, fmt.Errorf("%s: %w", path, fsio.Cause(err))
		}
	}
	return files, skipped, nil
}

// BusPaths is OpenBus by path, for a reader that opens or follows the bus
// files itself (finding read --dir; synth --bus warning of the files it
// leaves unread): filepath.Join(dir, name) of each bus file OpenBus finds,
// in reading order, and what it skips. The error is OpenBus's, or the
// directory's when it cannot be opened.
func BusPaths(dir string) (paths []string, skipped []error, err error) {
	root, err := fsio.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	files, skipped, err := OpenBus(root, dir)
	for _, f := range files {
		paths = append(paths, filepath.Join(dir, f.Name))
		f.File.Close()
	}
	return paths, skipped, err
}

// BusToWrite is the bus file a writer appends to in dir (finding write
// --dir): peer-findings.jsonl when it exists, else findings.jsonl.
func BusToWrite(dir string) string {
	p := filepath.Join(dir, parse.BusNames[1])
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return filepath.Join(dir, parse.BusNames[0])
}
