package mcpserver

import (
	"context"
	"os"
	"sync"

	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// synthesizer makes the syntheses get_synthesis answers from: at most
// maxSyntheses at a time (each holds a run's reports in memory, budgeted
// like synth's), and one for all the callers that ask for the same
// directory, run and baseline while it is being made. A synthesis is not
// kept after its callers have their answers: the next call reads the
// directory again.
type synthesizer struct {
	slots chan struct{}
	mu    sync.Mutex
	calls map[string]*synthesisCall
}

// synthesisCall is a synthesis being made, and its callers.
type synthesisCall struct {
	done   chan struct{}
	s      *synth.Synthesis
	err    error
	cancel context.CancelFunc
	hold   *membudget.Holding
	// free gives its slot back, once: when it is made, or when every
	// caller gave up on it (a synthesis that ignores its context must not
	// keep the others waiting).
	free func()
	// users are the callers that have not let it go; made is set once the
	// synthesis is done. Its memory budget is given back when both.
	users int
	made  bool
}

// maxSyntheses is how many syntheses get_synthesis makes at once: one a
// core of the machine the bars are set on (SPEC §9: 2 cores).
const maxSyntheses = 2

func newSynthesizer() *synthesizer {
	return &synthesizer{slots: make(chan struct{}, maxSyntheses), calls: map[string]*synthesisCall{}}
}

// get returns the synthesis of key, made by build, waiting for one being
// made for the same key when there is one, and a func the caller calls
// once it is done with the synthesis. It ends when ctx ends; the synthesis
// is then abandoned when no other caller waits for it. stop ends every
// synthesis (the server's end). build counts what it reads on hold.
func (z *synthesizer) get(ctx, stop context.Context, key string,
	build func(context.Context, *membudget.Holding) (*synth.Synthesis, error)) (*synth.Synthesis, func(), error) {
	z.mu.Lock()
	c := z.calls[key]
	if c == nil {
		cctx, cancel := context.WithCancel(stop)
		c = &synthesisCall{done: make(chan struct{}), cancel: cancel, hold: membudget.Hold(), free: func() {}}
		z.calls[key] = c
		go func() {
			select {
			case z.slots <- struct{}{}:
				z.mu.Lock()
				c.free = sync.OnceFunc(func() { <-z.slots })
				z.mu.Unlock()
				c.s, c.err = build(cctx, c.hold)
				c.free()
			case <-cctx.Done():
				c.err = cctx.Err()
			}
			cancel()
			z.mu.Lock()
			if z.calls[key] == c {
				delete(z.calls, key)
			}
			c.made = true
			if c.users == 0 {
				c.hold.Release()
			}
			z.mu.Unlock()
			close(c.done)
		}()
	}
	c.users++
	z.mu.Unlock()
	leave := func() {
		z.mu.Lock()
		defer z.mu.Unlock()
		if c.users--; c.users == 0 {
			if c.made {
				c.hold.Release()
				return
			}
			// Nobody waits for it any more: stop it, and let a new call
			// for the key start afresh.
			c.cancel()
			c.free()
			if z.calls[key] == c {
				delete(z.calls, key)
			}
		}
	}
	select {
	case <-c.done:
		if c.err != nil {
			leave()
			return nil, nil, c.err
		}
		return c.s, leave, nil
	case <-ctx.Done():
		leave()
		return nil, nil, ctx.Err()
	}
}

// synthesizeDir returns the current synthesis of the run in dir, open as
// root, with opts (a baseline, when the call gave one). It reads the
// directory the way synth does, through root only (never by the path dir,
// which names it), and writes nothing (the MCP server is read-only). While
// an agent is still writing, the synthesis is the live one of watch:
// pending until an agent completes. cfg.Run selects the run as synth's
// --run does ("": the newest). Evidence is not checked here. What it reads
// is counted on hold (the memory limit, as synth's), when hold is not nil.
func synthesizeDir(ctx context.Context, root *os.Root, dir string, cfg Config, opts synth.Options, hold *membudget.Holding) (*synth.Synthesis, error) {
	opts.Generator = synth.Generator{Name: "fluxwatch", Version: cfg.Version}
	scan := watcher.ScanOptions{Run: cfg.Run, Root: root}
	if hold != nil {
		scan.Sized = hold.Add
	}
	s, err := watcher.Synthesize(ctx, dir, scan, opts)
	if err == nil && len(s.AgentsPartial) > 0 {
		// Agents are still writing: the live synthesis, as watch has it.
		opts.Watching = true
		scan.Sized = nil // the same files again
		s, err = watcher.Synthesize(ctx, dir, scan, opts)
	}
	return s, err
}
