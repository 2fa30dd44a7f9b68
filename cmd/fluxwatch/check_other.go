package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
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
		counts := map[string]int{}
		n := 0
		_, err := bus.Read(path, parse.DefaultMaxLine, 0, func(e parse.Entry) error {
			n++
			if e.Kind == parse.EntryStall {
				counts["stall"]++
			} else {
				counts[e.Severity]++
			}
			return nil
		}, func(d parse.Diagnostic) { o.diags = append(o.diags, d) })
		if err != nil {
			return o, fmt.Errorf("%s: %w", path, unwrapPathError(err))
		}
		o.summary = fmt.Sprintf("bus, %s (blocking %d, notable %d, stall %d, unknown %d), %s",
			synth.Plural(n, "entry", "entries"), counts[parse.Blocking], counts[parse.Notable], counts["stall"], counts[parse.Unknown],
			synth.Plural(len(o.diags), "diagnostic"))
		return o, nil
	}
	data, err := readCapped(path, parse.MaxYAMLSize)
	if errors.Is(err, errTooBig) {
		o.diags = []parse.Diagnostic{{Level: parse.LevelError, Message: fmt.Sprintf("larger than %d bytes: not read", parse.MaxYAMLSize)}}
		o.summary = kind + " file, not read"
		return o, nil
	}
	if err != nil {
		return o, err
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

var errTooBig = errors.New("file too large")

// readCapped reads at most limit bytes of path; a larger file is errTooBig
// and is not read.
func readCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, errTooBig
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if int64(len(data)) > limit {
		return nil, errTooBig
	}
	return data, nil
}

func printOther(w io.Writer, files []otherFile, quiet bool) {
	for _, o := range files {
		if !quiet {
			for _, d := range o.diags {
				d.Path = o.path
				fmt.Fprintln(w, d.String())
			}
		}
		fmt.Fprintf(w, "%s: %s\n", o.path, o.summary)
	}
}
