package watcher

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/synth"
)

// TestSynthesizeStreams: Synthesize, which streams the bus, writes the same
// reports byte for byte as Scan and synth.Synthesize, which hold it: a bus of
// several batches, a second bus file with bad lines and an incomplete last
// record, a bus that is a directory, a run without a bus.
func TestSynthesizeStreams(t *testing.T) {
	gen := func(t *testing.T, busLines int) string {
		dir := filepath.Join(t.TempDir(), "run")
		if err := demo.Generate(dir, demo.Config{Agents: 12, Findings: 8, BusLines: busLines, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	tests := []struct {
		name  string
		setup func(t *testing.T) string
	}{
		{"several batches", func(t *testing.T) string { return gen(t, 3*bus.BatchSize+17) }},
		{"two bus files", func(t *testing.T) string {
			dir := gen(t, 500)
			write(t, dir, "peer-findings.jsonl", "not json\n"+
				`{"severity":"blocking","agent":"fd-agent-0003","summary":"late","file_refs":[],"timestamp":"2026-11-20T09:59:00Z"}`+"\n"+
				`{"severity":"notable","agent":"fd-ag`, 2*time.Hour)
			return dir
		}},
		{"bus is a directory", func(t *testing.T) string {
			dir := gen(t, 0)
			if err := os.Mkdir(filepath.Join(dir, "findings.jsonl"), 0o755); err != nil {
				t.Fatal(err)
			}
			return dir
		}},
		{"no bus", func(t *testing.T) string { return gen(t, 0) }},
	}
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "test"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			run, err := Scan(context.Background(), dir, ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := synth.Synthesize(run, opts)
			got, err := Synthesize(context.Background(), dir, ScanOptions{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := must(synth.RenderJSON(got)), must(synth.RenderJSON(want)); !bytes.Equal(g, w) {
				t.Errorf("findings.json differs:\n%s", txtartest.FirstDiff(w, g))
			}
			if g, w := synth.RenderMarkdown(got), synth.RenderMarkdown(want); !bytes.Equal(g, w) {
				t.Errorf("summary.md differs:\n%s", txtartest.FirstDiff(w, g))
			}
		})
	}
}

func TestSynthesizeErrors(t *testing.T) {
	if _, err := Synthesize(context.Background(), filepath.Join(t.TempDir(), "missing"), ScanOptions{}, synth.Options{}); err == nil {
		t.Error("a missing directory gave no error")
	}
}

// TestSynthesizeThroughGivenRoot: with ScanOptions.Root, Synthesize reads
// the directory it was given open, never its path again. Here the path is
// swapped for a symbolic link to another run after the open: the reports
// and the bus read are still those of the directory opened (mcp's
// get_synthesis confines output_dir so, under its --root).
func TestSynthesizeThroughGivenRoot(t *testing.T) {
	base := t.TempDir()
	dir, other := filepath.Join(base, "run"), filepath.Join(base, "other")
	report := func(d, title string) {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "fd-a.md"), []byte("### Findings Index\n- P1 | A-1 | \"S\" | "+title+"\nVerdict: needs-changes\n"), 0o644)
		os.WriteFile(filepath.Join(d, "peer-findings.jsonl"),
			[]byte(`{"severity":"blocking","agent":"fd-a","summary":"`+title+` on the bus"}`+"\n"), 0o644)
	}
	report(dir, "Inside thing")
	report(other, "Other thing")
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := os.Rename(dir, dir+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, dir); err != nil {
		t.Fatal(err)
	}
	titles := func(s *synth.Synthesis) string {
		var out []string
		for _, f := range s.Findings {
			out = append(out, f.Title)
		}
		for _, e := range s.Timeline.Entries {
			out = append(out, e.Summary)
		}
		return strings.Join(out, "; ")
	}
	s, err := Synthesize(context.Background(), dir, ScanOptions{Root: root}, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := titles(s), "Inside thing; Inside thing on the bus"; got != want {
		t.Errorf("through the root: %q, want %q", got, want)
	}
	s, err = Synthesize(context.Background(), dir, ScanOptions{}, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := titles(s), "Other thing; Other thing on the bus"; got != want {
		t.Errorf("by the path: %q, want %q", got, want)
	}
}
