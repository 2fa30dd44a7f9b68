package busstress

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/parse"
)

// HubStormConfig sizes a hub storm: writer processes of the real binary on
// a file bus and on a JetStream bus at once, some SIGKILLed, the embedded
// server restarted mid-run.
type HubStormConfig struct {
	Bin      string // the fluxwatch binary
	Dir      string // the file bus and the server's store go here
	Launches int    // writer processes in all, half on each bus
	Parallel int    // writers running at once
	Kill     time.Duration
	Restarts int // server restarts, spread over the run
	Seed     uint64
}

// HubStormResult accounts for every launch of a hub storm.
type HubStormResult struct {
	Launched, AckedFile, AckedStream int
	Killed, Failed                   int
	Restarts                         int
	// Lost and Duplicated count acknowledged records missing from, or
	// more than once in, the bus they were acknowledged by; Twice counts
	// unacknowledged records stored more than once (a retry not deduped).
	Lost, Duplicated, Twice int
	// ReadersDisagree is 1 when the readers of the stream (two snapshot
	// reads on new connections and a follower that ran through the
	// restarts) did not see the same records in the same order.
	ReadersDisagree int
	FollowerSeen    int
	Elapsed         time.Duration
}

// OK reports whether every acknowledged record was read back exactly once,
// in one order every reader agrees on.
func (r HubStormResult) OK() bool {
	return r.Lost == 0 && r.Duplicated == 0 && r.Twice == 0 && r.ReadersDisagree == 0 &&
		r.AckedFile > 0 && r.AckedStream > 0
}

func (r HubStormResult) String() string {
	return fmt.Sprintf("launched=%d acked_file=%d acked_stream=%d killed=%d failed=%d restarts=%d lost=%d duplicated=%d "+
		"stored_twice=%d readers_disagree=%d follower_seen=%d elapsed=%s",
		r.Launched, r.AckedFile, r.AckedStream, r.Killed, r.Failed, r.Restarts, r.Lost, r.Duplicated, r.Twice,
		r.ReadersDisagree, r.FollowerSeen, r.Elapsed.Round(time.Millisecond))
}

// HubStorm runs a hub storm. Writers that fail because the server is down
// (not killed, exit non-zero) are counted in Failed: that is the clear
// error within the timeout the stream promises, not a fault.
func HubStorm(ctx context.Context, cfg HubStormConfig, progress io.Writer) (HubStormResult, error) {
	start := time.Now()
	var res HubStormResult
	store := filepath.Join(cfg.Dir, "store")
	h, err := hub.Start(hub.Config{Listen: "127.0.0.1:0", Store: store})
	if err != nil {
		return res, err
	}
	addr := h.Addr()
	var hmu sync.Mutex
	defer func() {
		hmu.Lock()
		if h != nil {
			h.Shutdown()
		}
		hmu.Unlock()
	}()
	streamURL := "nats://" + addr + "/storm"
	filePath := filepath.Join(cfg.Dir, "peer-findings.jsonl")

	u, _ := url.Parse(streamURL)
	follower, err := natsbus.OpenBus(ctx, u, bus.Options{Timeout: 5 * time.Second})
	if err != nil {
		return res, err
	}
	defer follower.Close()
	fctx, stopFollow := context.WithCancel(ctx)
	defer stopFollow()
	var fmu sync.Mutex
	var followed []string
	followDone := make(chan error, 1)
	go func() {
		followDone <- follower.Follow(fctx, 0, bus.Filter{}, func(e bus.Entry) error {
			fmu.Lock()
			followed = append(followed, e.Summary)
			fmu.Unlock()
			return nil
		}, nil)
	}()

	rng := rand.New(rand.NewPCG(cfg.Seed, 19))
	type launch struct {
		stream bool
		cmd    *exec.Cmd
		acked  bool
		killed bool
	}
	launches := make([]*launch, cfg.Launches)
	var mu sync.Mutex
	running := map[int]*launch{}
	sem := make(chan struct{}, cfg.Parallel)
	var wg sync.WaitGroup

	// The killer and the restarter.
	stop := make(chan struct{})
	var side sync.WaitGroup
	side.Add(1)
	go func() {
		defer side.Done()
		t := time.NewTicker(cfg.Kill)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			mu.Lock()
			ids := make([]int, 0, len(running))
			for id := range running {
				ids = append(ids, id)
			}
			if len(ids) > 0 {
				l := running[ids[rng.IntN(len(ids))]]
				if l.cmd.Process != nil && l.cmd.Process.Signal(syscall.SIGKILL) == nil {
					l.killed = true
				}
			}
			mu.Unlock()
		}
	}()

	restartAt := map[int]bool{}
	for i := 1; i <= cfg.Restarts; i++ {
		restartAt[cfg.Launches*i/(cfg.Restarts+1)] = true
	}
	for i := range cfg.Launches {
		if ctx.Err() != nil {
			break
		}
		if restartAt[i] {
			hmu.Lock()
			h.Shutdown()
			h, err = hub.Start(hub.Config{Listen: addr, Store: store})
			hmu.Unlock()
			if err != nil {
				h = nil
				close(stop)
				return res, fmt.Errorf("restart the server: %w", err)
			}
			res.Restarts++
			if progress != nil {
				fmt.Fprintf(progress, "hub storm: server restarted after %d launches\n", i)
			}
		}
		l := &launch{stream: i%2 == 1}
		target := filePath
		if l.stream {
			target = streamURL
		}
		l.cmd = exec.CommandContext(ctx, cfg.Bin, "finding", "write", "--bus", target, "--agent", fmt.Sprintf("w%d", i%32),
			"--severity", []string{"blocking", "notable"}[i%4/2], "--category", "storm",
			"--summary", fmt.Sprintf("hub storm record %06d", i), "--timestamp", "2026-11-25T04:00:00Z", "--no-sync")
		launches[i] = l
		sem <- struct{}{}
		mu.Lock()
		err := l.cmd.Start()
		if err == nil {
			running[i] = l
		}
		mu.Unlock()
		if err != nil {
			<-sem
			close(stop)
			return res, err
		}
		res.Launched++
		wg.Add(1)
		go func(i int, l *launch) {
			defer wg.Done()
			err := l.cmd.Wait()
			mu.Lock()
			delete(running, i)
			l.acked = err == nil
			mu.Unlock()
			<-sem
		}(i, l)
	}
	wg.Wait()
	close(stop)
	side.Wait()

	for _, l := range launches {
		if l == nil {
			continue
		}
		switch {
		case l.acked && l.stream:
			res.AckedStream++
		case l.acked:
			res.AckedFile++
		case l.killed:
			res.Killed++
		default:
			res.Failed++
		}
	}
	account := func(got []string, stream bool) {
		n := map[string]int{}
		for _, s := range got {
			n[s]++
		}
		for i, l := range launches {
			if l == nil || l.stream != stream {
				continue
			}
			s := fmt.Sprintf("hub storm record %06d", i)
			switch c := n[s]; {
			case l.acked && c == 0:
				res.Lost++
			case l.acked && c > 1:
				res.Duplicated++
			case !l.acked && c > 1:
				res.Twice++
			}
		}
	}
	fileEntries, _, err := bus.ReadFile(filePath, 0)
	if err != nil {
		return res, err
	}
	var fileGot []string
	for _, e := range fileEntries {
		fileGot = append(fileGot, e.Summary)
	}
	account(fileGot, false)

	// Two snapshot readers on fresh connections, then the follower.
	var reads [2][]string
	for i := range reads {
		b, err := natsbus.OpenBus(ctx, u, bus.Options{Timeout: 5 * time.Second})
		if err != nil {
			return res, err
		}
		_, err = b.Read(ctx, 0, bus.Filter{}, func(e bus.Entry) error {
			reads[i] = append(reads[i], e.Summary)
			return nil
		}, func(parse.Diagnostic) {})
		b.Close()
		if err != nil {
			return res, err
		}
	}
	account(reads[0], true)
	deadline := time.Now().Add(30 * time.Second)
	for {
		fmu.Lock()
		n := len(followed)
		fmu.Unlock()
		if n >= len(reads[0]) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopFollow()
	if err := <-followDone; err != nil {
		return res, fmt.Errorf("follower: %w", err)
	}
	fmu.Lock()
	res.FollowerSeen = len(followed)
	if !slices.Equal(reads[0], reads[1]) || !slices.Equal(reads[0], followed) {
		res.ReadersDisagree = 1
		if progress != nil {
			fmt.Fprintf(progress, "hub storm: readers disagree: %d, %d, follower %d records\n", len(reads[0]), len(reads[1]), len(followed))
		}
	}
	fmu.Unlock()
	res.Elapsed = time.Since(start)
	return res, nil
}
