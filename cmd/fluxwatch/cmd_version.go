package main

import (
	_ "embed"
	"fmt"

	"github.com/fluxwatch/fluxwatch/internal/buildinfo"
	"github.com/spf13/cobra"
)

// versionUsage is the help of the version command.
//
//go:embed help/version.txt
var versionUsage string

func versionCmd(e *env) *cobra.Command {
	cmd := newCommand("version", "print the version", versionUsage)
	fs := cmd.Flags()
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.NArg() > 0 {
			return usageErrorf("version: want no arguments")
		}
		fmt.Fprint(e.stdout, buildinfo.Describe(version))
		return nil
	}
	return cmd
}
