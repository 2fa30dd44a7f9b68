package demo

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExampleMatchesTestdata: testdata/example at the top of the tree (the
// run `make run` synthesises, a symbolic link to internal/demo/testdata/example)
// holds exactly the files `fluxwatch demo` writes, and nothing else: a file
// added to the directory but not to exampleFiles fails here. fluxwatch's own
// reports (summary.md, findings.json) are outputs, not part of the example:
// git ignores them there, and a synth run without --out that wrote them is
// let be.
func TestExampleMatchesTestdata(t *testing.T) {
	link := filepath.Join("..", "..", "testdata", "example")
	root, err := filepath.EvalSymlinks(link)
	if err != nil {
		t.Fatal(err)
	}
	here, err := os.Stat(filepath.Join("testdata", "example"))
	if err != nil {
		t.Fatal(err)
	}
	if there, err := os.Stat(root); err != nil || !os.SameFile(here, there) {
		t.Fatalf("testdata/example is not internal/demo/testdata/example (%v): one copy of the example run", err)
	}
	want := ExampleFiles()
	var got []string
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == "summary.md" || rel == "findings.json" {
			return nil
		}
		got = append(got, rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if w, ok := want[rel]; !ok {
			t.Errorf("testdata/example/%s is not part of the example", rel)
		} else if string(data) != w {
			t.Errorf("testdata/example/%s differs from demo.Example: rewrite it with `fluxwatch demo`", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("testdata/example has %d files, the example %d", len(got), len(want))
	}
}

func TestExampleRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644)
	if err := Example(dir); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("err = %v, want ErrNotEmpty", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "mine" {
		t.Errorf("an existing file was touched")
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(path)
			st, _ := os.Stat(path)
			rel, _ := filepath.Rel(dir, path)
			m[rel] = string(data) + "@" + st.ModTime().UTC().String()
		}
		return nil
	})
	return m
}

func TestGenerateDeterministic(t *testing.T) {
	cfg := Config{Agents: 9, Findings: 7, BusLines: 300, Seed: 42}
	a, b := t.TempDir(), t.TempDir()
	if err := Generate(a, cfg); err != nil {
		t.Fatal(err)
	}
	if err := Generate(b, cfg); err != nil {
		t.Fatal(err)
	}
	sa, sb := snapshot(t, a), snapshot(t, b)
	if len(sa) != 10 {
		t.Errorf("%d files, want 9 agents and a bus", len(sa))
	}
	for k, v := range sa {
		if sb[k] != v {
			t.Errorf("%s differs between two runs with the same seed", k)
		}
	}
	c := t.TempDir()
	cfg.Seed = 43
	Generate(c, cfg)
	if sc := snapshot(t, c); sc["findings.jsonl"] == sa["findings.jsonl"] {
		t.Errorf("another seed wrote the same bus")
	}
	bus, _ := os.ReadFile(filepath.Join(a, "findings.jsonl"))
	if n := bytes.Count(bus, []byte("\n")); n != 300 {
		t.Errorf("bus has %d lines, want 300", n)
	}
	var formats []string
	for k, v := range sa {
		if strings.HasSuffix(k, ".md") {
			switch {
			case strings.Contains(v, "### Findings Index"):
				formats = append(formats, "strict")
			case strings.Contains(v, "| ID | Severity"):
				formats = append(formats, "table")
			case strings.HasPrefix(v, "---\nissues:"):
				formats = append(formats, "yaml")
			default:
				formats = append(formats, "prose")
			}
		}
	}
	slices.Sort(formats)
	formats = slices.Compact(formats)
	if !slices.Equal(formats, []string{"prose", "strict", "table", "yaml"}) {
		t.Errorf("formats = %q, want all four", formats)
	}
}

// TestLive runs the live demo fast and checks what it leaves: six reports
// renamed into place (one an error stub), the bus with its blocking
// findings, the specialist file, and no .partial; a second run in the same
// directory is refused, one where only fluxwatch's reports are is not.
func TestLive(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "findings.json"), []byte("{}"), 0o644) // a watcher was first
	var said []string
	if err := Live(context.Background(), dir, 400, func(s string) { said = append(said, s) }); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	partials, _ := filepath.Glob(filepath.Join(dir, "*.partial"))
	if len(names) != 6 || len(partials) != 0 {
		t.Errorf("%d reports, %d partials; want 6 and 0", len(names), len(partials))
	}
	stub, _ := os.ReadFile(filepath.Join(dir, "fd-performance."+ExampleRun+".md"))
	if !bytes.Contains(stub, []byte("Verdict: error")) {
		t.Errorf("fd-performance did not fail: %q", stub)
	}
	bus, _ := os.ReadFile(filepath.Join(dir, "peer-findings.jsonl"))
	if n := bytes.Count(bus, []byte("\n")); n != 5 || bytes.Count(bus, []byte(`"severity":"blocking"`)) != 3 {
		t.Errorf("bus of %d lines:\n%s", n, bus)
	}
	if _, err := os.Stat(filepath.Join(dir, "findings", "frontend.yaml")); err != nil {
		t.Error(err)
	}
	if len(said) < 40 || !strings.Contains(said[len(said)-1], "fd-user-product finishes") {
		t.Errorf("said %d lines, the last %q", len(said), said[len(said)-1])
	}
	if err := Live(context.Background(), dir, 400, func(string) {}); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("second live demo in the same directory: %v, want ErrNotEmpty", err)
	}
}

func TestLiveStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	n := 0
	err := Live(ctx, dir, 1, func(string) {
		if n++; n == 1 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Errorf("Live after cancel = %v after %d steps, want context.Canceled after 1", err, n)
	}
}

// TestRunLive: what `demo --live` says: the run and what to watch it with,
// each step, what to run next; interrupted, it says so and is no error; a
// speed that is no number above 0 and a directory holding a run are the
// user's errors, said before anything is written.
func TestRunLive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var out bytes.Buffer
	if err := RunLive(context.Background(), &out, dir, 400); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.HasPrefix(text, "live demo in "+dir+": 6 agents over about 100ms; in another terminal run: fluxwatch watch "+dir+"\n") ||
		!strings.Contains(text, "fd-safety") || !strings.HasSuffix(text, "done; now run: fluxwatch synth "+dir+"\n") {
		t.Errorf("RunLive said:\n%s", text)
	}
	out.Reset()
	if err := RunLive(context.Background(), &out, dir, 400); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("RunLive in a run: %v, want ErrNotEmpty", err)
	}
	for _, speed := range []float64{0, -1, math.Inf(1), math.NaN()} {
		out.Reset()
		if err := RunLive(context.Background(), &out, t.TempDir(), speed); err == nil || !strings.Contains(err.Error(), "want a number above 0") || out.Len() > 0 {
			t.Errorf("RunLive at speed %v: %v, said %q; want an error and nothing said", speed, err, out.String())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out.Reset()
	if err := RunLive(ctx, &out, filepath.Join(t.TempDir(), "run"), 1); err != nil || !strings.HasSuffix(out.String(), "live demo interrupted\n") {
		t.Errorf("RunLive interrupted: %v, said %q; want no error and the interruption said", err, out.String())
	}
}
