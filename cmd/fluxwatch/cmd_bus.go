package main

import (
	_ "embed"
	"fmt"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/spf13/cobra"
)

// busUsage is the help of the bus command.
//
//go:embed help/bus.txt
var busUsage string

func busCmd(e *env) *cobra.Command {
	return parentCmd(e, "bus", "serve a NATS bus hub, or relay a file bus to a stream", busUsage, busServeCmd(e), busRelayCmd(e))
}

func busRelayCmd(e *env) *cobra.Command {
	cmd := newCommand("relay", "mirror a file bus and a run's stream", busUsage)
	flags := cmd.Flags()
	var once bool
	var direction string
	var b busflag.Flags
	flags.BoolVar(&once, "once", false, "copy what is there, both ways, and exit")
	flags.StringVar(&direction, "direction", "both", "both, to-stream (file to stream) or to-file (stream to file)")
	b.RegisterNATS(flags)
	flags.IntVar(&b.MaxLine, "max-line", bus.DefaultMaxLine, "the longest line (bytes) written or read")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if flags.NArg() != 2 {
			return usageErrorf("bus relay: want FILE and nats://HOST:PORT/RUN")
		}
		file, url := flags.Arg(0), flags.Arg(1)
		if bus.IsURL(file) || !bus.IsURL(url) {
			return usageErrorf("bus relay: want a file first, then a nats://HOST:PORT/RUN")
		}
		toStream, toFile := direction == "both" || direction == "to-stream", direction == "both" || direction == "to-file"
		if !toStream && !toFile {
			return usageErrorf("bus relay: --direction %q: want both, to-stream or to-file", direction)
		}
		b.Path = url
		stream, err := b.Open(ctx, e.getenv, false)
		if err != nil {
			return usageErrorf("bus relay: %w", err)
		}
		defer stream.Close()
		return busError(bus.Relay(ctx, bus.NewFile(file, bus.Options{MaxLine: b.MaxLine}), stream, bus.RelayOptions{
			Once: once, ToStream: toStream, ToFile: toFile,
			Diag: func(d parse.Diagnostic) { fmt.Fprintln(e.stderr, inert.Line(d.String())) },
		}))
	}
	return cmd
}
