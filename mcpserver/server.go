package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// Config is what a server serves, and how.
type Config struct {
	// Root is the directory every output_dir (and baseline) must lie
	// under; "" is the working directory.
	Root string
	// Run is the run get_synthesis reads, as synth's --run selects it; ""
	// is the newest.
	Run string
	// Stream, when not nil, is the run's bus fetch_peer_findings reads
	// instead of the bus files of output_dir (a nats:// stream, opened by
	// the caller with its credentials). The server does not close it.
	Stream bus.Backend
	// CallTimeout bounds each tool call: one that has not answered by then
	// ends with a tool error. <= 0 means DefaultCallTimeout.
	CallTimeout time.Duration
	// Version is the server's version in the MCP handshake and in the
	// syntheses it makes.
	Version string
	// Log receives the server's log (warnings, lines dropped); nil
	// discards it. Nothing else is written but the protocol's output.
	Log io.Writer
}

// DefaultCallTimeout is how long a tool call may take when
// Config.CallTimeout is not set.
const DefaultCallTimeout = 30 * time.Second

// ErrConfig is wrapped by the error of Serve and NewServer for a Config
// that cannot be served (a Root that is missing or not a directory).
var ErrConfig = errors.New("bad MCP server configuration")

// configError is an error of the Config: its message is err's, and it is
// an ErrConfig.
type configError struct{ err error }

func (c configError) Error() string      { return c.err.Error() }
func (c configError) Unwrap() error      { return c.err }
func (configError) Is(target error) bool { return target == ErrConfig }

func (c Config) withDefaults() Config {
	if c.Root == "" {
		c.Root = "."
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	return c
}

// Serve serves the Model Context Protocol on in and out (one JSON-RPC
// message a line, as on standard input and output) until in ends, then
// gives the answers still being computed up to one call's deadline. A line
// that is not a JSON-RPC message is answered with a JSON-RPC error and
// skipped. When ctx ends, every call in flight ends at once and Serve
// returns ctx.Err().
func Serve(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	cfg = cfg.withDefaults()
	srv, err := NewServer(ctx, cfg)
	if err != nil {
		return err
	}
	lines := newStdio(in, out, slog.New(slog.NewTextHandler(cfg.Log, nil)), cfg.CallTimeout+time.Second)
	// stdio hands over one message of at most maxMessage bytes at a time.
	t := &mcp.IOTransport{Reader: lines, Writer: nopWriteCloser{lines}, MaxLineLength: -1}
	// srv.Run, without its error log when ctx ends: a signal is no error.
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close() // every call in flight ends at once: within() watches ctx
		<-ended
		return ctx.Err()
	case err := <-ended:
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
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
)

const entrySchemaDoc = `Each finding is an object: ` +
	`"severity": "blocking" (it contradicts or invalidates other agents' analysis: an agent MUST acknowledge it in its report) ` +
	`or "notable" (it may change other agents' conclusions: consider it); ` +
	`"agent": the agent that shared it; "category": a short topic; "summary": the finding; ` +
	`"file_refs": ["path:line" or "path:start-end", ...]; "timestamp": RFC 3339, when the agent wrote it (may be absent); ` +
	`on some hand-written entries "id" (like "SCM-01") and "priority" (P0-P3). ` +
	`With severity_filter "all", agent events also appear: "kind": "stall" with "severity": "warn" means the agent stalled. ` +
	`Entries come in the order they were written, which is the timeline.`

// NewServer returns the server with its two tools, confined to cfg.Root,
// for any transport of the SDK (Serve connects it to a stream of lines).
// Each call ends with a tool error after cfg.CallTimeout, and at once when
// ctx ends.
func NewServer(ctx context.Context, cfg Config) (*mcp.Server, error) {
	return newServer(ctx, cfg.withDefaults(), synthesizeDir)
}

// synthesizeFunc makes the synthesis of the run in dir, open as root: in
// production synthesizeDir; tests pass their own.
type synthesizeFunc func(ctx context.Context, root *os.Root, dir string, cfg Config, opts synth.Options, hold *membudget.Holding) (*synth.Synthesis, error)

func newServer(ctx context.Context, cfg Config, synthesize synthesizeFunc) (*mcp.Server, error) {
	under, err := openRoot(cfg.Root)
	if err != nil {
		return nil, configError{err}
	}
	run, callTimeout := cfg.Run, cfg.CallTimeout
	var stream []bus.Backend
	if cfg.Stream != nil {
		stream = append(stream, cfg.Stream)
	}
	log := slog.New(slog.NewTextHandler(cfg.Log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := mcp.NewServer(&mcp.Implementation{Name: "fluxwatch", Version: cfg.Version}, &mcp.ServerOptions{
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
			"The result is a JSON array of findings (text), [] when no agent has shared one yet. " + entrySchemaDoc + " Read-only.",
		InputSchema: fetchIn,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
	}, within(ctx, callTimeout, "fetch_peer_findings", func(ctx context.Context, req *mcp.CallToolRequest, in fetchArgs) (*mcp.CallToolResult, any, error) {
		dir, err := under.dir(in.OutputDir)
		if err != nil {
			return nil, nil, err
		}
		defer dir.Close()
		f := bus.Filter{Severity: in.SeverityFilter}
		switch f.Severity {
		case "", bus.All, bus.Blocking, bus.Notable:
		default:
			return nil, nil, fmt.Errorf("severity_filter %q: want blocking, notable or all", f.Severity)
		}
		// The result is sent once, as the text (SPEC §7: a JSON array of
		// canonical findings), each entry encoded as it is read: no
		// structured copy of it beside, and no entries held.
		var text []byte
		text = append(text, '[')
		add := func(ent bus.Entry) {
			if len(text) > 1 {
				text = append(text, ',')
			}
			text = bytes.TrimSuffix(bus.AppendLine(text, ent), []byte("\n"))
		}
		for _, bk := range stream {
			_, err := bk.Read(ctx, 0, f, func(ent bus.Entry) error {
				add(ent)
				return nil
			}, func(d parse.Diagnostic) { log.Warn("bus", "diagnostic", d.String()) })
			if err != nil {
				return nil, nil, err
			}
		}
		// The run's bus files are watcher's answer; each is read as it was
		// opened inside dir (a bus replaced meanwhile by a symlink out of
		// the root is never read): its complete lines.
		var files []watcher.BusFile
		var skipped []error
		if len(stream) == 0 {
			files, skipped, err = watcher.OpenBus(dir, in.OutputDir)
			if err != nil {
				return nil, nil, err
			}
		}
		skipped = slices.DeleteFunc(skipped, func(err error) bool {
			if errors.Is(err, watcher.ErrBusOutside) {
				log.Warn("bus skipped", "error", err.Error())
				return true
			}
			return false
		})
		for i, b := range files {
			path := filepath.Join(dir.Name(), b.Name) // Join cleans
			dec := bus.NewDecoder(0)
			dec.Only(f.Severity)
			err = dec.Decode(fsio.ContextReader(ctx, io.LimitReader(b.File, b.Size)), func(ent bus.Entry) {
				if f.Match(ent) {
					add(ent)
				}
			}, func(d parse.Diagnostic) {
				if d.Path == "" {
					d.Path = path
				}
				log.Warn("bus", "diagnostic", d.String())
			})
			b.File.Close()
			if err != nil {
				for _, rest := range files[i+1:] {
					rest.File.Close()
				}
				return nil, nil, fmt.Errorf("%s: %v", filepath.Join(in.OutputDir, b.Name), err)
			}
		}
		if len(skipped) > 0 && len(files) == 0 {
			return nil, nil, skipped[0]
		}
		for _, err := range skipped {
			log.Warn("bus skipped", "error", err.Error())
		}
		text = append(text, ']')
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil, nil
	}))

	synthIn, err := jsonschema.For[synthesisArgs](nil)
	if err != nil {
		return nil, err
	}
	synthIn.Required = []string{"output_dir"}
	describe := func(name, doc string) *jsonschema.Schema {
		p := synthIn.Properties[name]
		p.Description = doc
		return p
	}
	describe("output_dir", "the run's output directory: absolute, or relative to the server's root; it must lie under the root")
	view := describe("view", "summary (the default): the verdict, the counts, the agents and the top findings; "+
		"findings: a page of the findings (offset, limit), filtered; "+
		"full: the whole findings.json, when it is at most 8 MiB")
	view.Enum, view.Default = []any{viewSummary, viewFindings, viewFull}, json.RawMessage(`"summary"`)
	top := describe("top", "summary: how many of the top findings (by severity, then convergence) to list")
	top.Minimum, top.Maximum, top.Default = new(0.0), new(float64(maxTop)), json.RawMessage(fmt.Sprint(defaultTop))
	sevs := describe("severity", "only findings of these severities (any of P0, P1, P2, P3)")
	sevs.Items.Enum = []any{"P0", "P1", "P2", "P3"}
	describe("agent", "only findings this agent reported")
	describe("baseline", "an earlier findings.json, or run directory, under the root: each finding says whether it is new "+
		"or unchanged since, and the result sums it up")
	describe("new_only", "only findings new since the baseline (needs baseline)")
	off := describe("offset", "findings view: how many matching findings to skip (next_offset of the last page)")
	off.Minimum = new(0.0)
	lim := describe("limit", "findings view: how many findings at most")
	lim.Minimum, lim.Maximum, lim.Default = new(1.0), new(float64(maxLimit)), json.RawMessage(fmt.Sprint(defaultLimit))
	detail := describe("detail", "brief (the default): id, severity, section, title, agents, convergence, confidence, "+
		"file_refs of each finding; full: each finding as findings.json has it (sources, timeline, evidence)")
	detail.Enum, detail.Default = []any{"brief", "full"}, json.RawMessage(`"brief"`)
	synths, serverCtx := newSynthesizer(), ctx
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "get_synthesis",
		Title: "Get the synthesis of a review run",
		Description: "Return the current synthesis of a review run, as fluxwatch synth and watch make it. " +
			"By default a summary: \"verdict\" (safe, needs-changes, risky, error or pending), \"counts\" of findings per " +
			"severity, \"agents\" (launched, completed, the failed and still-writing ones, each agent's status, verdict and " +
			"counts; \"unreadable\": the completed agents whose reports could not be fully read — the verdict counts what was " +
			"read of them and may be too low, so never take a verdict as safe while this list is not empty) and the top findings. With view \"findings\", a page of the deduplicated findings (offset, limit; " +
			"\"next_offset\" is null on the last page), filtered by severity, agent, or new since a baseline. Each finding: " +
			"id, severity P0-P3, section, title, the agents that reported it, convergence N/M, confidence, file_refs. " +
			"With view \"full\", the whole findings.json (timeline of peer findings, evidence, sources) when it is small. " +
			"The result is the structured content; the text lists the same facts as lines. Read-only.",
		InputSchema: synthIn,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
	}, within(ctx, callTimeout, "get_synthesis", func(ctx context.Context, req *mcp.CallToolRequest, in synthesisArgs) (*mcp.CallToolResult, any, error) {
		in, err := in.check()
		if err != nil {
			return nil, nil, err
		}
		dir, err := under.dir(in.OutputDir)
		if err != nil {
			return nil, nil, err
		}
		defer dir.Close()
		path := filepath.Clean(dir.Name())
		var opts synth.Options
		if in.Baseline != "" {
			if opts.Baseline, err = under.baseline(ctx, in.Baseline, cfg, synthesize); err != nil {
				return nil, nil, err
			}
		}
		// Callers asking at once for one run share one synthesis, made
		// through a root of its own (a caller that gives up closes its).
		s, done, err := synths.get(ctx, serverCtx, path+"\x00"+run+"\x00"+in.Baseline,
			func(ctx context.Context, hold *membudget.Holding) (*synth.Synthesis, error) {
				d, err := under.dir(in.OutputDir)
				if err != nil {
					return nil, err
				}
				defer d.Close()
				return synthesize(ctx, d, path, cfg, opts, hold)
			})
		if err != nil {
			return nil, nil, err
		}
		defer done()
		out, text, err := synthesisView(s, in)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
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
