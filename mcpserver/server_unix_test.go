//go:build unix

package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpRunDir makes root/name holding one agent report and a bus of one
// finding.
func mcpRunDir(t *testing.T, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "peer-findings.jsonl"), []byte(`{"severity":"blocking","agent":"fd-a","category":"c","summary":"s","file_refs":[]}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "fd-a.md"), []byte("### Findings Index\n- P1 | A-1 | \"S\" | T\nVerdict: needs-changes\n"), 0o644)
	return dir
}

// asyncCall starts a tool call and returns the channel its result comes on.
func asyncCall(cs *mcp.ClientSession, name string, args map[string]any) <-chan *mcp.CallToolResult {
	ch := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "protocol error: " + err.Error()}}}
		}
		ch <- res
	}()
	return ch
}

// A bus that is a FIFO (with no writer) is refused at once with an error
// naming it, not waited on until the deadline; the next call is answered.
func TestMCPFIFOBusRefused(t *testing.T) {
	root := t.TempDir()
	mcpRunDir(t, root, "run")
	testfault.Mkfifo(t, filepath.Join(root, "fifo", "peer-findings.jsonl"))

	cs := mcpSessionTimeout(t, root, time.Minute) // a wait would show as a timed-out test, not as a pass
	res := callTool(t, cs, "fetch_peer_findings", map[string]any{"output_dir": "fifo"})
	text := resultText(res)
	if !res.IsError || !strings.Contains(text, "fifo/peer-findings.jsonl") || !strings.Contains(text, "a FIFO") {
		t.Errorf("fetch on a FIFO bus: IsError %v, %q; want a tool error naming the FIFO", res.IsError, text)
	}
	res = callTool(t, cs, "fetch_peer_findings", map[string]any{"output_dir": "run"})
	if res.IsError || !strings.Contains(resultText(res), `"agent":"fd-a"`) {
		t.Errorf("fetch on a normal dir after the FIFO: IsError %v, %q", res.IsError, resultText(res))
	}
}

// One call blocked (a report that is a FIFO; a synthesis that never ends)
// does not delay the next: fetch on a normal directory answers while they
// are still pending, and each blocked call ends with a tool error at the
// deadline.
func TestMCPBlockedCallDoesNotDelayOthers(t *testing.T) {
	root := t.TempDir()
	mcpRunDir(t, root, "run")
	testfault.Mkfifo(t, filepath.Join(root, "stuck", "fd-b.md"))
	os.Mkdir(filepath.Join(root, "slow"), 0o755)

	entered := make(chan struct{}, 1)
	slow, _ := filepath.EvalSymlinks(filepath.Join(root, "slow"))
	fake := func(ctx context.Context, r *os.Root, dir string, cfg Config, opts synth.Options, hold *membudget.Holding) (*synth.Synthesis, error) {
		if dir == slow {
			entered <- struct{}{}
			select {} // a synthesis that never ends and ignores ctx: only the deadline ends its call
		}
		return synthesizeDir(ctx, r, dir, cfg, opts, hold)
	}

	const deadline = time.Second
	cs := mcpSessionWith(t, Config{Root: root, CallTimeout: deadline}, fake)
	start := time.Now()
	slowRes := asyncCall(cs, "get_synthesis", map[string]any{"output_dir": "slow"})
	stuckRes := asyncCall(cs, "get_synthesis", map[string]any{"output_dir": "stuck"})
	<-entered

	res := callTool(t, cs, "fetch_peer_findings", map[string]any{"output_dir": "run"})
	took := time.Since(start)
	if res.IsError || !strings.Contains(resultText(res), `"agent":"fd-a"`) {
		t.Fatalf("fetch beside blocked calls: IsError %v, %q", res.IsError, resultText(res))
	}
	select {
	case r := <-slowRes:
		t.Fatalf("the never-ending call answered before the fetch beside it: %q", resultText(r))
	default:
	}
	t.Logf("fetch answered %v after two blocked calls started", took.Round(time.Millisecond))

	for name, ch := range map[string]<-chan *mcp.CallToolResult{"slow": slowRes, "stuck": stuckRes} {
		r := <-ch
		text := resultText(r)
		// A FIFO report is skipped by the scan (a diagnostic) or, were the
		// scan to block on it, ends at the deadline; the call that never
		// ends must end at the deadline with a tool error.
		if name == "slow" && (!r.IsError || !strings.Contains(text, "get_synthesis: no answer within 1s (--call-timeout)")) {
			t.Errorf("%s: IsError %v, %q; want the deadline's tool error", name, r.IsError, text)
		}
		t.Logf("%s: IsError %v after %v", name, r.IsError, time.Since(start).Round(time.Millisecond))
	}
	res = callTool(t, cs, "get_synthesis", map[string]any{"output_dir": "run"})
	if res.IsError || !strings.HasPrefix(resultText(res), "Verdict: needs-changes.") {
		t.Errorf("get_synthesis after the blocked calls: IsError %v, %q", res.IsError, resultText(res))
	}
}

// An output_dir that is a FIFO, or a symlink to one, is refused at once
// with a tool error naming it (os.Root would wait in open(2) for a writer
// until the call's deadline); so is a --root that is a FIFO, at start.
func TestMCPFIFOOutputDirRefused(t *testing.T) {
	root := t.TempDir()
	mcpRunDir(t, root, "run")
	testfault.Mkfifo(t, filepath.Join(root, "fifo"))
	os.Symlink("fifo", filepath.Join(root, "link"))

	cs := mcpSessionTimeout(t, root, 5*time.Second) // longer than Within: a wait shows as its failure
	for _, tool := range []string{"fetch_peer_findings", "get_synthesis"} {
		for _, dir := range []string{"fifo", "link"} {
			testfault.Within(t, 3*time.Second, tool+" on a FIFO output_dir", func() {
				res := callTool(t, cs, tool, map[string]any{"output_dir": dir})
				if text := resultText(res); !res.IsError || !strings.Contains(text, "output_dir "+dir+": not a directory (a FIFO)") {
					t.Errorf("%s %s: IsError %v, %q; want a tool error naming it as a FIFO", tool, dir, res.IsError, text)
				}
			})
		}
	}
	res := callTool(t, cs, "fetch_peer_findings", map[string]any{"output_dir": "run"})
	if res.IsError || !strings.Contains(resultText(res), `"agent":"fd-a"`) {
		t.Errorf("fetch on a normal dir after the FIFOs: IsError %v, %q", res.IsError, resultText(res))
	}

	testfault.Within(t, 3*time.Second, "a FIFO root", func() {
		_, err := NewServer(context.Background(), Config{Root: filepath.Join(root, "fifo")})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "--root "+filepath.Join(root, "fifo")+": not a directory") {
			t.Errorf("Root a FIFO: %v; want ErrConfig naming it", err)
		}
	})
}

// fetch_peer_findings reads the bus file it checked, not its path again: a
// bus swapped back and forth between a file and a symlink out of the root
// (an agent can write in output_dir) is refused or read from inside, never
// read from outside. The old code read the outside file on 3-4% of the
// calls here (a quarter of them with the swapper in a process of its own).
func TestMCPBusSwappedForSymlinkOut(t *testing.T) {
	root := t.TempDir()
	run := mcpRunDir(t, root, "run")
	outside := filepath.Join(t.TempDir(), "findings.jsonl")
	os.WriteFile(outside, []byte(`{"severity":"blocking","agent":"fd-x","category":"c","summary":"OUTSIDE","file_refs":[]}`+"\n"), 0o644)
	inside := filepath.Join(run, "inside.jsonl")
	os.Link(filepath.Join(run, "peer-findings.jsonl"), inside)
	bus := filepath.Join(run, "findings.jsonl")

	stop := make(chan struct{})
	swapped := make(chan struct{})
	go func() {
		defer close(swapped)
		link, file := filepath.Join(run, "link.tmp"), filepath.Join(run, "file.tmp")
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.Symlink(outside, link)
			os.Rename(link, bus)
			os.Link(inside, file)
			os.Rename(file, bus)
		}
	}()
	cs := mcpSession(t, root)
	calls, outsideRead := 0, 0
	for start := time.Now(); time.Since(start) < 2*time.Second; calls++ {
		res := callTool(t, cs, "fetch_peer_findings", map[string]any{"output_dir": "run"})
		if strings.Contains(resultText(res), "OUTSIDE") {
			outsideRead++
		}
	}
	close(stop)
	<-swapped
	if outsideRead > 0 {
		t.Errorf("%d calls of %d answered with the bus outside the root", outsideRead, calls)
	}
}

// TestMCPFetchFIFOBus: fetch_peer_findings on a run whose bus is a FIFO
// answers with an error at once, and the server goes on serving.
func TestMCPFetchFIFOBus(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "run")
	testfault.Mkfifo(t, filepath.Join(run, "peer-findings.jsonl"))
	cs := mcpSession(t, root)
	testfault.Within(t, 3*time.Second, "fetch_peer_findings on a FIFO bus", func() {
		res := callTool(t, cs, "fetch_peer_findings", map[string]any{"output_dir": run})
		if !res.IsError || !strings.Contains(resultText(res), "a FIFO") {
			t.Errorf("IsError = %v, text %q: want an error naming a FIFO", res.IsError, resultText(res))
		}
	})
}
