package watcher

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Synthesize reads the run in dir once and synthesises it, as Scan and
// synth.Synthesize would, without holding the bus: each bus file is decoded
// in a goroutine of its own while the synthesis reads its entries
// (synth.SynthesizeStream), so that memory does not grow with the bus and
// decoding overlaps the timeline. The errors are Scan's, and those of
// reading a bus file, which name it.
func Synthesize(ctx context.Context, dir string, scan ScanOptions, opts synth.Options) (*synth.Synthesis, error) {
	scan.NoBus = true
	sc := NewScanner(scan)
	run, err := sc.Scan(ctx, dir)
	if err != nil {
		return nil, err
	}
	if scan.RequireRun && !isRun(run) {
		return nil, noRun(dir)
	}
	return streamBus(ctx, run, dir, scan.Root, sc.opts.MaxLine, opts)
}

// streamBus synthesises run (whose bus files are listed, without entries),
// decoding the bus files in dir (open as given, when not nil) as the
// synthesis reads them.
func streamBus(ctx context.Context, run *synth.Run, dir string, given *os.Root, maxLine int, opts synth.Options) (*synth.Synthesis, error) {
	// Open the bus files first: their modification times count toward the
	// reviewed time, which the synthesis needs before it reads any entry.
	type busFile struct {
		fh   *os.File
		info fs.FileInfo
	}
	files := map[string]busFile{}
	defer func() {
		for _, f := range files {
			f.fh.Close()
		}
	}()
	root, done, err := openRun(dir, given)
	if err != nil {
		return nil, err
	}
	defer done()
	refused := map[string]string{} // bus files that are not regular any more
	for _, b := range run.Bus {
		path := filepath.Join(dir, b.Name)
		fh, info, err := fsio.OpenIn(root, b.Name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // gone since the listing: an empty bus
		case errors.Is(err, fsio.ErrNotRegular):
			refused[b.Name] = inert.Line(err.Error())
			continue
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		files[b.Name] = busFile{fh, info}
		if info.ModTime().After(run.Newest) {
			run.Newest = info.ModTime()
		}
	}
	return synth.SynthesizeStream(run, opts, func(name string, add func([]bus.Entry)) ([]parse.Diagnostic, error) {
		f, ok := files[name]
		if !ok {
			if why, ok := refused[name]; ok {
				return []parse.Diagnostic{diag(name, parse.LevelWarning, why+": skipped")}, nil
			}
			return nil, nil
		}
		diags, err := bus.DecodeBatches(fsio.ContextReader(ctx, f.fh), maxLine, add)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.fh.Name(), err)
		}
		return parse.WithPath(diags, name), nil
	})
}
