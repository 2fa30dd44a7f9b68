package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/bus"
)

// TestFindingReadFollow: --follow prints the entries already there, then each
// new one as NDJSON, filtered, until the context ends; it exits 0.
func TestFindingReadFollow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "peer-findings.jsonl")
	write := func(sev, summary string) {
		t.Helper()
		if _, err := bus.Append(path, bus.Entry{Severity: sev, Agent: "fd-a", Category: "c", Summary: summary}, bus.WriteOptions{NoSync: true}); err != nil {
			t.Fatal(err)
		}
	}
	write(bus.Blocking, "before")
	write(bus.Notable, "skipped by the filter")

	var out, errb syncBuffer
	e := bareEnv(&out, &errb)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- run(ctx, []string{"finding", "read", "--dir", dir, "--follow", "--severity", "blocking", "--interval", "20ms"}, e)
	}()
	waitFor(t, &out, `"summary":"before"`)
	write(bus.Blocking, "after")
	waitFor(t, &out, `"summary":"after"`)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("follow ended with %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"severity":"blocking","agent":"fd-a","category":"c","summary":"before"`) {
		t.Errorf("output:\n%s\nwant two NDJSON lines, blocking only", out.String())
	}
	if errb.String() != "" {
		t.Errorf("stderr: %s", errb.String())
	}
}

// cancelOnWrite cancels a context at its first write: a signal arriving
// while finding read prints.
type cancelOnWrite struct {
	bytes.Buffer
	cancel func()
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.cancel()
	return c.Buffer.Write(p)
}

// finding read stops between two records at a signal, and what it printed
// ends at a record's end. Before, it read on until main's grace ended the
// process, its output cut wherever its 64 KiB buffer stood.
func TestFindingReadSignalEndsAtRecord(t *testing.T) {
	var bus bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&bus, `{"severity":"notable","agent":"fd-a","category":"db","summary":"entry %d %s","file_refs":[]}`+"\n", i, strings.Repeat("x", 40))
	}
	path := filepath.Join(t.TempDir(), "peer-findings.jsonl")
	if err := os.WriteFile(path, bus.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &cancelOnWrite{cancel: cancel}
	var stderr bytes.Buffer
	err := run(ctx, []string{"finding", "read", "--bus", path}, bareEnv(out, &stderr))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want the context's", err)
	}
	got := out.String()
	if !strings.HasSuffix(got, "}") || strings.Count(got, "\n") >= 20000 {
		t.Errorf("output of %d bytes ends with %q: want it cut after a whole record, well before the end", len(got), got[max(0, len(got)-20):])
	}
}
