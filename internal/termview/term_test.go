package termview

import (
	"os"
	"testing"
)

func TestCapable(t *testing.T) {
	for term, want := range map[string]bool{
		"xterm-256color": true, "screen": true, "tmux-256color": true, "vt100": true,
		"dumb": false, "": false, "  ": false,
	} {
		if got := Capable(term); got != want {
			t.Errorf("Capable(%q) = %v, want %v", term, got, want)
		}
	}
}

// /dev/null and pipes are where `watch >/dev/null` and `watch | tee` write:
// neither is a terminal, though /dev/null is a character device.
func TestIsTerminalNotForDevNullOrPipe(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if IsTerminal(null) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if IsTerminal(w) {
		t.Error("a pipe is taken for a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is taken for a terminal")
	}
}
