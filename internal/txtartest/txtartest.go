// Package txtartest reads the txtar archives that hold fluxwatch's golden
// cases, for the tests and fuzz seeds that walk them: one loop over
// testdata/*.txtar instead of one per test file.
//
// Only _test.go files import it. It must never be imported by production
// code, nor know what a golden case means: the caller says which files it
// wants.
package txtartest

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Files returns the contents of the files for which keep(name) holds, in
// every archive matching glob (such as "testdata/report/*.txtar"), archive
// by archive in name order and file by file in archive order. An archive that
// cannot be read fails the test.
func Files(t testing.TB, glob string, keep func(name string) bool) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(glob)
	if err != nil {
		t.Fatalf("glob %s: %v", glob, err)
	}
	var out [][]byte
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if keep(f.Name) {
				out = append(out, f.Data)
			}
		}
	}
	return out
}

// Named returns a keep function for Files that holds for exactly name.
func Named(name string) func(string) bool {
	return func(n string) bool { return n == name }
}
