//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// A report that cannot be read (no permission) is an input error of the
// one-shot commands, in the same one line naming the file once: check of
// the file, check of the run and synth exit 2 (docs/ci.md: an unread
// report never passes a gate). watch goes on with the rest of the run and
// shows the file as a failed agent; before, it froze on it, printing the
// error at every change. As root, whom permissions do not stop, the
// commands run as nobody.
func TestUnreadableReport(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "fluxwatch")
	copyExecutable(t, bin)
	run, out := filepath.Join(dir, "run"), filepath.Join(dir, "out")
	for _, d := range []string{run, out} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, report string, perm os.FileMode) {
		p := filepath.Join(run, name)
		if err := os.WriteFile(p, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, perm); err != nil {
			t.Fatal(err)
		}
	}
	write("fd-a.md", "### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens in localStorage\nVerdict: needs-changes\n", 0o644)
	write("fd-b.md", "### Findings Index\n- P0 | AR-002 | \"Auth\" | Remote code execution\nVerdict: risky\n", 0)

	fluxwatch := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=1795000000", "NO_COLOR=1")
		if os.Geteuid() == 0 {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if x, ok := err.(*exec.ExitError); ok {
			code = x.ExitCode()
		} else if err != nil {
			t.Fatalf("fluxwatch %v: %v", args, err)
		}
		return stdout.String() + stderr.String(), code
	}
	if _, err := os.ReadFile(filepath.Join(run, "fd-b.md")); err == nil && os.Geteuid() != 0 {
		t.Skip("permissions do not stop this user from reading the file")
	}

	const unread = "read run/fd-b.md: permission denied\n"
	for _, args := range [][]string{
		{"check", "run/fd-b.md"},
		{"check", "run"},
		{"synth", "--no-evidence", "--out", "out", "run"},
	} {
		if got, code := fluxwatch(args...); code != 2 || !strings.HasSuffix(got, unread) {
			t.Errorf("%v: exit %d\n%s\nwant exit 2 and %q", args, code, got, unread)
		}
	}
	got, code := fluxwatch("watch", "-q", "--until-complete", "--settle", "100ms", "--no-evidence", "--out", "out", "run")
	if code != 0 {
		t.Errorf("watch --until-complete: exit %d\n%s\nwant 0", code, got)
	}
	data, err := os.ReadFile(filepath.Join(out, "findings.json"))
	failed := regexp.MustCompile(`"agents_failed": \[\s*"fd-b"\s*\]`)
	if err != nil || !bytes.Contains(data, []byte(`"message": "cannot be read (permission denied)"`)) ||
		!failed.Match(data) || !bytes.Contains(data, []byte(`"verdict": "needs-changes"`)) {
		t.Errorf("watch's findings.json: want fd-b failed with its diagnostic and the verdict of fd-a: %v\n%s", err, data)
	}
}

// copyExecutable copies the test binary to path, where TestMain runs it as
// the fluxwatch command (as testBinaryAsFluxwatch's link does), readable and
// executable by every user.
func copyExecutable(t *testing.T, path string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary to run: %v", err)
	}
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
