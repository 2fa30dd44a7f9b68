package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/watcher"
	flag "github.com/spf13/pflag"
)

// This file holds the flags that name a bus and open it, shared by every
// command that reads or writes one: finding, bus, protocol and mcp
// (busFlags), synth and watch (synthBus).

// busFlags are the flags that name a bus.
type busFlags struct {
	dir, path string
	maxLine   int
	creds     string
	timeout   time.Duration
	// nats are the --nats-* files that stand for the NATS_* variables of
	// the same names (the nkey seed, the CA, the client certificate and
	// key), by variable.
	nats map[string]*string
}

func (b *busFlags) register(flags *flag.FlagSet) {
	flags.StringVar(&b.dir, "dir", "", "the output directory holding the bus (default $FLUX_OUTPUT_DIR)")
	flags.StringVar(&b.path, "bus", "", "the bus file itself, or nats://HOST:PORT/RUN (default $FLUXWATCH_BUS)")
	flags.IntVar(&b.maxLine, "max-line", bus.DefaultMaxLine, "the longest line (bytes) written or read")
	b.registerNATS(flags)
}

// registerNATS registers the flags of a nats:// bus's server: its
// credentials (the NATS way: a creds file, an nkey seed, TLS files; a
// token or a password go in the URL or $NATS_TOKEN, $NATS_USER and
// $NATS_PASSWORD, never on a command line) and its timeout.
func (b *busFlags) registerNATS(flags *flag.FlagSet) {
	flags.StringVar(&b.creds, "nats-creds", "", "a NATS credentials `FILE` for a nats:// bus (default $NATS_CREDS)")
	b.nats = map[string]*string{}
	for _, f := range []struct{ name, env, usage string }{
		{"nats-nkey", "NATS_NKEY", "the nkey seed `FILE` of a nats:// bus's user"},
		{"nats-ca", "NATS_CA", "the CA `FILE` that signs a nats:// bus server's TLS certificate"},
		{"nats-cert", "NATS_CERT", "the client certificate `FILE` for a nats:// bus server that asks for one"},
		{"nats-key", "NATS_KEY", "the key `FILE` of --nats-cert"},
	} {
		b.nats[f.env] = flags.String(f.name, "", f.usage+" (default $"+f.env+")")
	}
	flags.DurationVar(&b.timeout, "bus-timeout", bus.DefaultTimeout, "how long to wait for a nats:// bus server before failing")
}

// getenv is e.getenv with the NATS_* variables the --nats-* flags give
// replaced by them: natsbus reads its credentials from there.
func (b *busFlags) getenv(e *env) func(string) string {
	return func(k string) string {
		if v := b.nats[k]; v != nil && *v != "" {
			return *v
		}
		return e.getenv(k)
	}
}

// busSchemes are the bus backends a --bus URL may name; a path is the file.
var busSchemes = bus.Schemes{natsbus.Scheme: natsbus.Open}

// resolve applies $FLUXWATCH_BUS when neither --bus nor --dir is given.
// It is the one place that decides the bus a command uses before paths
// or open.
func (b *busFlags) resolve(e *env) {
	if b.path == "" && b.dir == "" {
		b.path = e.getenv("FLUXWATCH_BUS")
	}
}

// remote reports whether the bus is a URL (nats://…), not a file.
func (b *busFlags) remote() bool { return bus.IsURL(b.path) }

// open opens the bus named by --bus (a URL or a file) as a bus.Backend. A
// bus that cannot be reached is an error naming it without credentials.
func (b *busFlags) open(ctx context.Context, e *env, noSync bool) (bus.Backend, error) {
	if b.remote() {
		if _, err := url.Parse(b.path); err != nil {
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err // ue.URL may hold a password
			}
			return nil, fmt.Errorf("bus URL: %w: %w", errBusURL, err)
		}
	}
	return busSchemes.Open(ctx, b.path, bus.Options{MaxLine: b.maxLine, NoSync: noSync, Timeout: b.timeout,
		Getenv: b.getenv(e), Creds: b.creds})
}

// errBusURL is wrapped by the error of opening a bus URL that does not
// parse as one.
var errBusURL = errors.New("not a URL")

// busOpenError is the error of a bus that cannot be opened: a URL that is
// wrong or a server that cannot be reached is an input error (exit 2), as
// synth and watch say it. It wraps err: an open ended by a signal is not an
// error to print.
func busOpenError(cmd string, err error) error {
	return usageError{fmt.Errorf("%s: %w", cmd, err)}
}

// busError is the error of cmd (already named in err) reading or writing a
// bus once it is open: a server that stops answering, or that accepted the
// connection and never answers a request within the bus timeout
// (bus.ErrUnavailable), cannot be reached, an input error (exit 2) as at
// the open; other errors are internal (exit 3).
func busError(err error) error {
	if errors.Is(err, bus.ErrUnavailable) {
		return usageError{err}
	}
	return err
}

// synthBus names the bus of synth and watch when it is not the run
// directory's: --bus nats://HOST:PORT/RUN or a file, else $FLUXWATCH_BUS
// when it is a URL (a path there is an agent's, for finding write).
type synthBus struct{ busFlags }

func (b *synthBus) register(fs *flag.FlagSet) {
	fs.StringVar(&b.path, "bus", "", "read the peer findings from `BUS`, nats://HOST:PORT/RUN or a file, not from DIR's bus files (default $FLUXWATCH_BUS when a URL)")
	b.registerNATS(fs)
}

// open opens the bus named (nil when none is: dir's bus files are read). A
// bus that cannot be opened or reached is an input error (exit 2) naming it
// without credentials. Unless -q, it warns of bus files in dir, which are
// not read.
func (b *synthBus) open(ctx context.Context, e *env, f *reportFlags, dir string) (bus.Backend, error) {
	if b.path == "" && bus.IsURL(e.getenv("FLUXWATCH_BUS")) {
		b.path = e.getenv("FLUXWATCH_BUS")
	}
	if b.path == "" {
		return nil, nil
	}
	if b.timeout <= 0 {
		return nil, usageErrorf("%s: --bus-timeout %v: want a duration above 0", f.cmd, b.timeout)
	}
	if _, err := os.Stat(b.path); !bus.IsURL(b.path) && f.cmd == "synth" && err != nil {
		return nil, usageErrorf("%s: --bus: %v", f.cmd, err) // watch waits for it to appear
	}
	b.maxLine = f.maxLine
	src, err := b.busFlags.open(ctx, e, false)
	if err != nil {
		return nil, busOpenError(f.cmd, err)
	}
	named, _ := os.Stat(b.path)
	files, _, _ := watcher.BusPaths(dir) // the run's own bus files, which are not read
	for _, p := range files {
		if fi, err := os.Stat(p); err == nil && !f.quiet && (named == nil || !os.SameFile(fi, named)) {
			fmt.Fprintf(e.stderr, "fluxwatch: warning: %s: not read: the run's bus is %s (--bus)\n", inert.Line(p), src)
		}
	}
	return src, nil
}
