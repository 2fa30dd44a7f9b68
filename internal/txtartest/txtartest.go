// Package txtartest reads the txtar archives that hold fluxwatch's golden
// cases, for the tests and fuzz seeds that walk them: one loop over
// testdata/*.txtar instead of one per test file, and one way to compare a
// result with the expected file of an archive and, under -update, rewrite
// only that file.
//
// Only _test.go files import it. It must never be imported by production
// code, nor know what a golden case means: the caller says which files it
// wants.
package txtartest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// Each runs f as a subtest for every archive matching glob, in name order,
// named by the archive's base name without ".txtar", with the path and the
// archive read. No matching archive, or one that cannot be read, fails the
// test.
func Each(t *testing.T, glob string, f func(t *testing.T, path string, ar *txtar.Archive)) {
	t.Helper()
	paths, err := filepath.Glob(glob)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden archives %s: %v", glob, err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f(t, p, ar)
		})
	}
}

// File returns the first file of ar named name, nil when there is none.
func File(ar *txtar.Archive, name string) *txtar.File {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			return &ar.Files[i]
		}
	}
	return nil
}

// Golden compares got with the file name of ar, the archive read from path.
// With update a differing file is set to got (a missing one added at the
// end) and the archive written back to path, every other file as it was;
// without, a difference fails the test showing the first line that differs
// (and got in full when it is short), a missing file says to run -update.
func Golden(t testing.TB, path string, ar *txtar.Archive, name string, got []byte, update bool) {
	t.Helper()
	want := File(ar, name)
	if want != nil && bytes.Equal(got, want.Data) {
		return
	}
	if update {
		if want == nil {
			ar.Files = append(ar.Files, txtar.File{Name: name})
			want = &ar.Files[len(ar.Files)-1]
		}
		want.Data = got
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want == nil {
		t.Fatalf("%s: no file %q (run the test with -update to write it)", path, name)
	}
	msg := FirstDiff(want.Data, got)
	if len(got) <= 4096 {
		msg += "\n--- got\n" + string(got) + "--- want\n" + string(want.Data)
	}
	t.Errorf("%s: differs from %s (rerun with -update and review the diff): %s", path, name, msg)
}

// FirstDiff shows the first line where got differs from want, "" when they
// are the same.
func FirstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + wl + "\ngot:  " + gl
		}
	}
	return ""
}
