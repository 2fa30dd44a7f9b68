package main

import (
	"context"
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
			e, _, errb := natsEnv("")
			var err error
			testfault.Within(t, 3*time.Second, strings.Join(args, " "), func() {
				err = run(context.Background(), append(args, "--bus-timeout", "1s"), e)
			})
			if code := exitCode(err, errb); code != exitUsage || strings.Contains(errb.String(), "s3cret") {
				t.Errorf("%s %s: exit %d, %q; want 2 and no password", args[0], url, code, errb.String())
			}
		}
	}
}
