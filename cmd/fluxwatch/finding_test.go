package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
)

// lockedBuffer is a bytes.Buffer safe for one writer and one reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

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

	var out, errb lockedBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(string) string { return "" }, isTerminal: func(io.Writer) bool { return false }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- run(ctx, []string{"finding", "read", "--dir", dir, "--follow", "--severity", "blocking", "--interval", "20ms"}, e)
	}()
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("waited for %q; output so far:\n%s", want, out.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor(`"summary":"before"`)
	write(bus.Blocking, "after")
	waitFor(`"summary":"after"`)
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
