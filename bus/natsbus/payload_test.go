package natsbus_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/fluxwatch/fluxwatch/bus"
)

// TestAppendRefused: a record the server refuses for good (over its
// max_payload, 1 MiB on a stock nats-server, while --max-line allows 1 MiB
// of line) is an error at once, saying why, not retried until the timeout
// and then worded "no reply from the server" (before: 3 s, that wording).
func TestAppendRefused(t *testing.T) {
	srv := startServer(t, &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true,
		StoreDir: t.TempDir(), NoSigs: true, NoLog: true, MaxPayload: 64 << 10})
	b := open(t, "nats://"+srv.Addr().String()+"/refused", 3*time.Second)
	if _, err := b.Append(context.Background(), entry("fd-a", bus.Notable, 0)); err != nil {
		t.Fatal(err)
	}
	big := entry("fd-a", bus.Notable, 1)
	big.Summary = strings.Repeat("x", 100<<10)
	start := time.Now()
	_, err := b.Append(context.Background(), big)
	took := time.Since(start)
	if err == nil || strings.Contains(err.Error(), "no reply") || !strings.Contains(err.Error(), "maximum payload") {
		t.Errorf("a record over the server's max_payload: %v; want an error naming the limit", err)
	}
	if took > time.Second {
		t.Errorf("error after %v, want at once", took)
	}
}

// TestAppendDenied: a user the server does not allow to publish to the
// run's subjects gets that error at once, naming the subject; before, the
// server's refusal (sent apart from any reply) was dropped, and Append
// waited the whole timeout and then blamed "no reply from the server".
func TestAppendDenied(t *testing.T) {
	srv := startServer(t, &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true,
		StoreDir: t.TempDir(), NoSigs: true, NoLog: true, Users: []*server.User{
			{Username: "admin", Password: "a"},
			{Username: "reader", Password: "r", Permissions: &server.Permissions{
				Publish:   &server.SubjectPermission{Allow: []string{"$JS.API.>"}},
				Subscribe: &server.SubjectPermission{Allow: []string{">"}},
			}},
		}})
	if _, err := open(t, "nats://admin:a@"+srv.Addr().String()+"/denied", 0).Append(context.Background(), entry("fd-a", bus.Notable, 0)); err != nil {
		t.Fatal(err)
	}
	b := open(t, "nats://reader:r@"+srv.Addr().String()+"/denied", 3*time.Second)
	start := time.Now()
	_, err := b.Append(context.Background(), entry("fd-a", bus.Notable, 1))
	took := time.Since(start)
	if err == nil || strings.Contains(err.Error(), "no reply") || !strings.Contains(err.Error(), "permissions violation") ||
		!strings.Contains(err.Error(), "fluxwatch.denied.findings.notable") {
		t.Errorf("publish denied: %v; want the permissions violation, naming the subject", err)
	}
	if took > time.Second {
		t.Errorf("error after %v, want at once", took)
	}
}

// TestNoJetStream: a server without JetStream (a plain nats-server) is
// said to be one, at once, by Append, Read and Follow; before, Read and
// Follow's consumer worded any failed request as "no reply from the
// server within 2s", at once, for the context they had just cancelled.
func TestNoJetStream(t *testing.T) {
	srv := startServer(t, &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true})
	b := open(t, "nats://"+srv.Addr().String()+"/plain", 2*time.Second)
	ctx := context.Background()
	_, errAppend := b.Append(ctx, entry("fd-a", bus.Notable, 0))
	_, errRead := b.Read(ctx, 0, bus.Filter{}, func(bus.Entry) error { return nil }, nil)
	errFollow := b.Follow(ctx, 0, bus.Filter{}, func(bus.Entry) error { return nil }, nil)
	for name, err := range map[string]error{"append": errAppend, "read": errRead, "follow": errFollow} {
		if err == nil || strings.Contains(err.Error(), "no reply") || !strings.Contains(err.Error(), "JetStream") {
			t.Errorf("%s: %v; want an error saying the server has no JetStream", name, err)
		}
	}
}

// startServer starts a nats-server with opts (and a random port on
// 127.0.0.1), shut down when the test ends.
func startServer(t *testing.T, opts *server.Options) *server.Server {
	t.Helper()
	srv, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv
}
