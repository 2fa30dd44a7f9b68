package livepage_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/page/livepage"
)

// TestServeSlowClients: clients that open the event stream and never read
// cost the server no copy of the page each (a big page times many clients
// was hundreds of MB), Publish does not wait for them, a new client is
// still served at once, and Serve ends within a second with them connected.
func TestServeSlowClients(t *testing.T) {
	const clients = 100
	big := bytes.Repeat([]byte("<p>a finding that an agent wrote, with its file references</p>\n"), 2<<20/64) // about 2 MiB
	ln, err := livepage.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	srv := livepage.NewServer(false)
	srv.Publish(append([]byte("<p>v1</p>"), big...), []byte(`{}`))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range clients {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") // and never a read
	}
	time.Sleep(200 * time.Millisecond) // every stream stuck in its first write
	for i := 2; i <= 3; i++ {
		start := time.Now()
		srv.Publish(append([]byte(fmt.Sprintf("<p>v%d</p>", i)), big...), []byte(`{}`))
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Publish took %v with %d clients not reading", d, clients)
		}
	}
	time.Sleep(200 * time.Millisecond)
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("heap grew %d MiB with %d clients not reading a %d KiB page", grew>>20, clients, len(big)>>10)
	if grew > 32<<20 {
		t.Errorf("heap grew %d MiB with %d clients not reading a %d KiB page: want the page shared, not copied per client", grew>>20, clients, len(big)>>10)
	}

	s := openEvents(t, ln.Addr().String(), "")
	if ev, err := s.next(5 * time.Second); err != nil || ev.id != "3" {
		t.Fatalf("a new client beside the stuck ones: %+v, %v", ev.id, err)
	}
	t.Logf("Serve returned %v after cancel, %d clients not reading", stopWithin(t, time.Second, cancel, done), clients)
}
