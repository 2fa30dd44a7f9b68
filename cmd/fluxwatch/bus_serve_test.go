//go:build hub

package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestBusServe: bus serve (built with -tags hub) serves a stream agents
// write to, and returns within 1 s of its context ending (SPEC §7).
func TestBusServe(t *testing.T) {
	e, out, errb := natsEnv("")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"bus", "serve", "--listen", "127.0.0.1:0", "--store", t.TempDir()}, e)
	}()
	addr := regexp.MustCompile(`serving (nats://[0-9.:]+)`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bus serve printed no address: %q %q", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	we, _, werr := natsEnv(url + "/served")
	if err := run(context.Background(), []string{"finding", "write", "--agent", "fd-a", "--severity", "notable",
		"--category", "c", "--summary", "through the embedded hub"}, we); err != nil {
		t.Fatalf("write: %v %s", err, werr.String())
	}
	start := time.Now()
	cancel()
	testfault.Within(t, 5*time.Second, "serve after its context ended", func() {
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	if took := time.Since(start); took > time.Second {
		t.Errorf("serve returned %v after its context ended, want within 1 s", took)
	}
}

// serve starts `fluxwatch bus serve ARGS` in process and returns the URL
// its start line names and what it printed once its start lines are out
// (the limits line is the last), and stops it when the test ends. A serve
// that ends first returns its exit status instead. It used to return at
// the first line: under load, before the credentials and limits lines
// that TestBusServeClosed and TestBusServeLimits check were written.
func serve(t *testing.T, args ...string) (url string, out, errb *syncBuffer, code int) {
	t.Helper()
	e, out, errb := natsEnv("")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	store := t.TempDir() // removed after the cleanup below stops the hub
	go func() {
		done <- run(ctx, append([]string{"bus", "serve", "--store", store}, args...), e)
	}()
	t.Cleanup(func() { cancel(); <-done })
	addr := regexp.MustCompile(`(?s)serving (nats://\S+) .*\nlimits: [^\n]*\n`)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			return m[1], out, errb, -1
		}
		select {
		case err := <-done:
			done <- err
			return "", out, errb, exitCode(err, errb)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("bus serve printed no address and limits: %q %q", out.String(), errb.String())
		}
	}
}

// TestBusServeClosed: bus serve is closed by default (SPEC §10). An
// address other than loopback without credentials is a usage error naming
// --public; with --public it serves, with a loud warning; with
// credentials it serves, and its start lines name a URL others can reach
// (never nats://[::]:PORT or 0.0.0.0) and no secret. Before, --listen
// 0.0.0.0:PORT served anyone, silently, and said nats://[::]:PORT.
func TestBusServeClosed(t *testing.T) {
	t.Run("no credentials", func(t *testing.T) {
		_, _, errb, code := serve(t, "--listen", "0.0.0.0:0")
		if code != exitUsage || !strings.Contains(errb.String(), "--public") {
			t.Errorf("exit %d, stderr %q; want 2 naming --public", code, errb.String())
		}
	})
	unspecified := regexp.MustCompile(`nats://(\[::\]|0\.0\.0\.0):`)
	t.Run("--public", func(t *testing.T) {
		url, out, errb, _ := serve(t, "--listen", "0.0.0.0:0", "--public")
		if !strings.Contains(errb.String(), "WARNING") || !strings.Contains(errb.String(), "no credentials") {
			t.Errorf("no loud warning: %q", errb.String())
		}
		if unspecified.MatchString(out.String()) {
			t.Errorf("start line names no reachable address: %q", out.String())
		}
		_ = url
	})
	t.Run("credentials", func(t *testing.T) {
		url, out, errb, _ := serve(t, "--listen", "0.0.0.0:0", "--user", "alice", "--pass", "s3cretPW")
		all := out.String() + errb.String()
		if strings.Contains(all, "s3cretPW") || unspecified.MatchString(all) {
			t.Errorf("start lines hold the password or an unspecified address: %q", all)
		}
		if !strings.Contains(out.String(), "credentials: user alice") || !strings.Contains(errb.String(), "in clear") {
			t.Errorf("start lines %q: want the credentials named, and a warning that they cross in clear", all)
		}
		port := url[strings.LastIndex(url, ":")+1:]
		we, _, werr := natsEnv("nats://127.0.0.1:" + port + "/closed")
		args := []string{"finding", "write", "--agent", "fd-a", "--severity", "notable", "--category", "c", "--summary", "s"}
		if code := exitCode(run(context.Background(), args, we), werr); code != exitUsage {
			t.Errorf("a writer without credentials: exit %d, want 2", code)
		}
		we, _, werr = natsEnv("nats://alice:s3cretPW@127.0.0.1:" + port + "/closed")
		if err := run(context.Background(), args, we); err != nil {
			t.Errorf("a writer with them: %v %s", err, werr.String())
		}
	})
	t.Run("bad credentials", func(t *testing.T) {
		for _, args := range [][]string{{"--user", "alice"}, {"--auth", "t", "--user", "a", "--pass", "p"}, {"--nkey", "not-a-key"},
			{"--tlsverify"}, {"--tlscert", "c.pem"}, {"--max-bytes", "0"}, {"--max-age", "-1h"}} {
			if _, _, errb, code := serve(t, append([]string{"--listen", "127.0.0.1:0"}, args...)...); code != exitUsage {
				t.Errorf("%v: exit %d (%q), want 2", args, code, errb.String())
			}
		}
	})
}

// TestBusServeLimits: the limit flags of bus serve hold for every writer,
// and the start line says them: a record over --max-line is refused (exit
// 2, naming the limit), a full stream refuses more (exit 2, "full").
func TestBusServeLimits(t *testing.T) {
	url, out, _, _ := serve(t, "--listen", "127.0.0.1:0", "--max-line", "4096", "--max-bytes", "65536", "--max-age", "2h")
	if !strings.Contains(out.String(), "limits: records up to 4 KiB; 64 KiB and 2h0m0s a run") {
		t.Errorf("start lines %q: want the limits", out.String())
	}
	write := func(summary string) (int, string) {
		e, _, errb := natsEnv(url + "/limited")
		err := run(context.Background(), []string{"finding", "write", "--agent", "fd-a", "--severity", "notable", "--category", "c", "--summary", summary}, e)
		return exitCode(err, errb), errb.String()
	}
	if code, errb := write(strings.Repeat("x", 5000)); code != exitUsage || !strings.Contains(errb, "refused") || !strings.Contains(errb, "max_payload") {
		t.Errorf("a record over --max-line: exit %d, %q; want 2, refused naming max_payload", code, errb)
	}
	for i := range 100 {
		code, errb := write(fmt.Sprintf("%d %s", i, strings.Repeat("y", 2000)))
		if code == 0 {
			continue
		}
		if code != exitUsage || !strings.Contains(errb, "full") || i < 10 {
			t.Errorf("record %d: exit %d, %q; want 2 once the 64 KiB stream is full", i, code, errb)
		}
		return
	}
	t.Errorf("100 records of 2 KB in a 64 KiB stream: none refused")
}
