package main

import (
	_ "embed"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/protocol"
)

// protocolUsage is the help of the protocol command.
//
//go:embed help/protocol.txt
var protocolUsage string

func protocolCmd(e *env) *cobra.Command {
	cmd := newCommand("protocol", "print the agent contract (report and peer findings) for an agent prompt", protocolUsage)
	flags := cmd.Flags()
	var busPath, agent, command, dir, run string
	flags.StringVar(&busPath, "bus", "", "the bus file the agents share, or nats://HOST:PORT/RUN (default $FLUXWATCH_BUS; none: the report contract alone)")
	flags.StringVar(&agent, "agent", "", "the name of the agent the prompt is for (required)")
	flags.StringVar(&dir, "dir", "", "the run directory the agent writes its report into (default: named in words)")
	flags.StringVar(&run, "run", "", "the run's `RUN` id: the report is NAME.RUN.md and opens with its run-uuid comment")
	flags.StringVar(&command, "command", "fluxwatch", "how the agent runs fluxwatch (a path, when it is not on PATH)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageErrorf("protocol: unexpected argument %q", args[0])
		}
		b := busflag.Flags{Path: busPath}
		b.Resolve(e.getenv)
		text, err := protocol.Text(protocol.Options{Agent: agent, Command: command, Dir: dir, Run: run, Bus: b.Path})
		if err != nil {
			return usageErrorf("protocol: %v", err)
		}
		fmt.Fprint(e.stdout, text)
		return nil
	}
	return cmd
}
