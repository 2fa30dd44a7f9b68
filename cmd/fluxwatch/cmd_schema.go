package main

import (
	"context"
	"fmt"

	"github.com/fluxwatch/fluxwatch/synth"
)

func runSchema(ctx context.Context, e *env, args []string) error {
	fs := e.newFlagSet("schema")
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.stdout, "Usage: fluxwatch schema\n\nPrints the JSON Schema (draft 2020-12) of findings.json.")
	}
	if err := parseHelp(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("schema: takes no arguments")
	}
	_, err := e.stdout.Write(synth.Schema())
	return err
}
