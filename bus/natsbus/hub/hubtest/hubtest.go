// Package hubtest starts an embedded NATS server for a test or benchmark,
// in one place: a free loopback port and a store of the test's own unless
// the caller names them, shut down when the test ends.
//
// Only _test.go files import it. It must never be imported by production
// code.
package hubtest

import (
	"testing"

	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
)

// Start starts a hub with c, where c.Listen "" is 127.0.0.1:0 (a free
// port) and c.Store "" a temporary directory of the test's, and shuts it
// down when the test ends. A hub that does not start fails the test.
func Start(t testing.TB, c hub.Config) *hub.Hub {
	t.Helper()
	if c.Listen == "" {
		c.Listen = "127.0.0.1:0"
	}
	if c.Store == "" {
		c.Store = t.TempDir()
	}
	h, err := hub.Start(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Shutdown)
	return h
}
