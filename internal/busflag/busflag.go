// Package busflag owns the flags that name a bus (--dir, --bus, --max-line,
// --nats-*, --bus-timeout), the environment variables that stand in for
// them ($FLUXWATCH_BUS, $FLUX_OUTPUT_DIR, the NATS_* a --nats-* flag
// replaces), and the bus backends a bus URL may name (Schemes). Every
// command that reads or writes a bus fills a Flags and opens the bus with
// it; what a bus holds and how it is read is package bus's. It must never
// print: its errors name the bus without credentials and the caller says
// them.
package busflag

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
	"github.com/fluxwatch/fluxwatch/finding"
	flag "github.com/spf13/pflag"
)

// Schemes are the bus backends a bus URL may name; a path is the file. A
// new backend registers its opener here.
var Schemes = bus.Schemes{natsbus.Scheme: natsbus.Open}

// Flags are the flags that name a bus and how to reach it.
type Flags struct {
	Dir, Path string
	MaxLine   int
	Creds     string
	Timeout   time.Duration
	// nats are the --nats-* files that stand for the NATS_* variables of
	// the same names (the nkey seed, the CA, the client certificate and
	// key), by variable.
	nats map[string]*string
}

// Register adds --dir, --bus and --max-line, and the flags of a nats://
// bus's server, to fs.
func (b *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&b.Dir, "dir", "", "the output directory holding the bus (default $FLUX_OUTPUT_DIR)")
	fs.StringVar(&b.Path, "bus", "", "the bus file itself, or nats://HOST:PORT/RUN (default $FLUXWATCH_BUS)")
	fs.IntVar(&b.MaxLine, "max-line", bus.DefaultMaxLine, "the longest line (bytes) written or read")
	b.RegisterNATS(fs)
}

// RegisterNATS adds the flags of a nats:// bus's server to fs: its
// credentials (the NATS way: a creds file, an nkey seed, TLS files; a
// token or a password go in the URL or $NATS_TOKEN, $NATS_USER and
// $NATS_PASSWORD, never on a command line) and its timeout.
func (b *Flags) RegisterNATS(fs *flag.FlagSet) {
	fs.StringVar(&b.Creds, "nats-creds", "", "a NATS credentials `FILE` for a nats:// bus (default $NATS_CREDS)")
	b.nats = map[string]*string{}
	for _, f := range []struct{ name, env, usage string }{
		{"nats-nkey", "NATS_NKEY", "the nkey seed `FILE` of a nats:// bus's user"},
		{"nats-ca", "NATS_CA", "the CA `FILE` that signs a nats:// bus server's TLS certificate"},
		{"nats-cert", "NATS_CERT", "the client certificate `FILE` for a nats:// bus server that asks for one"},
		{"nats-key", "NATS_KEY", "the key `FILE` of --nats-cert"},
	} {
		b.nats[f.env] = fs.String(f.name, "", f.usage+" (default $"+f.env+")")
	}
	fs.DurationVar(&b.Timeout, "bus-timeout", bus.DefaultTimeout, "how long to wait for a nats:// bus server before failing")
}

// Getenv is getenv with the NATS_* variables the --nats-* flags give
// replaced by them: natsbus reads its credentials from there.
func (b *Flags) Getenv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if v := b.nats[k]; v != nil && *v != "" {
			return *v
		}
		return getenv(k)
	}
}

// Resolve applies $FLUXWATCH_BUS when neither --bus nor --dir is given: the
// one place that decides the bus a command uses before Remote or Open.
func (b *Flags) Resolve(getenv func(string) string) {
	if b.Path == "" && b.Dir == "" {
		b.Path = getenv("FLUXWATCH_BUS")
	}
}

// Remote reports whether the bus is a URL (nats://…), not a file.
func (b *Flags) Remote() bool { return bus.IsURL(b.Path) }

// Options are the options of opening the bus, the environment read through
// getenv (and the --nats-* flags).
func (b *Flags) Options(getenv func(string) string, noSync bool) bus.Options {
	return bus.Options{MaxLine: b.MaxLine, NoSync: noSync, Timeout: b.Timeout, Getenv: b.Getenv(getenv), Creds: b.Creds}
}

// Open opens the bus named by --bus (a URL or a file) as a bus.Backend. A
// bus that cannot be reached is an error naming it without credentials.
func (b *Flags) Open(ctx context.Context, getenv func(string) string, noSync bool) (bus.Backend, error) {
	return Schemes.Open(ctx, b.Path, b.Options(getenv, noSync))
}

// Target is the bus of finding write and read: a URL opened on demand,
// the --bus file, or --dir (default $FLUX_OUTPUT_DIR).
func (b *Flags) Target(getenv func(string) string) (finding.Target, error) {
	b.Resolve(getenv)
	switch {
	case b.Dir != "" && b.Path != "":
		return finding.Target{}, errors.New("give --dir or --bus, not both")
	case b.Remote():
		return finding.Target{Open: func(ctx context.Context) (bus.Backend, error) { return b.Open(ctx, getenv, false) }}, nil
	case b.Path != "":
		return finding.Target{Path: b.Path}, nil
	}
	if dir := cmp.Or(b.Dir, getenv("FLUX_OUTPUT_DIR")); dir != "" {
		return finding.Target{Dir: dir}, nil
	}
	return finding.Target{}, errors.New("name the bus with --dir DIR or --bus PATH")
}
