package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// mcpSession connects the SDK's own client to a server rooted at root.
func mcpSession(t *testing.T, root string) *mcp.ClientSession {
	t.Helper()
	return mcpSessionTimeout(t, root, 30*time.Second)
}

// mcpSessionTimeout is mcpSession with a --call-timeout.
func mcpSessionTimeout(t *testing.T, root string, callTimeout time.Duration) *mcp.ClientSession {
	t.Helper()
	return mcpSessionWith(t, Config{Root: root, CallTimeout: callTimeout}, synthesizeDir)
}

// mcpSessionWith connects the SDK's own client to a server of cfg whose
// syntheses synthesize makes.
func mcpSessionWith(t *testing.T, cfg Config, synthesize synthesizeFunc) *mcp.ClientSession {
	t.Helper()
	var logs bytes.Buffer
	cfg.Log = &logs
	srv, err := newServer(context.Background(), cfg.withDefaults(), synthesize)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestMCPWithSDKClient(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "run")
	empty := filepath.Join(root, "empty")
	running := filepath.Join(root, "running")
	os.Mkdir(run, 0o755)
	os.Mkdir(empty, 0o755)
	os.Mkdir(running, 0o755)
	os.WriteFile(filepath.Join(running, "fd-perf.md.partial"), []byte("### Findings Index\n- P1 | PRF-001 | \"Q\" | N+1\n"), 0o644)
	// A report that could not be fully read: prose declaring risky, no finding.
	unread := filepath.Join(root, "unread")
	os.Mkdir(unread, 0o755)
	os.WriteFile(filepath.Join(unread, "audit.md"), []byte("# Audit\n\nThe session store leaks tokens.\n\n**Verdict:** risky\n"), 0o644)
	for _, e := range []bus.Entry{
		{Severity: bus.Blocking, Agent: "fd-safety", Category: "auth", Summary: "tokens in <localStorage>", FileRefs: []string{"a.ts:1"}, Timestamp: "2026-11-20T10:00:00Z"},
		{Severity: bus.Notable, Agent: "fd-perf", Category: "db", Summary: "N+1 query", FileRefs: []string{}},
	} {
		if _, err := bus.Append(filepath.Join(run, "peer-findings.jsonl"), e, bus.WriteOptions{NoSync: true}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(run, "fd-safety.md"), []byte("### Findings Index\n- P0 | SAF-001 | \"Auth\" | Tokens in localStorage\nVerdict: risky\n"), 0o644)
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root, "escape"))
	// A bus that is a symlink out of its directory is not followed.
	if _, err := bus.Append(filepath.Join(outside, "bus.jsonl"), bus.Entry{Severity: bus.Blocking, Agent: "x", Summary: "outside"}, bus.WriteOptions{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(outside, "bus.jsonl"), filepath.Join(empty, "findings.jsonl"))

	cs := mcpSession(t, root)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if !strings.Contains(tool.Description, "verdict") && !strings.Contains(tool.Description, `"severity"`) {
			t.Errorf("%s: the description does not document the schema: %s", tool.Name, tool.Description)
		}
		// Each tool sends its result once (get_synthesis as structured
		// content, fetch_peer_findings as the text array): an output
		// schema would have the SDK decode and check every answer, a
		// whole findings.json included, into maps first.
		if tool.OutputSchema != nil {
			t.Errorf("%s: output schema %v", tool.Name, tool.OutputSchema != nil)
		}
	}
	if strings.Join(names, ",") != "fetch_peer_findings,get_synthesis" {
		t.Fatalf("tools %v", names)
	}

	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		text    string // exact text, or a substring of the error
		count   int    // findings
	}{
		{"all", "fetch_peer_findings", map[string]any{"output_dir": run}, false,
			`[{"severity":"blocking","agent":"fd-safety","category":"auth","summary":"tokens in <localStorage>","file_refs":["a.ts:1"],"timestamp":"2026-11-20T10:00:00Z"},` +
				`{"severity":"notable","agent":"fd-perf","category":"db","summary":"N+1 query","file_refs":[]}]`, 2},
		{"blocking, relative", "fetch_peer_findings", map[string]any{"output_dir": "run", "severity_filter": "blocking"}, false,
			`[{"severity":"blocking","agent":"fd-safety","category":"auth","summary":"tokens in <localStorage>","file_refs":["a.ts:1"],"timestamp":"2026-11-20T10:00:00Z"}]`, 1},
		{"no bus", "fetch_peer_findings", map[string]any{"output_dir": filepath.Join(root, "run", "..", "empty")}, false, `[]`, 0},
		{"outside", "fetch_peer_findings", map[string]any{"output_dir": outside}, true, "outside the server's root", 0},
		{"dotdot", "fetch_peer_findings", map[string]any{"output_dir": "../"}, true, "outside the server's root", 0},
		{"symlink out", "fetch_peer_findings", map[string]any{"output_dir": "escape"}, true, "outside the server's root", 0},
		{"missing", "fetch_peer_findings", map[string]any{"output_dir": "nope"}, true, "no such file or directory", 0},
		{"bad filter", "fetch_peer_findings", map[string]any{"output_dir": run, "severity_filter": "P0"}, true, "severity_filter", 0},
		// get_synthesis: the verdict of its summary.
		{"synthesis", "get_synthesis", map[string]any{"output_dir": "run"}, false, "risky", 1},
		{"no agents", "get_synthesis", map[string]any{"output_dir": "empty"}, false, "error", 0},
		{"still writing", "get_synthesis", map[string]any{"output_dir": "running"}, false, "pending", 0},
		{"not fully read", "get_synthesis", map[string]any{"output_dir": "unread"}, false, "safe", 0},
		{"synthesis outside", "get_synthesis", map[string]any{"output_dir": outside}, true, "outside the server's root", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, cs, tt.tool, tt.args)
			text := resultText(res)
			if res.IsError != tt.isError {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tt.isError, text)
			}
			if tt.isError {
				if !strings.Contains(text, tt.text) {
					t.Errorf("error %q, want it to contain %q", text, tt.text)
				}
				return
			}
			sc, _ := json.Marshal(res.StructuredContent)
			if tt.tool == "get_synthesis" {
				var out synthesisSummary
				if err := json.Unmarshal(sc, &out); err != nil || string(out.Verdict) != tt.text || out.FindingsTotal != tt.count {
					t.Errorf("structured content %s: want verdict %s and %d findings (%v)", sc, tt.text, tt.count, err)
				}
				if !strings.HasPrefix(text, "Verdict: "+tt.text+".") || strings.Contains(text, `"verdict"`) {
					t.Errorf("text %q: want the verdict line, not the document again", text)
				}
				if unread := tt.name == "not fully read"; unread != (len(out.Agents.Unreadable) > 0) ||
					unread != strings.Contains(text, "could not be fully read") {
					t.Errorf("unreadable agents %v, text %q: want them named exactly when a report could not be fully read",
						out.Agents.Unreadable, text)
				}
				return
			}
			if text != tt.text {
				t.Errorf("text\n%s\nwant\n%s", text, tt.text)
			}
			// The array is sent once: no structured copy beside the text.
			var out []bus.Entry
			if err := json.Unmarshal([]byte(text), &out); err != nil || len(out) != tt.count || res.StructuredContent != nil {
				t.Errorf("text %s, structured content %s: want %d findings once (%v)", text, sc, tt.count, err)
			}
		})
	}
}

// TestMCPSynthesisSeam: get_synthesis serves whatever synthesizeDir returns.
func TestMCPSynthesisSeam(t *testing.T) {
	root := t.TempDir()
	var got string
	fake := func(ctx context.Context, r *os.Root, dir string, cfg Config, opts synth.Options, hold *membudget.Holding) (*synth.Synthesis, error) {
		got = dir
		return &synth.Synthesis{Verdict: parse.Safe, Reviewed: "2026-11-20T10:00:00Z"}, nil
	}
	cs := mcpSessionWith(t, Config{Root: root}, fake)
	res := callTool(t, cs, "get_synthesis", map[string]any{"output_dir": "."})
	real, _ := filepath.EvalSymlinks(root)
	sc, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(sc), `"verdict":"safe"`) || got != real {
		t.Errorf("result %s %q (error %v) for dir %q, want the seam's for %q", sc, resultText(res), res.IsError, got, real)
	}
}

// TestMCPStream: with a Stream (mcp --bus nats://…), fetch_peer_findings
// reads it, filtered, whatever bus files output_dir holds. Any backend
// stands for the stream here: a file outside the root.
func TestMCPStream(t *testing.T) {
	stream := bus.NewFile(filepath.Join(t.TempDir(), "stream.jsonl"), bus.Options{NoSync: true})
	for _, f := range []struct{ sev, agent string }{{bus.Blocking, "fd-correctness"}, {bus.Notable, "fd-perf"}, {bus.Blocking, "fd-safety"}} {
		if _, err := stream.Append(context.Background(), bus.Entry{Kind: bus.EntryFinding, Severity: f.sev, Agent: f.agent,
			Category: "c", Summary: "s " + f.agent, FileRefs: []string{}}); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "peer-findings.jsonl"), []byte(`{"severity":"blocking","agent":"fd-file","summary":"not read"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := mcpSessionWith(t, Config{Root: root, Stream: stream}, synthesizeDir)
	text := resultText(callTool(t, cs, "fetch_peer_findings", map[string]any{"output_dir": root, "severity_filter": "blocking"}))
	if strings.Count(text, `"agent"`) != 2 || !strings.Contains(text, "fd-correctness") || strings.Contains(text, "fd-file") {
		t.Errorf("fetch_peer_findings over the stream: %s", text)
	}
}
