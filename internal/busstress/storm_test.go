//go:build unix

package busstress

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
)

var (
	stormLaunches = flag.Int("storm.launches", 240, "kill storm: writer processes launched in all")
	stormParallel = flag.Int("storm.parallel", 8, "kill storm: writers running at once")
	stormShell    = flag.Int("storm.shell", 25, "kill storm: percent of shell helper writers")
	stormTorn     = flag.Int("storm.torn", 4, "kill storm: percent of writers that die holding the lock after part of their line")
	stormKill     = flag.Duration("storm.kill-every", 40*time.Millisecond, "kill storm: how often a running writer is SIGKILLed")
	stormFixed    = flag.Bool("storm.fixed-helper", false, "kill storm: shell writers end a fragment first, as finding write does")
)

// TestKillStorm: writer processes (finding write and the shell helper) with
// records up to 256 KiB, a random one SIGKILLed every few milliseconds —
// aimed at the lock holder when one is seen — and some dying mid-line
// holding the lock, while `finding read --follow` runs: every acknowledged
// record must be in the bus whole exactly once and printed by the follower
// exactly once (SPEC §3, §9 faults). Its defaults are the short run of
// `make test`; `make stress` runs it long.
func TestKillStorm(t *testing.T) {
	cfg := StormConfig{Bin: fluxwatchBin(t), Dir: *dir, Launches: *stormLaunches, Parallel: *stormParallel,
		ShellPercent: *stormShell, TornPercent: *stormTorn, KillEvery: *stormKill, FixedHelper: *stormFixed,
		MinSize: 100, MaxSize: 256 << 10, Seed: 2026}
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	res, err := Storm(context.Background(), cfg, os.Stdout)
	fmt.Printf("killstorm: %d launches, %d at once, %d%% shell, %d%% torn, a kill every ~%s\nkillstorm: %s\n",
		cfg.Launches, cfg.Parallel, cfg.ShellPercent, cfg.TornPercent, cfg.KillEvery, res)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("acknowledged records lost or duplicated: %s", res)
	}
	if res.Killed == 0 || (cfg.TornPercent > 0 && res.Fragments == 0) {
		t.Errorf("the storm killed %d writers and left %d fragments: it tested nothing", res.Killed, res.Fragments)
	}
}

// TestCensusCatchesDamage makes sure the kill storm's accounting can fail:
// a record swallowed by a fragment, a duplicate and a fragment at the end
// are all counted.
func TestCensusCatchesDamage(t *testing.T) {
	cfg := Config{MinSize: 100, MaxSize: 300, Seed: 1}
	line := func(w int) []byte { return bus.Encode(cfg.record(w, 0)) }
	var data []byte
	data = append(data, line(0)...)
	data = append(data, line(0)...)                  // duplicate
	data = append(data, line(1)[:30]...)             // a killed writer's fragment...
	data = append(data, line(2)...)                  // ...swallows the next record
	data = append(data, line(3)...)                  //
	data = append(data, line(4)[:len(line(4))-5]...) // a fragment at the end
	path := filepath.Join(t.TempDir(), "bus.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	found, swallowed, fragments, _, err := census(path, 5)
	if err != nil {
		t.Fatal(err)
	}
	if found[0] != 2 || found[1] != 0 || found[2] != 0 || found[3] != 1 || found[4] != 0 || !swallowed[2] || fragments != 2 {
		t.Errorf("census found %v, swallowed %v, %d fragments; want 0 twice, 3 once, 2 swallowed, 2 fragments", found, swallowed, fragments)
	}
}
