package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// TestDiscoverCreateConcurrent: twelve agents started at once, each told to
// run `discover --task T --create`, agree (SPEC §10): one directory is made
// and all twelve print it; a later discover of T finds it, not ambiguous.
// Before, each process that found nothing created a directory of its own
// (two or more in the same second, -2, -3, …), and every later discover of
// the task was ambiguous between them for ever (exit 3).
func TestDiscoverCreateConcurrent(t *testing.T) {
	bin := testBinaryAsFluxwatch(t)
	root := filepath.Join(t.TempDir(), "features")
	const task = "Add rate limiting to the public API gateway"
	const n = 12
	type result struct {
		out  []byte
		err  error
		code int
	}
	results := make(chan result, n)
	start := make(chan struct{})
	for range n {
		go func() {
			cmd := exec.Command(bin, "discover", "--root", root, "--task", task, "--create")
			cmd.Env = append(os.Environ(), "FLUX_OUTPUT_DIR=")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			<-start
			out, err := cmd.Output()
			results <- result{append(out, stderr.Bytes()...), err, cmd.ProcessState.ExitCode()}
		}()
	}
	close(start)
	printed := map[string]int{}
	for range n {
		r := <-results
		if r.err != nil {
			t.Errorf("discover exit %d: %v\n%s", r.code, r.err, r.out)
			continue
		}
		var out struct {
			Directory *string `json:"directory"`
			Tier      int     `json:"tier"`
		}
		if err := json.Unmarshal(r.out, &out); err != nil || out.Directory == nil {
			t.Errorf("output: %v\n%s", err, r.out)
			continue
		}
		printed[*out.Directory]++
	}
	made, err := filepath.Glob(filepath.Join(root, "*", "MANIFEST.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 1 {
		t.Errorf("%d feature directories made, want 1: %q", len(made), made)
	}
	if len(printed) != 1 {
		t.Errorf("the discovers printed %d directories, want one for all: %v", len(printed), printed)
	}
	for dir, k := range printed {
		if len(made) > 0 && dir != filepath.Dir(made[0]) {
			t.Errorf("printed %s (%d times), made %s", dir, k, filepath.Dir(made[0]))
		}
	}
	// Later: found, never ambiguous.
	out, err := exec.Command(bin, "discover", "--root", root, "--task", task).Output()
	if err != nil {
		t.Fatalf("a later discover: %v\n%s", err, out)
	}
	if len(made) > 0 && !strings.Contains(string(out), strconv.Quote(filepath.Dir(made[0]))) {
		t.Errorf("a later discover printed %s, want %s", out, filepath.Dir(made[0]))
	}
}
