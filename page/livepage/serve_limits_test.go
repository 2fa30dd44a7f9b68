package livepage_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/page/livepage"
)

// TestServeIdleClients: ten times MaxConns idle clients (half of them
// keep-alive connections after a request, half connections that never send
// one) leave the server holding at most MaxConns of them, and a new reader
// of the page is served at once; a keep-alive connection idle for
// IdleTimeout is closed. Before, the server kept every idle connection for
// ever: 10,000 of them took 10,000 descriptors (watch's fluxwatch ran out,
// and its watcher with it).
func TestServeIdleClients(t *testing.T) {
	const max, clients = 20, 200
	ln, err := livepage.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	srv := livepage.NewServer(false)
	srv.MaxConns, srv.IdleTimeout = max, time.Hour
	srv.Publish([]byte("<!DOCTYPE html><p>one</p>\n"), []byte(`{"verdict":"safe"}`))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	addr := ln.Addr().String()

	conns := make([]net.Conn, 0, clients)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range clients {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		conns = append(conns, c)
		if i%2 == 0 {
			continue // connected, and never a request
		}
		fmt.Fprintf(c, "GET /findings.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			continue // closed already, by a newer client: fine
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close() // and the connection kept alive, idle
	}
	// A new reader of the page, beside them all.
	if code := rawGet(t, addr, "GET", "/", "127.0.0.1"); code != http.StatusOK {
		t.Errorf("a new reader beside %d idle clients: %d, want 200", clients, code)
	}
	open := openConns(conns)
	t.Logf("%d of %d idle clients still connected (MaxConns %d)", open, clients, max)
	if open > max {
		t.Errorf("%d idle clients still connected, over MaxConns %d", open, max)
	}
}

// openConns returns how many of conns the server has not closed: a read
// that times out is open, end of file (or a reset) is closed.
func openConns(conns []net.Conn) int {
	open := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
			open++
		}
	}
	return open
}

// TestServeIdleTimeout: a keep-alive connection idle for IdleTimeout is
// closed by the server.
func TestServeIdleTimeout(t *testing.T) {
	ln, err := livepage.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	srv := livepage.NewServer(false)
	srv.IdleTimeout = 200 * time.Millisecond
	srv.Publish([]byte("<p>one</p>"), []byte(`{}`))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Serve(ctx, ln)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	start := time.Now()
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("idle keep-alive connection: %v, want closed (EOF)", err)
	}
	t.Logf("closed %v after its response", time.Since(start))
}
