// Package hub runs an embedded NATS server with JetStream, the hub of
// `fluxwatch bus serve` and of the tests of natsbus: one binary for a team
// that has no NATS server of its own. It is a package of its own so that a
// program using only the client (natsbus) does not link the server.
// It must never read or write records itself: what is stored is natsbus's
// business, through the server's own client interface.
package hub

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Config says where the hub listens and stores.
type Config struct {
	// Listen is HOST:PORT; port 0 picks a free one. "" means
	// 127.0.0.1:4222.
	Listen string
	// Store is the JetStream directory; "" keeps streams in a temporary
	// directory of the server's choosing.
	Store string
	// NoSync lets the server fsync its store every two minutes (NATS's
	// default) instead of before each acknowledgement. Off by default: an
	// acknowledged record is durable, as on the file bus.
	NoSync bool
	// Ready bounds the wait for the server to accept connections; <= 0
	// means 10 s.
	Ready time.Duration
}

// Hub is a running server.
type Hub struct {
	srv *server.Server
}

// Start starts a server with JetStream and returns once it accepts
// connections, or an error (an address in use, a store that cannot be
// written, not ready in time).
func Start(cfg Config) (*Hub, error) {
	listen := cfg.Listen
	if listen == "" {
		listen = "127.0.0.1:4222"
	}
	host, portStr, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("hub: listen address %q: %w", listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("hub: listen address %q: bad port", listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	opts := &server.Options{
		ServerName: "fluxwatch-hub",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   cfg.Store,
		NoSigs:     true, // the command owns signals (SPEC §7)
		NoLog:      true,
		MaxPayload: 8 << 20,
		SyncAlways: !cfg.NoSync,
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("hub: %w", err)
	}
	// The server says why it cannot start (its address taken, its store
	// not writable) only to its logger, then never becomes ready: the
	// logger hands the reason over, so that Start fails at once, saying it.
	fatal := make(chan string, 1)
	srv.SetLogger(fatalLogger(fatal), false, false)
	go srv.Start()
	ready := cfg.Ready
	if ready <= 0 {
		ready = 10 * time.Second
	}
	for deadline := time.Now().Add(ready); !srv.ReadyForConnections(20 * time.Millisecond); {
		select {
		case why := <-fatal:
			srv.Shutdown()
			return nil, fmt.Errorf("hub: %s: %s", listen, why)
		default:
		}
		if time.Now().After(deadline) {
			srv.Shutdown()
			return nil, fmt.Errorf("hub: %s: the server did not accept connections within %v", listen, ready)
		}
	}
	return &Hub{srv: srv}, nil
}

// fatalLogger is the server's logger: it drops everything but the
// first fatal error, which it sends on its channel.
type fatalLogger chan<- string

func (l fatalLogger) Fatalf(format string, v ...any) {
	select {
	case l <- fmt.Sprintf(format, v...):
	default:
	}
}
func (fatalLogger) Noticef(string, ...any) {}
func (fatalLogger) Warnf(string, ...any)   {}
func (fatalLogger) Errorf(string, ...any)  {}
func (fatalLogger) Debugf(string, ...any)  {}
func (fatalLogger) Tracef(string, ...any)  {}

// Addr returns the HOST:PORT the hub listens on.
func (h *Hub) Addr() string {
	return h.srv.Addr().String()
}

// URL returns nats://HOST:PORT of the hub.
func (h *Hub) URL() string { return "nats://" + h.Addr() }

// Shutdown stops the server and waits until it has.
func (h *Hub) Shutdown() {
	h.srv.Shutdown()
	h.srv.WaitForShutdown()
}
