package main

import (
	_ "embed"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fluxwatch/fluxwatch/check"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// checkUsage is the help of the check command.
//
//go:embed help/check.txt
var checkUsage string

// checkCmd is `fluxwatch check`: check.Paths reads, cmd chooses the
// printing and the exit code (2 for an unreadable input, 1 for --strict
// with a report that is not valid).
func checkCmd(e *env) *cobra.Command {
	cmd := newCommand("check", "parse agent reports and print diagnostics", checkUsage)
	fs := cmd.Flags()
	var o check.Options
	asJSON := fs.Bool("json", false, "print the parsed reports as a JSON array")
	quiet := fs.BoolP("quiet", "q", false, "print only the summary line of each report")
	fs.BoolVar(&o.Evidence, "evidence", false, "also check every evidence claim and file:line reference against the repository")
	fs.StringVar(&o.Repo, "repo", "", "with --evidence: the repository in `DIR` (default: the git work tree holding each report)")
	runFlag := fs.String("run", "", "judge reports as of run `RUN`, as synth does (default: $FLUX_RUN_UUID, else a directory's newest run)")
	fs.BoolVar(&o.Scan.StrictRun, "strict-run", false, "leave unscoped (legacy) reports out of the selected run")
	fs.BoolVar(&o.AsFinished, "strict", false, "exit 1 unless every report is valid (the strict grammar); a .partial is judged as the report it becomes")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErrorf("check: no PATH given")
		}
		if o.Repo != "" && !o.Evidence {
			return usageErrorf("check: --repo needs --evidence")
		}
		run, err := selectRun(e, "check", *runFlag)
		if err != nil {
			return err
		}
		o.Scan = watcher.ScanOptions{Run: run, StrictRun: o.Scan.StrictRun}
		o.Ceilings = e.getenv("GIT_CEILING_DIRECTORIES")
		o.Sized = func(n int64) { membudget.Add(n) }
		res, err := check.Paths(cmd.Context(), args, o)
		if ctx := cmd.Context(); ctx.Err() != nil {
			return ctx.Err() // a signal: main says nothing of the cancellation
		}
		if err != nil {
			return usageErrorf("check: %v", err)
		}
		if *asJSON {
			err = res.WriteJSON(e.stdout, e.stderr, *quiet)
		} else {
			err = res.WriteText(e.stdout, *quiet)
		}
		if err != nil {
			return exitError{exitInternal, fmt.Errorf("write output: %w", err)}
		}
		for _, err := range res.Unreadable {
			fmt.Fprintf(e.stderr, "fluxwatch: %s\n", inert.Line(err.Error()))
		}
		switch {
		case len(res.Unreadable) > 0:
			return exitError{code: exitUsage}
		case o.AsFinished && !res.Strict(e.stderr):
			return exitError{code: exitGate}
		}
		return nil
	}
	return cmd
}
