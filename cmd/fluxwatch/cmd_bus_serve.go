//go:build hub

package main

import (
	"context"
	"fmt"

	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
)

func busServe(ctx context.Context, e *env, args []string) error {
	flags := e.newFlagSet("bus serve")
	var cfg hub.Config
	flags.StringVar(&cfg.Store, "store", "", "the directory JetStream keeps streams in (default: a temporary one)")
	flags.StringVar(&cfg.Listen, "listen", "127.0.0.1:4222", "HOST:PORT to listen on (port 0: any free one)")
	if done, err := parseFlags(e, flags, busUsage, args); done {
		return err
	}
	if flags.NArg() > 0 {
		return usageErrorf("bus serve: unexpected argument %q", flags.Arg(0))
	}
	// Bound the wait: ctx may end (SIGTERM) while the server starts.
	if err := ctx.Err(); err != nil {
		return nil
	}
	h, err := hub.Start(cfg)
	if err != nil {
		return fmt.Errorf("bus serve: %w", err)
	}
	fmt.Fprintf(e.stdout, "serving nats://%s (agents: --bus nats://%s/RUN)\n", h.Addr(), h.Addr())
	<-ctx.Done()
	h.Shutdown()
	return nil
}
