//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// runWithin runs the command with args and returns its exit code and stderr,
// failing the test when it has not ended after d: nothing may block on a
// FIFO bus.
func runWithin(t *testing.T, d time.Duration, args ...string) (code int, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := bareEnv(&out, &errb)
	ctx, cancel := context.WithTimeout(context.Background(), 3*d)
	defer cancel()
	testfault.Within(t, d, strings.Join(args, " "), func() {
		code = exitCode(run(ctx, args, e), &errb)
	})
	return code, errb.String()
}

// TestFindingFIFOBusRefused: finding write, read and read --follow refuse a
// bus that is a FIFO at once, exit 2, with one line naming it (SPEC §3).
func TestFindingFIFOBusRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "peer-findings.jsonl")
	testfault.Mkfifo(t, fifo)
	write := []string{"--severity", "blocking", "--agent", "fd-a", "--category", "c", "--summary", "s"}
	for i, args := range [][]string{
		append([]string{"finding", "write", "--bus", fifo}, write...),
		append([]string{"finding", "write", "--dir", dir}, write...),
		{"finding", "read", "--bus", fifo},
		{"finding", "read", "--dir", dir},
		{"finding", "read", "--bus", fifo, "--since", "10"},
		{"finding", "read", "--bus", fifo, "--follow", "--interval", "10ms"},
		{"finding", "read", "--dir", dir, "--follow", "--interval", "10ms"},
	} {
		t.Run(fmt.Sprintf("%s-%d", args[1], i), func(t *testing.T) {
			code, stderr := runWithin(t, 2*time.Second, args...)
			if code != exitUsage || !strings.Contains(stderr, fifo) || !strings.Contains(stderr, "a FIFO") ||
				strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q: want exit 2 and one line naming %s as a FIFO", code, stderr, fifo)
			}
		})
	}
}

// TestFindingWriteUnwritableBus: a bus that cannot be written is an input
// error (exit 2) naming the path, not an internal one.
func TestFindingWriteUnwritableBus(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"missing directory": filepath.Join(dir, "missing", "findings.jsonl"),
		"a directory":       dir,
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		cases["permission denied"] = filepath.Join(ro, "findings.jsonl")
	}
	if fi, err := os.Stat("/proc/version"); err == nil && fi.Mode().IsRegular() {
		cases["read-only file"] = "/proc/version" // not writable even by root
	}
	for name, path := range cases {
		t.Run(name, func(t *testing.T) {
			code, stderr := runWithin(t, 5*time.Second, "finding", "write", "--bus", path, "--no-sync",
				"--severity", "blocking", "--agent", "fd-a", "--category", "c", "--summary", "s")
			if code != exitUsage || !strings.Contains(stderr, path) {
				t.Errorf("exit %d, stderr %q: want exit 2 naming %s", code, stderr, path)
			}
		})
	}
}

// TestFindingWriteDiskFull: finding write on a full disk exits 2 with one
// line naming the bus and the cause, and leaves no part of its record:
// the next write, with room again, follows the last whole record, and
// check reads the bus without a diagnostic. Before, it exited 3 and left
// the part that fitted, a permanent invalid line.
func TestFindingWriteDiskFull(t *testing.T) {
	dir := testfault.SmallFS(t, 32<<10)
	filler := filepath.Join(dir, "filler")
	if err := os.WriteFile(filler, bytes.Repeat([]byte("f"), 8<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(summary string) (int, string) {
		return runWithin(t, 5*time.Second, "finding", "write", "--dir", dir, "--agent", "fd-a", "--severity", "notable",
			"--category", "c", "--summary", summary)
	}
	var code int
	var stderr string
	for i := 0; i < 50 && code == 0; i++ {
		code, stderr = write(fmt.Sprintf("%d %s", i, strings.Repeat("x", 3000)))
	}
	bus := filepath.Join(dir, "findings.jsonl")
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, bus) || !strings.Contains(stderr, "no space left") {
		t.Fatalf("finding write on a full disk: exit %d, %q; want 2 and one line naming %s", code, stderr, bus)
	}
	os.Remove(filler)
	if code, stderr := write("with room again"); code != 0 {
		t.Fatalf("finding write with room again: exit %d, %s", code, stderr)
	}
	var out, errb bytes.Buffer
	if code := exitCode(run(context.Background(), []string{"check", bus}, bareEnv(&out, &errb)), &errb); code != 0 ||
		!strings.Contains(out.String(), ", 0 diagnostics") {
		t.Errorf("check of the bus: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
