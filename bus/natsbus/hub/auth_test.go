package hub_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub/hubtest"
)

// TestOpenAddressNeedsCredentials: a hub on an address other than
// loopback without credentials does not start (ErrOpen), unless Public;
// its URL then names an address others can reach, never 0.0.0.0. Before,
// `bus serve --listen 0.0.0.0:PORT` served anyone, and said
// nats://[::]:PORT.
func TestOpenAddressNeedsCredentials(t *testing.T) {
	for _, listen := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		if h, err := hub.Start(hub.Config{Listen: listen, Store: t.TempDir()}); !errors.Is(err, hub.ErrOpen) {
			if h != nil {
				h.Shutdown()
			}
			t.Errorf("--listen %s without credentials: %v, want ErrOpen", listen, err)
		}
	}
	h := hubtest.Start(t, hub.Config{Listen: "0.0.0.0:0", Public: true})
	u, _ := url.Parse(h.URL())
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() {
		t.Errorf("URL %s names no address others can dial", h.URL())
	}
	h = hubtest.Start(t, hub.Config{Listen: "0.0.0.0:0", Auth: hub.Auth{Token: "t0ken"}})
	if strings.Contains(h.URL(), "t0ken") || strings.Contains(h.URL(), "0.0.0.0") {
		t.Errorf("URL %s", h.URL())
	}
}

// stranger is what a client without the credentials tries, with the
// plain NATS client: connect, list the runs, forge a record, delete a run's
// stream, store 8 MiB records. Each must fail; it returns what did not.
func stranger(t *testing.T, u string, opts ...nats.Option) []string {
	t.Helper()
	nc, err := nats.Connect(u, append(opts, nats.Timeout(3*time.Second), nats.MaxReconnects(0))...)
	if err != nil {
		return nil // not even connected
	}
	defer nc.Close()
	var did []string
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	names := js.StreamNames(ctx)
	for range names.Name() {
	}
	if names.Err() == nil {
		did = append(did, "listed the runs")
	}
	if _, err := js.Publish(ctx, "fluxwatch.r.findings.blocking", []byte(`{"severity":"blocking","agent":"fd-forged","category":"c","summary":"forged","file_refs":[]}`+"\n")); err == nil {
		did = append(did, "forged a record")
	}
	if err := js.DeleteStream(ctx, "FLUXWATCH_r"); err == nil {
		did = append(did, "deleted a stream")
	}
	if _, err := js.Publish(ctx, "fluxwatch.r.findings.notable", make([]byte, 8<<20)); err == nil {
		did = append(did, "stored 8 MiB")
	}
	return did
}

// agentOK writes a record through natsbus with opt's credentials, and
// reads it back.
func agentOK(t *testing.T, raw string, opt bus.Options) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	opt.Timeout = 10 * time.Second
	b, err := natsbus.OpenBus(context.Background(), u, opt)
	if err != nil {
		t.Fatalf("the agent with credentials: %v", err)
	}
	defer b.Close()
	e := bus.Entry{Kind: bus.EntryFinding, Severity: bus.Blocking, Agent: "fd-a", Category: "c", Summary: "real", FileRefs: []string{}}
	if _, err := b.Append(context.Background(), e); err != nil {
		t.Fatalf("the agent with credentials: %v", err)
	}
	n := 0
	if _, err := b.Read(context.Background(), 0, bus.Filter{}, func(bus.Entry) error { n++; return nil }, nil); err != nil || n == 0 {
		t.Fatalf("the agent with credentials read %d records: %v", n, err)
	}
}

// env is a getenv of the pairs.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// TestCredentials: for each way of authenticating a hub (a token, a user
// and password, nkeys, TLS client certificates), a client without the
// credentials, or with wrong ones, cannot list the runs, forge a record,
// delete a stream or fill the store, and an agent with them writes and
// reads through natsbus, passing them the NATS way (the URL, the
// variables $NATS_TOKEN, $NATS_USER/$NATS_PASSWORD, $NATS_NKEY, $NATS_CA,
// $NATS_CERT/$NATS_KEY). Every hub listens on 0.0.0.0 (credentials make
// that allowed); the attacks come through loopback.
func TestCredentials(t *testing.T) {
	dir := t.TempDir()
	pki := hubtest.NewPKI(t, dir)
	user, _ := nkeys.CreateUser()
	pub, _ := user.PublicKey()
	seed, _ := user.Seed()
	seedFile := filepath.Join(dir, "user.nk")
	os.WriteFile(seedFile, seed, 0o600)
	other, _ := nkeys.CreateUser()
	otherSeed, _ := other.Seed()
	otherFile := filepath.Join(dir, "other.nk")
	os.WriteFile(otherFile, otherSeed, 0o600)

	for _, tc := range []struct {
		name     string
		auth     hub.Auth
		wrong    []nats.Option // a stranger's guess
		agentURL func(hostport string) string
		agentEnv func(string) string
	}{
		{name: "token", auth: hub.Auth{Token: "s3cret-token"}, wrong: []nats.Option{nats.Token("guess")},
			agentURL: func(hp string) string { return "nats://s3cret-token@" + hp + "/r" }},
		{name: "token from $NATS_TOKEN", auth: hub.Auth{Token: "s3cret-token"}, wrong: []nats.Option{nats.Token("guess")},
			agentEnv: env("NATS_TOKEN", "s3cret-token")},
		{name: "user and password", auth: hub.Auth{User: "alice", Password: "s3cretPW"}, wrong: []nats.Option{nats.UserInfo("alice", "guess")},
			agentURL: func(hp string) string { return "nats://alice:s3cretPW@" + hp + "/r" }},
		{name: "user from $NATS_USER", auth: hub.Auth{User: "alice", Password: "s3cretPW"}, wrong: []nats.Option{nats.UserInfo("bob", "s3cretPW")},
			agentEnv: env("NATS_USER", "alice", "NATS_PASSWORD", "s3cretPW")},
		{name: "nkey", auth: hub.Auth{Nkeys: []string{pub}}, wrong: []nats.Option{nkeyOption(t, otherFile)},
			agentEnv: env("NATS_NKEY", seedFile)},
		{name: "client certificate", auth: hub.Auth{TLSCert: pki.ServerCert, TLSKey: pki.ServerKey, TLSCACert: pki.CA, TLSVerify: true},
			// A stranger who trusts the server, with a certificate of
			// another CA.
			wrong:    []nats.Option{nats.RootCAs(pki.CA), nats.ClientCert(pki.StrangerCert, pki.StrangerKey)},
			agentEnv: env("NATS_CA", pki.CA, "NATS_CERT", pki.ClientCert, "NATS_KEY", pki.ClientKey)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := hubtest.Start(t, hub.Config{Listen: "0.0.0.0:0", Auth: tc.auth, NoSync: true})
			_, port, _ := net.SplitHostPort(h.Addr())
			hp := net.JoinHostPort("127.0.0.1", port)
			// The hub holds a run already.
			raw := "nats://" + hp + "/r"
			if tc.agentURL != nil {
				raw = tc.agentURL(hp)
			}
			getenv := tc.agentEnv
			if getenv == nil {
				getenv = env()
			}
			agentOK(t, raw, bus.Options{Getenv: getenv})
			tlsOpts := []nats.Option{}
			if tc.auth.TLS() {
				tlsOpts = append(tlsOpts, nats.RootCAs(pki.CA))
			}
			if did := stranger(t, "nats://"+hp, tlsOpts...); len(did) > 0 {
				t.Errorf("a client without credentials %s", strings.Join(did, ", "))
			}
			if did := stranger(t, "nats://"+hp, tc.wrong...); len(did) > 0 {
				t.Errorf("a client with wrong credentials %s", strings.Join(did, ", "))
			}
			// And natsbus without them: an error naming the URL, no secret.
			u, _ := url.Parse("nats://" + hp + "/r")
			_, err := natsbus.OpenBus(context.Background(), u, bus.Options{Timeout: 3 * time.Second, Getenv: env()})
			if err == nil {
				t.Errorf("natsbus without credentials connected")
			} else if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error %q holds a secret", err)
			}
			// The run's record is still there, alone.
			agentOK(t, raw, bus.Options{Getenv: getenv})
		})
	}
}

func nkeyOption(t *testing.T, seedFile string) nats.Option {
	t.Helper()
	o, err := nats.NkeyOptionFromSeed(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestStrangerOnPublicHub: the attacks of stranger are real: on a hub
// opened with Public, a client without credentials lists the runs, forges
// a record and deletes a stream (what --public warns of), but even there
// cannot store an 8 MiB record (the limits hold for everyone).
func TestStrangerOnPublicHub(t *testing.T) {
	h := hubtest.Start(t, hub.Config{Listen: "0.0.0.0:0", Public: true, NoSync: true})
	_, port, _ := net.SplitHostPort(h.Addr())
	hp := net.JoinHostPort("127.0.0.1", port)
	agentOK(t, "nats://"+hp+"/r", bus.Options{Getenv: env()})
	got := strings.Join(stranger(t, "nats://"+hp), ", ")
	if want := "listed the runs, forged a record, deleted a stream"; got != want {
		t.Errorf("on a public hub a stranger %s; want %s", got, want)
	}
}
