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
var ErrBusOutside = errors.New("a symlink out of its directory")

// OpenBus opens the bus files of the run directory open as dir: the names
// of parse.BusNames that are there, in reading order, each opened inside
// dir without blocking. A name that is absent is left out. A name that is
// not a regular file (a FIFO, a directory) or that is a symbolic link out
// of dir is left out too, and said in skipped, naming it (errors wrapping
// fsio.ErrNotRegular or ErrBusOutside): the other name may hold the bus.
// Any other error closes what was opened and is returned, naming the file.
// Errors name a file as filepath.Join(shown, name): shown is the directory
// as the caller's user named it.
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
			skipped = append(skipped, fmt.Errorf("%s: %w", path, ErrBusOutside))
		case errors.Is(err, fsio.ErrNotRegular):
			skipped = append(skipped, fmt.Errorf("%s: %w", path, fsio.Cause(err)))
		default:
			for _, b := range files {
				b.File.Close()
			}
			return nil, skipped, fmt.Errorf("%s: %w", path, fsio.Cause(err))
		}
	}
	return files, skipped, nil
}
