package main

import (
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/spf13/cobra"
)

func schemaCmd(e *env) *cobra.Command {
	cmd := newCommand("schema", "print the JSON Schema of findings.json", "Usage: fluxwatch schema\n\nPrints the JSON Schema (draft 2020-12) of findings.json.\n")
	fs := cmd.Flags()
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.NArg() > 0 {
			return usageErrorf("schema: takes no arguments")
		}
		_, err := e.stdout.Write(synth.Schema())
		return err
	}
	return cmd
}
