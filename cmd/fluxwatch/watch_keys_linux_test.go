package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/cmdtest"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"golang.org/x/sys/unix"
)

// TestWatchKeysProcess runs the real binary on a pseudo-terminal (stdin,
// stdout and stderr) and checks the terminal's mode around it: in cbreak
// while the live view runs, restored however watch ends — by the q key, by
// SIGTERM. A watch whose stdin is a pipe never reads it.
func TestWatchKeysProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := cmdtest.Build(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "fd-a.md"), []byte("### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens in localStorage\nVerdict: needs-changes\n"), 0o644)

	for _, tc := range []struct {
		name   string
		end    func(t *testing.T, ptmx *os.File, p *os.Process)
		status int // q quits as the user asked; a signal exits 128+n
	}{
		{"q", func(t *testing.T, ptmx *os.File, p *os.Process) { ptmx.Write([]byte("q")) }, 0},
		{"SIGTERM", func(t *testing.T, ptmx *os.File, p *os.Process) { p.Signal(syscall.SIGTERM) }, 143},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ptmx, pts := testfault.OpenPTY(t, 132, 43)
			before, err := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			cmd, out := startLiveView(t, bin, dir, pts, ptmx, pts)
			// The keys are read once the terminal is in cbreak mode.
			deadline := time.Now().Add(10 * time.Second)
			for {
				m, _ := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
				if m.Lflag&unix.ICANON == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the terminal never left canonical mode")
				}
				time.Sleep(10 * time.Millisecond)
			}
			tc.end(t, ptmx, cmd.Process)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
				if got := cmd.ProcessState.ExitCode(); got != tc.status {
					t.Errorf("watch exited %d, want %d\n%q", got, tc.status, out.String())
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("watch did not end\n%q", out.String())
			}
			after, _ := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
			if after.Lflag != before.Lflag {
				t.Errorf("terminal mode not restored: lflag %#x, want %#x", after.Lflag, before.Lflag)
			}
			if !strings.Contains(out.String(), "\x1b[?1049l") {
				t.Errorf("alternate screen not left")
			}
		})
	}

	t.Run("stdin a pipe", func(t *testing.T) {
		ptmx, pts := testfault.OpenPTY(t, 132, 43)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		w.Write([]byte("q?orchestrator data\n"))
		cmd, _ := startLiveView(t, bin, dir, r, ptmx, pts)
		time.Sleep(300 * time.Millisecond) // time enough to misread stdin
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if got := cmd.ProcessState.ExitCode(); got != 143 {
			t.Errorf("watch exited %d after SIGTERM, want 143", got)
		}
		w.Close()
		rest, _ := io.ReadAll(r)
		if string(rest) != "q?orchestrator data\n" {
			t.Errorf("watch consumed its stdin: %q left", rest)
		}
	})
}

// startLiveView starts bin watch on dir with stdin, and the terminal pts as
// stdout and stderr, and returns once the live view is up (the alternate
// screen) with what the terminal ptmx shows, still growing.
func startLiveView(t *testing.T, bin, dir string, stdin, ptmx, pts *os.File) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, "watch", "--no-evidence", dir)
	cmd.Env = append(os.Environ(), "TERM=xterm", "NO_COLOR=1", "FLUX_OUTPUT_DIR=", "FLUX_RUN_UUID=")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, pts, pts
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	go io.Copy(out, ptmx)
	waitFor(t, out, "\x1b[?1049h")
	return cmd, out
}
