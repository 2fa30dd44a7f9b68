//go:build hub

package main

import (
	"context"
	"regexp"
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
