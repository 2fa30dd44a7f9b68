//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// A FIFO report target with no reader must not keep synth or watch past the
// end of their context (what SIGTERM does through main's NotifyContext):
// each returns within a second of it, and the FIFO stays a FIFO.
func TestFIFOTargetWithoutReaderEndsWithSignal(t *testing.T) {
	for _, cmd := range []string{"synth", "watch"} {
		t.Run(cmd, func(t *testing.T) {
			dir := t.TempDir()
			runDir := filepath.Join(dir, "run")
			if err := os.Mkdir(runDir, 0o755); err != nil {
				t.Fatal(err)
			}
			report := "### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens\nVerdict: needs-changes\n"
			if err := os.WriteFile(filepath.Join(runDir, "fd-a.md"), []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
			fifo := filepath.Join(dir, "nobody.sarif")
			testfault.Mkfifo(t, fifo)
			var stdout, stderr bytes.Buffer
			e := bareEnv(&stdout, &stderr)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- run(ctx, []string{cmd, "--no-evidence", "--sarif", fifo, runDir}, e) }()
			time.Sleep(300 * time.Millisecond) // let it reach the FIFO
			cancel()
			start := time.Now()
			select {
			case err := <-done:
				t.Logf("%s returned %v in %v after the signal; stderr %q", cmd, err, time.Since(start), stderr.String())
			case <-time.After(time.Second):
				t.Fatalf("%s still running 1 s after the signal", cmd)
			}
			if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the FIFO target was replaced: %v %v", info.Mode(), err)
			}
		})
	}
}
