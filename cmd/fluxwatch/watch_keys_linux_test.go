package main

import (
	"bytes"
	"fmt"
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
// stdout and stderr) and checks the terminal's mode around it: raw while the
// live view runs, restored however watch ends — by the q key, by Ctrl-C
// (which raw mode leaves to watch to turn into SIGINT), by SIGTERM. Ctrl-Z
// stops watch with the terminal restored, and fg brings the view back. A
// watch whose stdin is a pipe never reads it.
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
		{"Ctrl-C", func(t *testing.T, ptmx *os.File, p *os.Process) { ptmx.Write([]byte{0x03}) }, 130},
		{"SIGTERM", func(t *testing.T, ptmx *os.File, p *os.Process) { p.Signal(syscall.SIGTERM) }, 143},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ptmx, pts := testfault.OpenPTY(t, 132, 43)
			before, err := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			cmd, out := startLiveView(t, bin, dir, pts, ptmx, pts)
			waitMode(t, pts, false) // the keys are read once the terminal is raw
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
			if after.Lflag != before.Lflag || after.Oflag != before.Oflag || after.Iflag != before.Iflag {
				t.Errorf("terminal mode not restored: lflag %#x oflag %#x iflag %#x, want %#x %#x %#x",
					after.Lflag, after.Oflag, after.Iflag, before.Lflag, before.Oflag, before.Iflag)
			}
			waitFor(t, out, "\x1b[?1049l") // alternate screen left (the copy of the output may lag)
		})
	}

	t.Run("Ctrl-Z", func(t *testing.T) {
		ptmx, pts := testfault.OpenPTY(t, 132, 43)
		// A process group of its own in the test's session, as a shell
		// runs a job: not orphaned, so SIGTSTP stops it.
		cmd, out := startLiveView(t, bin, dir, pts, ptmx, pts, &syscall.SysProcAttr{Setpgid: true})
		defer cmd.Process.Kill()
		waitMode(t, pts, false)
		ptmx.Write([]byte{0x1a})
		waitState(t, cmd.Process.Pid, 'T') // stopped, as by the terminal's SIGTSTP
		waitMode(t, pts, true)             // in the shell's mode while stopped
		waitFor(t, out, "\x1b[?1049l")     // and off the alternate screen
		drawn := strings.Count(out.String(), "\x1b[?1049h")
		cmd.Process.Signal(syscall.SIGCONT) // fg
		waitMode(t, pts, false)
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(out.String(), "\x1b[?1049h") == drawn {
			if time.Now().After(deadline) {
				t.Fatal("the view did not come back after SIGCONT")
			}
			time.Sleep(10 * time.Millisecond)
		}
		ptmx.Write([]byte("q"))
		if err := cmd.Wait(); err != nil {
			t.Errorf("watch after fg and q: %v\n%q", err, out.String())
		}
		waitMode(t, pts, true)
	})

	t.Run("Ctrl-Z orphaned", func(t *testing.T) {
		// A session of its own: no shell controls its process group (it
		// is orphaned), and the kernel discards SIGTSTP there, as it
		// would the terminal's Ctrl-Z. watch must not wait for a SIGCONT
		// that never comes: the view and raw mode come back.
		ptmx, pts := testfault.OpenPTY(t, 132, 43)
		cmd, out := startLiveView(t, bin, dir, pts, ptmx, pts, &syscall.SysProcAttr{Setsid: true})
		defer cmd.Process.Kill()
		waitMode(t, pts, false)
		drawn := strings.Count(out.String(), "\x1b[?1049h")
		ptmx.Write([]byte{0x1a})
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(out.String(), "\x1b[?1049h") == drawn {
			if time.Now().After(deadline) {
				t.Fatal("the view did not come back after a Ctrl-Z that stops nothing")
			}
			time.Sleep(10 * time.Millisecond)
		}
		waitMode(t, pts, false)
		ptmx.Write([]byte("q"))
		if err := cmd.Wait(); err != nil {
			t.Errorf("watch after Ctrl-Z and q: %v\n%q", err, out.String())
		}
		waitMode(t, pts, true)
	})

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
// stdout and stderr (with attr, when given), and returns once the live view is up (the alternate
// screen) with what the terminal ptmx shows, still growing.
func startLiveView(t *testing.T, bin, dir string, stdin, ptmx, pts *os.File, attr ...*syscall.SysProcAttr) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, "watch", "--no-evidence", dir)
	if len(attr) > 0 {
		cmd.SysProcAttr = attr[0]
	}
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

// waitMode waits until the terminal pts is in canonical mode (cooked true)
// or out of it, for 10 s at most.
func waitMode(t *testing.T, pts *os.File, cooked bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m, err := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if (m.Lflag&unix.ICANON != 0) == cooked {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal is not in canonical mode %v (lflag %#x)", cooked, m.Lflag)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitState waits until process pid is in state (a letter of
// /proc/PID/stat: T stopped), for 10 s at most.
func waitState(t *testing.T, pid int, state byte) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatal(err)
		}
		// pid (comm) S ...: the state follows the last ")".
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == state {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d never in state %c: %s", pid, state, stat)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
