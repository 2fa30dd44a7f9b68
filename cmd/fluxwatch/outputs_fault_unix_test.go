//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// The files come before standard output: with stdout a pipe whose reader
// is gone (synth … | head -c 10), SIGPIPE ends the process at its first
// write there, and by then the --sarif file, $GITHUB_STEP_SUMMARY and
// $GITHUB_OUTPUT are written. Before, `--out -` printed summary.md first
// and the process died with none of them.
func TestSynthClosedPipeWritesFilesFirst(t *testing.T) {
	bin := testBinaryAsFluxwatch(t)
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	smallRun(t, runDir)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before the first write
	sarif, step, output := filepath.Join(dir, "r.sarif"), filepath.Join(dir, "step.md"), filepath.Join(dir, "output")
	cmd := exec.Command(bin, "synth", "--no-evidence", "--out", "-", "--sarif", sarif, runDir)
	cmd.Stdout = w
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY="+step, "GITHUB_OUTPUT="+output)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	testfault.Within(t, 10*time.Second, "synth with a closed stdout", func() { err = cmd.Run() })
	w.Close()
	t.Logf("synth: %v, stderr %q", err, stderr.String())
	if err == nil {
		t.Errorf("synth exited 0 with its summary.md lost")
	}
	for _, p := range []string{sarif, step, output} {
		if info, err := os.Stat(p); err != nil || info.Size() == 0 {
			t.Errorf("%s not written before standard output: %v", filepath.Base(p), err)
		}
	}
}

// A signal that ends synth's wait for a reader of a $GITHUB_STEP_SUMMARY
// FIFO is the cancellation, which main reports by the exit status alone.
// Before, the error lost its cause (%v) and main printed "waiting for a
// reader of the FIFO: context canceled" after the interrupt.
func TestSynthGitHubFIFOSignalIsCancellation(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	smallRun(t, runDir)
	fifo := filepath.Join(dir, "step-summary")
	testfault.Mkfifo(t, fifo)
	var stdout, stderr bytes.Buffer
	e := bareEnv(&stdout, &stderr)
	e.getenv = func(k string) string {
		return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": fifo}[k]
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"synth", "--no-evidence", "--out", filepath.Join(dir, "out"), runDir}, e)
	}()
	time.Sleep(300 * time.Millisecond) // let it reach the FIFO
	cancel()
	var err error
	testfault.Within(t, time.Second, "synth after the signal", func() { err = <-done })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("synth returned %v: not the cancellation, so main prints it after the signal", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "summary.md")); err != nil {
		t.Errorf("the reports were not written before the step summary: %v", err)
	}
}
