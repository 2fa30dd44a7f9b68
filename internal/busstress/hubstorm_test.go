//go:build unix

package busstress

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"
)

var (
	hubLaunches = flag.Int("hub.launches", 160, "hub storm: writer processes launched in all (half file, half stream)")
	hubParallel = flag.Int("hub.parallel", 32, "hub storm: writers running at once")
	hubRestarts = flag.Int("hub.restarts", 1, "hub storm: server restarts during the run")
	hubKill     = flag.Duration("hub.kill-every", 15*time.Millisecond, "hub storm: how often a running writer is SIGKILLed")
)

// TestHubStorm: 32 writer processes at once, half on a file bus and half
// on a JetStream bus of an embedded server, a random one SIGKILLed every
// few milliseconds, the server restarted mid-run: every acknowledged
// record is read back exactly once from the bus that acknowledged it, no
// record is stored twice, and two snapshot readers and a follower that
// lived through the restart see the stream in one order (issue 19). Its
// defaults are the short run of make test; make stress runs it long.
func TestHubStorm(t *testing.T) {
	cfg := HubStormConfig{Bin: fluxwatchBin(t), Dir: t.TempDir(), Launches: *hubLaunches, Parallel: *hubParallel,
		Kill: *hubKill, Restarts: *hubRestarts, Seed: uint64(time.Now().UnixNano())}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := HubStorm(ctx, cfg, os.Stderr)
	if err != nil {
		// The seed and the accounting so far: a failure under load was
		// once not reproduced, its cause unknown.
		t.Fatalf("hub storm (seed %d): %v (%v)", cfg.Seed, err, res)
	}
	t.Log(res)
	if !res.OK() {
		t.Errorf("hub storm (seed %d): %v", cfg.Seed, res)
	}
	if res.Killed == 0 {
		t.Errorf("no writer was killed: the storm tested nothing (%v)", res)
	}
}
