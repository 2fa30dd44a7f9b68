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

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	flag "github.com/spf13/pflag"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

const mcpUsage = `Usage: fluxwatch mcp [--root DIR]

Serves the Model Context Protocol on standard input and output, with two
read-only tools: fetch_peer_findings {output_dir, severity_filter} and
get_synthesis {output_dir}. Every output_dir must lie under --root (default
the working directory), symlinks resolved. Logs go to standard error only.
`

// synthesizeDir returns the current synthesis of the run in dir as
// findings.json bytes. It reads the directory the way synth does and writes
// nothing (the MCP server is read-only). While an agent is still writing, the
// synthesis is the live one of watch: pending until an agent completes.
// Evidence is not checked here. Tests replace it.
var synthesizeDir = func(ctx context.Context, dir string) ([]byte, error) {
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: versionString()}}
	s, err := watcher.Synthesize(ctx, dir, watcher.ScanOptions{}, opts)
	if err == nil && len(s.AgentsPartial) > 0 {
		// Agents are still writing: the live synthesis, as watch has it.
		opts.Watching = true
		s, err = watcher.Synthesize(ctx, dir, watcher.ScanOptions{}, opts)
	}
	if err != nil {
		return nil, err
	}
	return synth.RenderJSON(s), nil
}

func runMCP(ctx context.Context, e *env, args []string) error {
	flags := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var root string
	flags.StringVar(&root, "root", ".", "the directory every output_dir must lie under")
	if done, err := parseFlags(e, flags, mcpUsage, args); done {
		return err
	}
	if flags.NArg() > 0 {
		return usageErrorf("mcp: unexpected argument %q", flags.Arg(0))
	}
	srv, err := newMCPServer(root, e.stderr)
	if err != nil {
		return usageErrorf("mcp: %v", err)
	}
	stdio := newOrderedStdio(e.stdin, e.stdout)
	t := &mcp.IOTransport{Reader: stdio, Writer: nopWriteCloser{stdio}}
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
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

// newMCPServer builds the server with its two tools, confined to root.
func newMCPServer(root string, logw io.Writer) (*mcp.Server, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, unwrapPath(err))
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
	}, func(ctx context.Context, req *mcp.CallToolRequest, in fetchArgs) (*mcp.CallToolResult, fetchResult, error) {
		dir, err := resolveUnder(realRoot, in.OutputDir)
		if err != nil {
			return nil, fetchResult{}, err
		}
		f := bus.Filter{Severity: in.SeverityFilter}
		switch f.Severity {
		case "", bus.All, bus.Blocking, bus.Notable:
		default:
			return nil, fetchResult{}, fmt.Errorf("severity_filter %q: want blocking, notable or all", f.Severity)
		}
		out := fetchResult{Findings: []bus.Entry{}}
		for _, name := range parse.BusNames {
			path, err := inside(dir, name)
			if err != nil {
				log.Warn("bus skipped", "error", err)
				continue
			}
			_, err = bus.ReadMatching(path, 0, 0, f, func(ent bus.Entry) error {
				out.Findings = append(out.Findings, ent)
				return nil
			}, func(d parse.Diagnostic) { log.Warn("bus", "diagnostic", d.String()) })
			if err != nil {
				return nil, fetchResult{}, err
			}
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
	})

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
			"deduplicated \"findings\" (id, severity P0-P3, section, title, the agents that reported it, convergence N/M, " +
			"confidence, file_refs) and the \"timeline\" of peer findings (who acknowledged, adjusted or contradicted them). " +
			"The text result is that JSON document; the structured result is the same object. Read-only.",
		InputSchema: synthIn,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
	}, func(ctx context.Context, req *mcp.CallToolRequest, in synthesisArgs) (*mcp.CallToolResult, map[string]any, error) {
		dir, err := resolveUnder(realRoot, in.OutputDir)
		if err != nil {
			return nil, nil, err
		}
		data, err := synthesizeDir(ctx, dir)
		if err != nil {
			return nil, nil, err
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, nil, fmt.Errorf("synthesis of %s is not a JSON object: %v", in.OutputDir, err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, doc, nil
	})
	return srv, nil
}

// resolveUnder resolves dir (relative to root when not absolute), symlinks
// included, and checks that it is a directory under root (itself resolved).
func resolveUnder(root, dir string) (string, error) {
	if strings.TrimSpace(dir) == "" {
		return "", errors.New("output_dir is required")
	}
	p := dir
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("output_dir %s: %v", dir, unwrapPath(err))
	}
	if !within(root, real) {
		return "", fmt.Errorf("output_dir %s is outside the server's root %s", dir, root)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("output_dir %s: %v", dir, unwrapPath(err))
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("output_dir %s is not a directory", dir)
	}
	return real, nil
}

// within reports whether path is root or lies under it (both resolved).
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// inside returns the path of name in dir (resolved), refusing a symlink that
// leads out of dir (SPEC §1). A name that does not exist is returned as is.
func inside(dir, name string) (string, error) {
	p := filepath.Join(dir, name)
	real, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: %v", p, unwrapPath(err))
	}
	if !within(dir, real) {
		return "", fmt.Errorf("%s is a symlink out of its directory: not followed", p)
	}
	return real, nil
}
