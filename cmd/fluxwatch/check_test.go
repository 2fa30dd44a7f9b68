package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
