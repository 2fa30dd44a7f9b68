package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/spf13/cobra"
)

const findingUsage = `Usage:
  fluxwatch finding write (--dir DIR | --bus PATH|URL) --severity blocking|notable --agent NAME
                          --category C --summary TEXT|- [--file-ref PATH:LINE]… [--timestamp T]
                          [--no-sync]
  fluxwatch finding read  (--dir DIR | --bus PATH|URL) [--severity blocking|notable|all] [--agent A]
                          [--since OFFSET] [--follow]

write appends one finding to the peer-findings bus, safely beside other writers
(and after a writer killed mid-line), and exits 0 only once the record is on disk.
read prints the bus as a JSON array of canonical entries ([] when there is none);
with --follow, one JSON object a line as entries arrive, until interrupted. With
--severity blocking or notable, lines in the canonical shape of the other
severity are skipped without being decoded: they give no diagnostics.

--bus nats://HOST:PORT/RUN (or $FLUXWATCH_BUS) uses the run's JetStream
stream instead of a file: write exits 0 only after the server acknowledged
the record, --since and "offset" are stream sequences, and a server that
cannot be reached is an error within --bus-timeout. Credentials come from
--nats-creds or $NATS_CREDS, $NATS_NKEY, $NATS_USER/$NATS_PASSWORD,
$NATS_TOKEN, $NATS_CA, $NATS_CERT/$NATS_KEY, and are never printed.
`

// now is the clock of finding write's default timestamp.
var now = time.Now

func findingCmd(e *env) *cobra.Command {
	return parentCmd(e, "finding", "write to or read from the peer-findings bus", findingUsage, findingWriteCmd(e), findingReadCmd(e))
}

func findingWriteCmd(e *env) *cobra.Command {
	cmd := newCommand("write", "append one finding to the bus", findingUsage)
	flags := cmd.Flags()
	var b busFlags
	b.register(flags)
	var ent bus.Entry
	var asJSON, noSync, sync bool
	flags.StringVar(&ent.Severity, "severity", "", "blocking or notable (required)")
	flags.StringVar(&ent.Agent, "agent", "", "your agent name (required)")
	flags.StringVar(&ent.Category, "category", "", "a short topic, like auth or data-loss (required)")
	flags.StringVar(&ent.Summary, "summary", "", "what is wrong and why it matters; - reads it from standard input (required)")
	flags.StringArrayVar(&ent.FileRefs, "file-ref", nil, "PATH:LINE or PATH:START-END the finding is about (repeatable)")
	flags.StringVar(&ent.Timestamp, "timestamp", "", "RFC 3339 time of the finding (default now)")
	flags.StringVar(&ent.Model, "model", "", "the model you run on, for provenance (optional)")
	flags.StringVar(&ent.RunID, "run-id", "", "your run id, for provenance (optional)")
	flags.BoolVar(&noSync, "no-sync", false, "do not fdatasync the bus before exiting 0 (throwaway runs: the record may be lost in a crash)")
	flags.BoolVar(&sync, "sync", true, "fdatasync the bus before exiting 0 (the default)")
	flags.MarkHidden("sync") // kept for scripts written when syncing was opt-in
	flags.BoolVar(&asJSON, "json", false, `print {"bus":PATH,"offset":N} after writing`)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if flags.NArg() > 0 {
			return usageErrorf("finding write: unexpected argument %q", flags.Arg(0))
		}
		b.resolve(e)
		switch {
		case b.dir != "" && b.path != "":
			return usageErrorf("finding write: give --dir or --bus, not both")
		case b.dir == "" && b.path == "" && e.getenv("FLUX_OUTPUT_DIR") == "":
			return usageErrorf("finding write: name the bus with --dir DIR or --bus PATH")
		}
		for _, req := range []struct{ flag, val string }{{"severity", ent.Severity}, {"agent", ent.Agent}, {"category", ent.Category}, {"summary", ent.Summary}} {
			if strings.TrimSpace(req.val) == "" {
				return usageErrorf("finding write: --%s is required", req.flag)
			}
		}
		if ent.Summary == "-" {
			data, err := io.ReadAll(io.LimitReader(e.stdin, int64(b.maxLine)+2))
			if err != nil {
				return usageErrorf("finding write: read the summary from standard input: %v", err)
			}
			ent.Summary = strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
		}
		if ent.Timestamp == "" {
			ent.Timestamp = now().UTC().Format(time.RFC3339)
		}
		if ent.FileRefs == nil {
			ent.FileRefs = []string{}
		}
		if err := bus.Validate(ent); err != nil {
			return usageErrorf("finding write: %v", err)
		}
		if b.remote() {
			return findingWriteRemote(ctx, e, &b, ent, asJSON)
		}
		path := b.path
		if path == "" {
			dir := b.dir
			if dir == "" {
				dir = e.getenv("FLUX_OUTPUT_DIR")
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				if err == nil {
					err = errors.New("not a directory")
				}
				return usageErrorf("finding write: output directory %s: %v", dir, fsio.Cause(err))
			}
			path = defaultBus(dir)
			if err := fsio.LinkInside(dir, filepath.Base(path)); err != nil {
				return usageErrorf("finding write: %v", err) // SPEC §1: not followed out of the run
			}
		}
		off, err := bus.AppendContext(ctx, path, ent, bus.WriteOptions{MaxLine: b.maxLine, NoSync: noSync})
		var pathErr *fs.PathError
		switch {
		case errors.Is(err, bus.ErrInvalid):
			return usageErrorf("finding write: %v", err)
		case errors.As(err, &pathErr):
			// The bus or its lock cannot be opened: a FIFO or directory, no
			// permission, no directory, a read-only filesystem. The error names
			// the path (the bus, its directory or its lock file).
			if pathErr.Path == path {
				return usageErrorf("finding write: %s: %v", path, pathErr.Err)
			}
			return usageErrorf("finding write: %s: %v", path, err)
		case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
			// A full disk: the bus is an output that cannot be written (exit
			// 2), and the record was not appended, not even in part.
			return usageErrorf("finding write: %v", err)
		case err != nil:
			return fmt.Errorf("finding write: %s: %w", path, err)
		}
		if asJSON {
			j, _ := json.Marshal(struct {
				Bus    string `json:"bus"`
				Offset int64  `json:"offset"`
			}{path, off})
			fmt.Fprintf(e.stdout, "%s\n", j)
		}
		return nil
	}
	return cmd
}

// findingWriteRemote is finding write to a bus URL: exit 0 only after the
// server acknowledged the record.
func findingWriteRemote(ctx context.Context, e *env, b *busFlags, ent bus.Entry, asJSON bool) error {
	bk, err := b.open(ctx, e, false)
	if err != nil {
		return busOpenError("finding write", err)
	}
	defer bk.Close()
	seq, err := bk.Append(ctx, ent)
	switch {
	case errors.Is(err, bus.ErrInvalid), errors.Is(err, bus.ErrRefused):
		// A record the server refuses for good (over its size limit, a
		// stream full) is bad input, as an invalid one: exit 2.
		return usageErrorf("finding write: %v", err)
	case err != nil:
		return busError(fmt.Errorf("finding write: %w", err))
	}
	if asJSON {
		j, _ := json.Marshal(struct {
			Bus    string `json:"bus"`
			Offset int64  `json:"offset"`
		}{bk.String(), seq})
		fmt.Fprintf(e.stdout, "%s\n", j)
	}
	return nil
}

func findingReadCmd(e *env) *cobra.Command {
	cmd := newCommand("read", "print the bus, or follow it", findingUsage)
	flags := cmd.Flags()
	var b busFlags
	b.register(flags)
	var f bus.Filter
	var since int64
	var follow, offsets, quiet bool
	var interval time.Duration
	flags.StringVar(&f.Severity, "severity", bus.All, "blocking, notable or all (all includes agent events such as stalls)")
	flags.StringVar(&f.Agent, "agent", "", "only this agent's entries")
	flags.Int64Var(&since, "since", 0, "only lines starting at or after this byte offset (of one bus file)")
	flags.BoolVar(&follow, "follow", false, "keep printing entries as they are appended (NDJSON), until interrupted")
	flags.BoolVar(&offsets, "offsets", false, `add "offset" (of the line) and "line" to each entry; --since OFFSET+1 goes on after it`)
	flags.DurationVar(&interval, "interval", bus.DefaultInterval, "with --follow: the longest wait between two polls")
	flags.BoolVarP(&quiet, "quiet", "q", false, "do not print diagnostics about the bus on stderr")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if flags.NArg() > 0 {
			return usageErrorf("finding read: unexpected argument %q", flags.Arg(0))
		}
		switch f.Severity {
		case bus.Blocking, bus.Notable, bus.All:
		default:
			return usageErrorf("finding read: --severity %q: want blocking, notable or all", f.Severity)
		}
		if since < 0 {
			return usageErrorf("finding read: --since %d: want an offset >= 0", since)
		}
		b.resolve(e)
		if b.path != "" && b.dir != "" {
			return usageErrorf("finding read: give --dir or --bus, not both")
		}
		paths, err := b.paths(e, "finding read")
		if err != nil {
			return err
		}
		if since > 0 && len(paths) > 1 {
			return usageErrorf("finding read: --since is an offset in one file, and %s holds two buses: name one with --bus", b.dir)
		}
		if follow && b.path == "" && len(paths) == 1 {
			// Follow both names: the bus may yet appear under either.
			dir := filepath.Dir(paths[0])
			paths = []string{filepath.Join(dir, parse.BusNames[0]), filepath.Join(dir, parse.BusNames[1])}
		}

		w := bufio.NewWriterSize(e.stdout, 64<<10)
		diag := func(d parse.Diagnostic) {
			if !quiet {
				w.Flush()
				fmt.Fprintln(e.stderr, inert.Line(d.String()))
			}
		}
		var buf []byte
		encode := func(ent bus.Entry) []byte {
			buf = bus.AppendLine(buf[:0], ent)
			buf = buf[:len(buf)-1] // the newline
			if offsets {
				buf = append(buf[:len(buf)-1], `,"offset":`...)
				buf = strconv.AppendInt(buf, ent.Offset, 10)
				buf = append(buf, `,"line":`...)
				buf = strconv.AppendInt(buf, int64(ent.Line), 10)
				buf = append(buf, '}')
			}
			// The record as written, its control characters escaped.
			buf = inert.EscapeJSON(buf)
			return buf
		}

		// Followed entries go out a line each, flushed at once; read entries as
		// the elements of one JSON array (n of them so far).
		line := func(ent bus.Entry) error {
			w.Write(encode(ent))
			w.WriteByte('\n')
			return w.Flush()
		}
		n := 0
		element := func(ent bus.Entry) error {
			if err := ctx.Err(); err != nil {
				// A signal: stop between two records, and print what is
				// buffered, so that the output ends at a record's end.
				w.Flush()
				return err
			}
			if n == 0 {
				w.WriteString("[\n")
			} else {
				w.WriteString(",\n")
			}
			n++
			_, err := w.Write(encode(ent))
			return err
		}

		if b.remote() {
			bk, err := b.open(ctx, e, false)
			if err != nil {
				return busOpenError("finding read", err)
			}
			defer bk.Close()
			if follow {
				err := bk.Follow(ctx, since, f, line, diag)
				if err != nil {
					return busError(fmt.Errorf("finding read: %w", err))
				}
				return w.Flush()
			}
			_, err = bk.Read(ctx, since, f, element, diag)
			if err != nil {
				return busError(fmt.Errorf("finding read: %w", err))
			}
			return endArray(w, n)
		}

		if follow {
			tails := make([]*bus.Tail, len(paths))
			for i, p := range paths {
				tails[i] = bus.NewTail(p, b.maxLine)
				tails[i].Only(f.Severity)
				if err := tails[i].StartAt(since); err != nil {
					return readError(err)
				}
			}
			err := bus.Follow(ctx, tails, interval, func(ent bus.Entry) error {
				if !f.Match(ent) {
					return nil
				}
				return line(ent)
			}, diag)
			if err != nil {
				return readError(err)
			}
			return w.Flush()
		}

		for _, p := range paths {
			_, err := bus.ReadMatchingAhead(p, b.maxLine, since, f, element, diag)
			if err != nil {
				return readError(err)
			}
		}
		return endArray(w, n)
	}
	return cmd
}

// endArray ends the JSON array of n entries of finding read.
func endArray(w *bufio.Writer, n int) error {
	if n == 0 {
		w.WriteString("[]\n")
	} else {
		w.WriteString("\n]\n")
	}
	return w.Flush()
}

// readError maps an error of reading the bus: a bus that cannot be read (a
// directory, no permission) is an input error, exit 2; others are internal.
func readError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return usageErrorf("finding read: %v", err)
	}
	return fmt.Errorf("finding read: %w", err)
}
