//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// failingWriter is a standard output that cannot be written: a full disk
// (ENOSPC), a terminal gone (EIO). A closed pipe is SIGPIPE for a real
// process; TestSynthClosedPipeWritesFilesFirst runs one.
type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// What synth prints on standard output itself (--json: findings.json, the
// one-line summary) is an output: one that cannot be written exits 2 naming
// standard output, as a report target that cannot be written does. Before,
// `fluxwatch synth --json >/dev/full` exited 0 with nothing written.
func TestSynthStdoutWriteErrorExits2(t *testing.T) {
	for _, args := range [][]string{nil, {"--json"}} {
		t.Run(strings.Join(append([]string{"synth"}, args...), " "), func(t *testing.T) {
			dir := t.TempDir()
			smallRun(t, filepath.Join(dir, "run"))
			var stderr bytes.Buffer
			e := bareEnv(failingWriter{syscall.ENOSPC}, &stderr)
			argv := append(append([]string{"synth", "--no-evidence", "--out", filepath.Join(dir, "out")}, args...), filepath.Join(dir, "run"))
			code := exitCode(run(context.Background(), argv, e), &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), "write standard output: no space left on device") {
				t.Fatalf("exit %d, stderr %q; want 2 naming standard output", code, stderr.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "out", "summary.md")); err != nil {
				t.Errorf("the reports were not written: %v", err)
			}
		})
	}
}

// The files come before standard output: with stdout a pipe whose reader
// is gone (synth … | head -c 10), SIGPIPE ends the process at its first
// write there, and by then the --sarif file, $GITHUB_STEP_SUMMARY and
// $GITHUB_OUTPUT are written. Before, `--out -` printed summary.md first
// and the process died with none of them.
func TestSynthClosedPipeWritesFilesFirst(t *testing.T) {
	bin, dir, runDir, r, w := pipedRun(t)
	r.Close() // the reader is gone before the first write
	sarif, step, output := filepath.Join(dir, "r.sarif"), filepath.Join(dir, "step.md"), filepath.Join(dir, "output")
	cmd := exec.Command(bin, "synth", "--no-evidence", "--out", "-", "--sarif", sarif, runDir)
	cmd.Stdout = w
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY="+step, "GITHUB_OUTPUT="+output)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var err error
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

// watch --events with a standard output that cannot be written ends (exit
// 2, naming standard output) after writing its final reports, instead of
// watching on for nobody. Before, the write errors were dropped and the
// watch ran until interrupted, then exited 0.
func TestWatchEventsStdoutWriteErrorEnds(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	smallRun(t, runDir)
	var stderr bytes.Buffer
	e := bareEnv(failingWriter{syscall.EIO}, &stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	err := run(ctx, []string{"watch", "--no-evidence", "--events", "--out", filepath.Join(dir, "out"), runDir}, e)
	code := exitCode(err, &stderr)
	if ctx.Err() != nil {
		t.Fatalf("watch ran on for %v with a stdout that fails (exit %d, stderr %q)", time.Since(start), code, stderr.String())
	}
	if code != exitUsage || !strings.Contains(stderr.String(), "watch: write standard output: input/output error") {
		t.Fatalf("exit %d, stderr %q; want 2 naming standard output", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "findings.json")); err != nil {
		t.Errorf("the reports were not written: %v", err)
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
	// Let it reach the FIFO: the reports are written before the step
	// summary, so wait for summary.md (a fixed sleep was too short on a
	// loaded machine), then a moment for the open of the FIFO to block.
	summary := filepath.Join(dir, "out", "summary.md")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(summary); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("synth ended before the signal, with the FIFO unread: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("summary.md not written within 30 s")
		}
	}
	time.Sleep(100 * time.Millisecond)
	cancel()
	var err error
	testfault.Within(t, 5*time.Second, "synth after the signal", func() { err = <-done })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("synth returned %v: not the cancellation, so main prints it after the signal", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "summary.md")); err != nil {
		t.Errorf("the reports were not written before the step summary: %v", err)
	}
}

// watch --events | head -1: once the reader of its events has gone, watch
// ends within a second (status 141, as SIGPIPE gives, and no message)
// with its final reports and GitHub outputs written. Before, it watched on
// until the next change, when SIGPIPE killed it mid-way (or until
// interrupted, on a run that had finished).
func TestWatchEventsReaderGoneEnds(t *testing.T) {
	bin, dir, runDir, r, w := pipedRun(t)
	output := filepath.Join(dir, "output")
	cmd := exec.Command(bin, "watch", "--no-evidence", "--events", "--out", filepath.Join(dir, "out"), runDir)
	cmd.Stdout = w
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_OUTPUT="+output)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil || !strings.Contains(line, `"hello"`) {
		t.Fatalf("first line %q, %v; want the hello record", line, err)
	}
	r.Close() // head -1 exits
	start := time.Now()
	testfault.Within(t, 3*time.Second, "watch after its reader went", func() { err = cmd.Wait() })
	t.Logf("watch ended %v after its reader: %v, stderr %q", time.Since(start), err, stderr.String())
	if code := cmd.ProcessState.ExitCode(); code != runjob.StatusSIGPIPE {
		t.Errorf("exit %d, want %d", code, runjob.StatusSIGPIPE)
	}
	if strings.Contains(stderr.String(), "fluxwatch:") {
		t.Errorf("stderr %q: want no message, as for SIGPIPE", stderr.String())
	}
	if data, err := os.ReadFile(output); err != nil || !strings.Contains(string(data), "verdict=") {
		t.Errorf("$GITHUB_OUTPUT not written: %q %v", data, err)
	}
}

// pipedRun returns the fluxwatch binary, a temporary directory holding a
// small run (runDir) and a pipe for the command's standard output.
func pipedRun(t *testing.T) (bin, dir, runDir string, r, w *os.File) {
	t.Helper()
	bin, dir = testBinaryAsFluxwatch(t), t.TempDir()
	runDir = filepath.Join(dir, "run")
	smallRun(t, runDir)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return bin, dir, runDir, r, w
}
