//go:build unix

package fsio

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// A FIFO with no writer must be refused at once, not waited on.
func TestOpenFIFORefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "peer-findings.jsonl")
	testfault.Mkfifo(t, fifo)
	testfault.Within(t, 2*time.Second, "Open(FIFO)", func() {
		_, _, err := Open(fifo)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a FIFO") {
			t.Errorf("err = %v, want ErrNotRegular naming a FIFO", err)
		}
	})
	testfault.Within(t, 2*time.Second, "ReadFile(FIFO)", func() {
		if _, err := ReadFile(fifo, 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("err = %v", err)
		}
	})
	root := openRoot(t, dir)
	testfault.Within(t, 2*time.Second, "OpenIn(FIFO)", func() {
		if _, _, err := OpenIn(root, "peer-findings.jsonl"); !errors.Is(err, ErrNotRegular) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestOpenInRefusesEscape(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("secret"), 0o644)
	symlink(t, outside, filepath.Join(dir, "link.md"))
	root := openRoot(t, dir)
	for _, name := range []string{"link.md", "../x.md", outside} {
		if f, _, err := OpenIn(root, name); err == nil {
			f.Close()
			t.Errorf("OpenIn(%q) left the root", name)
		}
	}
}

// A FIFO target with a reader receives the bytes, and stays a FIFO.
func TestWriteFileFIFOWithReader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.sarif")
	testfault.Mkfifo(t, fifo)
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	var err error
	testfault.Within(t, 5*time.Second, "WriteFile(FIFO with reader)", func() {
		_, err = WriteFile(context.Background(), fifo, []byte("payload"), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "payload" {
		t.Fatalf("reader got %q", s)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
}

// A FIFO target with no reader waits, but only until the context ends (the
// signal of SPEC §7).
func TestWriteFileFIFONoReaderEndsWithContext(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.json")
	testfault.Mkfifo(t, fifo)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	var err error
	testfault.Within(t, 2*time.Second, "WriteFile(FIFO without reader)", func() {
		_, err = WriteFile(ctx, fifo, []byte("x"), 0o644)
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), fifo) {
		t.Fatalf("err = %v, want context.Canceled naming the FIFO", err)
	}
}

// A reader that stops reading leaves the writer blocked on a full pipe: the
// context ends that too.
func TestWriteFileFIFOFullPipeEndsWithContext(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.json")
	testfault.Mkfifo(t, fifo)
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	testfault.Within(t, 3*time.Second, "WriteFile(full FIFO)", func() {
		_, err = WriteFile(ctx, fifo, make([]byte, 4<<20), 0o644)
	})
	if err == nil {
		t.Fatal("a 4 MiB write into an unread pipe succeeded")
	}
}

// Lock excludes a second holder until the first releases, and refuses a
// FIFO planted where the lock file goes instead of hanging on it.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bus.jsonl.lock")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	acquired := make(chan struct{})
	go func() {
		u, err := Lock(path)
		if err == nil {
			u()
		}
		close(acquired)
	}()
	select {
	case <-acquired:
		t.Fatal("a second Lock succeeded while the first was held")
	case <-time.After(150 * time.Millisecond):
	}
	unlock()
	select {
	case <-acquired:
	case <-time.After(2 * time.Second):
		t.Fatal("the second Lock never got the lock")
	}
	fifo := filepath.Join(dir, "fifo.lock")
	testfault.Mkfifo(t, fifo)
	testfault.Within(t, 2*time.Second, "Lock(FIFO)", func() {
		if u, err := Lock(fifo); err == nil {
			u()
			t.Error("a FIFO was taken as a lock file")
		}
	})
}

// OpenDirIn lists a directory and refuses a FIFO at once, and a symbolic
// link out of the root.
func TestOpenDirIn(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testfault.Mkfifo(t, filepath.Join(dir, "findings"))
	symlink(t, out, filepath.Join(dir, "design"))
	root := openRoot(t, dir)
	testfault.Within(t, 2*time.Second, "OpenDirIn(FIFO)", func() {
		if _, err := OpenDirIn(root, "findings"); err == nil || !strings.Contains(err.Error(), "a FIFO") {
			t.Errorf("err = %v, want one naming a FIFO", err)
		}
	})
	if _, err := OpenDirIn(root, "design"); err == nil {
		t.Error("a link out of the root was opened")
	}
	d, err := OpenDirIn(root, ".")
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}

// AppendFile appends to a regular file, creates a missing one, writes a FIFO
// in place when it has a reader, gives up on one without a reader when the
// context ends, and refuses a directory at once.
func TestAppendFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary")
	for _, s := range []string{"one\n", "two\n"} {
		if err := AppendFile(context.Background(), path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "one\ntwo\n" {
		t.Errorf("got %q", b)
	}
	if err := AppendFile(context.Background(), dir, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("directory: err = %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	testfault.Mkfifo(t, fifo)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	testfault.Within(t, 5*time.Second, "AppendFile(FIFO, no reader)", func() {
		if err := AppendFile(ctx, fifo, []byte("x"), 0o644); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want the context's", err)
		}
	})
	// The timed-out call above leaves its open of the FIFO waiting for a
	// reader: when the reader comes, that open may take it, close, and
	// end the reader's read with nothing before the next call opens. The
	// reader reads again until it has something (make test once hung here
	// for 30 minutes, the next call's open waiting for a reader gone).
	got := make(chan string, 1)
	go func() {
		for {
			f, err := os.Open(fifo)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			if len(b) > 0 {
				got <- string(b)
				return
			}
		}
	}()
	testfault.Within(t, 10*time.Second, "AppendFile(FIFO, a reader)", func() {
		if err := AppendFile(context.Background(), fifo, []byte("hello"), 0o644); err != nil {
			t.Error(err)
		}
	})
	select {
	case s := <-got:
		if s != "hello" {
			t.Errorf("reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Error("the reader got nothing in 10 s")
	}
}

// WriteFileIn replaces a file inside the root and never follows a link out
// of it: a findings/ directory linked outside is refused, its target left
// alone; no temporary file is left behind.
func TestWriteFileIn(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, outside, filepath.Join(dir, "out"))
	root := openRoot(t, dir)
	for _, data := range []string{"one", "two"} {
		if err := WriteFileIn(context.Background(), root, "in/x.yaml", []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "in", "x.yaml")); string(b) != "two" {
		t.Errorf("got %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "in")); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	if err := WriteFileIn(context.Background(), root, "out/x.yaml", []byte("evil"), 0o644); err == nil {
		t.Error("wrote through a link out of the root")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("outside: %v", ents)
	}
	unlock, err := LockIn(root, "in/x.yaml.lock")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if _, err := LockIn(root, "out/x.yaml.lock"); err == nil {
		t.Error("locked through a link out of the root")
	}
}

// openRoot opens dir as an os.Root, closed when the test ends.
func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}

// symlink makes link a symbolic link to target.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// A socket is refused at once. It makes open(2) fail (ENXIO) before
// anything can be stated: Open and OpenIn still say what the path is, as for
// a FIFO, not "no such device or address".
func TestOpenSocketSaysSocket(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Skipf("no unix socket: %v", err)
	}
	defer l.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var err1, err2 error
	testfault.Within(t, 2*time.Second, "Open(socket)", func() {
		_, _, err1 = Open(path)
		_, _, err2 = OpenIn(root, "s.jsonl")
	})
	for _, err := range []error{err1, err2} {
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "(a socket)") {
			t.Errorf("err = %v, want not a regular file (a socket)", err)
		}
	}
}

// OpenRoot and OpenRootIn refuse at once what is not a directory — a FIFO
// with no writer, which os.OpenRoot would wait on, a file — naming it and
// what it is; they open a directory, also through a symbolic link, and say
// a missing one is missing.
func TestOpenRootNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	testfault.Mkfifo(t, filepath.Join(dir, "fifo"))
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("sub", filepath.Join(dir, "link"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct{ name, want string }{
		{"fifo", "fifo: not a directory (a FIFO)"},
		{"file", "file: not a directory (a regular file)"},
		{"missing", "missing: no such file or directory"},
		{"sub", ""},
		{"link", ""},
	} {
		testfault.Within(t, 2*time.Second, "OpenRoot("+tc.name+")", func() {
			r1, err1 := OpenRoot(filepath.Join(dir, tc.name))
			r2, err2 := OpenRootIn(root, tc.name)
			for i, err := range []error{err1, err2} {
				switch {
				case tc.want == "" && err != nil:
					t.Errorf("%s (%d): %v", tc.name, i, err)
				case tc.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.want)):
					t.Errorf("%s (%d): err = %v, want it to end in %q", tc.name, i, err, tc.want)
				case strings.Contains(tc.want, "not a directory") && !errors.Is(err, ErrNotDir):
					t.Errorf("%s (%d): err = %v, want it to wrap ErrNotDir", tc.name, i, err)
				}
			}
			for _, r := range []*os.Root{r1, r2} {
				if r != nil {
					if _, err := r.Stat("."); err != nil {
						t.Errorf("%s: %v", tc.name, err)
					}
					r.Close()
				}
			}
		})
	}
	if _, err := OpenRoot(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: err = %v, want fs.ErrNotExist", err)
	}
}

// ContextReader stops reading once its context ends, with its error.
func TestContextReader(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := ContextReader(ctx, strings.NewReader("abcdef"))
	buf := make([]byte, 3)
	if n, err := r.Read(buf); n != 3 || err != nil {
		t.Fatalf("Read = %d, %v", n, err)
	}
	cancel()
	if n, err := r.Read(buf); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("Read after cancel = %d, %v; want 0, context.Canceled", n, err)
	}
}
