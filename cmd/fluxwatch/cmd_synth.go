package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

const synthUsage = `Usage: fluxwatch synth [flags] [DIR]

Reads the review run in DIR (default: discovery tiers 1-2, that is
$FLUX_OUTPUT_DIR or a recent .claude/features directory, else the current
directory), writes summary.md and findings.json into DIR (or --out) and exits
by the verdict gate: 0 ok, 1 the --fail-on gate tripped, 2 a usage or input
error, 3 an internal error.

Without DIR, the current directory must hold something of a run: an agent
report with a Findings Index or verdict (or a run-scoped one), a .partial or
abort marker, a bus (findings.jsonl, peer-findings.jsonl), or findings/*.yaml
or design/manifest.yaml. Otherwise synth exits 2 naming what it looked for
and writes nothing. A DIR named explicitly is always a run (an empty one has
no agents: verdict error).

With --bus nats://HOST:PORT/RUN (or such a $FLUXWATCH_BUS) the peer findings
come from the run's JetStream stream, read up to its last record when synth
starts; the reports still come from DIR. The stream is the run's bus: bus
files in DIR are then not read (a warning names them), and the reports name
it peer-findings.jsonl, so they are byte for byte those of a run whose
peer-findings.jsonl holds the same records. --bus FILE reads that bus file
instead of DIR's. A server that cannot be reached is an error (exit 2)
within --bus-timeout.

Every report target takes "-" for standard output (--out -: summary.md; at
most one thing on stdout). An existing target that is a device or FIFO is
written in place, a symbolic link keeps being a link.

Flags:
`

// synthFlags are the flags of `fluxwatch synth`.
type synthFlags struct {
	reportFlags
	bus         synthBus
	json        bool
	annotations bool
	format      string
}

func runSynth(ctx context.Context, e *env, args []string) error {
	f := synthFlags{reportFlags: reportFlags{cmd: "synth"}}
	fs := f.bus.flagSet(e, &f.reportFlags, synthUsage)
	fs.BoolVar(&f.json, "json", false, "also print findings.json on stdout")
	fs.BoolVar(&f.annotations, "annotations", false, "print GitHub Actions annotations even outside GitHub Actions")
	fs.StringVar(&f.format, "format", "", "print the synthesis on stdout as `FORMAT`: "+strings.Join(formatNames, ", ")+
		" (as --json, --annotations, or --F - and --out - for markdown)")
	dir, implicit, err := f.parse(e, fs, args)
	if err != nil {
		return err
	}
	if err := f.applyFormat(); err != nil {
		return err
	}

	opts, scanOpts, src, err := prepare(ctx, e, &f.reportFlags, &f.bus, dir)
	if err != nil {
		return err
	}
	if src != nil {
		defer src.Close()
	} else {
		// Hold the process to SPEC §9's memory for what it reads. A bus
		// stream's size is not known beforehand: with one, no limit.
		scanOpts.Sized = func(n int64) { membudget.Add(n) }
	}
	// Without DIR, a directory that holds nothing of a run is not one: say
	// what was looked for, and write nothing there.
	scanOpts.RequireRun = implicit
	targets := f.targets(e, dir)
	stdoutIsData, err := f.stdoutTargets(targets, f.stdoutData())
	if err != nil {
		return err
	}
	if err := f.evidence.apply(e, "synth", dir, &opts); err != nil {
		return err
	}
	var s *synth.Synthesis
	if src != nil {
		s, err = watcher.SynthesizeFrom(ctx, dir, src, scanOpts, opts)
	} else {
		s, err = watcher.Synthesize(ctx, dir, scanOpts, opts)
	}
	if err != nil {
		if ctx.Err() != nil {
			return exitError{exitInternal, fmt.Errorf("synth: %w", ctx.Err())}
		}
		return usageErrorf("synth: %v", err)
	}
	e.logger().Info("synthesised", "dir", dir, "base", targets.Base, "verdict", s.Verdict,
		"agents", len(s.Agents), "findings", len(s.Findings), "evidence", s.Evidence != nil)
	r, err := f.writeReports(ctx, s, targets)
	if err != nil {
		return err
	}
	// --format github: the annotations are what stdout carries.
	gh := github(e, f.annotations, stdoutIsData && f.format != "github")
	if err := gh.Write(ctx, s, r.Summary, targets.Base); err != nil {
		return usageErrorf("synth: %v", err)
	}
	switch {
	case f.json:
		synth.WriteJSON(e.stdout, s)
	case !f.quiet && !stdoutIsData:
		fmt.Fprintln(e.stdout, oneLineSummary(s, filepath.Join(targets.Dir, "summary.md")))
	}
	newTripped := f.ci.judge(e, s, f.quiet)
	if gateTripped(f.failOn, f.gateVerdict(s)) || newTripped {
		return exitError{code: exitGate}
	}
	return nil
}

// prepare is what synth and watch do before they read the run in dir: the
// configuration and the options of f, and the bus of b when it is not dir's
// own (nil then); the caller closes it.
func prepare(ctx context.Context, e *env, f *reportFlags, b *synthBus, dir string) (synth.Options, watcher.ScanOptions, bus.Backend, error) {
	if err := f.ci.configure(e, f); err != nil {
		return synth.Options{}, watcher.ScanOptions{}, nil, err
	}
	opts, scan, err := f.options(e)
	if err != nil {
		return opts, scan, nil, err
	}
	if err := f.ci.synthOptions(ctx, f.cmd, scan, &opts); err != nil {
		return opts, scan, nil, err
	}
	src, err := b.open(ctx, e, f, dir)
	return opts, scan, src, err
}

// synthBus names the bus of synth and watch when it is not the run
// directory's: --bus nats://HOST:PORT/RUN or a file, else $FLUXWATCH_BUS
// when it is a URL (a path there is an agent's, for finding write).
type synthBus struct{ busFlags }

// flagSet is the flag set of synth or watch (f.cmd): the flags they share,
// their bus's among them.
func (b *synthBus) flagSet(e *env, f *reportFlags, usage string) *flag.FlagSet {
	fs := f.flagSet(e, usage)
	b.register(fs)
	return fs
}

func (b *synthBus) register(fs *flag.FlagSet) {
	fs.StringVar(&b.path, "bus", "", "read the peer findings from `BUS`, nats://HOST:PORT/RUN or a file, not from DIR's bus files (default $FLUXWATCH_BUS when a URL)")
	fs.StringVar(&b.creds, "nats-creds", "", "a NATS credentials `FILE` for a nats:// bus (default $NATS_CREDS)")
	fs.DurationVar(&b.timeout, "bus-timeout", bus.DefaultTimeout, "how long to wait for a nats:// bus server before failing")
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
		return nil, usageErrorf("%s: %v", f.cmd, err)
	}
	named, _ := os.Stat(b.path)
	for _, name := range parse.BusNames {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !f.quiet && (named == nil || !os.SameFile(fi, named)) {
			fmt.Fprintf(e.stderr, "fluxwatch: warning: %s: not read: the run's bus is %s (--bus)\n", p, src)
		}
	}
	return src, nil
}
