package membudget

import (
	"math"
	"runtime/debug"
	"testing"
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
