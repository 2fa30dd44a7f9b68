package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
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
		r := &relay{
			file:   bus.NewFile(file, bus.Options{MaxLine: b.maxLine}),
			stream: stream,
			seen:   map[[32]byte]bool{},
			diag:   func(d parse.Diagnostic) { fmt.Fprintln(e.stderr, inert.Line(d.String())) },
		}
		return busError(r.run(ctx, once, toStream, toFile))
	}
	return cmd
}

// relay copies records between a file bus and a stream, each record once:
// seen holds the SHA-256 of the canonical line of every record on either
// side, so a copied record coming back is not copied again.
type relay struct {
	file, stream bus.Backend
	diag         func(parse.Diagnostic)

	mu   sync.Mutex
	seen map[[32]byte]bool
	away map[bus.Backend]bool // a side that did not answer, said once
}

// mark records e as present and reports whether it was new.
func (r *relay) mark(e bus.Entry) bool {
	h := sha256.Sum256(bus.Encode(e))
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen[h] {
		return false
	}
	r.seen[h] = true
	return true
}

// copyTo returns the function that appends each new finding to dst.
func (r *relay) copyTo(ctx context.Context, dst bus.Backend) func(bus.Entry) error {
	return func(e bus.Entry) error {
		if e.Kind != bus.EntryFinding || bus.Validate(e) != nil || !r.mark(e) {
			return nil
		}
		return r.append(ctx, dst, e)
	}
}

// append appends e to dst. A server that does not answer (away, or
// restarting) is waited for, with a warning once, until ctx ends: a
// running relay outlives a restart of its hub, and the record, marked as
// seen already, is not lost. A record dst refuses for good (over a limit
// of its hub) is a warning, and stays where it is. Any other error ends
// the relay.
func (r *relay) append(ctx context.Context, dst bus.Backend, e bus.Entry) error {
	for {
		_, err := dst.Append(ctx, e)
		if err == nil || ctx.Err() != nil {
			r.mu.Lock()
			delete(r.away, dst)
			r.mu.Unlock()
			return nil
		}
		if errors.Is(err, bus.ErrRefused) {
			r.refused(dst, err)
			return nil
		}
		if !errors.Is(err, natsbus.ErrNoReply) {
			return fmt.Errorf("bus relay: to %s: %w", dst, err)
		}
		r.mu.Lock()
		said := r.away[dst]
		if r.away == nil {
			r.away = map[bus.Backend]bool{}
		}
		r.away[dst] = true
		r.mu.Unlock()
		if !said {
			r.diag(parse.Diagnostic{Path: dst.String(), Level: parse.LevelWarning,
				Message: fmt.Sprintf("relay: %v; copying again when it answers", err)})
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// refused warns that dst refused a record for good (err says which limit):
// the record stays on its side only.
func (r *relay) refused(dst bus.Backend, err error) {
	r.diag(parse.Diagnostic{Path: dst.String(), Level: parse.LevelWarning,
		Message: fmt.Sprintf("relay: %v; the record stays on the other side only", err)})
}

func (r *relay) run(ctx context.Context, once, toStream, toFile bool) error {
	next, err := r.crossCopy(ctx, toStream, toFile)
	if err != nil {
		return err
	}
	if once {
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	follow := func(src, dst bus.Backend, since int64) {
		defer wg.Done()
		if err := src.Follow(ctx, since, bus.Filter{}, r.copyTo(ctx, dst), r.diag); err != nil {
			errs <- err
			cancel()
		}
	}
	if toStream {
		wg.Add(1)
		go follow(r.file, r.stream, next[0])
	}
	if toFile {
		wg.Add(1)
		go follow(r.stream, r.file, next[1])
	}
	wg.Wait()
	close(errs)
	return errors.Join(collect(errs)...)
}

// crossCopy reads both sides, marks every record of either as seen, and
// copies each finding present on one side only to the other (for the
// directions asked). It returns where each side's Follow goes on: the
// records it appends come after, and are seen already.
func (r *relay) crossCopy(ctx context.Context, toStream, toFile bool) (next [2]int64, err error) {
	sides := [2]map[[32]byte]bool{{}, {}}
	var entries [2][]bus.Entry
	for i, side := range []bus.Backend{r.file, r.stream} {
		next[i], err = side.Read(ctx, 0, bus.Filter{}, func(e bus.Entry) error {
			sides[i][sha256.Sum256(bus.Encode(e))] = true
			r.mark(e)
			if e.Kind == bus.EntryFinding && bus.Validate(e) == nil {
				entries[i] = append(entries[i], e)
			}
			return nil
		}, r.diag)
		if err != nil {
			return next, fmt.Errorf("bus relay: %w", err)
		}
	}
	copyOver := func(from int, dst bus.Backend) error {
		for _, e := range entries[from] {
			h := sha256.Sum256(bus.Encode(e))
			if sides[1-from][h] {
				continue
			}
			sides[1-from][h] = true
			if _, err := dst.Append(ctx, e); errors.Is(err, bus.ErrRefused) {
				r.refused(dst, err)
			} else if err != nil {
				return fmt.Errorf("bus relay: to %s: %w", dst, err)
			}
		}
		return nil
	}
	if toStream {
		if err := copyOver(0, r.stream); err != nil {
			return next, err
		}
	}
	if toFile {
		if err := copyOver(1, r.file); err != nil {
			return next, err
		}
	}
	return next, nil
}

func collect(errs <-chan error) []error {
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return all
}
