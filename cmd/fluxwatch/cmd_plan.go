package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fluxwatch/fluxwatch/plan"
)

// planCmd is `fluxwatch plan`: plan.Command parses its own flags, since its
// errors are JSON envelopes; --plan-dir is declared here for completion and
// man pages.
func planCmd(e *env) *cobra.Command {
	var help strings.Builder
	plan.Usage(&help)
	cmd := newCommand("plan", "manage specialist findings (envoy plan)", help.String())
	cmd.DisableFlagParsing = true
	cmd.Flags().String("plan-dir", "", "the plan root (default $FLUXWATCH_PLAN_DIR, else <git top level>/.claude/plans/<branch>)")
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		for _, a := range args {
			if plan.IsCommand(a) {
				return nil, cobra.ShellCompDirectiveDefault
			}
		}
		return prefixed(plan.Commands(), prefix), cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		err := plan.Command(cmd.Context(), plan.Env{Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr, Getenv: e.getenv}, args)
		var x *plan.ExitError
		if errors.As(err, &x) {
			return exitError{x.Code, x.Err}
		}
		if err == nil && isHelp(args) {
			fmt.Fprintf(e.stdout, "\nExamples:\n%s", cmd.Example)
		}
		return err
	}
	return cmd
}
