//go:build unix

package watcher

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestOpenBus: the bus files of a run directory are the names of
// parse.BusNames there, in reading order, regular files inside it only: a
// FIFO or a symlink out is skipped and named, at once, an absent name
// left out.
func TestOpenBus(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "out.jsonl")
	os.WriteFile(outside, []byte("{}\n"), 0o644)
	for _, c := range []struct {
		name    string
		setup   func(dir string)
		files   []string
		skipped []error
	}{
		{"none", func(string) {}, nil, nil},
		{"both", func(dir string) {
			os.WriteFile(filepath.Join(dir, "peer-findings.jsonl"), []byte("{}\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "findings.jsonl"), []byte("{}\n{}\n"), 0o644)
		}, []string{"findings.jsonl", "peer-findings.jsonl"}, nil},
		{"fifo", func(dir string) {
			testfault.Mkfifo(t, filepath.Join(dir, "findings.jsonl"))
			os.WriteFile(filepath.Join(dir, "peer-findings.jsonl"), []byte("{}\n"), 0o644)
		}, []string{"peer-findings.jsonl"}, []error{fsio.ErrNotRegular}},
		{"symlink out", func(dir string) {
			os.Symlink(outside, filepath.Join(dir, "peer-findings.jsonl"))
		}, nil, []error{ErrBusOutside}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(dir)
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			files, skipped, err := OpenBus(root, "run")
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, f := range files {
				names = append(names, f.Name)
				if info, _ := f.File.Stat(); info.Size() != f.Size {
					t.Errorf("%s: size %d, want %d", f.Name, f.Size, info.Size())
				}
				f.File.Close()
			}
			if len(names) != len(c.files) || len(names) > 0 && names[0] != c.files[0] || len(names) > 1 && names[1] != c.files[1] {
				t.Errorf("files %q, want %q", names, c.files)
			}
			if len(skipped) != len(c.skipped) {
				t.Fatalf("skipped %v, want %v", skipped, c.skipped)
			}
			for i, err := range skipped {
				if !errors.Is(err, c.skipped[i]) || !strings.HasPrefix(strings.TrimPrefix(err.Error(), "open "), "run/") {
					t.Errorf("skipped %v, want %v naming run/…", err, c.skipped[i])
				}
			}
		})
	}
}

// TestBusPaths: OpenBus's answer by path, and the file a writer appends to.
func TestBusPaths(t *testing.T) {
	dir := t.TempDir()
	if got := BusToWrite(dir); got != filepath.Join(dir, "findings.jsonl") {
		t.Errorf("BusToWrite of an empty run = %s, want findings.jsonl", got)
	}
	testfault.Mkfifo(t, filepath.Join(dir, "findings.jsonl"))
	os.WriteFile(filepath.Join(dir, "peer-findings.jsonl"), []byte("{}\n"), 0o644)
	paths, skipped, err := BusPaths(dir)
	if err != nil || len(paths) != 1 || paths[0] != filepath.Join(dir, "peer-findings.jsonl") ||
		len(skipped) != 1 || !errors.Is(skipped[0], fsio.ErrNotRegular) {
		t.Errorf("BusPaths = %q, %v, %v; want peer-findings.jsonl and the FIFO skipped", paths, skipped, err)
	}
	if got := BusToWrite(dir); got != filepath.Join(dir, "peer-findings.jsonl") {
		t.Errorf("BusToWrite = %s, want the existing peer-findings.jsonl", got)
	}
	if _, _, err := BusPaths(filepath.Join(dir, "none")); err == nil {
		t.Error("BusPaths of a missing directory: no error")
	}
}
