package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

const synthUsage = `Usage: fluxwatch synth [flags] [DIR]

Reads the review run in DIR (default: discovery tiers 1-2, that is
$FLUX_OUTPUT_DIR or a recent .claude/features directory, else the current
directory), writes summary.md and findings.json into DIR (or --out) and exits
by the verdict gate: 0 ok, 1 the --fail-on gate tripped, 2 a usage or input
error, 3 an internal error. A report that could not be fully read trips any
gate (--fail-on, --fail-on-new) unless --allow-unreadable; with no gate, a
warning on stderr says that nothing trips on it.

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

--format F prints one rendering on stdout and writes nothing else, unlike
--json, which also writes the reports: summary.md and findings.json go where
--out (or output.out in .fluxwatch.yaml) says, and files named by --sarif,
--rdjsonl, --junit or --html are written as usual.

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

func synthCmd(e *env) *cobra.Command {
	f := &synthFlags{reportFlags: reportFlags{cmd: "synth"}}
	cmd, fs := f.newCommand(&f.bus, "synthesise a run directory once and write its reports", synthUsage)
	fs.BoolVar(&f.json, "json", false, "also print findings.json on stdout")
	fs.BoolVar(&f.annotations, "annotations", false, "print GitHub Actions annotations even outside GitHub Actions")
	fs.StringVar(&f.format, "format", "", "print the synthesis on stdout as `FORMAT`: "+strings.Join(report.FormatNames(), ", ")+
		" and write no summary.md or findings.json unless --out is given")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return f.run(cmd.Context(), e, fs) }
	return cmd
}

func (f *synthFlags) run(ctx context.Context, e *env, fs *flag.FlagSet) error {
	dir, implicit, err := f.runDir(e, fs)
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
	// --format prints the synthesis; summary.md and findings.json are
	// written only where --out (or output.out) says (docs/cli.md).
	f.printOnly = f.format != ""
	targets := f.targets(e, dir)
	stdoutIsData, err := f.checkTargets(targets, dir, f.stdoutData())
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
	if err := f.pickedRun(e, s, scanOpts.Run, dir); err != nil {
		return err // before anything is written: no report of a run picked by file times
	}
	// --format github: the annotations are what stdout carries.
	gh := github(e, f.annotations, stdoutIsData && f.format != "github")
	if err := f.writeOutputs(ctx, s, targets, gh, nil); err != nil {
		return err
	}
	switch {
	case f.json:
		err = writeStdout("synth", synth.WriteJSON(e.stdout, s))
	case !f.quiet && !stdoutIsData:
		_, err = fmt.Fprintln(e.stdout, oneLineSummary(s, filepath.Join(targets.Dir, "summary.md")))
		err = writeStdout("synth", err)
	}
	if err != nil {
		return err
	}
	return f.judge(ctx, e, s)
}
