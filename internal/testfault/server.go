package testfault

import (
	"net"
	"testing"
)

// SilentServer listens on a free loopback TCP port and returns its address
// (host:port): a server that accepts every connection and never says a
// word, for code that must give up on one within its timeout. It is closed,
// with the connections it accepted, when the test ends.
func SilentServer(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("listen on loopback: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, silent, until the listener closes
		}
	}()
	return ln.Addr().String()
}
