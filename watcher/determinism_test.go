package watcher

import (
	"bytes"
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/synth"
)

// TestDeterministicOutputs writes the example run twice, its files created in
// different orders and with other modification times (all shifted by three
// days, so that no report moves across a bus entry), and checks that with a
// fixed reviewed time (SOURCE_DATE_EPOCH) findings.json and summary.md are
// byte-identical.
func TestDeterministicOutputs(t *testing.T) {
	files := demo.ExampleFiles()
	names := slices.Sorted(maps.Keys(files))
	first := t.TempDir()
	if err := demo.Example(filepath.Join(first, "run")); err != nil {
		t.Fatal(err)
	}
	second := t.TempDir()
	r := rand.New(rand.NewPCG(9, 9))
	for _, i := range r.Perm(len(names)) {
		src := filepath.Join(first, "run", filepath.FromSlash(names[i]))
		st, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(second, "run", filepath.FromSlash(names[i]))
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, []byte(files[names[i]]), 0o644); err != nil {
			t.Fatal(err)
		}
		shifted := st.ModTime().Add(72 * time.Hour)
		os.Chtimes(dst, shifted, shifted)
	}
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "test"},
		Reviewed: time.Unix(1795000000, 0)}
	render := func(root string) ([]byte, []byte) {
		t.Chdir(root)
		run, err := Scan(context.Background(), "run", ScanOptions{Jobs: 1 + r.IntN(4)})
		if err != nil {
			t.Fatal(err)
		}
		s := synth.Synthesize(run, opts)
		return must(synth.RenderJSON(s)), synth.RenderMarkdown(s)
	}
	j1, m1 := render(first)
	j2, m2 := render(second)
	if !bytes.Equal(j1, j2) {
		t.Errorf("findings.json differs between two orders and mtimes of the same files")
	}
	if !bytes.Equal(m1, m2) {
		t.Errorf("summary.md differs between two orders and mtimes of the same files")
	}
	if !bytes.Contains(j1, []byte(`"reviewed": "2026-11-18T11:06:40Z"`)) {
		t.Errorf("SOURCE_DATE_EPOCH not used as the reviewed time")
	}
}
