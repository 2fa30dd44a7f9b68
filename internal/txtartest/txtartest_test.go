package txtartest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Files keeps the asked-for files of every matching archive, in order, and
// nothing else: testdata/files holds a.txtar (x.md, y.json), b.txtar (x.md,
// z.md) and c.txt, an archive the glob does not match, as the tests of
// other packages read their testdata.
func TestFiles(t *testing.T) {
	const glob = "testdata/files/*.txtar"
	got := Files(t, glob, func(n string) bool { return strings.HasSuffix(n, ".md") })
	var s []string
	for _, b := range got {
		s = append(s, string(b))
	}
	if j := strings.Join(s, "|"); j != "one\n|two\n|three\n" {
		t.Errorf("Files = %q, want one, two, three", j)
	}
	if got := Files(t, glob, Named("y.json")); len(got) != 1 || string(got[0]) != "{}\n" {
		t.Errorf("Named(y.json) = %q", got)
	}
}

// recorder is a testing.TB that keeps what Errorf says instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// Golden passes an equal result, fails a different one at its first
// differing line without touching the archive, and with update rewrites
// only the expected file (adding it when missing), every other file and the
// comment kept.
func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "case.txtar")
	const src = "comment\n-- in --\nx\n-- want --\none\ntwo\n-- after --\ny\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Golden(r, path, ar, "want", []byte("one\ntwo\n"), false)
	if len(r.errs) != 0 {
		t.Errorf("equal result failed: %q", r.errs)
	}
	Golden(r, path, ar, "want", []byte("one\nTWO\n"), false)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "line 2:\nwant: two\ngot:  TWO") {
		t.Errorf("different result: %q, want one error at line 2", r.errs)
	}
	if data, _ := os.ReadFile(path); string(data) != src {
		t.Errorf("archive changed without update:\n%s", data)
	}
	Golden(t, path, ar, "want", []byte("three\n"), true)
	Golden(t, path, ar, "new", []byte("four\n"), true)
	want := "comment\n-- in --\nx\n-- want --\nthree\n-- after --\ny\n-- new --\nfour\n"
	if data, _ := os.ReadFile(path); string(data) != want {
		t.Errorf("after update:\n%s\nwant:\n%s", data, want)
	}
}

// Each runs one subtest per archive, named by it, and fails on none.
func TestEach(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.txtar", "a.txtar"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("-- f --\n"+name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	Each(t, filepath.Join(dir, "*.txtar"), func(t *testing.T, path string, ar *txtar.Archive) {
		got = append(got, t.Name()[len("TestEach/"):]+"="+strings.TrimSpace(string(File(ar, "f").Data)))
	})
	if j := strings.Join(got, " "); j != "a=a.txtar b=b.txtar" {
		t.Errorf("Each ran %s", j)
	}
	if File(&txtar.Archive{}, "f") != nil {
		t.Errorf("File of an empty archive is not nil")
	}
}
