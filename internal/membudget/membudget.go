// Package membudget holds a command to the memory SPEC §9 promises for its
// input: peak RSS at most 8× the input + 64 MB. It sets the Go runtime's
// soft memory limit (runtime/debug.SetMemoryLimit) to that budget, less
// what the process holds outside the Go heap, as the command learns how
// much input it reads. Without a limit the collector lets the heap grow to
// twice what was live at its last cycle (GOGC=100), and a report parsed in
// one pass outgrows the budget on that headroom alone; with it the collector
// runs sooner near the budget and returns freed memory to the system.
//
// It owns one process-wide setting: only cmd/fluxwatch calls it, never a
// package that parses or synthesises. A GOMEMLIMIT in the environment is
// the user's choice and is left alone. A command that reads one input after
// another (the MCP server, a synthesis per call) holds each for a while
// (Hold): the limit is the budget of what is held, and goes down again.
//
// `watch` sets none. Its live heap is now near synth's (171 MB at a 16 MiB
// strict index, synth 170 MB), but a change allocates a lot (a 48 MB
// findings.json rendered at each change of 1,000 agents; a report that
// completes merges every report again beside the last merge), so a limit
// at 8× the largest listing + 64 MB made the collector run through every
// change: on 1,000 agents peak RSS 211 → 138 MB, but a report rename's p50
// latency 4.0 → 11.9 s and 1.7× the CPU; a limit of at least 1.5× the live
// heap after each collection, 162 MB and 6.0 s (docs/performance.md,
// seventh round); that floor with the memory the limit counts besides the
// heap (0181ef0, eighth round), 210 → 162 MB, but a rename's p50 4.2 →
// 6.5 s and 1.25× the CPU.
//
// `check` sets it: parsing holds a few times its input, well under the
// budget, so the limit costs the collector little. `synth` of a run
// directory sets it too: 1,000 agents × 96 findings (14 MB) hold at most
// ~115 MB live against a 181 MB budget, and the limit costs ~20% more CPU
// there (peak RSS 240 → 171 MB). A limit below the live heap would only
// make the collector run without pause (measured before findings.json was
// streamed: twice the CPU time for a third less memory).
package membudget

import (
	"os"
	"runtime/debug"
	"sync"
)

const (
	perInputByte = 8
	base         = 64 << 20
	// outside is what the process holds outside the limit's reach: the
	// binary's mapped text and data (peak RSS of `fluxwatch version` is
	// 15–16 MB; at the peak of synth of a 16 MiB report, 16.7 MiB of
	// file-backed pages, RssFile in /proc/self/status) and what the
	// collector overshoots the limit by.
	outside = 20 << 20
)

var (
	mu    sync.Mutex
	input int64 // counted by Add
	held  int64 // counted by the Holdings not released
)

// Budget returns the memory SPEC §9 allows for n bytes of input.
func Budget(n int64) int64 { return perInputByte*n + base }

// Add counts n more bytes of input and raises the limit to the budget of
// all the input counted so far. It returns the limit it set, or 0 when
// GOMEMLIMIT is set.
func Add(n int64) int64 {
	mu.Lock()
	defer mu.Unlock()
	input += max(n, 0)
	return setLimit()
}

// setLimit sets the limit to the budget of all the input counted and held,
// and returns it (0 with GOMEMLIMIT). mu is held.
func setLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	limit := Budget(input+held) - outside
	debug.SetMemoryLimit(limit)
	return limit
}

// Holding is input a long-running command holds for a while (the MCP
// server, one run for each synthesis it makes): the limit includes its
// budget until it is released, then goes down again. Make it with Hold.
type Holding struct {
	n        int64
	released bool
}

// Hold starts a holding of no input.
func Hold() *Holding { return &Holding{} }

// Add counts n more bytes of input held and raises the limit.
func (h *Holding) Add(n int64) {
	mu.Lock()
	defer mu.Unlock()
	if h.released {
		return
	}
	n = max(n, 0)
	h.n += n
	held += n
	setLimit()
}

// Release gives the holding's budget back: the limit goes down. Later
// calls do nothing.
func (h *Holding) Release() {
	mu.Lock()
	defer mu.Unlock()
	if h.released {
		return
	}
	h.released = true
	held -= h.n
	setLimit()
}
