package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// terminalInput is standard input that is a terminal in the tests: a reader
// that is also a writer, as *os.File is.
type terminalInput struct{ io.Reader }

func (terminalInput) Write(p []byte) (int, error) { return len(p), nil }

func writeManifest(t *testing.T, root, dir, name, slug string) string {
	t.Helper()
	d := filepath.Join(root, dir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	data := "feature_name: " + name + "\nfeature_slug: " + slug + "\ndescription: " + name + "\n"
	if err := os.WriteFile(filepath.Join(d, "MANIFEST.yaml"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDiscoverChoice runs discover with no clear match on a (fake) terminal:
// the user picks from the numbered list.
func TestDiscoverChoice(t *testing.T) {
	root := t.TempDir()
	// Both score 0 against the task: listed newest first.
	now := time.Now()
	a := writeManifest(t, root, "a-payments", "Payments refactor", "payments-refactor")
	b := writeManifest(t, root, "b-search", "Search index", "search-index")
	os.Chtimes(filepath.Join(a, "MANIFEST.yaml"), now, now)
	os.Chtimes(filepath.Join(b, "MANIFEST.yaml"), now.Add(-time.Minute), now.Add(-time.Minute))
	cases := []struct {
		name      string
		input     string
		terminal  func(io.Writer) bool
		extra     []string
		wantCode  int
		wantSrc   string
		wantDir   string // suffix
		wantTier  int
		wantError string
	}{
		{"pick 2", "2\n", func(io.Writer) bool { return true }, nil, 0, "chosen", "b-search", 2, ""},
		{"retry after a bad answer", "9\nx\n1\n", func(io.Writer) bool { return true }, nil, 0, "chosen", "a-payments", 2, ""},
		{"create", "c\n", func(io.Writer) bool { return true }, []string{"--create", "--slug", "new-thing"}, 0, "created", "-new-thing", 3, ""},
		{"c without --create is not a choice", "c\n", func(io.Writer) bool { return true }, nil, exitInternal, "", "", 0, "ambiguous"},
		{"end of input", "", func(io.Writer) bool { return true }, nil, exitInternal, "", "", 0, "ambiguous"},
		{"stdout not a terminal", "1\n", func(w io.Writer) bool { _, ok := w.(terminalInput); return ok }, nil, exitInternal, "", "", 0, "ambiguous"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			e := &env{
				stdin:      terminalInput{strings.NewReader(c.input)},
				stdout:     &stdout,
				stderr:     &stderr,
				getenv:     func(string) string { return "" },
				isTerminal: c.terminal,
			}
			args := append([]string{"discover", "--root", root, "--task", "database schema"}, c.extra...)
			code := exitCode(run(context.Background(), args, e), &stderr)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.wantCode, &stdout, &stderr)
			}
			var out struct {
				Directory *string `json:"directory"`
				Tier      int     `json:"tier"`
				Source    string  `json:"source"`
				Error     *struct {
					Type string `json:"type"`
				} `json:"error"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, &stdout)
			}
			if c.wantError != "" {
				if out.Error == nil || out.Error.Type != c.wantError || out.Directory != nil {
					t.Errorf("got %s, want error %s", &stdout, c.wantError)
				}
				return
			}
			if out.Directory == nil || out.Source != c.wantSrc || out.Tier != c.wantTier || !strings.HasSuffix(*out.Directory, c.wantDir) {
				t.Errorf("got %s, want source %s tier %d", &stdout, c.wantSrc, c.wantTier)
			}
			if !strings.Contains(stderr.String(), "1) "+filepath.Join(root, "a-payments")) {
				t.Errorf("the numbered list is missing from stderr:\n%s", &stderr)
			}
		})
	}
}
