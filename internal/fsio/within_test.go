package fsio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// errInput stands for a caller's refusal of an input file.
var errInput = errors.New("an input")

func refuseInputs(name string) error {
	if strings.HasSuffix(name, ".md") && name != "summary.md" {
		return errInput
	}
	return nil
}

// Under Within, a write into the directory follows links only while they
// stay inside it, never replaces what refuse refuses, and leaves everything
// outside untouched; a path outside the directory is written as ever.
func TestWithin(t *testing.T) {
	top := t.TempDir()
	run := filepath.Join(top, "run")
	home := filepath.Join(top, "home")
	for _, d := range []string{filepath.Join(run, "sub"), home} {
		os.MkdirAll(d, 0o755)
	}
	const precious = "precious\n"
	for _, name := range []string{"profile", "notes.txt"} {
		os.WriteFile(filepath.Join(home, name), []byte(precious), 0o644)
	}
	os.WriteFile(filepath.Join(run, "fd-a.md"), []byte("report\n"), 0o644)
	os.Symlink(home, filepath.Join(top, "homelink"))
	os.Symlink("run", filepath.Join(top, "alias"))
	links := map[string]string{
		"out-rel.md":      "../home/profile",
		"out-abs.json":    filepath.Join(home, "notes.txt"),
		"out-new.json":    "../home/created.json",
		"out-chain.json":  "out-rel.md",
		"out-dir":         "../home",
		"to-input.json":   "fd-a.md",
		"in-sub.json":     "sub/real.json",
		"loop.json":       "loop.json",
		"nowhere.json":    "missing-dir/x.json",
		"in-and-out.json": "../run/sub/back.json",
	}
	symlinks(t, run, links)
	for _, tc := range []struct {
		path string
		want string // "" written; else a piece of the error
		at   string // where a written file lands (relative to top)
	}{
		{"run/plain.json", "", "run/plain.json"},
		{"run/new/deeper.json", "", "run/new/deeper.json"},
		{"run/in-sub.json", "", "run/sub/real.json"},
		{"run/in-and-out.json", "", "run/sub/back.json"},
		{"alias/via-alias.json", "", "run/via-alias.json"},
		{"run/out-rel.md", "outside", ""},
		{"run/out-abs.json", "outside", ""},
		{"run/out-new.json", "outside", ""},
		{"run/out-chain.json", "outside", ""},
		{"run/out-dir/notes.txt", "outside", ""},
		{"run/out-dir/new/x.json", "outside", ""},
		{"alias/out-rel.md", "outside", ""},
		{"run/nowhere.json", "outside", ""},
		{"run/loop.json", "loop", ""},
		{"run/to-input.json", "an input", ""},
		{"run/fd-a.md", "an input", ""},
		{"homelink/notes.txt", "", "home/notes.txt"}, // outside the run: the usual rules
	} {
		for _, wr := range writers {
			t.Run(wr.name+"/"+tc.path, func(t *testing.T) {
				path := filepath.Join(top, tc.path)
				if tc.want == "" {
					if err := CheckWithin(run, path, refuseInputs); err != nil {
						t.Errorf("CheckWithin = %v, want nil", err)
					}
				} else if err := CheckWithin(run, path, refuseInputs); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("CheckWithin = %v, want an error saying %q", err, tc.want)
				}
				ctx := Within(context.Background(), run, refuseInputs)
				data := []byte(wr.name + " " + tc.path + "\n")
				_, err := wr.write(ctx, path, data)
				if tc.want != "" {
					if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
						t.Fatalf("err = %v, want an error naming %s and saying %q", err, path, tc.want)
					}
				} else if err != nil {
					t.Fatalf("err = %v, want nil", err)
				} else if got, _ := os.ReadFile(filepath.Join(top, tc.at)); string(got) != string(data) {
					t.Fatalf("%s holds %q, want %q", tc.at, got, data)
				}
				for _, name := range []string{"profile", "notes.txt"} {
					if tc.at == "home/"+name {
						continue
					}
					if got, _ := os.ReadFile(filepath.Join(home, name)); string(got) != precious {
						t.Fatalf("home/%s holds %q: written through a link", name, got)
					}
				}
				if _, err := os.Stat(filepath.Join(home, "created.json")); err == nil {
					t.Fatal("home/created.json was created through a link")
				}
				if _, err := os.Stat(filepath.Join(home, "new")); err == nil {
					t.Fatal("home/new was created through a link")
				}
				if got, _ := os.ReadFile(filepath.Join(run, "fd-a.md")); string(got) != "report\n" {
					t.Fatalf("the input fd-a.md holds %q", got)
				}
				if _, ok := links[filepath.Base(tc.path)]; ok {
					if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeSymlink == 0 {
						t.Fatalf("%s is no longer a link", tc.path)
					}
				}
			})
		}
	}
}

// A link swapped in and out of the target while writes go on never leads
// one out of the directory: the rename through the root replaces the link.
func TestWithinSwappedLink(t *testing.T) {
	top := t.TempDir()
	run := filepath.Join(top, "run")
	os.MkdirAll(run, 0o755)
	outside := filepath.Join(top, "profile")
	os.WriteFile(outside, []byte("precious\n"), 0o644)
	target := filepath.Join(run, "summary.md")
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tmp := filepath.Join(run, "swap")
		for !stop.Load() {
			os.Remove(tmp)
			if err := os.Symlink(outside, tmp); err != nil {
				continue
			}
			os.Rename(tmp, target)
		}
	}()
	ctx := Within(context.Background(), run, nil)
	for i := range 300 {
		WriteFile(ctx, target, []byte{byte('a' + i%26), '\n'}, 0o644)
	}
	stop.Store(true)
	wg.Wait()
	if got, _ := os.ReadFile(outside); string(got) != "precious\n" {
		t.Fatalf("the file outside holds %q: written through a swapped link", got)
	}
}

// A FIFO planted in the directory is written only when it has a reader:
// with none, the write fails at once instead of waiting.
func TestWithinFIFONotWaited(t *testing.T) {
	run := t.TempDir()
	fifo := filepath.Join(run, "summary.md")
	testfault.Mkfifo(t, fifo)
	_, err := WriteFile(Within(context.Background(), run, nil), fifo, []byte("x\n"), 0o644)
	if !errors.Is(err, ErrNoReader) {
		t.Fatalf("err = %v, want ErrNoReader", err)
	}
}

// RealPath says where a path really leads: links resolved on the way and
// at its end, dangling ones followed, a missing tail kept.
func TestRealPath(t *testing.T) {
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(top, "a", "b"), 0o755)
	os.MkdirAll(filepath.Join(top, "out"), 0o755)
	symlinks(t, top, map[string]string{
		"a/to-out":   "../out",
		"a/dangling": "../out/new.html",
		"a/deep":     "../out/missing/dir",
		"a/loop":     "loop",
	})
	for _, tc := range []struct{ path, want string }{
		{"a/b", "a/b"},
		{"a/b/missing/x", "a/b/missing/x"},
		{"a/to-out/x.json", "out/x.json"},
		{"a/dangling", "out/new.html"},
		{"a/deep/x", "out/missing/dir/x"},
		{"a/b/../to-out", "out"},
	} {
		got, err := RealPath(filepath.Join(top, tc.path))
		if want := filepath.Join(top, tc.want); err != nil || got != want {
			t.Errorf("RealPath(%s) = %q, %v; want %q", tc.path, got, err, want)
		}
	}
	if _, err := RealPath(filepath.Join(top, "a", "loop")); err == nil {
		t.Errorf("RealPath of a loop: no error")
	}
}

// symlinks makes each name of links, a path below dir, a symbolic link to
// its target; it skips t where links cannot be made.
func symlinks(t *testing.T, dir string, links map[string]string) {
	t.Helper()
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("no symlinks: %v", err)
		}
	}
}
