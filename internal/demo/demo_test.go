package demo

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExampleMatchesTestdata keeps testdata/example (the run `make run`
// synthesises) equal to what `fluxwatch demo` writes.
func TestExampleMatchesTestdata(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "example")
	want := ExampleFiles()
	var got []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
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
