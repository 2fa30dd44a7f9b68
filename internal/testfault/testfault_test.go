package testfault

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Mkfifo makes a FIFO, not a regular file, in a directory it makes;
// ReleaseFIFO ends a reader blocked in open(2) on it, which Within sees
// return.
func TestMkfifoAndRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "pipe")
	Mkfifo(t, path)
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("mode = %v, want a FIFO", fi.Mode())
	}
	opened := make(chan struct{})
	go func() {
		if f, err := os.Open(path); err == nil { // blocks until a writer comes
			f.Close()
		}
		close(opened)
	}()
	Within(t, 5*time.Second, "open(FIFO) after ReleaseFIFO", func() {
		for {
			ReleaseFIFO(path)
			select {
			case <-opened:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
}

// OpenPTY gives a terminal of the size asked for.
func TestOpenPTYSize(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("pseudo-terminals are opened only on Linux")
	}
	_, pts := OpenPTY(t, 80, 24)
	cols, rows, err := termSize(pts)
	if err != nil {
		t.Fatal(err)
	}
	if cols != 80 || rows != 24 {
		t.Errorf("size = %d×%d, want 80×24", cols, rows)
	}
}

// SilentServer accepts a connection and sends nothing on it.
func TestSilentServer(t *testing.T) {
	c, err := net.DialTimeout("tcp", SilentServer(t), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := c.Read(make([]byte, 1)); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read %d bytes, %v; want nothing until the deadline", n, err)
	}
}

// RawControl finds each of Controls, a non-UTF-8 byte and DEL, and passes
// text with line feeds, tabs and other scripts.
func TestRawControl(t *testing.T) {
	for _, s := range append(Controls, "\xff", "\x7f", "\u2066", "\r") {
		if i := RawControl([]byte("ok " + s)); i != 3 {
			t.Errorf("RawControl(%q) = %d, want 3", "ok "+s, i)
		}
	}
	if i := RawControl([]byte("line\n\ttab é 😀 ␛[2J ⟨U+202E⟩")); i != -1 {
		t.Errorf("RawControl found %d in plain text", i)
	}
}
