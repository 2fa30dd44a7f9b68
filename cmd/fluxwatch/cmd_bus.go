package main

import (
	"fmt"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/spf13/cobra"
)

const busUsage = `Usage:
  fluxwatch bus serve [--store DIR] [--listen HOST:PORT] [credentials] [limits]
  fluxwatch bus relay [--once] [--direction both|to-stream|to-file] FILE nats://HOST:PORT/RUN

serve runs an embedded NATS server with JetStream (default 127.0.0.1:4222,
streams kept in --store), for a team that has no NATS server: agents then
write with --bus nats://HOST:PORT/RUN. It runs until interrupted. It is in
binaries built with -tags hub (make build-hub) only: the server adds ~14 MB.

The hub is closed by default: it listens on loopback. An address other than
loopback needs credentials, named as nats-server names them: --auth TOKEN,
--user U --pass P, --nkey PUBKEY (repeatable), or --tlsverify with
--tlscacert and --tlscert/--tlskey (client certificates); or --public, which
opens it to anyone who can reach it (a loud warning). Clients pass theirs the
NATS way: nats://TOKEN@ or nats://USER:PASS@ in the URL, $NATS_TOKEN,
$NATS_USER/$NATS_PASSWORD, --nats-nkey or $NATS_NKEY (a seed file),
--nats-creds or $NATS_CREDS, --nats-ca, --nats-cert, --nats-key (or $NATS_CA,
$NATS_CERT, $NATS_KEY). Every stream gets the hub's limits, whatever its
writer asks for: --max-line (1 MiB a record), --max-bytes (1 GiB a run: a
full stream refuses records, it never drops acknowledged ones), --max-age
(30 days), --max-store (10 GiB in all). A writer over one is refused at once,
naming it (finding write exits 2). The start line names a URL others can
reach and no secret.

relay mirrors a file bus into a run's stream and the stream back into the
file, so shell-helper agents and networked agents share one run; watch and
synth read the file. A record already on the other side (same canonical
line) is not copied again, so relaying twice, or both ways, copies each
record once. Records that are not findings (stall events) stay where they
are. With --once it copies what is there and exits.
`

func busCmd(e *env) *cobra.Command {
	return parentCmd(e, "bus", "serve a NATS bus hub, or relay a file bus to a stream", busUsage, busServeCmd(e), busRelayCmd(e))
}

func busRelayCmd(e *env) *cobra.Command {
	cmd := newCommand("relay", "mirror a file bus and a run's stream", busUsage)
	flags := cmd.Flags()
	var once bool
	var direction string
	var b busFlags
	flags.BoolVar(&once, "once", false, "copy what is there, both ways, and exit")
	flags.StringVar(&direction, "direction", "both", "both, to-stream (file to stream) or to-file (stream to file)")
	b.registerNATS(flags)
	flags.IntVar(&b.maxLine, "max-line", bus.DefaultMaxLine, "the longest line (bytes) written or read")
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
		b.path = url
		stream, err := b.open(ctx, e, false)
		if err != nil {
			return busOpenError("bus relay", err)
		}
		defer stream.Close()
		return busError(bus.Relay(ctx, bus.NewFile(file, bus.Options{MaxLine: b.maxLine}), stream, bus.RelayOptions{
			Once: once, ToStream: toStream, ToFile: toFile,
			Diag: func(d parse.Diagnostic) { fmt.Fprintln(e.stderr, inert.Line(d.String())) },
		}))
	}
	return cmd
}
