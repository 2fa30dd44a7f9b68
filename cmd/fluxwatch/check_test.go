package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// A report whose name holds a control character is rejected by check FILE
// as by a run's Scan (SPEC §1: names are rejected everywhere), with the
// same warning and the name quoted: the escape never reaches the terminal.
func TestCheckFileRejectsControlCharacterName(t *testing.T) {
	dir := t.TempDir()
	name := "fd-\x1b[31m.md"
	report := "### Findings Index\n- P0 | AR-001 | \"Auth\" | T\nVerdict: risky\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(path string) string {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), []string{"check", path}, bareEnv(&stdout, &stderr)); err != nil {
			t.Fatalf("check %q: %v\n%s", path, err, stderr.String())
		}
		return stdout.String()
	}
	const warning = `"fd-\x1b[31m.md": warning: agent name rejected: invalid name: name contains a control character`
	for _, path := range []string{filepath.Join(dir, name), dir} {
		out := check(path)
		if !strings.Contains(out, warning) || strings.Contains(out, "\x1b") || strings.Contains(out, "P0 1") {
			t.Errorf("check %q:\n%s\nwant %s, no raw escape, nothing read", path, out, warning)
		}
	}
}

// --config and --baseline are inputs, and inputs are never waited on: a
// FIFO with no writer and a device (/dev/zero, which never ends) are
// refused at once with one line naming them (exit 2). Before, the FIFO
// hung synth and config until a signal, and /dev/zero grew without bound.
func TestConfigAndBaselineNeverWait(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	smallRun(t, runDir)
	fifo := filepath.Join(dir, "input.fifo")
	testfault.Mkfifo(t, fifo)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"config", "--config", fifo}, "config: config " + fifo + ": not a regular file (a FIFO)"},
		{[]string{"synth", "--no-evidence", "--out", out, "--config", fifo, runDir}, "config " + fifo + ": not a regular file (a FIFO)"},
		{[]string{"synth", "--no-evidence", "--out", out, "--baseline", fifo, runDir}, "--baseline " + fifo + ": not a regular file (a FIFO)"},
		{[]string{"synth", "--no-evidence", "--out", out, "--baseline", "/dev/zero", runDir}, "--baseline /dev/zero: not a regular file (a device)"},
	} {
		testfault.Within(t, 5*time.Second, strings.Join(tc.args, " "), func() {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tc.args, bareEnv(&stdout, &stderr))
			var u usageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: %v, want a usage error holding %q", tc.args, err, tc.want)
			}
		})
	}
}
