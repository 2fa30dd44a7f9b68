//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// The process tests of synth and watch over a stream: they run fluxwatch as
// a process and signal it, as signals_test.go does.

// TestWatchStream: watch --bus nats://… as a process follows the stream
// while records are published (by finding write processes at once, and by
// this test); the final reports it writes at SIGINT are byte for byte those
// of synth --bus over the same records. The run directory's own bus file
// is not read by either.
func TestWatchStream(t *testing.T) {
	bin := fluxwatchBin(t)
	url := startHub(t).URL() + "/watch"
	dir := filepath.Join(t.TempDir(), "run")
	smallRun(t, dir) // its peer-findings.jsonl is not read
	env := []string{"SOURCE_DATE_EPOCH=1795000000", "FLUXWATCH_BUS="}
	w := startProc(t, bin, dir, env, "watch", "--bus", url, dir)
	w.fileExists(t, filepath.Join(dir, "findings.json"))

	var writers []*proc
	for i, f := range natsFindings {
		writers = append(writers, startProc(t, bin, dir, env, "finding", "write", "--bus", url, "--agent", f.agent,
			"--severity", f.sev, "--category", "c", "--summary", f.summary, "--timestamp", fmt.Sprintf("2026-11-25T04:00:0%dZ", i)))
	}
	for _, p := range writers {
		<-p.done
		if !p.cmd.ProcessState.Success() {
			t.Fatalf("finding write: %v %s", p.cmd.ProcessState, p.stderr.String())
		}
	}
	stream := openStream(t, url)
	for i := range 20 {
		if _, err := stream.Append(context.Background(), bus.Entry{Kind: bus.EntryFinding, Severity: "notable", Agent: "fd-net",
			Category: "c", Summary: fmt.Sprintf("record %d", i), FileRefs: []string{}, Timestamp: "2026-11-25T04:01:00Z"}); err != nil {
			t.Fatal(err)
		}
	}
	w.waitFor(t, "findings.json with the 23 records", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "findings.json"))
		return strings.Contains(string(b), `"total_entries": 23,`)
	})
	w.cmd.Process.Signal(os.Interrupt)
	testfault.Within(t, signalBound, "watch after SIGINT", func() { <-w.done })
	if code := w.cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("watch exited %d after SIGINT, want 130; stderr:\n%s", code, w.stderr.String())
	}
	if !strings.Contains(w.stderr.String(), "peer-findings.jsonl: not read") {
		t.Errorf("watch did not warn that the directory's bus is not read: %q", w.stderr.String())
	}
	out := filepath.Join(t.TempDir(), "out")
	s := startProc(t, bin, dir, env, "synth", "-q", "--out", out, "--bus", url, dir)
	<-s.done
	if code := s.cmd.ProcessState.ExitCode(); code > 1 {
		t.Fatalf("synth exited %d: %s", code, s.stderr.String())
	}
	sameReports(t, "watch --bus nats://…", out, dir)
}

// TestStreamServerGone: a server that is not there, or that never answers,
// is one line naming the URL and exit 2 within --bus-timeout, for synth
// and watch; a server stopped while watch follows it is a diagnostic, and
// watch still ends within the signal bound, with its final reports.
func TestStreamServerGone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	smallRun(t, dir)
	for _, url := range []string{"nats://127.0.0.1:1/gone", "nats://" + testfault.SilentServer(t) + "/stalled"} {
		for _, cmd := range []string{"synth", "watch"} {
			e, _, errb := natsEnv("")
			var err error
			testfault.Within(t, 5*time.Second, cmd+" "+url, func() {
				err = run(context.Background(), []string{cmd, "-q", "--bus-timeout", "1s", "--bus", url, dir}, e)
			})
			if code := exitCode(err, errb); code != exitUsage || !strings.Contains(err.Error(), url) {
				t.Errorf("%s --bus %s: exit %d, %v; want 2 and an error naming the URL", cmd, url, code, err)
			}
		}
	}
	e, _, errb := natsEnv("nats://fd-user:s3cret@127.0.0.1:1/creds")
	err := run(context.Background(), []string{"synth", "--bus-timeout", "1s", dir}, e)
	if err == nil || strings.Contains(err.Error()+errb.String(), "s3cret") || !strings.Contains(err.Error(), "nats://127.0.0.1:1/creds") {
		t.Errorf("synth with a password in FLUXWATCH_BUS: %v %s; want an error naming the URL without it", err, errb.String())
	}

	h := startHub(t)
	url := h.URL() + "/stopped"
	bin := fluxwatchBin(t)
	w := startProc(t, bin, dir, []string{"FLUXWATCH_BUS=" + url}, "watch", "--bus-timeout", "1s", dir)
	w.fileExists(t, filepath.Join(dir, "findings.json"))
	os.Remove(filepath.Join(dir, "findings.json"))
	h.Shutdown()
	w.stdoutHas(t, url)
	w.cmd.Process.Signal(syscall.SIGTERM)
	start := time.Now()
	testfault.Within(t, signalBound, "watch after SIGTERM, its server gone", func() { <-w.done })
	t.Logf("watch ended %v after SIGTERM, its server gone", time.Since(start))
	if code := w.cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("watch exited %d after SIGTERM, want 143; stderr:\n%s", code, w.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "findings.json")); err != nil {
		t.Errorf("no final findings.json: %v", err)
	}
}
