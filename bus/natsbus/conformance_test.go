package natsbus_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/bustest"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub/hubtest"
)

// TestConformance runs the backend suite on a JetStream stream: one hub,
// a stream per subtest; a server with a small max_payload refuses a large
// record, and a hub shut down after the stream was made is away.
func TestConformance(t *testing.T) {
	h := hubtest.Start(t, hub.Config{})
	var n atomic.Int64
	bustest.Run(t, bustest.Harness{
		New: func(t *testing.T) func(*testing.T) bus.Backend {
			raw := fmt.Sprintf("%s/conformance-%d", h.URL(), n.Add(1))
			return func(t *testing.T) bus.Backend { return open(t, raw, 0) }
		},
		Refuse: func(t *testing.T) (bus.Backend, bus.Entry) {
			srv := startServer(t, &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true,
				StoreDir: t.TempDir(), NoSigs: true, NoLog: true, MaxPayload: 64 << 10})
			big := bustest.Entry("fd-r", bus.Notable, 0)
			big.Summary = strings.Repeat("x", 100<<10)
			return open(t, "nats://"+srv.Addr().String()+"/refused", 0), big
		},
		Away: func(t *testing.T) bus.Backend {
			away := hubtest.Start(t, hub.Config{})
			// The stream is made with a timeout generous for a loaded
			// machine; the handle under test has 600 ms.
			if _, err := open(t, away.URL()+"/away", 0).Append(context.Background(), bustest.Entry("fd-u", bus.Blocking, 0)); err != nil {
				t.Fatal(err)
			}
			b := open(t, away.URL()+"/away", 600*time.Millisecond)
			away.Shutdown()
			return b
		},
	})
}
