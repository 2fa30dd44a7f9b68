package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// runMCPStdin serves a server rooted at root on input in to its end, as
// `fluxwatch mcp` does on its standard input, and returns Serve's error,
// its output split in lines and its log.
func runMCPStdin(t *testing.T, root string, in io.Reader) (lines []string, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err = Serve(ctx, Config{Root: root, CallTimeout: 5 * time.Second, Log: &errb}, in, &out)
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines, errb.String(), err
}

// mcpHello opens a session: initialize, then initialized.
const mcpHello = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// answers maps the id of each answer on the output (as JSON text; null for
// an error answered to no id) to the answer; every line must be a JSON-RPC
// message.
func answers(t *testing.T, lines []string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	for _, l := range lines {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
			if l[0] == '[' { // a batch answer
				got["batch"] = append(got["batch"], l)
				continue
			}
			t.Errorf("not a JSON-RPC message on stdout: %.200s", l)
			continue
		}
		got[string(m.ID)] = append(got[string(m.ID)], l)
	}
	return got
}

const mcpFetch = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"fetch_peer_findings","arguments":{"output_dir":"run"}}}` + "\n"

// A line that is not a JSON-RPC message gets a JSON-RPC error and is
// skipped: the server neither ends (the SDK ends the whole session at one,
// exit 3, cutting off the answers in flight) nor stops answering the others.
func TestMCPMalformedLineAnswered(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "run"), 0o755)
	os.WriteFile(filepath.Join(root, "run", "peer-findings.jsonl"), []byte(`{"severity":"blocking","agent":"fd-a","category":"c","summary":"s","file_refs":[]}`+"\n"), 0o644)
	for _, c := range []struct {
		name, line string
		id         string // the id of the error answer
		code       string
	}{
		{"garbage", "garbage\n", "null", "-32700"},
		{"two values", `{"jsonrpc":"2.0","id":5,"method":"ping"} {"jsonrpc":"2.0","id":6,"method":"ping"}` + "\n", "null", "-32700"},
		{"no version", `{"id":9,"method":"ping"}` + "\n", "9", "-32600"},
		{"empty object", "{}\n", "null", "-32600"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n", "null", "-32600"},
		{"bad batch", "[1,2]\n", "null", "-32600"},
		{"empty batch", "[]\n", "null", "-32600"},
		{"batch in 2025-06-18", `[{"jsonrpc":"2.0","id":70,"method":"ping"}]` + "\n", "null", "-32600"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines, stderr, err := runMCPStdin(t, root, strings.NewReader(mcpHello+c.line+mcpFetch))
			got := answers(t, lines)
			if err != nil {
				t.Errorf("Serve: %v, want nil; log %q", err, stderr)
			}
			if len(got["1"]) != 1 || len(got["8"]) != 1 || !strings.Contains(got["8"][0], `\"agent\":\"fd-a\"`) {
				t.Errorf("want an answer to initialize (1) and to the fetch (8) after the bad line; got\n%s", strings.Join(lines, "\n"))
			}
			if e := got[c.id]; len(e) != 1 || !strings.Contains(e[0], `"error":{"code":`+c.code) || !strings.Contains(e[0], "input line 3") {
				t.Errorf("want one error %s for id %s naming input line 3; got\n%s", c.code, c.id, strings.Join(lines, "\n"))
			}
			if !strings.Contains(stderr, "input line 3") {
				t.Errorf("the log does not say which line was dropped: %q", stderr)
			}
		})
	}
}

// A message cut off by the end of input is answered with an error (the SDK
// took it for an internal error: exit 3); the last message with no newline
// after it is served.
func TestMCPInputEndsInsideMessage(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "run"), 0o755)
	lines, stderr, err := runMCPStdin(t, root, strings.NewReader(mcpHello+`{"jsonrpc":"2.0","id":8,"method":"tools/li`))
	got := answers(t, lines)
	if err != nil || len(got["null"]) != 1 || !strings.Contains(got["null"][0], "the input ended inside a message") {
		t.Errorf("Serve %v (want nil), stdout\n%s\nlog %q; want an error for the cut message", err, strings.Join(lines, "\n"), stderr)
	}
	lines, stderr, err = runMCPStdin(t, root, strings.NewReader(mcpHello+strings.TrimSuffix(mcpFetch, "\n")))
	if got := answers(t, lines); err != nil || len(got["8"]) != 1 || !strings.Contains(got["8"][0], `"text":"[]"`) {
		t.Errorf("Serve %v (want nil), stdout\n%s\nlog %q; want the fetch answered", err, strings.Join(lines, "\n"), stderr)
	}
}

// A 100 MB request line is read through and dropped in bounded memory,
// answered with an error; the next request is served.
func TestMCPHugeLineDropped(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "run"), 0o755)
	const size = 100 << 20
	huge := io.MultiReader(strings.NewReader(mcpHello+`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"`),
		io.LimitReader(repeatReader('x'), size), strings.NewReader("\"}}\n"+mcpFetch))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lines, stderr, err := runMCPStdin(t, root, huge)
	runtime.ReadMemStats(&after)
	got := answers(t, lines)
	if err != nil || len(got["null"]) != 1 || !strings.Contains(got["null"][0], "longer than") || len(got["8"]) != 1 {
		t.Errorf("Serve %v (want nil), stdout\n%.2000s\nlog %q; want the long line refused and the fetch answered", err, strings.Join(lines, "\n"), stderr)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/2 {
		t.Errorf("allocated %d MiB for a %d MiB line: want it read through in bounded memory", alloc>>20, size>>20)
	}
}

// repeatReader reads as an endless run of its byte.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
