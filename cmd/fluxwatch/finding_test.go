package main

import (
	"context"
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
