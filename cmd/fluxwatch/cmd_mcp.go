package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

const mcpUsage = `Usage: fluxwatch mcp [--root DIR] [--run RUN] [--call-timeout D] [--bus nats://HOST:PORT/RUN]

Serves the Model Context Protocol on standard input and output, with two
read-only tools: fetch_peer_findings {output_dir, severity_filter} and
get_synthesis {output_dir}. Every output_dir must lie under --root (default
the working directory); the kernel resolves it inside the root, so a symlink
cannot lead out. Requests are served concurrently: a call that has not
answered within --call-timeout (default 30s) ends with a tool error, and a
slow call never delays the others. Logs go to standard error only. With
--bus nats://HOST:PORT/RUN (or such a $FLUXWATCH_BUS), fetch_peer_findings
reads that stream instead of the bus files of output_dir. get_synthesis
reads the run --run or $FLUX_RUN_UUID names, as synth does, else the newest.
`

// synthesizeDir returns the current synthesis of the run in dir, open as
// root, as findings.json bytes. It reads the directory the way synth does,
// through root only (never by the path dir, which names it), and writes
// nothing (the MCP server is read-only). While an agent is still writing, the
// synthesis is the live one of watch: pending until an agent completes.
// run selects the run as synth's --run does ("": the newest). Evidence is
// not checked here. Tests replace it.
var synthesizeDir = func(ctx context.Context, root *os.Root, dir, run string) ([]byte, error) {
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: versionString()}}
	scan := watcher.ScanOptions{Run: run, Root: root}
	s, err := watcher.Synthesize(ctx, dir, scan, opts)
	if err == nil && len(s.AgentsPartial) > 0 {
		// Agents are still writing: the live synthesis, as watch has it.
		opts.Watching = true
		s, err = watcher.Synthesize(ctx, dir, scan, opts)
	}
	if err != nil {
		return nil, err
	}
	return synth.RenderJSON(s), nil
}

func mcpCmd(e *env) *cobra.Command {
	cmd := newCommand("mcp", "serve fetch_peer_findings and get_synthesis over MCP on stdio", mcpUsage)
	flags := cmd.Flags()
	var root string
	var callTimeout time.Duration
	flags.StringVar(&root, "root", ".", "the directory every output_dir must lie under")
	flags.DurationVar(&callTimeout, "call-timeout", 30*time.Second, "how long a tool call may take before it ends with a tool error")
	var run string
	flags.StringVar(&run, "run", "", "get_synthesis reads run `RUN`, as synth --run does (default: $FLUX_RUN_UUID, else the newest run)")
	var b busFlags
	flags.StringVar(&b.path, "bus", "", "a nats://HOST:PORT/RUN stream fetch_peer_findings reads (default $FLUXWATCH_BUS when a URL)")
	flags.StringVar(&b.creds, "nats-creds", "", "a NATS credentials file (default $NATS_CREDS)")
	flags.DurationVar(&b.timeout, "bus-timeout", bus.DefaultTimeout, "how long to wait for the stream's server before failing")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return runMCP(cmd.Context(), e, flags, root, callTimeout, run, b)
	}
	return cmd
}

func runMCP(ctx context.Context, e *env, flags *flag.FlagSet, root string, callTimeout time.Duration, run string, b busFlags) error {
	b.resolve(e)
	var stream []bus.Backend
	switch {
	case b.path != "" && !b.remote():
		if flags.Changed("bus") {
			return usageErrorf("mcp: --bus %q: want nats://HOST:PORT/RUN (a file bus is read from output_dir)", b.path)
		}
	case b.path != "":
		bk, err := b.open(ctx, e, false)
		if err != nil {
			return busOpenError("mcp", err)
		}
		defer bk.Close()
		stream = append(stream, bk)
	}
	if flags.NArg() > 0 {
		return usageErrorf("mcp: unexpected argument %q", flags.Arg(0))
	}
	if callTimeout <= 0 {
		return usageErrorf("mcp: --call-timeout %v: want a duration above 0", callTimeout)
	}
	run, err := selectRun(e, "mcp", run)
	if err != nil {
		return err
	}
	srv, err := newMCPServer(ctx, root, e.stderr, callTimeout, run, stream...)
	if err != nil {
		return usageErrorf("mcp: %v", err)
	}
	// At end of input, answers still being computed get up to one call's
	// deadline (and a little more to be written).
	stdio := newMCPStdio(e.stdin, e.stdout, slog.New(slog.NewTextHandler(e.stderr, nil)), callTimeout+time.Second)
	// stdio hands over one message of at most maxMessage bytes at a time.
	t := &mcp.IOTransport{Reader: stdio, Writer: nopWriteCloser{stdio}, MaxLineLength: -1}
	// srv.Run, without its error log when ctx ends: a signal is no error.
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close() // every call in flight ends at once: within() watches ctx
		<-ended
		return ctx.Err()
	case err := <-ended:
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("mcp: %w", err)
		}
		return nil
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// The tools' arguments and results.
type (
	fetchArgs struct {
		OutputDir      string `json:"output_dir"`
		SeverityFilter string `json:"severity_filter,omitempty"`
	}
	fetchResult struct {
		Findings []bus.Entry `json:"findings"`
	}
	synthesisArgs struct {
		OutputDir string `json:"output_dir"`
	}
)

const entrySchemaDoc = `Each finding is an object: ` +
	`"severity": "blocking" (it contradicts or invalidates other agents' analysis: an agent MUST acknowledge it in its report) ` +
	`or "notable" (it may change other agents' conclusions: consider it); ` +
	`"agent": the agent that shared it; "category": a short topic; "summary": the finding; ` +
	`"file_refs": ["path:line" or "path:start-end", ...]; "timestamp": RFC 3339, when the agent wrote it (may be absent); ` +
	`on some hand-written entries "id" (like "SCM-01") and "priority" (P0-P3). ` +
	`With severity_filter "all", agent events also appear: "kind": "stall" with "severity": "warn" means the agent stalled. ` +
	`Entries come in the order they were written, which is the timeline.`

// newMCPServer builds the server with its two tools, confined to root; with
// a stream, fetch_peer_findings reads it instead of output_dir's bus. Each
// call ends with a tool error after callTimeout, and at once when ctx ends.
func newMCPServer(ctx context.Context, root string, logw io.Writer, callTimeout time.Duration, run string, stream ...bus.Backend) (*mcp.Server, error) {
	under, err := openMCPRoot(root)
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := mcp.NewServer(&mcp.Implementation{Name: "fluxwatch", Version: versionString()}, &mcp.ServerOptions{
		Logger: log,
		Instructions: "fluxwatch reads the output directory of a run of parallel review agents. " +
			"Call fetch_peer_findings before writing your final report and acknowledge every blocking finding of another agent; " +
			"call get_synthesis for the current verdict and deduplicated findings.",
	})

	fetchIn, err := jsonschema.For[fetchArgs](nil)
	if err != nil {
		return nil, err
	}
	fetchIn.Required = []string{"output_dir"}
	fetchIn.Properties["output_dir"].Description = "the run's output directory: absolute, or relative to the server's root; it must lie under the root"
	sev := fetchIn.Properties["severity_filter"]
	sev.Description = "which findings: blocking, notable, or all (the default; all also includes agent events such as stalls)"
	sev.Enum = []any{bus.Blocking, bus.Notable, bus.All}
	sev.Default = json.RawMessage(`"all"`)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "fetch_peer_findings",
		Title: "Fetch peer findings",
		Description: "Read the peer-findings bus of a review run: the urgent findings that parallel review agents " +
			"shared while they worked (the files findings.jsonl and peer-findings.jsonl of output_dir). " +
			"The text result is a JSON array of findings, [] when no agent has shared one yet; the structured " +
			"result is {\"findings\": [...]}. " + entrySchemaDoc + " Read-only.",
		InputSchema: fetchIn,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
	}, within(ctx, callTimeout, "fetch_peer_findings", func(ctx context.Context, req *mcp.CallToolRequest, in fetchArgs) (*mcp.CallToolResult, fetchResult, error) {
		dir, err := under.dir(in.OutputDir)
		if err != nil {
			return nil, fetchResult{}, err
		}
		defer dir.Close()
		f := bus.Filter{Severity: in.SeverityFilter}
		switch f.Severity {
		case "", bus.All, bus.Blocking, bus.Notable:
		default:
			return nil, fetchResult{}, fmt.Errorf("severity_filter %q: want blocking, notable or all", f.Severity)
		}
		out := fetchResult{Findings: []bus.Entry{}}
		for _, bk := range stream {
			_, err := bk.Read(ctx, 0, f, func(ent bus.Entry) error {
				out.Findings = append(out.Findings, ent)
				return nil
			}, func(d parse.Diagnostic) { log.Warn("bus", "diagnostic", d.String()) })
			if err != nil {
				return nil, fetchResult{}, err
			}
		}
		var skipped []error
		read := 0
		for _, name := range parse.BusNames {
			if len(stream) > 0 {
				break // the run's bus is the stream
			}
			path := filepath.Join(dir.Name(), name) // Join cleans
			file, size, err := busIn(dir, name)
			if errors.Is(err, fs.ErrNotExist) {
				continue // no bus under this name
			}
			if errors.Is(err, under.escapes) {
				log.Warn("bus skipped: a symlink out of its directory", "path", path)
				continue
			}
			if errors.Is(err, fsio.ErrNotRegular) {
				// Skipped, as finding read --dir skips it, when the other
				// name holds the bus; refused when none does.
				skipped = append(skipped, fmt.Errorf("%s: %v", filepath.Join(in.OutputDir, name), fsio.Cause(err)))
				continue
			}
			read++
			if err != nil {
				return nil, fetchResult{}, fmt.Errorf("%s: %v", filepath.Join(in.OutputDir, name), fsio.Cause(err))
			}
			// The file opened inside dir is the one read, not its path
			// again: a bus replaced meanwhile by a symlink out of the root
			// is never read. Its complete lines as it was opened.
			dec := bus.NewDecoder(0)
			dec.Only(f.Severity)
			err = dec.Decode(fsio.ContextReader(ctx, io.LimitReader(file, size)), func(ent bus.Entry) {
				if f.Match(ent) {
					out.Findings = append(out.Findings, ent)
				}
			}, func(d parse.Diagnostic) {
				if d.Path == "" {
					d.Path = path
				}
				log.Warn("bus", "diagnostic", d.String())
			})
			file.Close()
			if err != nil {
				return nil, fetchResult{}, fmt.Errorf("%s: %v", filepath.Join(in.OutputDir, name), err)
			}
		}
		if len(skipped) > 0 && read == 0 {
			return nil, fetchResult{}, skipped[0]
		}
		for _, err := range skipped {
			log.Warn("bus skipped", "error", err.Error())
		}
		var text strings.Builder
		text.WriteByte('[')
		for i, ent := range out.Findings {
			if i > 0 {
				text.WriteByte(',')
			}
			text.Write(bytes.TrimSuffix(bus.Encode(ent), []byte("\n")))
		}
		text.WriteByte(']')
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text.String()}}}, out, nil
	}))

	synthIn, err := jsonschema.For[synthesisArgs](nil)
	if err != nil {
		return nil, err
	}
	synthIn.Required = []string{"output_dir"}
	synthIn.Properties["output_dir"].Description = "the run's output directory: absolute, or relative to the server's root; it must lie under the root"
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "get_synthesis",
		Title: "Get the synthesis of a review run",
		Description: "Return the current synthesis of a review run (its findings.json, as fluxwatch synth and watch write it): " +
			"\"verdict\" (safe, needs-changes, risky, error or pending), the agents with their status and counts, " +
			"\"agents_unreadable\" (the completed agents whose reports could not be fully read: the verdict counts what was " +
			"read of them and may be too low, so never take a verdict as safe while this list is not empty), " +
			"deduplicated \"findings\" (id, severity P0-P3, section, title, the agents that reported it, convergence N/M, " +
			"confidence, file_refs) and the \"timeline\" of peer findings (who acknowledged, adjusted or contradicted them). " +
			"The text result is that JSON document; the structured result is the same object. Read-only.",
		InputSchema: synthIn,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
	}, within(ctx, callTimeout, "get_synthesis", func(ctx context.Context, req *mcp.CallToolRequest, in synthesisArgs) (*mcp.CallToolResult, map[string]any, error) {
		dir, err := under.dir(in.OutputDir)
		if err != nil {
			return nil, nil, err
		}
		defer dir.Close()
		data, err := synthesizeDir(ctx, dir, filepath.Clean(dir.Name()), run)
		if err != nil {
			return nil, nil, err
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, nil, fmt.Errorf("synthesis of %s is not a JSON object: %v", in.OutputDir, err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, doc, nil
	}))
	return srv, nil
}

// errCallTimeout is the cause of a call's context ending at its deadline.
var errCallTimeout = errors.New("call deadline passed")

// within wraps a tool handler so that every call ends by itself: the handler
// runs in a goroutine of its own with a context that ends after timeout, or
// when the client cancels the call, or when stop (the server's context) ends;
// the call then returns a tool error at once, whatever the handler is still
// doing (a read blocked on a strange file, a huge report being parsed). The
// abandoned handler finishes in the background and its result is dropped.
// The SDK serves each call concurrently, so a slow call never delays another.
func within[In, Out any](stop context.Context, timeout time.Duration, tool string, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		ctx, cancel := context.WithTimeoutCause(ctx, timeout, errCallTimeout)
		defer cancel()
		defer context.AfterFunc(stop, cancel)()
		type result struct {
			res *mcp.CallToolResult
			out Out
			err error
		}
		done := make(chan result, 1) // the handler never blocks on it, even when abandoned
		go func() {
			res, out, err := h(ctx, req, in)
			done <- result{res, out, err}
		}()
		select {
		case r := <-done:
			return r.res, r.out, r.err
		case <-ctx.Done():
			var zero Out
			if errors.Is(context.Cause(ctx), errCallTimeout) {
				return nil, zero, fmt.Errorf("%s: no answer within %v (--call-timeout): the call was abandoned", tool, timeout)
			}
			return nil, zero, fmt.Errorf("%s: %w", tool, ctx.Err())
		}
	}
}

// mcpRoot is the directory every output_dir must lie under, opened as an
// os.Root: the kernel resolves each path inside it, so a symbolic link (or
// "..") cannot lead out, and nothing is checked first and opened later.
type mcpRoot struct {
	root      *os.Root
	abs, real string // the root as given (made absolute) and with its symlinks resolved
	// escapes is os.Root's error for a path that leads out of the root (os
	// does not export it): found by asking for "..".
	escapes error
}

func openMCPRoot(root string) (*mcpRoot, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, fsio.Cause(err))
	}
	r, err := fsio.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, fsio.Cause(err))
	}
	_, err = r.Stat("..")
	return &mcpRoot{root: r, abs: abs, real: real, escapes: fsio.Cause(err)}, nil
}

// dir opens output_dir (absolute, or relative to the root) as an os.Root of
// its own, refusing it — with an error naming it — when it leads out of the
// root, is missing or is not a directory. The caller closes it.
func (m *mcpRoot) dir(outputDir string) (*os.Root, error) {
	if strings.TrimSpace(outputDir) == "" {
		return nil, errors.New("output_dir is required")
	}
	rel := filepath.Clean(outputDir)
	if filepath.IsAbs(rel) {
		rel = "" // outside unless under the root as given or as resolved
		for _, base := range []string{m.real, m.abs} {
			if r, err := filepath.Rel(base, filepath.Clean(outputDir)); err == nil && (r == "." || filepath.IsLocal(r)) {
				rel = r
				break
			}
		}
	}
	outside := fmt.Errorf("output_dir %s is outside the server's root %s", outputDir, m.real)
	if rel == "" || (rel != "." && !filepath.IsLocal(rel)) {
		return nil, outside
	}
	d, err := fsio.OpenRootIn(m.root, rel) // filepath.Clean(d.Name()) is filepath.Join(m.real, rel)
	switch {
	case errors.Is(err, m.escapes):
		return nil, outside
	case err != nil:
		return nil, fmt.Errorf("output_dir %s: %v", outputDir, fsio.Cause(err))
	}
	return d, nil
}

// busIn opens the bus file name in dir without blocking — fsio.OpenIn
// refuses at once a FIFO, a device or a symlink out of dir — and returns it
// with its size. The caller reads it under its call's deadline, and closes
// it.
func busIn(dir *os.Root, name string) (*os.File, int64, error) {
	f, info, err := fsio.OpenIn(dir, name)
	if err != nil {
		return nil, 0, err
	}
	return f, info.Size(), nil
}
