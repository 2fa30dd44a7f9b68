package main

import (
	_ "embed"
	"os"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/internal/termview"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/spf13/cobra"
)

// watchUsage is the help of the watch command.
//
//go:embed help/watch.txt
var watchUsage string

func watchCmd(e *env) *cobra.Command {
	f := &reportFlags{cmd: "watch"}
	cmd, fs := f.newCommand("keep the synthesis current while agents write", watchUsage)
	var w runjob.WatchOptions
	fs.BoolVar(&w.Events, "events", false, "print NDJSON events on stdout (a hello record, then one event per change)")
	fs.BoolVar(&w.UntilComplete, "until-complete", false, "exit once every --expect agent, or without --expect every agent started, has finished")
	fs.DurationVar(&w.Settle, "settle", 10*time.Second, "with --until-complete and no --expect: wait `D` after the last agent started")
	fs.DurationVar(&w.StallTimeout, "stall-timeout", 0, "report an agent whose .partial has not changed for `D` (0: never); with --until-complete it then counts as failed")
	fs.DurationVar(&w.Debounce, "debounce", watcher.DefaultDebounce, "read a changed report once it has been quiet for `D`")
	fs.DurationVar(&w.Rescan, "rescan", watcher.DefaultRescan, "read the whole directory again every `D` (0: never)")
	fs.DurationVar(&w.Poll, "poll", 0, "read the directory every `D` instead of waiting for filesystem events (--poll alone: 500ms)")
	fs.Lookup("poll").NoOptDefVal = watcher.DefaultPoll.String()
	fs.StringVar(&w.Serve, "serve", "", "serve the live HTML page on `ADDR` (127.0.0.1:0: a free port; a host-less :PORT is loopback) and print its URL on stderr")
	fs.BoolVar(&w.ServePublic, "serve-public", false, "let --serve bind an address other than loopback (the page is then open to the network)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		o, err := f.options(e)
		if err != nil {
			return err
		}
		o.Watch = w
		o.Watch.View = e.isTerminal(e.stdout) && termview.Capable(e.getenv("TERM"))
		o.Watch.Color = e.useColor(e.stdout)
		o.Watch.Size = func() (int, int) {
			if c, r, ok := e.terminalSize(e.stdout); ok {
				return c, r
			}
			return 80, 24
		}
		if in, ok := e.stdin.(*os.File); ok && e.isTerminal(in) {
			o.Watch.Keys = in // the keys of the live view: never an orchestrator's stdin
		}
		return jobError(runjob.Watch(cmd.Context(), o))
	}
	return cmd
}
