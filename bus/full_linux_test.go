package bus

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestAppendOutOfSpaceAddsNothing: appends to a bus on a disk that fills up
// fail with ENOSPC and add nothing, not the part of the line that fitted:
// before, a short write left a fragment that the next writer ended with a
// newline (SPEC §3), a permanent invalid line that every reader reports.
// The bus is never truncated (readers hold offsets), so the room is
// reserved before the write. Once there is room again, appends go on, and
// the bus holds exactly the acknowledged records, with no diagnostic.
func TestAppendOutOfSpaceAddsNothing(t *testing.T) {
	dir := testfault.SmallFS(t, 64<<10)
	path := filepath.Join(dir, "peer-findings.jsonl")
	// A filler to remove later, so that there is room again.
	if err := os.WriteFile(filepath.Join(dir, "filler"), bytes.Repeat([]byte("f"), 16<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	acked := 0
	var failure error
	for i := range 100 {
		// 3,000 bytes: a line that cannot end exactly where the disk does.
		_, err := Append(path, finding("fd-a", Notable, strings.Repeat("x", 2900)+string(rune('a'+i%26))), WriteOptions{})
		if err != nil {
			failure = err
			break
		}
		acked++
	}
	if !errors.Is(failure, syscall.ENOSPC) || !strings.Contains(failure.Error(), path) {
		t.Fatalf("after %d records: %v, want ENOSPC naming %s", acked, failure, path)
	}
	for range 3 { // a full disk stays full: each further append fails alone
		if _, err := Append(path, finding("fd-b", Blocking, "small"), WriteOptions{}); err == nil {
			acked++
		}
	}
	check := func(when string, want int) {
		t.Helper()
		data, _ := os.ReadFile(path)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			t.Errorf("%s: the bus ends in a fragment: %q", when, data[max(0, len(data)-40):])
		}
		entries, diags, err := ReadFile(path, 0)
		if err != nil || len(entries) != want || len(diags) != 0 {
			t.Errorf("%s: %d entries, diagnostics %v, %v; want the %d acknowledged records and nothing else",
				when, len(entries), diags, err, want)
		}
	}
	check("disk full", acked)
	if err := os.Remove(filepath.Join(dir, "filler")); err != nil {
		t.Fatal(err)
	}
	if _, err := Append(path, finding("fd-c", Blocking, "after the disk had room again"), WriteOptions{}); err != nil {
		t.Fatalf("with room again: %v", err)
	}
	check("room again", acked+1)
}
