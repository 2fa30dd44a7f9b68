package verify

import (
	"runtime"
	"strings"
	"testing"
)

// TestClaimsAllocation: Claims reads a synthesis a line at a time. Split
// into a slice of lines at once, 8 MB of newlines took 128 MB of string
// headers (a 60 MB synthesis of them: a 1.1 GB peak in fluxwatch verify).
func TestClaimsAllocation(t *testing.T) {
	src := []byte(strings.Repeat("\n", 8<<20) + "| Severity | Finding |\n|---|---|\n| P1 | Session token leaks into the logs |\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	claims := Claims(src)
	runtime.ReadMemStats(&after)
	if len(claims) != 1 || claims[0].Line != 8<<20+3 {
		t.Fatalf("claims %+v, want the table row's on line %d", claims, 8<<20+3)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("Claims of %d bytes allocated %d MB, want at most 32 MB", len(src), n>>20)
	}
}
