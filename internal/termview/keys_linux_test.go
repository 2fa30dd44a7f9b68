package termview

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"golang.org/x/sys/unix"
)

// TestKeysPTY: on a terminal, Keys switches off line buffering and echo
// (so that one key press arrives without Enter), delivers the keys, turns
// Ctrl-C into SIGINT as the terminal would, and its stop restores the mode
// the terminal had.
func TestKeysPTY(t *testing.T) {
	ptmx, pts := testfault.OpenPTY(t, 132, 43)
	before, err := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if before.Lflag&unix.ICANON == 0 {
		t.Fatal("a new pseudo-terminal is not in canonical mode")
	}
	keys, stop, err := Keys(context.Background(), pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	during, _ := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
	if during.Lflag&(unix.ICANON|unix.ECHO) != 0 {
		t.Errorf("raw mode not set: lflag %#x", during.Lflag)
	}
	// Raw mode: the terminal sends no signal for Ctrl-C, Keys does.
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	defer signal.Stop(interrupt)
	if _, err := ptmx.Write([]byte("q\x03?")); err != nil { // no newline: raw
		t.Fatal(err)
	}
	select {
	case <-interrupt:
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C sent no SIGINT")
	}
	for _, want := range []byte("q?") { // Ctrl-C is no key
		select {
		case k := <-keys:
			if k != want {
				t.Errorf("key %q, want %q", k, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("key %q never arrived", want)
		}
	}
	stop()
	after, _ := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
	if after.Lflag != before.Lflag || after.Oflag != before.Oflag || after.Iflag != before.Iflag || after.Cc != before.Cc {
		t.Errorf("mode not restored: lflag %#x, want %#x", after.Lflag, before.Lflag)
	}
	if _, ok := <-keys; ok {
		t.Error("keys still open after stop")
	}
	stop() // a second call is harmless
}

// TestKeysNotTerminal: Keys refuses a pipe without reading from it — the
// byte written before is still there for its owner.
func TestKeysNotTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.Write([]byte("x"))
	keys, stop, err := Keys(context.Background(), r, nil)
	defer stop()
	if !errors.Is(err, ErrNotTerminal) || keys != nil {
		t.Fatalf("Keys(pipe) = %v, %v; want nil, ErrNotTerminal", keys, err)
	}
	buf := make([]byte, 1)
	if n, _ := r.Read(buf); n != 1 || buf[0] != 'x' {
		t.Errorf("the pipe lost its byte: read %q", buf[:n])
	}
}
