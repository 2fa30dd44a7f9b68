package main

import (
	"fmt"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/verify"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/spf13/cobra"
)

const verifyUsage = `Usage: fluxwatch verify [flags] SYNTHESIS.md RUN

Checks a synthesis written by someone else (an LLM synthesis agent, a
person) against the run in directory RUN, synthesised as 'fluxwatch synth'
would. Each claim (a table row, bullet, numbered item or finding heading
that states a finding) is grounded, wrong or unverifiable: wrong when it
rates a finding above every agent (severity-raised), names an agent that did
not report it or counts more agents than said it (wrong-count), or states
what no agent said (invented). A P0/P1 of an agent's findings index that
the synthesis neither cites by ID nor states in words is a missing-blocker
(one read from a report without an index is a note). Wrong claims and
missing blockers are printed with their evidence and trip the gate;
unverifiable claims and lowered severities (severity-dropped) are notes.
See docs/verify.md. Exit codes: 0 no wrong claim, 1 wrong claims or missing
blockers, 2 a usage or input error, 3 an internal error.

Flags:
`

// maxSynthesis bounds the synthesis and each agent report verify reads.
const maxSynthesis = 64 << 20

func verifyCmd(e *env) *cobra.Command {
	cmd := newCommand("verify", "check a synthesis written by someone else against the run", verifyUsage)
	f := runjob.Options{Command: "verify"}
	var jsonOut, quiet bool
	var sarifPath string
	fs := cmd.Flags()
	fs.BoolVar(&jsonOut, "json", false, "print the result as JSON")
	fs.StringVar(&sarifPath, "sarif", "", "also write the problems as a SARIF 2.1.0 log to `FILE` (- for stdout)")
	fs.BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors")
	fs.StringVar(&f.Run, "run", "", "synthesise run `RUN` (default: $FLUX_RUN_UUID, else the newest run)")
	fs.BoolVar(&f.StrictRun, "strict-run", false, "leave unscoped (legacy) reports out of the selected run")
	fs.StringSliceVar(&f.Expect, "expect", nil, "`AGENTS` launched (comma-separated)")
	fs.StringVar(&f.Dedup, "dedup", "fuzzy", "merge findings by `MODE`: fuzzy or exact")
	fs.IntVar(&f.MaxLine, "max-line", bus.DefaultMaxLine, "skip bus lines longer than `BYTES`")
	fs.IntVar(&f.Jobs, "jobs", 8, "parse at most `N` files at once")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if fs.NArg() != 2 {
			return usageErrorf("verify: want SYNTHESIS.md and RUN, got %d arguments", fs.NArg())
		}
		path, dir := fs.Arg(0), fs.Arg(1)
		src, err := fsio.ReadFile(path, maxSynthesis)
		if err != nil {
			return usageErrorf("verify: %v", err)
		}
		if _, err := fsio.StatDir(dir); err != nil {
			return usageErrorf("verify: %v", err)
		}
		f.Getenv, f.Version = e.getenv, versionString()
		opts, scanOpts, err := runjob.Settings(f)
		if err != nil {
			return jobError(err)
		}
		opts.EvidenceNote = "not checked by verify"
		s, err := watcher.Synthesize(ctx, dir, scanOpts, opts)
		if err != nil {
			if ctx.Err() != nil {
				return exitError{exitInternal, fmt.Errorf("verify: %w", ctx.Err())}
			}
			return usageErrorf("verify: %v", err)
		}
		if len(s.AgentsCompleted) == 0 {
			return usageErrorf("verify: %s holds no completed agent report: nothing to verify against", dir)
		}
		reports := map[string][]byte{}
		for _, a := range s.Agents {
			if a.File == nil || !a.Status.Completed() {
				continue
			}
			data, err := fsio.ReadFile(filepath.Join(dir, *a.File), maxSynthesis)
			if err != nil {
				continue // changed since the scan: its findings are in s all the same
			}
			reports[a.Name] = data
		}
		r := verify.Check(verify.Input{Synthesis: src, Run: s, Reports: reports})
		sarifPath = runjob.StdoutTarget(sarifPath)
		if sarifPath != "" {
			data, err := r.SARIF(path, versionString())
			if err != nil {
				return exitError{exitInternal, fmt.Errorf("verify: %w", err)}
			}
			if sarifPath == "-" {
				e.stdout.Write(data)
			} else if _, err := fsio.WriteFile(ctx, sarifPath, data, 0o644); err != nil {
				return usageErrorf("verify: %v", err)
			}
		}
		switch {
		case jsonOut:
			e.stdout.Write(r.JSON(path, dir))
		case !quiet && sarifPath != "-":
			e.stdout.Write(r.Text(path))
		}
		if r.Ungrounded() {
			return exitError{code: exitGate}
		}
		return nil
	}
	return cmd
}
