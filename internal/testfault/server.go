package testfault

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
)

// SilentServer listens on a free loopback TCP port and returns its address
// (host:port): a server that accepts every connection and never says a
// word, for code that must give up on one within its timeout. It is closed,
// with the connections it accepted, when the test ends.
func SilentServer(t testing.TB) string {
	t.Helper()
	return serve(t, func(net.Conn) {}) // held open, silent, until the listener closes
}

// MuteNATSServer listens on a free loopback TCP port and returns its address
// (host:port): a server that speaks just enough NATS for a client to
// connect (it sends INFO and answers PING with PONG) and never answers
// anything else, a JetStream request or a publish. It is closed, with its
// connections, when the test ends.
func MuteNATSServer(t testing.TB) string {
	t.Helper()
	return serve(t, func(c net.Conn) {
		fmt.Fprintf(c, "INFO {\"server_id\":\"mute\",\"version\":\"2.10.0\",\"proto\":1,\"headers\":true,\"max_payload\":1048576,\"jetstream\":true}\r\n")
		sc := bufio.NewScanner(c)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "PING") {
				io.WriteString(c, "PONG\r\n")
			}
		}
	})
}

// serve listens on a free loopback TCP port, hands each connection to talk
// in a goroutine of its own, and returns the address; the listener and
// every connection are closed when the test ends.
func serve(t testing.TB, talk func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("listen on loopback: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			go talk(c)
		}
	}()
	return ln.Addr().String()
}
