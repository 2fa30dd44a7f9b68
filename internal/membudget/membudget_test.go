package membudget

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestAdd: the limit follows the budget of all the input counted, and a
// GOMEMLIMIT in the environment is left alone.
func TestAdd(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func() { input = 0 }()
	t.Setenv("GOMEMLIMIT", "")
	input = 0
	if got, want := Add(1<<20), int64(8<<20+64<<20-outside); got != want || debug.SetMemoryLimit(-1) != want {
		t.Fatalf("Add(1 MiB) = %d, limit %d; want %d", got, debug.SetMemoryLimit(-1), want)
	}
	if got, want := Add(3<<20), int64(32<<20+64<<20-outside); got != want {
		t.Fatalf("Add(3 MiB more) = %d, want %d", got, want)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "1GiB")
	if got := Add(1 << 20); got != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Fatalf("with GOMEMLIMIT set, Add = %d and the limit is %d", got, debug.SetMemoryLimit(-1))
	}
}

// TestHold: the limit includes every holding until it is released, and
// goes down again after.
func TestHold(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func() { input, held = 0, 0 }()
	t.Setenv("GOMEMLIMIT", "")
	input, held = 0, 0
	a, b := Hold(), Hold()
	a.Add(1 << 20)
	b.Add(2 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(24<<20+64<<20-outside); got != want {
		t.Fatalf("limit with two holdings = %d, want %d", got, want)
	}
	a.Release()
	a.Release() // once
	a.Add(1 << 30)
	if got, want := debug.SetMemoryLimit(-1), int64(16<<20+64<<20-outside); got != want {
		t.Fatalf("limit after releasing one = %d, want %d", got, want)
	}
	b.Release()
	if got, want := debug.SetMemoryLimit(-1), int64(64<<20-outside); got != want {
		t.Fatalf("limit after releasing both = %d, want %d", got, want)
	}
}

// TestFollowLive: with a heap live above the budget, the limit follows it
// after a collection, at least (1 + headroom) times it, rather than leave
// the collector running without pause; stop puts the budget back.
func TestFollowLive(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func() { input, held = 0, 0 }()
	t.Setenv("GOMEMLIMIT", "")
	input, held = 0, 0
	budget := Add(0) // 44 MiB: the budget of no input
	stop := FollowLive(0.5)
	live := make([][]byte, 64) // 64 MiB live, over the budget
	for i := range live {
		live[i] = make([]byte, 1<<20)
		live[i][0] = 1
	}
	want := int64(len(live)<<20) * 3 / 2
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < want {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d MiB with %d MiB live and a budget of %d MiB; want at least %d MiB",
				debug.SetMemoryLimit(-1)>>20, len(live), budget>>20, want>>20)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
	stop()
	if got := debug.SetMemoryLimit(-1); got != budget {
		t.Errorf("limit after stop = %d MiB, want the budget, %d MiB", got>>20, budget>>20)
	}
}
