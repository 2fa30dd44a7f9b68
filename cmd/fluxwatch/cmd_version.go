package main

import (
	_ "embed"
	"fmt"
	"github.com/spf13/cobra"
	"runtime"
	"runtime/debug"
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
		fmt.Fprintf(e.stdout, "fluxwatch %s\n", versionString())
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision", "vcs.modified", "vcs.time":
					fmt.Fprintf(e.stdout, "%s: %s\n", s.Key, s.Value)
				}
			}
		}
		fmt.Fprintf(e.stdout, "go: %s\n", runtime.Version())
		return nil
	}
	return cmd
}
