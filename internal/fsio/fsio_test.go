package fsio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestReadAllCap(t *testing.T) {
	for _, tc := range []struct {
		name        string
		data        string
		size, limit int64
		wantErr     error
	}{
		{"exact size", "hello", 5, 10, nil},
		{"grew since stat", "hello world", 5, 100, nil},
		{"shrank since stat", "hi", 5, 10, nil},
		{"at the cap", "12345", 5, 5, nil},
		{"over the cap", "123456", 6, 5, ErrTooLarge},
		{"over the cap, stale size", "123456", 1, 5, ErrTooLarge},
		{"empty", "", 0, 5, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadAll(strings.NewReader(tc.data), tc.size, tc.limit)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if err == nil && string(got) != tc.data {
				t.Fatalf("got %q, want %q", got, tc.data)
			}
		})
	}
}

func TestReadFileRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(dir, 100)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("err = %v, want ErrNotRegular naming %s as a directory", err, dir)
	}
}

// writers are WriteFile and WriteFileFunc, the second fed in pieces of
// three bytes: every rule of an output target holds for both.
var writers = []struct {
	name  string
	write func(ctx context.Context, path string, data []byte) (bool, error)
}{
	{"WriteFile", func(ctx context.Context, path string, data []byte) (bool, error) {
		return WriteFile(ctx, path, data, 0o644)
	}},
	{"WriteFileFunc", func(ctx context.Context, path string, data []byte) (bool, error) {
		return WriteFileFunc(ctx, path, 0o644, func(w io.Writer) error {
			for d := data; len(d) > 0; {
				n := min(3, len(d))
				if _, err := w.Write(d[:n]); err != nil {
					return err
				}
				d = d[n:]
			}
			return nil
		})
	}},
}

func TestWriteFileRegular(t *testing.T) {
	for _, wr := range writers {
		t.Run(wr.name, func(t *testing.T) { testWriteFileRegular(t, wr.write) })
	}
}

func testWriteFileRegular(t *testing.T, WriteFile func(context.Context, string, []byte) (bool, error)) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "summary.md")
	changed, err := WriteFile(ctx, path, []byte("one"))
	if err != nil || !changed {
		t.Fatalf("first write: changed=%v err=%v", changed, err)
	}
	before, _ := os.Stat(path)
	changed, err = WriteFile(ctx, path, []byte("one"))
	if err != nil || changed {
		t.Fatalf("same content: changed=%v err=%v, want false nil", changed, err)
	}
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Fatal("an unchanged report was replaced")
	}
	if changed, err = WriteFile(ctx, path, []byte("two")); err != nil || !changed {
		t.Fatalf("new content: changed=%v err=%v", changed, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	assertNoTemps(t, filepath.Dir(path))
}

func TestWriteFileKeepsSymlink(t *testing.T) {
	for _, wr := range writers {
		t.Run(wr.name, func(t *testing.T) { testWriteFileKeepsSymlink(t, wr.write) })
	}
}

func testWriteFileKeepsSymlink(t *testing.T, WriteFile func(context.Context, string, []byte) (bool, error)) {
	ctx := context.Background()
	dir := t.TempDir()
	real := filepath.Join(dir, "out", "real.json")
	os.Mkdir(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("old"), 0o644)
	for _, tc := range []struct{ name, link, target string }{
		{"relative", filepath.Join(dir, "rel.json"), "out/real.json"},
		{"absolute", filepath.Join(dir, "abs.json"), real},
		{"chain", filepath.Join(dir, "chain.json"), "rel.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.Symlink(tc.target, tc.link); err != nil {
				t.Fatal(err)
			}
			data := []byte("new " + tc.name)
			if _, err := WriteFile(ctx, tc.link, data); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(tc.link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
			}
			if b, _ := os.ReadFile(real); !bytes.Equal(b, data) {
				t.Fatalf("target holds %q, want %q", b, data)
			}
		})
	}
	t.Run("dotdot through a linked directory", func(t *testing.T) {
		// d -> deep/x/y, and d/link.json -> ../real.json: the kernel takes
		// ".." from deep/x/y, the link's real directory, not from d's
		// textual parent, so the file replaced is deep/x/real.json.
		deep := filepath.Join(dir, "deep", "x")
		if err := os.MkdirAll(filepath.Join(deep, "y"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(deep, "real.json"), []byte("old"), 0o644)
		os.Symlink("deep/x/y", filepath.Join(dir, "d"))
		os.Symlink("../real.json", filepath.Join(deep, "y", "link.json"))
		if _, err := WriteFile(ctx, filepath.Join(dir, "d", "link.json"), []byte("through")); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(deep, "real.json")); string(b) != "through" {
			t.Errorf("deep/x/real.json holds %q, want the new content", b)
		}
		if _, err := os.Lstat(filepath.Join(dir, "real.json")); err == nil {
			t.Error("a file was created at the link's textual parent")
		}
		if fi, err := os.Lstat(filepath.Join(deep, "y", "link.json")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v", err)
		}
	})
	t.Run("dangling", func(t *testing.T) {
		link := filepath.Join(dir, "dangling.json")
		os.Symlink("out/new.json", link)
		if _, err := WriteFile(ctx, link, []byte("x")); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatal("the dangling link was replaced by a file")
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "out", "new.json")); string(b) != "x" {
			t.Fatalf("target holds %q", b)
		}
	})
	assertNoTemps(t, dir)
	assertNoTemps(t, filepath.Dir(real))
}

func TestWriteFileDevice(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	for _, wr := range writers {
		changed, err := wr.write(context.Background(), "/dev/null", []byte("into the void"))
		if err != nil || !changed {
			t.Fatalf("%s: changed=%v err=%v", wr.name, changed, err)
		}
		if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("%s: /dev/null is no longer a device: %v %v", wr.name, fi.Mode(), err)
		}
	}
}

// A regular file under /dev (a tmpfs such as /dev/shm) is replaced as any
// file is: only a descriptor's name (/dev/stdout, /dev/fd/N) is written in
// place. Before, every path under /dev was opened for appending, so a
// second write doubled the report.
func TestWriteFileRegularUnderDev(t *testing.T) {
	dir, err := os.MkdirTemp("/dev/shm", "fsio-test-")
	if err != nil {
		t.Skipf("no writable /dev/shm: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, wr := range writers {
		path := filepath.Join(dir, wr.name+".json")
		for _, data := range []string{"first", "second"} {
			if _, err := wr.write(context.Background(), path, []byte(data)); err != nil {
				t.Fatal(err)
			}
		}
		if b, _ := os.ReadFile(path); string(b) != "second" {
			t.Errorf("%s: %s holds %q, want %q", wr.name, path, b, "second")
		}
	}
}

// NamesStdout knows standard output by every name the system gives it,
// through links too, and nothing else.
func TestNamesStdout(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "out.sarif")
	os.Symlink("/dev/stdout", link)
	file := filepath.Join(dir, "file.sarif")
	os.WriteFile(file, nil, 0o644)
	for path, want := range map[string]bool{
		"/dev/stdout": true, "/dev/fd/1": true, "/proc/self/fd/1": true,
		"/proc/" + strconv.Itoa(os.Getpid()) + "/fd/1": true, link: true,
		"/dev/stderr": false, "/dev/fd/2": false, "/dev/null": false, file: false, filepath.Join(dir, "missing"): false,
	} {
		if got := NamesStdout(path); got != want {
			t.Errorf("NamesStdout(%s) = %v, want %v", path, got, want)
		}
	}
}

// WriteFileFunc compares what it writes with the file as it writes:
// changed must be exactly "the bytes differ", whatever the two lengths and
// wherever they first differ, and an unchanged file keeps its inode.
func TestWriteFileFuncChangedIsContentDiffers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), bufferSize/16*2+5) // more than two buffers
	contents := [][]byte{
		{}, []byte("a"), []byte("ab"), []byte("b"), big, big[:len(big)-1], big[1:],
		append(bytes.Clone(big), 'x'), append(append(bytes.Clone(big[:bufferSize]), 'X'), big[bufferSize+1:]...),
	}
	for i, old := range contents {
		for j, data := range contents {
			path := filepath.Join(dir, fmt.Sprintf("f%d-%d.json", i, j))
			if err := os.WriteFile(path, old, 0o644); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Stat(path)
			changed, err := writers[1].write(ctx, path, data)
			if err != nil {
				t.Fatal(err)
			}
			if want := !bytes.Equal(old, data); changed != want {
				t.Errorf("old %d, new %d: changed = %v, want %v", i, j, changed, want)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, data) {
				t.Errorf("old %d, new %d: the file holds %d bytes, want %d", i, j, len(b), len(data))
			}
			after, _ := os.Stat(path)
			if same := os.SameFile(before, after); same == changed {
				t.Errorf("old %d, new %d: changed = %v but same file = %v", i, j, changed, same)
			}
		}
	}
	assertNoTemps(t, dir)
}

// A write function that fails leaves the old file as it was, no temporary
// file behind, and its error in WriteFileFunc's, which names the file.
func TestWriteFileFuncError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "findings.json")
	os.WriteFile(path, []byte("old"), 0o644)
	boom := errors.New("boom")
	_, err := WriteFileFunc(context.Background(), path, 0o644, func(w io.Writer) error {
		w.Write(bytes.Repeat([]byte("n"), 3*bufferSize))
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want boom naming %s", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("the old file holds %q", b)
	}
	assertNoTemps(t, dir)
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestRemoveTempsStopsNewOutput(t *testing.T) {
	// RemoveTemps ends the process's output for good: run it last, in a
	// copy of the state, so other tests are unaffected.
	saved := temps.closed
	defer func() { temps.mu.Lock(); temps.closed = saved; temps.mu.Unlock() }()
	dir := t.TempDir()
	f, _, err := osPlace{}.createTemp(dir, ".x.*.tmp", 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	removed := RemoveTemps()
	if len(removed) != 1 || removed[0] != f.Name() {
		t.Fatalf("removed %v, want [%s]", removed, f.Name())
	}
	if _, err := os.Stat(f.Name()); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("temporary file still there: %v", err)
	}
	if _, err := WriteFile(context.Background(), filepath.Join(dir, "late.md"), []byte("x"), 0o644); err == nil {
		t.Fatal("a write after RemoveTemps succeeded")
	}
	assertNoTemps(t, dir)
}

// LinkInside refuses exactly the links that lead (or would lead) out of the
// directory's real path, relative or absolute, dangling or not, and loops.
func TestLinkInside(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "run")
	for _, d := range []string{filepath.Join(dir, "sub"), filepath.Join(top, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "sub", "in.jsonl"), nil, 0o644)
	os.WriteFile(filepath.Join(top, "outside", "out.jsonl"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "plain.jsonl"), nil, 0o644)
	os.Symlink("run", filepath.Join(top, "alias")) // the directory reached through a link
	symlinks(t, dir, map[string]string{
		"rel-in":         "sub/in.jsonl",
		"abs-in":         filepath.Join(dir, "sub", "in.jsonl"),
		"dangling-in":    "sub/new.jsonl",
		"rel-out":        "../outside/out.jsonl",
		"abs-out":        filepath.Join(top, "outside", "out.jsonl"),
		"dangling-out":   "../outside/new.jsonl",
		"dotdot-back-in": "../run/sub/in.jsonl",
		"loop":           "loop",
		"chain-to-out":   "rel-out",
	})
	for _, d := range []string{dir, filepath.Join(top, "alias")} {
		for name, want := range map[string]string{
			"plain.jsonl": "", "missing.jsonl": "", "rel-in": "", "abs-in": "", "dangling-in": "", "dotdot-back-in": "",
			"rel-out": "outside", "abs-out": "outside", "dangling-out": "outside", "chain-to-out": "outside", "loop": "loop",
		} {
			err := LinkInside(d, name)
			switch {
			case want == "" && err != nil:
				t.Errorf("LinkInside(%s, %s) = %v, want nil", d, name, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("LinkInside(%s, %s) = %v, want an error saying %q", d, name, err, want)
			}
		}
	}
}

// A write whose temporary file cannot be made (the target's directory is
// missing: a dangling link into it) names the file being written, never
// the temporary one beside it.
func TestWriteFileErrorNamesTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "x.sarif")
	os.Symlink("nope/new.sarif", link)
	for _, wr := range writers {
		_, err := wr.write(context.Background(), link, []byte("x"))
		if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), filepath.Join(dir, "nope", "new.sarif")) {
			t.Errorf("%s: err = %v, want one naming nope/new.sarif and no temporary file", wr.name, err)
		}
	}
}
