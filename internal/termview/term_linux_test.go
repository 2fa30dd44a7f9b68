package termview

import (
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// A pseudo-terminal is a terminal, and says its size.
func TestIsTerminalPTY(t *testing.T) {
	_, pts := testfault.OpenPTY(t, 132, 43)
	if !IsTerminal(pts) {
		t.Fatal("a pseudo-terminal is not taken for a terminal")
	}
	if c, r, ok := Size(pts); !ok || c != 132 || r != 43 {
		t.Errorf("Size = %d×%d %v, want 132×43 true", c, r, ok)
	}
}
