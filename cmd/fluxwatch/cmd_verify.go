package main

import (
	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/runjob"
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

func verifyCmd(e *env) *cobra.Command {
	cmd := newCommand("verify", "check a synthesis written by someone else against the run", verifyUsage)
	o := runjob.Options{Command: "verify"}
	var v runjob.VerifyOptions
	fs := cmd.Flags()
	fs.BoolVar(&v.JSON, "json", false, "print the result as JSON")
	fs.StringVar(&v.SARIF, "sarif", "", "also write the problems as a SARIF 2.1.0 log to `FILE` (- for stdout)")
	fs.BoolVarP(&o.Quiet, "quiet", "q", false, "print nothing but errors")
	fs.StringVar(&o.Run, "run", "", "synthesise run `RUN` (default: $FLUX_RUN_UUID, else the newest run)")
	fs.BoolVar(&o.StrictRun, "strict-run", false, "leave unscoped (legacy) reports out of the selected run")
	fs.StringSliceVar(&o.Expect, "expect", nil, "`AGENTS` launched (comma-separated)")
	fs.StringVar(&o.Dedup, "dedup", "fuzzy", "merge findings by `MODE`: fuzzy or exact")
	fs.IntVar(&o.MaxLine, "max-line", bus.DefaultMaxLine, "skip bus lines longer than `BYTES`")
	fs.IntVar(&o.Jobs, "jobs", 8, "parse at most `N` files at once")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.NArg() != 2 {
			return usageErrorf("verify: want SYNTHESIS.md and RUN, got %d arguments", fs.NArg())
		}
		v.Synthesis, o.Dir = fs.Arg(0), fs.Arg(1)
		o.Env = e.job()
		return jobError(runjob.Verify(cmd.Context(), o, v))
	}
	return cmd
}
