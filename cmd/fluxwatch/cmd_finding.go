package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/finding"
	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
)

// findingUsage is the help of the finding command.
//
//go:embed help/finding.txt
var findingUsage string

func findingCmd(e *env) *cobra.Command {
	return parentCmd(e, "finding", "write to or read from the peer-findings bus", findingUsage, findingWriteCmd(e), findingReadCmd(e))
}

// findingSub returns the finding subcommand name, with the flags that
// name the bus.
func findingSub(name, summary string) (*cobra.Command, *busflag.Flags) {
	cmd := newCommand(name, summary, findingUsage)
	b := &busflag.Flags{}
	b.Register(cmd.Flags())
	return cmd, b
}

// findingTarget is the bus b names (b.Target); cmd takes no arguments.
func findingTarget(e *env, b *busflag.Flags, cmd string, args []string) (finding.Target, error) {
	if len(args) > 0 {
		return finding.Target{}, usageErrorf("%s: unexpected argument %q", cmd, args[0])
	}
	t, err := b.Target(e.getenv)
	if err != nil {
		return t, usageErrorf("%s: %v", cmd, err)
	}
	return t, nil
}

// findingError names cmd in err: an input error exits 2, others 3.
func findingError(cmd string, err error) error {
	if err == nil {
		return nil
	}
	err = fmt.Errorf("%s: %w", cmd, err)
	var in *finding.InputError
	if errors.As(err, &in) {
		return usageError{err}
	}
	return err
}

func findingWriteCmd(e *env) *cobra.Command {
	cmd, b := findingSub("write", "append one finding to the bus")
	flags := cmd.Flags()
	var o finding.WriteOptions
	ent := &o.Entry
	var asJSON, sync bool
	flags.StringVar(&ent.Severity, "severity", "", "blocking or notable (required)")
	flags.StringVar(&ent.Agent, "agent", "", "your agent name (required)")
	flags.StringVar(&ent.Category, "category", "", "a short topic, like auth or data-loss (required)")
	flags.StringVar(&ent.Summary, "summary", "", "what is wrong and why it matters; - reads it from standard input (required)")
	flags.StringArrayVar(&ent.FileRefs, "file-ref", nil, "PATH:LINE or PATH:START-END the finding is about (repeatable)")
	flags.StringVar(&ent.Timestamp, "timestamp", "", "RFC 3339 time of the finding (default now)")
	flags.StringVar(&ent.Model, "model", "", "the model you run on, for provenance (optional)")
	flags.StringVar(&ent.RunID, "run-id", "", "your run id, for provenance (optional)")
	flags.BoolVar(&o.NoSync, "no-sync", false, "do not fdatasync the bus before exiting 0 (throwaway runs: the record may be lost in a crash)")
	flags.BoolVar(&sync, "sync", true, "fdatasync the bus before exiting 0 (the default)")
	flags.MarkHidden("sync") // kept for scripts written when syncing was opt-in
	flags.BoolVar(&asJSON, "json", false, `print {"bus":PATH,"offset":N} after writing`)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		t, err := findingTarget(e, b, "finding write", args)
		if err != nil {
			return err
		}
		o.Stdin, o.Now, o.MaxLine = e.stdin, time.Now, b.MaxLine
		written, err := finding.Write(cmd.Context(), t, o)
		if err != nil {
			return findingError("finding write", err)
		}
		if asJSON {
			j, _ := json.Marshal(written)
			fmt.Fprintf(e.stdout, "%s\n", j)
		}
		return nil
	}
	return cmd
}

func findingReadCmd(e *env) *cobra.Command {
	cmd, b := findingSub("read", "print the bus, or follow it")
	flags := cmd.Flags()
	var o finding.ReadOptions
	var quiet bool
	flags.StringVar(&o.Filter.Severity, "severity", bus.All, "blocking, notable or all (all includes agent events such as stalls)")
	flags.StringVar(&o.Filter.Agent, "agent", "", "only this agent's entries")
	flags.Int64Var(&o.Since, "since", 0, "only lines starting at or after this byte offset (of one bus file)")
	flags.BoolVar(&o.Follow, "follow", false, "keep printing entries as they are appended (NDJSON), until interrupted")
	flags.BoolVar(&o.Offsets, "offsets", false, `add "offset" (of the line) and "line" to each entry; --since OFFSET+1 goes on after it`)
	flags.DurationVar(&o.Interval, "interval", bus.DefaultInterval, "with --follow: the longest wait between two polls")
	flags.BoolVarP(&quiet, "quiet", "q", false, "do not print diagnostics about the bus on stderr")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		t, err := findingTarget(e, b, "finding read", args)
		if err != nil {
			return err
		}
		o.MaxLine = b.MaxLine
		if !quiet {
			o.Diag = func(d parse.Diagnostic) { fmt.Fprintln(e.stderr, inert.Line(d.String())) }
		}
		o.Skipped = func(err error) {
			fmt.Fprintf(e.stderr, "fluxwatch: warning: finding read: %s: skipped\n", inert.Line(err.Error()))
		}
		return findingError("finding read", finding.Read(cmd.Context(), t, o, e.stdout))
	}
	return cmd
}
