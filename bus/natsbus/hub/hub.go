// Package hub runs an embedded NATS server with JetStream, the hub of
// `fluxwatch bus serve` and of the tests of natsbus: one binary for a team
// that has no NATS server of its own. It is a package of its own so that a
// program using only the client (natsbus) does not link the server.
// It must never read or write records itself: what is stored is natsbus's
// business, through the server's own client interface.
//
// The hub is closed by default (SPEC §10): it listens on loopback; an
// address other than loopback needs credentials (Auth: a token, a user and
// password, nkeys, or TLS client certificates, as nats-server names them)
// or Public. Every stream gets the hub's Limits, whatever its writer asked
// for: the server refuses a record over MaxLine and a record that would
// take the stream over MaxBytes or all streams over MaxStore (DiscardNew:
// a full stream refuses, it never drops acknowledged records), and the hub
// sets MaxAge (and the rest) on each stream as it is made or changed, from
// the server's advisories, through a connection of its own (auth.go,
// limits.go).
package hub

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Config says where the hub listens and stores, who may connect and how
// much it keeps.
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
	// Auth is who may connect; the zero Auth lets anyone who can reach
	// the hub connect, which Start allows on loopback only, unless Public.
	Auth Auth
	// Public lets a hub without credentials listen on an address other
	// than loopback (the caller warns).
	Public bool
	// Limits bound every stream; zero fields take the defaults.
	Limits Limits
}

// ErrOpen is wrapped by the error of Start for an address other than
// loopback without credentials or Public.
var ErrOpen = errors.New("an address other than loopback needs credentials (a token, a user and password, nkeys or client certificates) or --public")

// Hub is a running server.
type Hub struct {
	srv      *server.Server
	host     string // as reachable: never an unspecified address
	enforcer *enforcer
}

// Start starts a server with JetStream and returns once it accepts
// connections, or an error (an address in use, a store that cannot be
// written, not ready in time, credentials or limits that are wrong, an
// open address: ErrOpen).
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
	if host == "" {
		host = "0.0.0.0" // as the server reads it: every address
	}
	if !IsLoopback(host) && !cfg.Auth.Credentials() && !cfg.Public {
		return nil, fmt.Errorf("hub: %s: %w", listen, ErrOpen)
	}
	limits, err := cfg.Limits.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("hub: %w", err)
	}
	opts := &server.Options{
		ServerName:         "fluxwatch-hub",
		Host:               host,
		Port:               port,
		JetStream:          true,
		StoreDir:           cfg.Store,
		NoSigs:             true, // the command owns signals (SPEC §7)
		NoLog:              true,
		SyncAlways:         !cfg.NoSync,
		MaxPayload:         limits.msgSize(),
		JetStreamMaxStore:  limits.MaxStore,     // 0: the server's own
		JetStreamMaxMemory: 4 * limits.MaxBytes, // four memory streams (storage=memory) at once
	}
	inner, err := cfg.Auth.apply(opts)
	if err != nil {
		return nil, fmt.Errorf("hub: %w", err)
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
	h := &Hub{srv: srv, host: reachable(host)}
	if err := limits.applyAccount(srv); err != nil {
		h.Shutdown()
		return nil, fmt.Errorf("hub: limits: %w", err)
	}
	h.enforcer, err = startEnforcer(srv, append(inner, nats.Timeout(ready)), limits)
	if err != nil {
		h.Shutdown()
		return nil, fmt.Errorf("hub: limits: %w", err)
	}
	return h, nil
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

// Addr returns the HOST:PORT the hub listens on (the host may be an
// unspecified address: 0.0.0.0, ::).
func (h *Hub) Addr() string {
	return h.srv.Addr().String()
}

// URL returns nats://HOST:PORT of the hub as others can reach it: for a
// hub listening on every address, an address of one of this machine's
// interfaces (else its host name), never 0.0.0.0 or ::. It holds no
// credential.
func (h *Hub) URL() string {
	_, port, _ := net.SplitHostPort(h.Addr())
	return "nats://" + net.JoinHostPort(h.host, port)
}

// MaxStore returns the most all streams may hold together on disk: the
// Limits' MaxStore, or the server's own bound when that was 0.
func (h *Hub) MaxStore() int64 {
	if c := h.srv.JetStreamConfig(); c != nil {
		return c.MaxStore
	}
	return 0
}

// Shutdown stops the server and waits until it has.
func (h *Hub) Shutdown() {
	if h.enforcer != nil {
		h.enforcer.stop()
	}
	h.srv.Shutdown()
	h.srv.WaitForShutdown()
}

// IsLoopback reports whether host (a name or an address) is this machine
// by loopback only: "localhost" or a loopback address.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// reachable is host as another machine would dial it: host itself, unless
// it is an unspecified address (every address), then an address of an
// interface that is up and not loopback (IPv4 first), else the host name.
func reachable(host string) string {
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsUnspecified() {
		return host
	}
	var v6 string
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok || !n.IP.IsGlobalUnicast() {
				continue
			}
			if n.IP.To4() != nil {
				return n.IP.String()
			}
			if v6 == "" && ip.To4() == nil {
				v6 = n.IP.String()
			}
		}
	}
	if v6 != "" {
		return v6
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		return name
	}
	return "localhost"
}
