package main

import (
	_ "embed"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/spf13/cobra"
)

// verifyUsage is the help of the verify command.
//
//go:embed help/verify.txt
var verifyUsage string

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
