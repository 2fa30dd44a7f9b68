package watcher

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

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
	return streamBus(run, dir, sc.opts.MaxLine, opts)
}

// streamBus synthesises run (whose bus files are listed, without entries),
// decoding the bus files in dir as the synthesis reads them.
func streamBus(run *synth.Run, dir string, maxLine int, opts synth.Options) (*synth.Synthesis, error) {
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
	for _, b := range run.Bus {
		path := filepath.Join(dir, b.Name)
		fh, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone since the listing: an empty bus
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		info, err := fh.Stat()
		if err != nil {
			fh.Close()
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		files[b.Name] = busFile{fh, info}
		if info.ModTime().After(run.Newest) {
			run.Newest = info.ModTime()
		}
	}
	return synth.SynthesizeStream(run, opts, func(name string, add func([]parse.Entry)) ([]parse.Diagnostic, error) {
		f, ok := files[name]
		switch {
		case !ok:
			return nil, nil
		case !f.info.Mode().IsRegular():
			return []parse.Diagnostic{diag(name, parse.LevelWarning, "not a regular file: skipped")}, nil
		}
		diags, err := decodeBus(f.fh, maxLine, add)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.fh.Name(), err)
		}
		return parse.WithPath(diags, name), nil
	})
}

// busBatch is the number of entries decodeBus hands over at once.
const busBatch = 4096

// decodeBus decodes the bus in fh to its end in a goroutine of its own and
// calls add, in the caller's goroutine, with the entries in file order, in
// batches that add must not keep (their arrays are reused). It returns the
// diagnostics, an incomplete last record included.
func decodeBus(fh *os.File, maxLine int, add func([]parse.Entry)) ([]parse.Diagnostic, error) {
	// Three batch arrays go round: one being filled, one being read, one
	// waiting in between.
	full := make(chan []parse.Entry, 1)
	free := make(chan []parse.Entry, 3)
	for range 3 {
		free <- make([]parse.Entry, 0, busBatch)
	}
	var diags []parse.Diagnostic
	var err error
	go func() {
		defer close(full)
		d := parse.NewBusDecoder(maxLine)
		d.SetWorkers(runtime.GOMAXPROCS(0))
		batch := <-free
		err = d.Decode(fh, func(e parse.Entry) {
			batch = append(batch, e)
			if len(batch) == busBatch {
				full <- batch
				batch = <-free
			}
		}, func(dg parse.Diagnostic) { diags = append(diags, dg) })
		if len(batch) > 0 {
			full <- batch
		}
		if err == nil && d.Held() > 0 {
			diags = append(diags, incompleteRecord(d.Line(), d.Held()))
		}
	}()
	for batch := range full {
		add(batch)
		free <- batch[:0]
	}
	return diags, err
}
