package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/spf13/cobra"
)

// discoverUsage is the help of the discover command.
//
//go:embed help/discover.txt
var discoverUsage string

func discoverCmd(e *env) *cobra.Command {
	cmd := newCommand("discover", "find or create the feature directory", discoverUsage)
	fs := cmd.Flags()
	var (
		o    plan.Options
		c    plan.CreateOptions
		task = fs.String("task", "", "the task text (its feature_directory: line, and what candidates are scored against)")
	)
	taskFile := fs.String("task-file", "", "read the task from a file (- for standard input)")
	fs.StringVar(&o.Dir, "dir", "", "use this directory (it must exist)")
	fs.StringVar(&o.Root, "root", plan.DefaultFeaturesRoot, "where feature directories live")
	fs.DurationVar(&o.Window, "window", plan.DefaultWindow, "only manifests modified this recently count")
	fs.Float64Var(&o.Threshold, "threshold", plan.DefaultThreshold, "the score a best match must reach")
	create := fs.Bool("create", false, "create a feature directory when none is found")
	fs.StringVar(&c.Name, "name", "", "feature_name of a created directory (default: from the slug)")
	fs.StringVar(&c.Slug, "slug", "", "feature_slug of a created directory (default: 2-3 keywords of the task)")
	fs.StringVar(&c.By, "by", "", `created_by of a created directory (default "fluxwatch")`)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.NArg() > 0 {
			return usageErrorf("discover: unexpected argument %q (the task goes in --task)", fs.Arg(0))
		}
		switch {
		case fs.Changed("task") && fs.Changed("task-file"):
			return usageErrorf("discover: give --task or --task-file, not both")
		case *taskFile != "":
			// At most what a manifest holds: the task becomes a created
			// directory's description, and /dev/zero is not held in memory.
			data, err := fsio.ReadInput(e.stdin, *taskFile, parse.MaxYAMLSize)
			if err != nil {
				return usageErrorf("discover: --task-file: %v", err)
			}
			o.Task = string(data)
		default:
			o.Task = *task
		}
		if o.Window <= 0 || o.Threshold <= 0 || o.Threshold > 1 {
			return usageErrorf("discover: --window must be positive and --threshold in (0, 1]")
		}
		o.EnvDir = e.getenv("FLUX_OUTPUT_DIR")

		var res plan.Result
		var err error
		if *create {
			res, err = plan.FindOrCreate(o, c)
		} else {
			res, err = plan.Discover(o)
		}
		switch plan.ErrorType(err) {
		case plan.ErrAmbiguous:
			if stdin, ok := e.stdin.(io.Writer); ok && e.isTerminal(stdin) && e.isTerminal(e.stdout) {
				res, err = plan.Choose(e.stdin, e.stderr, o, c, res, *create)
			}
		}
		if err != nil {
			return discoverFail(e, res, err)
		}
		return discoverWrite(e, res, nil)
	}
	return cmd
}

// discoverFail prints what was found with the error and maps it to the exit
// code: 3 when the choice is ambiguous (SPEC §4.3) or the system failed, 2
// otherwise.
func discoverFail(e *env, res plan.Result, err error) error {
	var pe *plan.Error
	if !errors.As(err, &pe) {
		pe = &plan.Error{Type: plan.ErrIO, Message: err.Error(), Err: err}
	}
	if werr := discoverWrite(e, res, pe); werr != nil {
		return werr
	}
	code := exitUsage
	if pe.Type == plan.ErrAmbiguous || !pe.Input() {
		code = exitInternal
	}
	msg := "discover: " + pe.Message
	if pe.Suggestion != "" {
		msg += " (" + pe.Suggestion + ")"
	}
	return exitError{code, errors.New(msg)}
}

// discoverWrite prints discover's JSON; a failed write is exit 3.
func discoverWrite(e *env, res plan.Result, perr *plan.Error) error {
	if err := plan.WriteDiscover(e.stdout, res, perr); err != nil {
		return exitError{exitInternal, fmt.Errorf("write output: %w", err)}
	}
	return nil
}
