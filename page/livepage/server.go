package livepage

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fluxwatch/fluxwatch/page"
)

// Server serves the live page: GET / (the page), GET /events (its event
// stream) and GET /findings.json. Nothing else answers: no directory
// listing, no file of the run directory, no write endpoint. Publish gives it
// each new rendering; every open event stream gets it at once.
//
// The zero Server is not usable; make one with [NewServer].
//
// Whoever can reach it is bounded (SPEC §10): a request's header must come
// within 5 s, a keep-alive connection idle for IdleTimeout is closed, a
// write that a client does not take within 30 s ends its request (an event
// stream included), and at most MaxConns connections are open at once. At
// the limit, a new connection closes the one idle longest (between
// requests, or not yet sending one); when none is idle, the new one is
// answered 503 and closed. So idle clients, however many, hold no more
// than MaxConns descriptors, and cannot keep a new reader of the page out.
type Server struct {
	// MaxConns bounds the connections open at once (0: DefaultMaxConns).
	// Set it before Serve.
	MaxConns int
	// IdleTimeout closes a keep-alive connection idle this long (0:
	// DefaultIdleTimeout). Set it before Serve.
	IdleTimeout time.Duration

	// loopbackOnly refuses requests whose Host is not a loopback name or
	// address: a page on another site cannot reach the server through a
	// name that resolves to 127.0.0.1 (DNS rebinding).
	loopbackOnly bool

	mu       sync.Mutex
	version  uint64
	page     []byte
	findings []byte
	// event is page as the event stream sends it, made once at Publish and
	// shared by every stream: a client that does not read holds no copy
	// of its own.
	event []byte
	// changed is closed, and replaced, at each Publish.
	changed chan struct{}
	// stop is closed when Serve ends: open event streams end.
	stop     chan struct{}
	stopOnce sync.Once
}

// NewServer returns a server with nothing published yet (a request waits up
// to 5 s for the first Publish, then gets 503). public is whether it was bound to an address
// other than loopback on purpose; otherwise it answers only requests for a
// loopback host.
func NewServer(public bool) *Server {
	return &Server{loopbackOnly: !public, changed: make(chan struct{}), stop: make(chan struct{})}
}

// Publish makes html (a rendering with page.Options.Live) and findingsJSON the
// current ones and sends the page to every open event stream. The server
// keeps both slices: the caller must not change them afterwards.
func (s *Server) Publish(html, findingsJSON []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.Equal(html, s.page) && bytes.Equal(findingsJSON, s.findings) {
		return
	}
	s.version++
	s.page, s.findings = html, findingsJSON
	s.event = sseEvent("page", s.version, html)
	close(s.changed)
	s.changed = make(chan struct{})
}

// current returns the current rendering, its version and a channel closed at
// the next Publish.
func (s *Server) current() (html, findings []byte, version uint64, changed <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.page, s.findings, s.version, s.changed
}

// currentEvent returns the current page as an event (nil before the first
// Publish), its version and a channel closed at the next Publish.
func (s *Server) currentEvent() (event []byte, version uint64, changed <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.event, s.version, s.changed
}

// firstWait is how long a request made before the first Publish waits for it.
const firstWait = 5 * time.Second

// Bounds of the clients of a Server.
const (
	DefaultMaxConns    = 256
	DefaultIdleTimeout = 30 * time.Second
	// writeTimeout bounds each write to a client: one that does not read
	// (an event stream never drained) gives its connection back.
	writeTimeout = 30 * time.Second
	// headerTimeout bounds the wait for a request's header.
	headerTimeout = 5 * time.Second
)

// Paths the server answers.
const (
	pathPage     = "/"
	pathEvents   = "/events"
	pathFindings = "/findings.json"
)

// ServeHTTP answers the three paths, as they are written: a path that only
// cleans to one of them ("/x/../findings.json", "//events") is not found.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src "+page.ScriptHash()+"; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	if s.loopbackOnly && !loopbackHost(r.Host) {
		http.Error(w, "forbidden: this server answers only for a loopback host", http.StatusForbidden)
		return
	}
	path := r.URL.EscapedPath()
	if r.URL.RawQuery != "" || r.URL.Opaque != "" {
		path = "" // not found
	}
	switch path {
	case pathPage, pathEvents, pathFindings:
	default:
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if path == pathEvents {
		s.events(w, r)
		return
	}
	html, findings, _, changed := s.current()
	if html == nil {
		// Right after start: the first synthesis is on its way.
		select {
		case <-changed:
			html, findings, _, _ = s.current()
		case <-time.After(firstWait):
		case <-r.Context().Done():
		case <-s.stop:
		}
	}
	if html == nil {
		h.Set("Retry-After", "1")
		http.Error(w, "no synthesis yet", http.StatusServiceUnavailable)
		return
	}
	body, ctype := html, "text/html; charset=utf-8"
	if path == pathFindings {
		body, ctype = findings, "application/json"
	}
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodGet {
		w.Write(body)
	}
}

// events streams the page as Server-Sent Events: an event "page" with the
// whole document whenever it changes, with its version as the event id. A
// client that reconnects with Last-Event-ID at the current version waits
// for the next change; any other client gets the current page at once.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	// Reconnect after a second when the stream breaks.
	if _, err := w.Write([]byte("retry: 1000\n\n")); err != nil {
		return
	}
	rc.Flush()
	sent := uint64(0)
	if id, err := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64); err == nil {
		sent = id
	}
	keepalive := time.NewTicker(15 * time.Second)
	defer keepalive.Stop()
	for {
		event, version, changed := s.currentEvent()
		if event != nil && version != sent {
			rc.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, err := w.Write(event); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
			sent = version
		}
		select {
		case <-changed:
		case <-keepalive.C:
			rc.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, err := w.Write([]byte(": keepalive\n\n")); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.stop:
			return
		}
	}
}

// sseEvent formats one event: every line of data (any line break) becomes a
// data: field, so that a CR in agent text cannot end a field early.
func sseEvent(name string, id uint64, data []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(data) + len(data)/40 + 64)
	fmt.Fprintf(&b, "event: %s\nid: %d\n", name, id)
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n")
		line := data
		if i >= 0 {
			line = data[:i]
		}
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
		if i < 0 {
			break
		}
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// loopbackHost reports whether a Host header names this machine by a
// loopback address or "localhost".
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ErrNotLoopback is returned by [Listen] for an address other than loopback
// when public is not set.
var ErrNotLoopback = errors.New("not a loopback address")

// Listen binds addr for [Server.Serve]. A host-less address (":8080", ":0")
// binds the loopback address. An address other than loopback is refused
// unless public is set: the page shows what the agents found to whoever
// can reach it.
func Listen(addr string, public bool) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%q: want HOST:PORT: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !public && !loopbackHost(host) {
		return nil, fmt.Errorf("%s: %w", addr, ErrNotLoopback)
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}

// URL is the address of the page served on ln.
func URL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + "/"
}

// Serve serves s on ln until ctx is done, then ends every open event stream
// and closes the listener and the connections: it returns within a second
// of ctx ending (SPEC §9). The error is the listener's, if it failed.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	lim := &connLimit{Listener: ln, max: cmp.Or(s.MaxConns, DefaultMaxConns), conns: map[*limitedConn]struct{}{}}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: headerTimeout,
		// The events handler moves the deadline on before each write.
		WriteTimeout:   writeTimeout,
		IdleTimeout:    cmp.Or(s.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes: 64 << 10,
		ConnState:      lim.state,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lim) }()
	select {
	case err := <-done:
		s.stopOnce.Do(func() { close(s.stop) })
		return err
	case <-ctx.Done():
	}
	s.stopOnce.Do(func() { close(s.stop) })
	shut, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close()
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// IsLoopback reports whether ln is bound to a loopback address.
func IsLoopback(ln net.Listener) bool {
	a, ok := ln.Addr().(*net.TCPAddr)
	return ok && a.IP.IsLoopback()
}

// connLimit is a listener that keeps at most max of its connections open
// (see Server): at the limit, Accept closes the connection idle longest,
// or, when none is idle, answers the new one 503 and closes it.
type connLimit struct {
	net.Listener
	max int

	mu    sync.Mutex
	conns map[*limitedConn]struct{}
}

// limitedConn is a connection of a connLimit.
type limitedConn struct {
	net.Conn
	lim   *connLimit
	idle  bool      // no request under way: new, or between requests
	since time.Time // when it last changed state
	once  sync.Once
}

// Close closes the connection and gives its place back.
func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.lim.mu.Lock()
		delete(c.lim.conns, c)
		c.lim.mu.Unlock()
	})
	return c.Conn.Close()
}

// busy is the answer to a connection over the limit when none is idle.
const busy = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitedConn{Conn: c, lim: l, idle: true, since: time.Now()}
		l.mu.Lock()
		var evict *limitedConn
		if len(l.conns) >= l.max {
			for o := range l.conns {
				if o.idle && (evict == nil || o.since.Before(evict.since)) {
					evict = o
				}
			}
			if evict == nil {
				l.mu.Unlock()
				c.SetWriteDeadline(time.Now().Add(time.Second))
				c.Write([]byte(busy))
				c.Close()
				continue
			}
			delete(l.conns, evict)
		}
		l.conns[lc] = struct{}{}
		l.mu.Unlock()
		if evict != nil {
			evict.Close()
		}
		return lc, nil
	}
}

// state is the server's ConnState hook: it notes which connections are
// idle.
func (l *connLimit) state(c net.Conn, st http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	lc.idle, lc.since = st == http.StateNew || st == http.StateIdle, time.Now()
	l.mu.Unlock()
}
