package hub

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Auth is who may connect to a hub, named as nats-server names its
// options. Token, User/Password and Nkeys are ways to authenticate, at
// most one of Token and the others (nats-server has no token beside
// users); TLSVerify with a client-certificate CA is one more, alone or
// beside them. TLSCert/TLSKey without TLSVerify encrypt, but are no
// credential.
type Auth struct {
	// Token is the token a client must present (--auth).
	Token string
	// User and Password are the one user a client may log in as
	// (--user, --pass).
	User, Password string
	// Nkeys are the public nkeys of users who may connect (U…, each
	// proving it holds the seed by signing the server's nonce).
	Nkeys []string
	// TLSCert and TLSKey are the server's certificate and key
	// (--tlscert, --tlskey): every connection is then TLS.
	TLSCert, TLSKey string
	// TLSCACert is the CA that signs client certificates (--tlscacert).
	TLSCACert string
	// TLSVerify requires a client certificate signed by TLSCACert
	// (--tlsverify).
	TLSVerify bool
}

// Credentials reports whether a stranger who can reach the hub still
// cannot connect: a token, a user, nkeys, or verified client
// certificates.
func (a Auth) Credentials() bool {
	return a.Token != "" || a.User != "" || len(a.Nkeys) > 0 || a.TLSVerify
}

// Secret reports whether a is a secret that travels to the server (a
// token, a password) rather than a proof (nkeys, certificates): without
// TLS anyone on the path reads it.
func (a Auth) Secret() bool { return a.Token != "" || a.User != "" }

// TLS reports whether the hub's connections are TLS.
func (a Auth) TLS() bool { return a.TLSCert != "" }

// Describe says which credentials a client needs, naming no secret.
func (a Auth) Describe() string {
	var ways []string
	switch {
	case a.Token != "":
		ways = append(ways, "the token (nats://TOKEN@HOST:PORT/RUN or $NATS_TOKEN)")
	case a.User != "":
		ways = append(ways, "user "+a.User+" and its password (nats://USER:PASS@HOST:PORT/RUN or $NATS_USER, $NATS_PASSWORD)")
	}
	if len(a.Nkeys) > 0 {
		ways = append(ways, "the seed of a listed nkey ($NATS_NKEY or --nats-nkey)")
	}
	if a.TLSVerify {
		ways = append(ways, "a client certificate ($NATS_CERT, $NATS_KEY or --nats-cert, --nats-key)")
	}
	if len(ways) == 0 {
		return "none"
	}
	return strings.Join(ways, "; or ")
}

// check reports a combination nats-server does not have.
func (a Auth) check() error {
	switch {
	case a.Token != "" && (a.User != "" || len(a.Nkeys) > 0):
		return errors.New("--auth (a token) cannot go with --user or --nkey: give one way")
	case a.User != "" && a.Password == "":
		return errors.New("--user needs --pass")
	case a.Password != "" && a.User == "":
		return errors.New("--pass needs --user")
	case (a.TLSCert == "") != (a.TLSKey == ""):
		return errors.New("--tlscert and --tlskey go together")
	case a.TLSVerify && (a.TLSCACert == "" || a.TLSCert == ""):
		return errors.New("--tlsverify needs --tlscacert (the CA of client certificates) and --tlscert, --tlskey")
	case a.TLSCACert != "" && !a.TLSVerify:
		return errors.New("--tlscacert is the CA of client certificates: it needs --tlsverify")
	}
	for _, k := range a.Nkeys {
		if !nkeys.IsValidPublicUserKey(k) {
			return fmt.Errorf("--nkey %q: not the public key of an nkey user (U…, 56 characters)", k)
		}
	}
	return nil
}

// apply sets a on the server's options and returns the options with which
// the hub's own connection (in process, never TLS) authenticates: the
// token or the user when there is one, else an nkey user of its own, made
// now and known to no one else.
func (a Auth) apply(opts *server.Options) ([]nats.Option, error) {
	if err := a.check(); err != nil {
		return nil, err
	}
	var inner []nats.Option
	switch {
	case a.Token != "":
		opts.Authorization = a.Token
		inner = append(inner, nats.Token(a.Token))
	case a.User != "" && len(a.Nkeys) == 0:
		opts.Username, opts.Password = a.User, a.Password
		inner = append(inner, nats.UserInfo(a.User, a.Password))
	case a.User != "":
		opts.Users = []*server.User{{Username: a.User, Password: a.Password}}
		inner = append(inner, nats.UserInfo(a.User, a.Password))
	}
	if len(a.Nkeys) > 0 {
		for _, k := range a.Nkeys {
			opts.Nkeys = append(opts.Nkeys, &server.NkeyUser{Nkey: k})
		}
		if len(inner) == 0 {
			kp, err := nkeys.CreateUser()
			if err != nil {
				return nil, fmt.Errorf("an nkey of the hub's own: %w", err)
			}
			pub, err := kp.PublicKey()
			if err != nil {
				return nil, fmt.Errorf("an nkey of the hub's own: %w", err)
			}
			opts.Nkeys = append(opts.Nkeys, &server.NkeyUser{Nkey: pub})
			inner = append(inner, nats.Nkey(pub, kp.Sign))
		}
	}
	if a.TLSCert != "" {
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: a.TLSCert, KeyFile: a.TLSKey,
			CaFile: a.TLSCACert, Verify: a.TLSVerify, Timeout: 2})
		if err != nil {
			return nil, fmt.Errorf("TLS: %w", err)
		}
		opts.TLS, opts.TLSVerify, opts.TLSConfig, opts.TLSTimeout = true, a.TLSVerify, tc, 2
	}
	return inner, nil
}
