package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/fluxwatch/fluxwatch/synth"
	flag "github.com/spf13/pflag"
)

func runSchema(ctx context.Context, e *env, args []string) error {
	fs := e.newFlagSet("schema")
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.stdout, "Usage: fluxwatch schema\n\nPrints the JSON Schema (draft 2020-12) of findings.json.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageErrorf("schema: %v", err)
	}
	if fs.NArg() > 0 {
		return usageErrorf("schema: takes no arguments")
	}
	_, err := e.stdout.Write(synth.Schema())
	return err
}
