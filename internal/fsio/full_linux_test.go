package fsio

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// A full device written in place (/dev/full: ENOSPC) is an error that names
// the target once and keeps its cause: "write /dev/full: no space left on
// device". Before, it read "write /dev/full: write /dev/full: …", and
// AppendFile's "append X: open X: …" the same way.
func TestWriteFullDeviceNamesItOnce(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	ctx := context.Background()
	_, werr := WriteFile(ctx, "/dev/full", []byte("report\n"), 0o644)
	aerr := AppendFile(ctx, "/dev/full", []byte("verdict=safe\n"), 0o644)
	for _, err := range []error{werr, aerr} {
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("got %v, want ENOSPC", err)
		}
		if n := strings.Count(err.Error(), "/dev/full"); n != 1 {
			t.Errorf("%q names /dev/full %d times, want once", err, n)
		}
	}
}

// An atomic replace that runs out of space mid-write (a small tmpfs) leaves
// the old report whole and no temporary file, and its error names the
// report, not the temporary file beside it. Skipped where tmpfs cannot be
// mounted (not root, no mount namespace).
func TestWriteFileOutOfSpaceKeepsOld(t *testing.T) {
	dir := testfault.SmallFS(t, 64<<10)
	ctx := context.Background()
	path := filepath.Join(dir, "findings.json")
	old := bytes.Repeat([]byte("o"), 16<<10)
	if _, err := WriteFile(ctx, path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("n"), 128<<10) // more than the file system holds
	for name, write := range map[string]func() error{
		"WriteFile": func() error { _, err := WriteFile(ctx, path, big, 0o644); return err },
		"WriteFileFunc": func() error {
			_, err := WriteFileFunc(ctx, path, 0o644, func(w io.Writer) error {
				_, err := w.Write(big)
				return err
			})
			return err
		},
	} {
		err := write()
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("%s: got %v, want ENOSPC", name, err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "write "+path+": ") || strings.Contains(msg, ".tmp") {
			t.Errorf("%s: %q: want it to name %s and no temporary file", name, msg, path)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
			t.Errorf("%s: the old report is %d bytes, want it whole (%d)", name, len(got), len(old))
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("%s: left %v, want findings.json alone", name, names)
		}
	}
}

// An append that runs out of space ($GITHUB_STEP_SUMMARY on a full disk)
// leaves the file as it was: no half a summary on the job's page, no cut
// "verdict=" line. Before, the first 4 KiB of a 693 KB summary stayed
// appended.
func TestAppendFileOutOfSpaceAddsNothing(t *testing.T) {
	dir := testfault.SmallFS(t, 64<<10)
	path := filepath.Join(dir, "step-summary.md")
	old := []byte("# an earlier step\n")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	err := AppendFile(context.Background(), path, bytes.Repeat([]byte("s"), 128<<10), 0o644)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("got %v, want ENOSPC", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
		t.Errorf("the file holds %d bytes after the failed append, want the %d it held", len(got), len(old))
	}
}

// A report's mode is the user's: a new one is created as the umask allows
// (umask 077: 0600, as touch makes it), and a replaced one keeps the mode
// it was given (chmod 600 summary.md stays private). Before, every write
// made it 0644: a review's findings became readable by all on the next
// synth.
func TestWriteFileModeIsTheUsers(t *testing.T) {
	old := syscall.Umask(0o077) // no test in this package runs in parallel
	defer syscall.Umask(old)
	dir := t.TempDir()
	ctx := context.Background()
	fresh, kept := filepath.Join(dir, "findings.json"), filepath.Join(dir, "summary.md")
	for _, p := range []string{fresh, kept} {
		if _, err := WriteFile(ctx, p, []byte("1"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	syscall.Umask(0o022)
	if err := os.Chmod(kept, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFile(ctx, kept, []byte("2"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := WriteFileFunc(ctx, fresh, 0o644, func(w io.Writer) error { _, err := w.Write([]byte("2")); return err })
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{fresh: 0o600, kept: 0o640} {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", filepath.Base(p), info.Mode().Perm(), err, want)
		}
	}
}
