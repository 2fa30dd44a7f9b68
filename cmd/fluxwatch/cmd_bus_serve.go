//go:build hub

package main

import (
	"errors"
	"fmt"
	"net"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/spf13/cobra"
)

func busServeCmd(e *env) *cobra.Command {
	cmd := newCommand("serve", "run a NATS JetStream hub", busUsage)
	flags := cmd.Flags()
	var cfg hub.Config
	flags.StringVar(&cfg.Store, "store", "", "the directory JetStream keeps streams in (default: a temporary one)")
	flags.StringVar(&cfg.Listen, "listen", "127.0.0.1:4222", "HOST:PORT to listen on (port 0: any free one); an address other than loopback needs credentials or --public")
	flags.BoolVar(&cfg.Public, "public", false, "let a hub without credentials listen on an address other than loopback: anyone who reaches it can read, forge and delete every run's records")
	// Credentials, named as nats-server names them.
	flags.StringVar(&cfg.Auth.Token, "auth", "", "the `TOKEN` a client must present (clients: nats://TOKEN@HOST:PORT/RUN or $NATS_TOKEN)")
	flags.StringVar(&cfg.Auth.User, "user", "", "the `USER` a client logs in as, with --pass (clients: nats://USER:PASS@HOST:PORT/RUN or $NATS_USER, $NATS_PASSWORD)")
	flags.StringVar(&cfg.Auth.Password, "pass", "", "the `PASSWORD` of --user")
	flags.StringArrayVar(&cfg.Auth.Nkeys, "nkey", nil, "the public `NKEY` (U…) of a user who may connect; repeat for more (clients: --nats-nkey SEEDFILE or $NATS_NKEY)")
	flags.StringVar(&cfg.Auth.TLSCert, "tlscert", "", "the server's TLS certificate `FILE`: every connection is TLS (clients: --nats-ca or $NATS_CA)")
	flags.StringVar(&cfg.Auth.TLSKey, "tlskey", "", "the `FILE` of the key of --tlscert")
	flags.StringVar(&cfg.Auth.TLSCACert, "tlscacert", "", "the CA `FILE` that signs client certificates, with --tlsverify")
	flags.BoolVar(&cfg.Auth.TLSVerify, "tlsverify", false, "require a client certificate signed by --tlscacert (clients: --nats-cert, --nats-key or $NATS_CERT, $NATS_KEY)")
	// Limits of every stream.
	flags.IntVar(&cfg.Limits.MaxLine, "max-line", bus.DefaultMaxLine, "the longest record (`BYTES` of its line) a writer may store")
	flags.Int64Var(&cfg.Limits.MaxBytes, "max-bytes", hub.DefaultMaxBytes, "the most `BYTES` a run's stream holds: then it refuses records")
	flags.DurationVar(&cfg.Limits.MaxAge, "max-age", hub.DefaultMaxAge, "how long a record is kept")
	flags.Int64Var(&cfg.Limits.MaxStore, "max-store", 0, "the most `BYTES` all streams hold together; each run's stream reserves --max-bytes of it (default: three quarters of the store's free disk)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if flags.NArg() > 0 {
			return usageErrorf("bus serve: unexpected argument %q", flags.Arg(0))
		}
		l := cfg.Limits
		for _, lim := range []struct {
			name string
			bad  bool
		}{{"max-line", l.MaxLine <= 0}, {"max-bytes", l.MaxBytes <= 0}, {"max-age", l.MaxAge <= 0}, {"max-store", flags.Changed("max-store") && l.MaxStore <= 0}} {
			if lim.bad {
				return usageErrorf("bus serve: --%s %s: want a limit above 0", lim.name, flags.Lookup(lim.name).Value)
			}
		}
		// Bound the wait: ctx may end (SIGTERM) while the server starts.
		if err := ctx.Err(); err != nil {
			return nil
		}
		h, err := hub.Start(cfg)
		switch {
		case errors.Is(err, hub.ErrOpen):
			return usageErrorf("bus serve: --listen %s: an address other than loopback needs credentials (--auth, --user and --pass, --nkey, or --tlsverify with client certificates) or --public", cfg.Listen)
		case err != nil:
			return usageErrorf("bus serve: %v", err)
		}
		defer h.Shutdown()
		host, _, _ := net.SplitHostPort(h.Addr())
		open := !hub.IsLoopback(host)
		switch {
		case open && !cfg.Auth.Credentials():
			fmt.Fprintf(e.stderr, "fluxwatch: WARNING: bus serve --public: the hub at %s (listening on %s) has no credentials: anyone who can reach it can list the runs, read, forge and delete their records, and fill its store\n", h.URL(), h.Addr())
		case open && cfg.Auth.Secret() && !cfg.Auth.TLS():
			fmt.Fprintf(e.stderr, "fluxwatch: warning: bus serve: without --tlscert and --tlskey the token or password, and every record, cross the network in clear\n")
		}
		fmt.Fprintf(e.stdout, "serving %s (agents: --bus %s/RUN)\n", h.URL(), h.URL())
		if cfg.Auth.Credentials() {
			fmt.Fprintf(e.stdout, "credentials: %s\n", cfg.Auth.Describe())
		}
		fmt.Fprintf(e.stdout, "limits: %s\n", l.Describe(h.MaxStore()))
		<-ctx.Done()
		return nil
	}
	return cmd
}
