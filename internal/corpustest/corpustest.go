// Package corpustest finds the shared corpus of real agent reports
// (../shared/corpus beside the repository) for the conformance tests that
// use it, and reads its manifest: one way to find it, to skip without it,
// and to read MANIFEST.tsv, instead of one per test file.
//
// Only _test.go files import it. A fresh clone has no corpus: every test
// that asks for it is skipped there.
package corpustest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Root returns the corpus directory, ../shared/corpus beside the module
// that holds the test's working directory. The test is skipped when there
// is no corpus (no MANIFEST.tsv there) and fails when no go.mod is found
// above the working directory.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("corpustest: no go.mod above the working directory")
		}
		dir = parent
	}
	root := filepath.Join(filepath.Dir(dir), "shared", "corpus")
	if _, err := os.Stat(filepath.Join(root, "MANIFEST.tsv")); err != nil {
		t.Skip("no ../shared/corpus beside the repository")
	}
	return root
}

// Entry is one file of the corpus manifest.
type Entry struct {
	// Path is the file's path inside the corpus directory (slash-separated,
	// the manifest's local_path).
	Path string
	// Class is the manifest's rough class of the file: index-ok,
	// index-variant, no-index, error-stub, synthesis, ….
	Class string
}

// Manifest returns the files MANIFEST.tsv of the corpus root lists, in its
// order; the header line (starting with #) and short lines are left out. A
// manifest that cannot be read fails the test.
func Manifest(t testing.TB, root string) []Entry {
	t.Helper()
	fh, err := os.Open(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []Entry
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		out = append(out, Entry{Path: cols[3], Class: cols[5]})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", fh.Name(), err)
	}
	return out
}
