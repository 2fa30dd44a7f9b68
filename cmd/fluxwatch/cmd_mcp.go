package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/mcpserver"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

// mcpUsage is the help of the mcp command.
//
//go:embed help/mcp.txt
var mcpUsage string

func mcpCmd(e *env) *cobra.Command {
	cmd := newCommand("mcp", "serve fetch_peer_findings and get_synthesis over MCP on stdio", mcpUsage)
	flags := cmd.Flags()
	var root string
	var callTimeout time.Duration
	flags.StringVar(&root, "root", ".", "the directory every output_dir must lie under")
	flags.DurationVar(&callTimeout, "call-timeout", 30*time.Second, "how long a tool call may take before it ends with a tool error")
	var run string
	flags.StringVar(&run, "run", "", "get_synthesis reads run `RUN`, as synth --run does (default: $FLUX_RUN_UUID, else the newest run)")
	var b busflag.Flags
	flags.StringVar(&b.Path, "bus", "", "a nats://HOST:PORT/RUN stream fetch_peer_findings reads (default $FLUXWATCH_BUS when a URL)")
	b.RegisterNATS(flags) // the credentials and timeout every bus client has
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return runMCP(cmd.Context(), e, flags, root, callTimeout, run, b)
	}
	return cmd
}

// runMCP is the adapter of `fluxwatch mcp`: the flags, the stream they
// name, then one mcpserver.Serve.
func runMCP(ctx context.Context, e *env, flags *flag.FlagSet, root string, callTimeout time.Duration, run string, b busflag.Flags) error {
	b.Resolve(e.getenv)
	cfg := mcpserver.Config{Root: root, CallTimeout: callTimeout, Version: versionString(), Log: e.stderr}
	switch {
	case b.Path != "" && !b.Remote():
		if flags.Changed("bus") {
			return usageErrorf("mcp: --bus %q: want nats://HOST:PORT/RUN (a file bus is read from output_dir)", b.Path)
		}
	case b.Path != "":
		bk, err := b.Open(ctx, e.getenv, false)
		if err != nil {
			return usageErrorf("mcp: %w", err)
		}
		defer bk.Close()
		cfg.Stream = bk
	}
	if flags.NArg() > 0 {
		return usageErrorf("mcp: unexpected argument %q", flags.Arg(0))
	}
	if callTimeout <= 0 {
		return usageErrorf("mcp: --call-timeout %v: want a duration above 0", callTimeout)
	}
	var err error
	if cfg.Run, err = selectRun(e, "mcp", run); err != nil {
		return err
	}
	err = mcpserver.Serve(ctx, cfg, e.stdin, e.stdout)
	switch {
	case errors.Is(err, mcpserver.ErrConfig):
		return usageErrorf("mcp: %v", err)
	case err != nil && ctx.Err() == nil:
		return fmt.Errorf("mcp: %w", err)
	}
	return err
}
