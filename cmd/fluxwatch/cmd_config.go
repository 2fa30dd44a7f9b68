package main

import (
	_ "embed"

	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/spf13/cobra"
)

// This file is the config command; what synth and watch take from
// .fluxwatch.yaml is runjob's.

// configUsage is the help of the config command.
//
//go:embed help/config.txt
var configUsage string

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
