package natsbus_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
)

// TestCredsFile: a creds file (a user JWT and its nkey seed, as `nsc`
// writes them) given as Options.Creds (--nats-creds) or $NATS_CREDS gets
// an agent into a server in operator mode, which refuses a client without
// it.
func TestCredsFile(t *testing.T) {
	op, _ := nkeys.CreateOperator()
	opPub, _ := op.PublicKey()
	oc := jwt.NewOperatorClaims(opPub)
	acc, _ := nkeys.CreateAccount()
	accPub, _ := acc.PublicKey()
	ac := jwt.NewAccountClaims(accPub)
	ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
	accJWT, err := ac.Encode(op)
	if err != nil {
		t.Fatal(err)
	}
	sys, _ := nkeys.CreateAccount()
	sysPub, _ := sys.PublicKey()
	sysJWT, err := jwt.NewAccountClaims(sysPub).Encode(op)
	if err != nil {
		t.Fatal(err)
	}
	usr, _ := nkeys.CreateUser()
	usrPub, _ := usr.PublicKey()
	userJWT, err := jwt.NewUserClaims(usrPub).Encode(acc)
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := usr.Seed()
	creds, err := jwt.FormatUserConfig(userJWT, seed)
	if err != nil {
		t.Fatal(err)
	}
	credsFile := filepath.Join(t.TempDir(), "agent.creds")
	if err := os.WriteFile(credsFile, creds, 0o600); err != nil {
		t.Fatal(err)
	}
	resolver := &server.MemAccResolver{}
	resolver.Store(accPub, accJWT)
	resolver.Store(sysPub, sysJWT)
	srv := startServer(t, &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true,
		StoreDir: t.TempDir(), NoSigs: true, NoLog: true, TrustedOperators: []*jwt.OperatorClaims{oc},
		AccountResolver: resolver, SystemAccount: sysPub})
	raw := "nats://" + srv.Addr().String() + "/creds"
	for name, opt := range map[string]bus.Options{
		"--nats-creds": {Creds: credsFile},
		"$NATS_CREDS":  {Getenv: func(k string) string { return map[string]string{"NATS_CREDS": credsFile}[k] }},
	} {
		t.Run(name, func(t *testing.T) {
			opt.Timeout = 10 * time.Second
			b := openWith(t, raw, opt)
			if _, err := b.Append(context.Background(), entry("fd-a", bus.Notable, 0)); err != nil {
				t.Fatalf("with the creds file: %v", err)
			}
		})
	}
	if _, err := openErr(raw, bus.Options{Timeout: 3 * time.Second}); err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Errorf("without the creds file: %v; want an authorization error", err)
	}
}

// openWith opens the bus at raw with opt, closed when the test ends.
func openWith(t *testing.T, raw string, opt bus.Options) *natsbus.Bus {
	t.Helper()
	b, err := openErr(raw, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func openErr(raw string, opt bus.Options) (*natsbus.Bus, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	return natsbus.OpenBus(context.Background(), u, opt)
}
