package livepage_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/page/livepage"
)

// startServer serves a server with one publication on a loopback port until
// the test ends.
func startServer(t *testing.T) (*livepage.Server, string, context.CancelFunc, <-chan error) {
	t.Helper()
	ln, err := livepage.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	srv := livepage.NewServer(false)
	srv.Publish([]byte("<!DOCTYPE html><p>one</p>\n"), []byte(`{"verdict":"safe"}`))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	stopped := make(chan struct{})
	go func() {
		done <- srv.Serve(ctx, ln)
		close(stopped)
	}()
	t.Cleanup(func() {
		cancel()
		<-stopped
	})
	return srv, ln.Addr().String(), cancel, done
}

// rawGet sends request line target as written (no client-side cleaning) and
// returns the status code.
func rawGet(t *testing.T, addr, method, target, host string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", method, target, host)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeOnlyThreePaths: the page, its event stream and findings.json
// answer; every other path, however it is spelled, is not found, and
// nothing can be written.
func TestServeOnlyThreePaths(t *testing.T) {
	_, addr, _, _ := startServer(t)
	host := addr
	for _, c := range []struct {
		method, target string
		want           int
	}{
		{"GET", "/", 200},
		{"HEAD", "/", 200},
		{"GET", "/findings.json", 200},
		{"HEAD", "/events", 200},
		{"GET", "/index.html", 404},
		{"GET", "/summary.md", 404},
		{"GET", "/findings.json/", 404},
		{"GET", "/events/", 404},
		{"GET", "//findings.json", 404},
		{"GET", "/./findings.json", 404},
		{"GET", "/../findings.json", 404},
		{"GET", "/x/../findings.json", 404},
		{"GET", "/%2e%2e/findings.json", 404},
		{"GET", "/..%2ffindings.json", 404},
		{"GET", "/../../../../etc/passwd", 404},
		{"GET", "/fd-safety.md", 404},
		{"GET", "/peer-findings.jsonl", 404},
		{"GET", "/findings/", 404},
		{"GET", "/?C=N;O=D", 404},
		{"GET", "http://" + addr + "/findings.json", 200},
		{"POST", "/", 405},
		{"PUT", "/findings.json", 405},
		{"DELETE", "/findings.json", 405},
		{"POST", "/events", 405},
		{"PUT", "/new.md", 404},
	} {
		if got := rawGet(t, addr, c.method, c.target, host); got != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.target, got, c.want)
		}
	}
}

// TestServeLoopbackHost: a loopback server answers only for a loopback host
// (a rebinding name pointing at 127.0.0.1 gets nothing).
func TestServeLoopbackHost(t *testing.T) {
	_, addr, _, _ := startServer(t)
	_, port, _ := net.SplitHostPort(addr)
	for host, want := range map[string]int{
		addr:                       200,
		"localhost:" + port:        200,
		"[::1]:" + port:            200,
		"attacker.example":         403,
		"attacker.example:" + port: 403,
		"10.0.0.1:" + port:         403,
	} {
		if got := rawGet(t, addr, "GET", "/findings.json", host); got != want {
			t.Errorf("Host %s: %d, want %d", host, got, want)
		}
	}
}

func TestListenRefusesPublicAddress(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.0.2.1:0"} {
		if ln, err := livepage.Listen(addr, false); !errors.Is(err, livepage.ErrNotLoopback) {
			if ln != nil {
				ln.Close()
			}
			t.Errorf("Listen(%q): %v, want ErrNotLoopback", addr, err)
		}
	}
	ln, err := livepage.Listen(":0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if !livepage.IsLoopback(ln) {
		t.Errorf(":0 bound %v, want loopback", ln.Addr())
	}
}

// event is one Server-Sent Event.
type event struct {
	name, id, data string
}

// sse reads events from a stream.
type sse struct {
	r    *bufio.Reader
	body io.Closer
}

func openEvents(t *testing.T, addr, lastID string) *sse {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+addr+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &sse{r: bufio.NewReader(resp.Body), body: resp.Body}
}

// next returns the next event, or an error when none comes within d.
func (s *sse) next(d time.Duration) (event, error) {
	type result struct {
		ev  event
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var ev event
		var data []string
		for {
			line, err := s.r.ReadString('\n')
			if err != nil {
				ch <- result{err: err}
				return
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case line == "":
				if ev.name != "" {
					ev.data = strings.Join(data, "\n")
					ch <- result{ev: ev}
					return
				}
			case strings.HasPrefix(line, "event: "):
				ev.name = line[len("event: "):]
			case strings.HasPrefix(line, "id: "):
				ev.id = line[len("id: "):]
			case strings.HasPrefix(line, "data: "):
				data = append(data, line[len("data: "):])
			}
		}
	}()
	select {
	case r := <-ch:
		return r.ev, r.err
	case <-time.After(d):
		s.body.Close() // ends the reader above
		return event{}, errors.New("no event")
	}
}

// TestServeEvents: a new client gets the page at once; each Publish reaches
// it; a client reconnecting with the id it saw last waits for the next
// change, one with an older id gets the current page at once.
func TestServeEvents(t *testing.T) {
	srv, addr, _, _ := startServer(t)
	a := openEvents(t, addr, "")
	ev, err := a.next(5 * time.Second)
	if err != nil || ev.name != "page" || ev.id != "1" || !strings.Contains(ev.data, "one") {
		t.Fatalf("first event: %+v, %v", ev, err)
	}
	// A CR in the page cannot end a data field early: lines come back
	// joined by LF.
	srv.Publish([]byte("<p>two\r\nlines\rand\nmore</p>"), []byte(`{}`))
	ev, err = a.next(5 * time.Second)
	if err != nil || ev.id != "2" || ev.data != "<p>two\nlines\nand\nmore</p>" {
		t.Fatalf("after Publish: %+v, %v", ev, err)
	}
	// Publishing the same bytes again sends nothing.
	srv.Publish([]byte("<p>two\r\nlines\rand\nmore</p>"), []byte(`{}`))

	// Reconnect as EventSource does after a drop.
	b := openEvents(t, addr, "2")
	if ev, err := b.next(300 * time.Millisecond); err == nil {
		t.Fatalf("reconnect at the current id got %+v, want nothing until a change", ev)
	}
	b = openEvents(t, addr, "2")
	srv.Publish([]byte("<p>three</p>"), []byte(`{}`))
	if ev, err := b.next(5 * time.Second); err != nil || ev.id != "3" || ev.data != "<p>three</p>" {
		t.Fatalf("reconnected client after Publish: %+v, %v", ev, err)
	}
	c := openEvents(t, addr, "1")
	if ev, err := c.next(5 * time.Second); err != nil || ev.id != "3" {
		t.Fatalf("reconnect with an old id: %+v, %v", ev, err)
	}
	if ev, err := a.next(5 * time.Second); err != nil || ev.id != "3" {
		t.Fatalf("first client after the third Publish: %+v, %v", ev, err)
	}
}

// stopWithin cancels a server's context and wants Serve (done gets its
// error) to end within d without an error; it returns how long it took.
func stopWithin(t *testing.T, d time.Duration, cancel func(), done <-chan error) time.Duration {
	t.Helper()
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(d):
		t.Fatalf("Serve still running %v after its context ended", d)
	}
	return time.Since(start)
}

// TestServeShutdown: cancelling the context (what SIGTERM does in the
// command) ends Serve within a second, open event streams included.
func TestServeShutdown(t *testing.T) {
	_, addr, cancel, done := startServer(t)
	streams := []*sse{openEvents(t, addr, ""), openEvents(t, addr, "")}
	for _, s := range streams {
		if _, err := s.next(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
	took := stopWithin(t, time.Second, cancel, done)
	for _, s := range streams {
		if _, err := s.next(time.Second); err == nil {
			t.Fatal("an event stream got an event after shutdown")
		}
	}
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Error("the listener still accepts after shutdown")
	}
	t.Logf("Serve returned %v after cancel", took)
}

// TestServeBeforeFirstPublish: a browser opened on the printed URL before
// the first synthesis waits for it rather than getting an error page.
func TestServeBeforeFirstPublish(t *testing.T) {
	ln, err := livepage.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	srv := livepage.NewServer(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Serve(ctx, ln)
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- resp.Status + " " + string(b)
	}()
	select {
	case g := <-got:
		t.Fatalf("answered before the first Publish: %s", g)
	case <-time.After(200 * time.Millisecond):
	}
	srv.Publish([]byte("<p>first</p>"), []byte(`{}`))
	select {
	case g := <-got:
		if g != "200 OK <p>first</p>" {
			t.Fatalf("got %q", g)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer after the first Publish")
	}
}
