package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// otherFile is a non-report input of check: a bus file or a YAML file. Its
// diagnostics and summary are printed (on stderr with --json, so that stdout
// stays exactly the array of agent reports).
type otherFile struct {
	path    string
	summary string
	diags   []parse.Diagnostic
}

// otherKind says how check reads a file it was given by name: "bus",
// "specialist", "design", "feature", or "" for an agent report.
func otherKind(path string) string {
	base := filepath.Base(path)
	switch {
	case strings.HasSuffix(base, ".jsonl"):
		return "bus"
	case base == "MANIFEST.yaml" || base == "MANIFEST.yml":
		return "feature"
	case base == "manifest.yaml" && filepath.Base(filepath.Dir(path)) == "design":
		return "design"
	case strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml"):
		return "specialist"
	}
	return ""
}

// checkOther reads a bus or YAML file. The error is non-nil only when the file
// cannot be read at all.
func checkOther(path, kind string) (otherFile, error) {
	o := otherFile{path: path}
	if kind == "bus" {
		// Read as synth reads a run's bus (DecodeBatches): the same entries
		// and diagnostics, the bytes after the last newline included. A
		// FIFO or device is refused without blocking.
		fh, _, err := bus.Open(path)
		if err != nil {
			return o, fmt.Errorf("%s: %w", path, fsio.Cause(err))
		}
		defer fh.Close()
		counts := map[string]int{}
		n := 0
		o.diags, err = bus.DecodeBatches(fh, bus.DefaultMaxLine, func(batch []bus.Entry) {
			for _, e := range batch {
				n++
				if e.Kind == bus.EntryStall {
					counts["stall"]++
				} else {
					counts[e.Severity]++
				}
			}
		})
		if err != nil {
			return o, fmt.Errorf("%s: %w", path, fsio.Cause(err))
		}
		o.summary = fmt.Sprintf("bus, %s (blocking %d, notable %d, stall %d, unknown %d), %s",
			synth.Plural(n, "entry", "entries"), counts[bus.Blocking], counts[bus.Notable], counts["stall"], counts[bus.Unknown],
			synth.Plural(len(o.diags), "diagnostic"))
		return o, nil
	}
	data, err := fsio.ReadFile(path, watcher.DefaultMaxFile)
	if errors.Is(err, fsio.ErrTooLarge) {
		o.diags = []parse.Diagnostic{{Level: parse.LevelError, Message: fmt.Sprintf("file larger than %d bytes: not read", watcher.DefaultMaxFile)}}
		o.summary = kind + " file, not read"
		return o, nil
	}
	if err != nil {
		return o, fmt.Errorf("%s: %w", path, fsio.Cause(err))
	}
	switch kind {
	case "feature":
		m, ds, err := parse.ReadFeatureManifest(data)
		o.diags, o.summary = ds, fmt.Sprintf("feature manifest %q", m.FeatureName)
		if err != nil {
			o.summary += ", malformed"
		}
	case "design":
		m, ds, err := parse.ReadDesignManifest(data)
		o.diags, o.summary = ds, "design manifest, "+synth.Plural(len(m.Designs), "design")
		if err != nil {
			o.summary += ", malformed"
		}
	default:
		s, ds, err := parse.ReadSpecialist(data)
		o.diags, o.summary = ds, fmt.Sprintf("specialist %q, %s", s.Name, synth.Plural(len(s.Approaches), "approach", "approaches"))
		if err != nil {
			o.summary += ", malformed"
		}
	}
	return o, nil
}

// printOther prints the diagnostics of files that are not agent reports and
// one summary line each, every line inert (inert.Line): they quote what the
// files hold.
func printOther(w io.Writer, files []otherFile, quiet bool) {
	for _, o := range files {
		if !quiet {
			for _, d := range o.diags {
				if d.Path == "" {
					d.Path = o.path
				}
				fmt.Fprintln(w, inert.Line(d.String()))
			}
		}
		fmt.Fprintln(w, inert.Line(o.path+": "+o.summary))
	}
}
