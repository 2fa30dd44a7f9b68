package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestBusURLMalformed: a nats:// URL whose address is not one (a port out
// of range, no host, an unclosed IPv6 bracket) is a usage error (exit 2) at
// once, for every command taking --bus, never a lookup of a host named
// "nats" or an internal error (exit 3, as before); the message never holds
// the password.
func TestBusURLMalformed(t *testing.T) {
	for _, url := range []string{"nats://127.0.0.1:99999/x", "nats:///x", "nats://u:s3cret@:4222/x", "nats://[::1/x", "nats://127.0.0.1:0/x", "nats://127.0.0.1:/x"} {
		for _, args := range [][]string{
			{"finding", "write", "--agent", "fd-a", "--severity", "notable", "--category", "c", "--summary", "s", "--bus", url},
			{"finding", "read", "--bus", url},
			{"bus", "relay", "--once", "peer-findings.jsonl", url},
		} {
			code, stderr := runBusWithin(t, 3*time.Second, append(args, "--bus-timeout", "1s"))
			if code != exitUsage || strings.Contains(stderr, "s3cret") {
				t.Errorf("%s %s: exit %d, %q; want 2 and no password", args[0], url, code, stderr)
			}
		}
	}
}

// TestBusConnectInterrupted: a signal while a command connects to a server
// that never answers ends it at once, and the error it returns is the
// cancellation (not printed), for synth and watch as for finding.
func TestBusConnectInterrupted(t *testing.T) {
	url := "nats://" + testfault.SilentServer(t) + "/x"
	dir := t.TempDir()
	for _, args := range [][]string{
		{"finding", "write", "--agent", "fd-a", "--severity", "notable", "--category", "c", "--summary", "s", "--bus", url},
		{"bus", "relay", "peer-findings.jsonl", url},
		{"watch", "-q", "--bus", url, dir},
		{"synth", "-q", "--bus", url, dir},
	} {
		e, _, _ := natsEnv("")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		var err error
		testfault.Within(t, 6*time.Second, args[0], func() {
			err = run(ctx, append(args, "--bus-timeout", "5s"), e)
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s interrupted while connecting: %v, want context.Canceled", args[0], err)
		}
		cancel()
	}
}

// TestBusUnreachable: a server that cannot be reached is an input error
// (exit 2) naming the URL, for finding write and read, bus relay and mcp as
// for synth and watch; finding write and read said it with exit 3 before
// (an internal error), synth with 2. So is a server that accepts the
// connection and never says a word, and one that connects as NATS and then
// never answers a request (finding write and read, bus relay: exit 3
// before), within the bus timeout.
func TestBusUnreachable(t *testing.T) {
	for _, server := range []struct{ name, addr string }{
		{"silent", testfault.SilentServer(t)}, {"mute after connecting", testfault.MuteNATSServer(t)},
	} {
		url := "nats://" + server.addr + "/x"
		dir := t.TempDir()
		for _, args := range [][]string{
			{"finding", "write", "--agent", "fd-a", "--severity", "notable", "--category", "c", "--summary", "s", "--bus", url},
			{"finding", "read", "--bus", url},
			{"finding", "read", "--follow", "--bus", url},
			{"bus", "relay", "--once", filepath.Join(dir, "peer-findings.jsonl"), url},
			{"synth", "-q", "--bus", url, dir},
		} {
			code, stderr := runBusWithin(t, 5*time.Second, append(args, "--bus-timeout", "300ms"))
			if code != exitUsage || !strings.Contains(stderr, "/x") {
				t.Errorf("%s %s with the server %s: exit %d, %q; want 2 naming the URL", args[0], args[1], server.name, code, stderr)
			}
		}
	}
}

// runBusWithin runs fluxwatch with args, which must end within d, and
// returns its exit status and standard error.
func runBusWithin(t *testing.T, d time.Duration, args []string) (int, string) {
	t.Helper()
	e, _, errb := natsEnv("")
	var err error
	testfault.Within(t, d, strings.Join(args, " "), func() { err = run(context.Background(), args, e) })
	return exitCode(err, errb), errb.String()
}
