package evidence

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/fluxwatch/fluxwatch/parse"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openRemoved opens repo, a repository holding a.go, then removes it: a
// Verifier whose repository went away after Open.
func openRemoved(t *testing.T, repo string) *Verifier {
	t.Helper()
	write(t, filepath.Join(repo, "a.go"), "package a\n")
	v, err := Open(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(repo); err != nil {
		t.Fatal(err)
	}
	return v
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
}

// TestSymlinks: symlinks inside the repository are followed; one that leads
// out of it (file or directory), an absolute one and a loop are
// missing-file, and the target outside is never read.
func TestSymlinks(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	write(t, filepath.Join(repo, "src", "a.go"), "package src\n\nvar secret = 1\n")
	write(t, filepath.Join(top, "outside", "b.go"), "package outside\n\nvar secret = 1\n")
	symlink(t, "a.go", filepath.Join(repo, "src", "same.go"))
	symlink(t, "../src/a.go", filepath.Join(repo, "docs", "up.go"))
	symlink(t, "../outside/b.go", filepath.Join(repo, "leak.go"))
	symlink(t, "../outside", filepath.Join(repo, "vendor"))
	symlink(t, filepath.Join(repo, "src", "a.go"), filepath.Join(repo, "abs.go"))
	symlink(t, "loop2", filepath.Join(repo, "loop1"))
	symlink(t, "loop1", filepath.Join(repo, "loop2"))

	v, err := Open(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path   string
		status string
		note   string
	}{
		{"src/same.go", parse.EvidenceVerified, ""},
		{"docs/up.go", parse.EvidenceVerified, ""},
		{"leak.go", parse.EvidenceMissingFile, "symlink leads out of the repository: not followed"},
		{"vendor/b.go", parse.EvidenceMissingFile, "symlink leads out of the repository: not followed"},
		{"abs.go", parse.EvidenceMissingFile, "symlink leads out of the repository: not followed"},
		{"loop1", parse.EvidenceMissingFile, "symlink loop"},
	}
	var claims []parse.Claim
	for _, tt := range tests {
		claims = append(claims, parse.Claim{Path: tt.path, Start: 3, End: 3, Excerpt: "var secret = 1"})
	}
	for i, r := range v.Check(claims) {
		if r.Status != tests[i].status || r.Note != tests[i].note {
			t.Errorf("%s: %s (%s), want %s (%s)", tests[i].path, r.Status, r.Note, tests[i].status, tests[i].note)
		}
	}
}

// countingFS counts the files opened through it.
type countingFS struct {
	fs.FS
	mu     sync.Mutex
	opened map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

// TestReadOnce: many claims on few files open each file once; paths that
// leave the repository are never opened.
func TestReadOnce(t *testing.T) {
	mem := fstest.MapFS{}
	for _, name := range []string{"a.go", "b/b.go", "c/c.go"} {
		mem[name] = &fstest.MapFile{Data: []byte(strings.Repeat("line\n", 50))}
	}
	c := &countingFS{FS: mem, opened: map[string]int{}}
	var claims []parse.Claim
	for i := range 30 {
		for _, p := range []string{"a.go", "./b/b.go", "c/../c/c.go", "../x.go", "/etc/passwd", "gone.go"} {
			claims = append(claims, parse.Claim{Path: p, Start: i + 1, End: i + 1, Excerpt: "line"})
		}
	}
	results := New(c, Options{Jobs: 3}).Check(claims)
	want := map[string]int{"a.go": 1, "b/b.go": 1, "c/c.go": 1, "gone.go": 1}
	if len(c.opened) != len(want) {
		t.Errorf("opened %v, want %v", c.opened, want)
	}
	for name, n := range want {
		if c.opened[name] != n {
			t.Errorf("%s opened %d times, want %d", name, c.opened[name], n)
		}
	}
	for i, r := range results {
		wantStatus := parse.EvidenceVerified
		if i%6 >= 3 {
			wantStatus = parse.EvidenceMissingFile
		}
		if r.Status != wantStatus {
			t.Errorf("claim %d (%s): %s, want %s", i, claims[i].Ref(), r.Status, wantStatus)
		}
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "f.go"), "x\n")
	if _, err := Open(filepath.Join(dir, "nope"), Options{}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Open of a missing directory: %v, want an error naming it", err)
	}
	if _, err := Open(filepath.Join(dir, "f.go"), Options{}); err == nil {
		t.Error("Open of a file: no error")
	}
	// The repository vanishes between Open and Check: claims are skipped.
	v := openRemoved(t, filepath.Join(dir, "gone"))
	r := v.Check([]parse.Claim{{Path: "a.go", Start: 1, End: 1}, {Path: "../a.go", Start: 1, End: 1}})
	if r[0].Status != parse.EvidenceSkipped || !strings.HasPrefix(r[0].Note, "repository unreadable") {
		t.Errorf("vanished repository: %+v", r[0])
	}
	if r[1].Status != parse.EvidenceMissingFile {
		t.Errorf("path out of a vanished repository: %+v", r[1])
	}
}

// TestVerify: the Verify form (synth.Verifier) keeps each claim and its agent.
func TestVerify(t *testing.T) {
	v := New(fstest.MapFS{"a.go": {Data: []byte("a\nb\nc\n")}}, Options{})
	claims := []parse.EvidenceClaim{
		{Agent: "fd-x", Claim: parse.Claim{Path: "a.go", Start: 1, End: 1, Excerpt: "c", Line: 7}},
		{Agent: "fd-y", Claim: parse.Claim{Path: "b.go", Start: 2, End: 2, Line: 9}},
	}
	got := v.Verify(claims)
	if len(got) != 2 || got[0].EvidenceClaim != claims[0] || got[1].EvidenceClaim != claims[1] {
		t.Fatalf("Verify = %+v", got)
	}
	if got[0].Status != parse.EvidenceMoved || got[0].Found != "a.go:3" || got[1].Status != parse.EvidenceMissingFile {
		t.Errorf("Verify = %+v", got)
	}
	if len(v.Verify(nil)) != 0 {
		t.Error("Verify(nil) returned results")
	}
}

func TestSegments(t *testing.T) {
	tests := []struct {
		excerpt string
		want    []string
	}{
		{"  a   b \n\n\tc\n", []string{"a b c"}},
		{"f(x) {\n  // ...\n}\n", []string{"f(x) {", "}"}},
		{"f(...)\n", []string{"f(", ")"}},
		{"a…b\n# …\n[...]\n<!-- ... -->\nc\n", []string{"a", "b", "c"}},
		{"...\n", nil},
		{"", nil},
		{"x\u00a0\u2003y", []string{"x y"}},
	}
	for _, tt := range tests {
		got, _ := segments(tt.excerpt)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("segments(%q) = %q, want %q", tt.excerpt, got, tt.want)
		}
	}
}

// TestTrivialExcerptInHugeFile: an excerpt that occurs on every line still
// verifies at the cited line far into the file (the search starts near the
// cited lines), and is reported moved to the nearest occurrence elsewhere.
func TestTrivialExcerptInHugeFile(t *testing.T) {
	data := []byte(strings.Repeat("}\n", 200_000) + "unique\n")
	v := New(fstest.MapFS{"big.go": {Data: data}}, Options{})
	r := v.Check([]parse.Claim{
		{Path: "big.go", Start: 150_000, End: 150_000, Excerpt: "}"},
		{Path: "big.go", Start: 3, End: 3, Excerpt: "unique"},
		{Path: "big.go", Start: 200_003, End: 200_003, Excerpt: "}"},
	})
	if r[0].Status != parse.EvidenceVerified {
		t.Errorf("trivial excerpt at line 150000: %+v", r[0])
	}
	if r[1].Status != parse.EvidenceMoved || r[1].Found != "big.go:200001" {
		t.Errorf("unique excerpt cited at line 3: %+v", r[1])
	}
	if r[2].Status != parse.EvidenceMoved || r[2].Found != "big.go:200000" {
		t.Errorf("trivial excerpt cited past the end: %+v", r[2])
	}
}
