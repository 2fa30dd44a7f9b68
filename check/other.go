package check

import (
	"errors"
	"fmt"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// readOther reads a bus or YAML file of the kind parse.NamedFile gave it.
// The error is non-nil only when the file cannot be read at all.
func readOther(path string, kind parse.Kind) (Other, error) {
	o := Other{Path: path}
	if kind == parse.KindBus {
		return readBus(path)
	}
	data, err := fsio.ReadFile(path, watcher.DefaultMaxFile)
	if errors.Is(err, fsio.ErrTooLarge) {
		o.Diagnostics = []parse.Diagnostic{{Level: parse.LevelError, Message: fmt.Sprintf("file larger than %d bytes: not read", watcher.DefaultMaxFile)}}
		o.Summary = kind.String() + " file, not read"
		return o, nil
	}
	if err != nil {
		return o, fmt.Errorf("%s: %w", path, fsio.Cause(err))
	}
	var malformed error
	switch kind {
	case parse.KindFeature:
		m, ds, err := parse.ReadFeatureManifest(data)
		o.Diagnostics, o.Summary, malformed = ds, fmt.Sprintf("feature manifest %q", m.FeatureName), err
	case parse.KindDesign:
		m, ds, err := parse.ReadDesignManifest(data)
		o.Diagnostics, o.Summary, malformed = ds, "design manifest, "+synth.Plural(len(m.Designs), "design"), err
	default:
		s, ds, err := parse.ReadSpecialist(data)
		o.Diagnostics, o.Summary, malformed = ds, fmt.Sprintf("specialist %q, %s", s.Name, synth.Plural(len(s.Approaches), "approach", "approaches")), err
	}
	if malformed != nil {
		o.Summary += ", malformed"
	}
	return o, nil
}

// readBus reads a bus file as synth reads a run's bus (DecodeBatches): the
// same entries and diagnostics, the bytes after the last newline included.
// A FIFO or device is refused without blocking.
func readBus(path string) (Other, error) {
	o := Other{Path: path}
	fh, _, err := bus.Open(path)
	if err != nil {
		return o, fmt.Errorf("%s: %w", path, fsio.Cause(err))
	}
	defer fh.Close()
	counts := map[string]int{}
	n := 0
	o.Diagnostics, err = bus.DecodeBatches(fh, bus.DefaultMaxLine, func(batch []bus.Entry) {
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
	o.Summary = fmt.Sprintf("bus, %s (blocking %d, notable %d, stall %d, unknown %d), %s",
		synth.Plural(n, "entry", "entries"), counts[bus.Blocking], counts[bus.Notable], counts["stall"], counts[bus.Unknown],
		synth.Plural(len(o.Diagnostics), "diagnostic"))
	return o, nil
}
