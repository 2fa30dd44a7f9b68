package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// The text files of plan and discover (--context-file, --task-file, …) are
// read up to 1 MiB, what a YAML file holds: a larger input is a usage
// error naming the flag, and nothing is written. Before, it was read whole
// (/dev/zero until memory ran out) and, under the limit of memory, written
// into a findings file no read accepts.
func TestPlanInputFilesCapped(t *testing.T) {
	big := func() io.Reader { return io.LimitReader(zeros{}, 8<<20) } // 8 MiB, then end of input
	dir := t.TempDir()
	planDir := filepath.Join(dir, "plan")
	cases := []struct {
		name string
		args []string
		flag string
	}{
		{"write-approach", []string{"plan", "--plan-dir", planDir, "write-approach", "fe", "1", "--context-file", "-"}, "--context-file"},
		{"write-finding", []string{"plan", "--plan-dir", planDir, "write-finding", "fe", "--notes-file", "-"}, "--notes-file"},
		{"discover", []string{"discover", "--root", filepath.Join(dir, "features"), "--task-file", "-", "--create"}, "--task-file"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		e := bareEnv(&stdout, &stderr)
		e.stdin = big()
		code := exitCode(run(context.Background(), c.args, e), &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.flag) || !strings.Contains(stderr.String(), "too large") {
			t.Fatalf("%s with 8 MiB of input: exit %d, stderr %q; want exit 2 naming %s", c.name, code, &stderr, c.flag)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("written: %v", ents)
	}
	// /dev/zero never ends: it is refused at the limit, not read on.
	testfault.Within(t, 5*time.Second, "--context-file /dev/zero", func() {
		var stdout, stderr bytes.Buffer
		code := exitCode(run(context.Background(), []string{"plan", "--plan-dir", planDir,
			"write-approach", "fe", "1", "--context-file", "/dev/zero"}, bareEnv(&stdout, &stderr)), &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "/dev/zero") {
			t.Errorf("--context-file /dev/zero: exit %d, stderr %q", code, &stderr)
		}
	})
}

// zeros reads as an endless run of 'x'.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}
