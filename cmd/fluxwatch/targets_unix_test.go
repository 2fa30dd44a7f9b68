//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
			smallRun(t, runDir)
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

// /dev/stdout (or a link to it) as a report target is standard output, as
// "-" is: with stdout a regular file the report arrives whole, after
// nothing (the summary line is not printed over it), and it counts as one
// user of stdout. Before, the report went through a second description of
// the file at offset 0, and the summary line overwrote its start.
func TestDevStdoutTargetIsStdout(t *testing.T) {
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skip("no /dev/stdout")
	}
	bin := testBinaryAsFluxwatch(t)
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	smallRun(t, runDir)
	link := filepath.Join(dir, "out.sarif")
	os.Symlink("/dev/stdout", link)
	synth := func(args ...string) ([]byte, error) {
		out := filepath.Join(dir, "stdout.txt")
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, append([]string{"synth", "--no-evidence", "--out", filepath.Join(dir, "o")}, args...)...)
		cmd.Stdout, cmd.Env = f, append(os.Environ(), "NO_COLOR=1")
		err = cmd.Run()
		f.Close()
		data, _ := os.ReadFile(out)
		return data, err
	}
	for _, target := range []string{"/dev/stdout", link} {
		data, err := synth("--sarif", target, runDir)
		var doc struct {
			Version string `json:"version"`
		}
		if err != nil || json.Unmarshal(data, &doc) != nil || doc.Version != "2.1.0" {
			t.Errorf("--sarif %s: %v; stdout is not the SARIF log alone:\n%.200s", target, err, data)
		}
	}
	if _, err := synth("--json", "--sarif", "/dev/stdout", runDir); err == nil {
		t.Error("--json --sarif /dev/stdout: want a usage error (two users of stdout)")
	}
}

// A FIFO report target with no reader does not hold up watch: the events,
// the other reports and the bus go on at every change, with one warning,
// and the final reports are what waits for a reader. Before, the first
// write blocked the loop: not even the hello record came out.
func TestWatchFIFOTargetWithoutReaderKeepsWatching(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	os.Mkdir(runDir, 0o755)
	report := func(agent, sev string) []byte {
		return []byte("### Findings Index\n- " + sev + " | AR-001 | \"Auth\" | Found by " + agent + "\nVerdict: needs-changes\n")
	}
	if err := os.WriteFile(filepath.Join(runDir, "fd-a.md"), report("fd-a", "P1"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "r.sarif")
	testfault.Mkfifo(t, fifo)
	var stdout, stderr syncBuffer
	e := bareEnv(&stdout, &stderr)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"watch", "--events", "--no-evidence", "--out", filepath.Join(dir, "out"), "--sarif", fifo, runDir}, e)
	}()
	waitFor(t, &stdout, `"agent":"fd-a"`)
	if err := os.WriteFile(filepath.Join(runDir, "fd-b.md"), report("fd-b", "P0"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &stdout, `"agent":"fd-b"`)
	waitFor(t, &stdout, `a FIFO with no reader`)
	if n := strings.Count(stdout.String(), "a FIFO with no reader"); n != 1 {
		t.Errorf("the warning came %d times, want once", n)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out", "summary.md")); err != nil || !bytes.Contains(b, []byte("Found by fd-b")) {
		t.Errorf("summary.md was not rewritten at the change: %v", err)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("watch still running 5 s after the signal")
	}
}
