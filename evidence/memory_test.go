package evidence

import (
	"runtime"
	"strings"
	"testing"
)

// TestNewTextAllocation: preparing a file allocates about its own size
// again plus its line index, made at its final size. Grown by appending,
// the index of a 4 MiB file of 2 million short lines cost 200 MB of
// allocations, and with 8 files read at once (Options.Jobs) a check of 16
// such files peaked at 340 MB.
func TestNewTextAllocation(t *testing.T) {
	const lines = 2<<20 - 1
	data := []byte(strings.Repeat("a\n", lines))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tx := newText(data)
	runtime.ReadMemStats(&after)
	if tx.lines != lines {
		t.Fatalf("%d lines, want %d", tx.lines, lines)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("newText of %d bytes (%d lines) allocated %d MB, want at most 32 MB", len(data), lines, n>>20)
	}
}
