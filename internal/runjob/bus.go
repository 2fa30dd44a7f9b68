package runjob

import (
	"context"
	"fmt"
	"os"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// busName is the bus synth and watch read the peer findings from when it
// is not the run directory's: --bus (a nats:// URL or a file), else
// $FLUXWATCH_BUS when it is a URL (a path there is an agent's, for finding
// write); "" when neither names one.
func (o *Options) busName() string {
	if o.Bus == "" && bus.IsURL(o.getenv("FLUXWATCH_BUS")) {
		return o.getenv("FLUXWATCH_BUS")
	}
	return o.Bus
}

// busFile is the --bus file, an input no report target may be ("" when the
// bus is a URL or the run's own).
func (o *Options) busFile() string {
	if bus.IsURL(o.Bus) {
		return ""
	}
	return o.Bus
}

// openBus opens the bus named (nil when none is: dir's bus files are read).
// A bus that cannot be opened or reached is an input error naming it
// without credentials. Unless quiet, it warns of bus files in dir, which
// are not read.
func (o *Options) openBus(ctx context.Context, dir string) (bus.Backend, error) {
	name := o.busName()
	if name == "" {
		return nil, nil
	}
	if o.BusOptions.Timeout <= 0 {
		return nil, inputf("%s: --bus-timeout %v: want a duration above 0", o.Command, o.BusOptions.Timeout)
	}
	if _, err := os.Stat(name); !bus.IsURL(name) && o.Command == "synth" && err != nil {
		return nil, inputf("%s: --bus: %v", o.Command, err) // watch waits for it to appear
	}
	opt := o.BusOptions
	opt.MaxLine = o.MaxLine
	src, err := busflag.Schemes.Open(ctx, name, opt)
	if err != nil {
		return nil, inputf("%s: %w", o.Command, err)
	}
	named, _ := os.Stat(name)
	files, _, _ := watcher.BusPaths(dir) // the run's own bus files, which are not read
	for _, p := range files {
		if fi, err := os.Stat(p); err == nil && !o.Quiet && (named == nil || !os.SameFile(fi, named)) {
			fmt.Fprintf(o.Stderr, "fluxwatch: warning: %s: not read: the run's bus is %s (--bus)\n", inert.Line(p), src)
		}
	}
	return src, nil
}
