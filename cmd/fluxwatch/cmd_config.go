package main

import (
	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/spf13/cobra"
)

// This file is the config command; what synth and watch take from
// .fluxwatch.yaml is runjob's.

const configUsage = `Usage: fluxwatch config [--config FILE] [--json] [DIR]

Prints the effective configuration of synth and watch for the run in DIR
(default: discovery tiers 1-2, $FLUX_OUTPUT_DIR or a recent feature
directory): the .fluxwatch.yaml found in the working directory or above it up
to the git top (or FILE), with the defaults filled in, as YAML (or JSON). A
.fluxwatch.yaml inside the run directory is never read (agents write it): a
warning names it. Flags given to synth or watch override the file. Exits 2
when the file is invalid, naming the file and line, or when one of its paths
leads outside its repository.

Flags:
`

func configCmd(e *env) *cobra.Command {
	cmd := newCommand("config", "print the effective configuration (.fluxwatch.yaml)", configUsage)
	fs := cmd.Flags()
	named := fs.String("config", "", "read the configuration `FILE`")
	asJSON := fs.Bool("json", false, "print JSON instead of YAML")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.NArg() > 1 {
			return usageErrorf("config: want at most one directory, got %d arguments", fs.NArg())
		}
		return jobError(runjob.ShowConfig(e.job(), *named, fs.Arg(0), *asJSON))
	}
	return cmd
}
