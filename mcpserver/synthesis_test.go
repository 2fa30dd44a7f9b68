package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// synthesisRun writes a run of three agents under root/name: 12 findings
// of fd-a (P0–P3 by turns), fd-b reporting the first three of them again,
// fd-c one of its own.
func synthesisRun(t *testing.T, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var a, b strings.Builder
	a.WriteString("### Findings Index\n")
	b.WriteString("### Findings Index\n")
	words := []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet", "Kilo", "Lima"}
	for i, w := range words {
		fmt.Fprintf(&a, "- P%d | A-%03d | \"S%d\" | %s overflows its buffer\n", i%4, i+1, i, w)
		if i < 3 {
			fmt.Fprintf(&b, "- P%d | B-%03d | \"S%d\" | %s overflows its buffer\n", i%4, i+1, i, w)
		}
	}
	a.WriteString("Verdict: risky\n")
	b.WriteString("Verdict: risky\n")
	for file, text := range map[string]string{"fd-a.md": a.String(), "fd-b.md": b.String(),
		"fd-c.md": "### Findings Index\n- P2 | C-001 | \"X\" | Lonely defect\nVerdict: safe\n"} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// callSynthesis calls get_synthesis and decodes its structured content.
func callSynthesis(t *testing.T, cs *mcp.ClientSession, args map[string]any) (synthesisSummary, string, *mcp.CallToolResult) {
	t.Helper()
	res := callTool(t, cs, "get_synthesis", args)
	var out synthesisSummary
	if !res.IsError {
		sc, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(sc, &out); err != nil {
			t.Fatalf("structured content %s: %v", sc, err)
		}
	}
	return out, resultText(res), res
}

func briefIDs(out synthesisSummary) []string {
	var ids []string
	for _, f := range out.Findings {
		m, _ := f.(map[string]any)
		ids = append(ids, fmt.Sprint(m["id"]))
	}
	return ids
}

// get_synthesis answers a summary by default, pages of findings, filtered,
// and the whole findings.json on request; the result comes once (the
// structured content), the text lists the same facts.
func TestMCPSynthesisViews(t *testing.T) {
	root := t.TempDir()
	synthesisRun(t, root, "run")
	cs := mcpSession(t, root)

	t.Run("summary", func(t *testing.T) {
		out, text, res := callSynthesis(t, cs, map[string]any{"output_dir": "run", "top": 2})
		if res.IsError || out.Verdict != parse.Risky || out.FindingsTotal != 13 || out.Matched != 13 ||
			out.Agents.Launched != 3 || out.Agents.Completed != 3 || len(out.Agents.List) != 3 || out.Counts.P0 != 3 {
			t.Fatalf("summary %+v (%s)", out, text)
		}
		// The top two: the P0s, the converged first (A-001 with fd-b).
		if ids := briefIDs(out); !slices.Equal(ids, []string{"A-001", "A-005"}) || out.NextOffset != nil {
			t.Errorf("top findings %v, next %v", ids, out.NextOffset)
		}
		if !strings.HasPrefix(text, "Verdict: risky. Agents: 3 of 3 completed. Findings: 13 (P0 3, P1 3, P2 4, P3 3).") ||
			!strings.Contains(text, "1. [P0] A-001 Alpha overflows its buffer (2/3 agents: fd-a, fd-b)") || strings.Contains(text, "{") {
			t.Errorf("text:\n%s", text)
		}
		whole, _ := json.Marshal(res)
		if bytes := len(whole); bytes > 8<<10 {
			t.Errorf("summary of 13 findings is %d bytes", bytes)
		}
	})
	t.Run("pages", func(t *testing.T) {
		var all []string
		next := 0
		for page := 0; ; page++ {
			out, _, res := callSynthesis(t, cs, map[string]any{"output_dir": "run", "view": "findings", "offset": next, "limit": 5})
			if res.IsError || out.Matched != 13 || out.Offset != next {
				t.Fatalf("page %d: %+v", page, out)
			}
			all = append(all, briefIDs(out)...)
			if out.NextOffset == nil {
				break
			}
			next = *out.NextOffset
		}
		if len(all) != 13 || all[0] != "A-001" || slices.Contains(all[:12], "C-001") == false {
			t.Errorf("pages gave %v", all)
		}
	})
	t.Run("filters", func(t *testing.T) {
		out, _, _ := callSynthesis(t, cs, map[string]any{"output_dir": "run", "view": "findings", "severity": []string{"P2"}})
		if ids := briefIDs(out); out.Matched != 4 || !slices.Contains(ids, "C-001") {
			t.Errorf("P2 findings %v (matched %d)", ids, out.Matched)
		}
		out, _, _ = callSynthesis(t, cs, map[string]any{"output_dir": "run", "view": "findings", "agent": "fd-b"})
		if ids := briefIDs(out); !slices.Equal(ids, []string{"A-001", "A-002", "A-003"}) {
			t.Errorf("fd-b's findings %v", ids)
		}
		out, _, _ = callSynthesis(t, cs, map[string]any{"output_dir": "run", "view": "findings", "agent": "fd-b", "severity": []string{"P0", "P1"}, "detail": "full"})
		if len(out.Findings) != 2 {
			t.Fatalf("fd-b's P0 and P1: %+v", out.Findings)
		}
		if m, _ := out.Findings[0].(map[string]any); m["sources"] == nil || m["fingerprint"] == nil {
			t.Errorf("detail full: %v, want findings.json's finding", m)
		}
	})
	t.Run("new since a baseline", func(t *testing.T) {
		// The baseline run lacks fd-c: its finding is new.
		base := filepath.Join(root, "base")
		synthesisRun(t, root, "base")
		os.Remove(filepath.Join(base, "fd-c.md"))
		out, text, res := callSynthesis(t, cs, map[string]any{"output_dir": "run", "view": "findings", "baseline": "base", "new_only": true})
		if res.IsError || !slices.Equal(briefIDs(out), []string{"C-001"}) || out.Baseline == nil || out.Baseline.New != 1 || out.Baseline.Unchanged != 12 {
			t.Errorf("new since base: %v %+v (%s)", briefIDs(out), out.Baseline, text)
		}
		// A findings.json is a baseline too.
		writeFindingsJSON(t, base)
		out, _, res = callSynthesis(t, cs, map[string]any{"output_dir": "run", "view": "findings", "baseline": "base/findings.json", "new_only": true})
		if res.IsError || !slices.Equal(briefIDs(out), []string{"C-001"}) {
			t.Errorf("new since base/findings.json: %v", briefIDs(out))
		}
	})
	t.Run("full", func(t *testing.T) {
		res := callTool(t, cs, "get_synthesis", map[string]any{"output_dir": "run", "view": "full"})
		sc, _ := json.Marshal(res.StructuredContent)
		var doc synth.Synthesis
		if res.IsError || json.Unmarshal(sc, &doc) != nil || doc.ProtocolVersion != "1.0" || len(doc.Findings) != 13 {
			t.Fatalf("full view: %s", sc)
		}
		// The document once: not again in the text.
		if text := resultText(res); strings.Contains(text, "synthesis_protocol_version") || len(text) > 300 {
			t.Errorf("full view text %q", text)
		}
		// The size limit is measured on the compact document, as sent: a
		// byte less and it is refused, saying so; exactly it and it is sent.
		defer func(was int) { maxFullDocument = was }(maxFullDocument)
		maxFullDocument = len(sc) - 1
		res = callTool(t, cs, "get_synthesis", map[string]any{"output_dir": "run", "view": "full"})
		if text := resultText(res); !res.IsError || !strings.Contains(text, fmt.Sprintf("more than %d bytes", len(sc)-1)) ||
			!strings.Contains(text, "view findings with offset and limit") {
			t.Errorf("full view over the limit: error %v, %q", res.IsError, text)
		}
		maxFullDocument = len(sc)
		if res = callTool(t, cs, "get_synthesis", map[string]any{"output_dir": "run", "view": "full"}); res.IsError {
			t.Errorf("full view at the limit: %s", resultText(res))
		}
	})
	for _, bad := range []map[string]any{
		{"view": "everything"}, {"top": 1000}, {"limit": 0}, {"offset": -1}, {"severity": []string{"high"}},
		{"new_only": true}, {"view": "full", "agent": "fd-a"}, {"detail": "some"}, {"baseline": "nowhere"},
		{"baseline": "../outside"},
	} {
		bad["output_dir"] = "run"
		if res := callTool(t, cs, "get_synthesis", bad); !res.IsError {
			t.Errorf("get_synthesis %v: no error", bad)
		}
	}
}

// Callers asking at once for one run share one synthesis; syntheses of
// other runs wait for a slot (at most maxSyntheses at once).
func TestMCPSynthesisShared(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a", "b", "c", "d"} {
		synthesisRun(t, root, name)
	}
	var made, running, most atomic.Int32
	release := make(chan struct{})
	fake := func(ctx context.Context, r *os.Root, dir string, cfg Config, opts synth.Options, hold *membudget.Holding) (*synth.Synthesis, error) {
		made.Add(1)
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		return synthesizeDir(ctx, r, dir, cfg, opts, hold)
	}
	cs := mcpSessionWith(t, Config{Root: root}, fake)
	var wg sync.WaitGroup
	results := make(chan *mcp.CallToolResult, 10)
	call := func(dir string) {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_synthesis",
				Arguments: map[string]any{"output_dir": dir, "view": "findings", "limit": 1 + len(results)%3}})
			if err != nil {
				t.Error(err)
				return
			}
			results <- res
		})
	}
	for range 6 {
		call("a")
	}
	for _, dir := range []string{"b", "c", "d"} {
		call(dir)
	}
	time.Sleep(200 * time.Millisecond) // every call has asked
	close(release)
	wg.Wait()
	close(results)
	for res := range results {
		if res.IsError {
			t.Errorf("call: %s", resultText(res))
		}
	}
	if n := made.Load(); n != 4 {
		t.Errorf("%d syntheses for 6 calls on one run and 3 on others, want 4", n)
	}
	if n := most.Load(); n > maxSyntheses {
		t.Errorf("%d syntheses at once, want at most %d", n, maxSyntheses)
	}
}

// writeFindingsJSON writes the findings.json of the run in dir, as synth
// does.
func writeFindingsJSON(t *testing.T, dir string) {
	t.Helper()
	s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{}, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := synth.RenderJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "findings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A full view too large to send is refused having streamed little of it:
// the count stops at the limit, and the document is never made whole.
func TestCompactSizeStopsAtLimit(t *testing.T) {
	s := &synth.Synthesis{ProtocolVersion: "1.0"}
	for i := range 20000 {
		s.Findings = append(s.Findings, synth.Finding{Key: fmt.Sprintf("s:title %d", i), Title: fmt.Sprintf("Title <%d> & \u2028 \u2029 \"q\"", i),
			Severity: "P1", Agents: []string{"fd-a"}})
	}
	whole, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if n, over := compactSize(s, len(whole)); over || n != len(whole) {
		t.Errorf("compactSize at the whole document's length %d: %d, over %v", len(whole), n, over)
	}
	c := compactCounter{limit: 1000}
	if err := synth.WriteJSON(&c, s); !errors.Is(err, errOverLimit) {
		t.Fatalf("WriteJSON past the limit: %v", err)
	}
	if c.seen > 256<<10 || c.seen*4 > len(whole) {
		t.Errorf("streamed %d bytes of a %d-byte document to refuse it past 1000", c.seen, len(whole))
	}
}
