//go:build unix

package watcher

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// A FIFO at every kind of path of a run directory is skipped with a
// diagnostic naming it and what it is, at once: no reader blocks on it,
// neither the one-shot synthesis (synth, mcp), the Scanner, nor a Watcher
// (watch), and none makes the bus's lock file beside it. Each fails by
// timeout if anything blocks.
func TestRunDirFIFOAtEveryPath(t *testing.T) {
	for _, rel := range []string{
		"fd-a.md", "fd-a.md.partial", "fd-a.abort", "peer-findings.jsonl", "findings.jsonl",
		"findings/front.yaml", "design/manifest.yaml",
	} {
		t.Run(rel, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "fd-ok.md", "### Findings Index\n- P2 | OK-001 | \"S\" | Fine\nVerdict: safe\n", 0)
			testfault.Mkfifo(t, filepath.Join(dir, filepath.FromSlash(rel)))
			var s *synth.Synthesis
			testfault.Within(t, 5*time.Second, "Synthesize", func() {
				var err error
				s, err = Synthesize(context.Background(), dir, ScanOptions{}, synth.Options{})
				if err != nil {
					t.Errorf("Synthesize: %v", err)
				}
			})
			if s == nil {
				return
			}
			if len(s.AgentsCompleted) != 1 || s.AgentsCompleted[0] != "fd-ok" {
				t.Errorf("completed = %v, want [fd-ok]", s.AgentsCompleted)
			}
			testfault.Within(t, 5*time.Second, "Scan", func() {
				run, err := Scan(context.Background(), dir, ScanOptions{})
				if err != nil {
					t.Fatalf("Scan: %v", err)
				}
				if !hasPathDiag(run.Diagnostics, rel, "not a regular file (a FIFO)") {
					t.Errorf("diagnostics %v: want %s named as a FIFO", run.Diagnostics, rel)
				}
			})
			testfault.Within(t, 5*time.Second, "Watcher", func() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				got := make(chan *Update, 10)
				go New(dir, Options{}).Run(ctx, func(u *Update) error {
					select {
					case got <- u:
					default:
					}
					return nil
				})
				select {
				case <-got:
				case <-ctx.Done():
					t.Errorf("Watcher: no update within 2 s of starting beside the FIFO")
				}
			})
			if _, err := os.Stat(filepath.Join(dir, "peer-findings.jsonl.lock")); err == nil {
				t.Errorf("a reader made the bus's lock file")
			}
		})
	}
}

// The run directory itself must be a directory: a FIFO or a file there is an
// error naming it and what it is, returned at once.
func TestRunDirNotADirectory(t *testing.T) {
	dir := t.TempDir()
	fifo, file := filepath.Join(dir, "fifo"), filepath.Join(dir, "file")
	testfault.Mkfifo(t, fifo)
	write(t, dir, "file", "x", 0)
	for path, kind := range map[string]string{fifo: "a FIFO", file: "a regular file"} {
		testfault.Within(t, 5*time.Second, "Synthesize("+kind+")", func() {
			_, err := Synthesize(context.Background(), path, ScanOptions{}, synth.Options{})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), kind) {
				t.Errorf("err = %v, want one naming %s as %s", err, path, kind)
			}
		})
	}
}

// A findings/ directory reached through a link inside the run directory is
// read; one whose link leaves it is not, nor is a file linked out of a
// findings/ directory inside.
func TestRunDirSymlinkedDirectories(t *testing.T) {
	outside, dir := t.TempDir(), t.TempDir()
	write(t, outside, "evil.yaml", "specialist_name: evil\n", 0)
	write(t, dir, "real/front.yaml", "specialist_name: front\n", 0)
	write(t, dir, "design/x", "", 0)
	if err := os.Symlink("real", filepath.Join(dir, "findings")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil.yaml"), filepath.Join(dir, "real", "evil.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil.yaml"), filepath.Join(dir, "design", "manifest.yaml")); err != nil {
		t.Fatal(err)
	}
	run, err := Scan(context.Background(), dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Specialists) != 1 || run.Specialists[0].Name != "front" {
		t.Errorf("specialists = %+v, want only front", run.Specialists)
	}
	if run.Design != nil {
		t.Errorf("read a design manifest linked out of the directory")
	}
	for _, rel := range []string{"findings/evil.yaml", "design/manifest.yaml"} {
		if !hasPathDiag(run.Diagnostics, rel, "outside the output directory") {
			t.Errorf("diagnostics %v: want %s not followed", run.Diagnostics, rel)
		}
	}
}

// ReadAgent (check FILE) judges a file as a Scan of its directory does: a
// NUL byte makes it an error report, a FIFO is refused at once by name.
func TestReadAgentAgreesWithScan(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-bin.md", "### Findings Index\n- P1 | AR-001 | \"S\" | T\nVerdict: needs-changes\n\x00\n", 0)
	run, err := Scan(context.Background(), dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := ReadAgent(context.Background(), filepath.Join(dir, "fd-bin.md"), parse.ClassifyName("fd-bin.md"), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Agents) != 1 || run.Agents[0].Status != a.Status || a.Status != parse.StatusError {
		t.Errorf("scan %+v, ReadAgent %s: want both error", run.Agents, a.Status)
	}
	// One byte over the cap: an error report with the cap's diagnostic
	// (ReadAgent used to crash on it: no file information to date it by).
	big := "### Findings Index\n- P0 | AR-002 | \"S\" | T\nVerdict: risky\n"
	big += strings.Repeat("a", DefaultMaxFile+1-len(big))
	write(t, dir, "fd-big.md", big, 0)
	a, err = ReadAgent(context.Background(), filepath.Join(dir, "fd-big.md"), parse.ClassifyName("fd-big.md"), ScanOptions{})
	if err != nil || a.Status != parse.StatusError || len(a.Diagnostics) != 1 || !strings.Contains(a.Diagnostics[0].Message, "larger than") {
		t.Errorf("ReadAgent of %d bytes: %s %+v, %v; want error status, the cap's diagnostic", len(big), a.Status, a.Diagnostics, err)
	}
	if a.ModTime.IsZero() {
		t.Error("ReadAgent of a file too large: no modification time")
	}
	fifo := filepath.Join(dir, "fd-fifo.md")
	testfault.Mkfifo(t, fifo)
	testfault.Within(t, 5*time.Second, "ReadAgent(FIFO)", func() {
		_, err := ReadAgent(context.Background(), fifo, parse.ClassifyName("fd-fifo.md"), ScanOptions{})
		if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "a FIFO") {
			t.Errorf("err = %v, want one naming %s as a FIFO", err, fifo)
		}
	})
}
