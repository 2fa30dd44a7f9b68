package main

import (
	"os"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/internal/termview"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/spf13/cobra"
)

const watchUsage = `Usage: fluxwatch watch [flags] [DIR]

Keeps the synthesis of the review run in DIR current while its agents write
(DIR as for synth: discovery tiers 1-2, else the current directory). After
every change it rewrites summary.md and findings.json (and the --sarif,
--rdjsonl and --junit files) atomically, when their content changed.

On a terminal it shows a live view; off a terminal it prints one line per
change; --events prints NDJSON events instead (first a hello record). It runs
until interrupted (SIGINT or SIGTERM: it writes the final reports and exits
130 or 143) or, with --until-complete, until the run is complete. The final
reports are those synth would write. Exit codes as for synth: 0, 1 when the
--fail-on gate tripped, 2 a usage or input error, 3 an internal error.
When its events or lines cannot be written (a full disk: exit 2), or the
pipe they go to has lost its reader (| head -1: exit 141, as SIGPIPE gives),
it ends too, after writing the final reports. A reader that stops reading
holds up nothing: the reports stay current, and up to 32 MiB of events or
lines wait for it; past that, a change's events are dropped whole and a
diagnostic event then says how many. At the end, watch waits for the
reader to take what is left (after a signal, half a second at most).

With --bus nats://HOST:PORT/RUN (or such a $FLUXWATCH_BUS) the peer findings
come from the run's JetStream stream, read up to its last record at start
(a server that cannot be reached then is an error, exit 2, within
--bus-timeout), then followed: each record updates the synthesis. A server
lost later is a diagnostic, and watch goes on when it is back. Bus files in
DIR are not read, as for synth; --bus FILE follows that bus file instead.

Unlike synth, watch starts on a directory that holds nothing of a run yet,
the current directory included: an orchestrator starts it before its agents
write their first file.

A report target of "-" (standard output) is written once, with the final
reports; it cannot be combined with --events. A device or FIFO target is
written in place at every change (a FIFO only when it has a reader: the
watch never waits for one, but the final reports do, until interrupted), a
symbolic link keeps being a link.

Flags:
`

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
