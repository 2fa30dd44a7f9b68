//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		var d []time.Duration
		for _, x := range n {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	tests := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{ms(5), 5 * time.Millisecond},
		{ms(9, 1, 5), 5 * time.Millisecond},
		{ms(4, 1, 3, 2), 2500 * time.Microsecond},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// groups builds the four groups of the table with the given wall times in
// seconds and peak RSS in MB; inputs are 100 MB for the bus and synth groups
// and 10 MB for each scaling run.
func groups(read [4]float64, all, synth, shell float64, scale [3]float64, rss float64) []*group {
	m := func(name string, wall float64, in int64) *measured {
		return &measured{name: name, wall: time.Duration(wall * float64(time.Second)), inputBytes: in, rss: int64(rss * 1e6)}
	}
	return []*group{
		{cases: []*measured{m("fluxwatch read", read[0], 100e6), m("jq", read[1], 100e6), m("cat", read[2], 100e6), m("wc", read[3], 100e6)}},
		{cases: []*measured{m("fluxwatch all", all, 100e6)}},
		{cases: []*measured{m("fluxwatch synth", synth, 100e6), m("shell", shell, 100e6)}},
		{cases: []*measured{m("fluxwatch 10k", scale[0], 10e6), m("fluxwatch 50k", scale[1], 10e6), m("fluxwatch 100k", scale[2], 10e6)}},
	}
}

// TestTargets: the verdicts follow the figures, both ways.
func TestTargets(t *testing.T) {
	good := targets(groups([4]float64{0.05, 1, 0.01, 0.02}, 0.2, 0.05, 1, [3]float64{0.1, 0.5, 1.0}, 10))
	for _, tg := range good {
		if !tg.met {
			t.Errorf("good figures: %s (%s) not met", tg.bar, tg.figure)
		}
	}
	bad := targets(groups([4]float64{0.5, 1, 0.01, 0.02}, 2.0, 0.6, 1, [3]float64{0.1, 2.5, 10}, 300))
	for _, tg := range bad {
		if tg.met {
			t.Errorf("bad figures: %s (%s) met", tg.bar, tg.figure)
		}
	}
	var b bytes.Buffer
	printTargets(&b, groups([4]float64{0.5, 1, 0.01, 0.02}, 0.5, 0.6, 1, [3]float64{0.1, 2.5, 10}, 300))
	if !strings.Contains(b.String(), "10.00×") || !strings.Contains(b.String(), "NOT met") {
		t.Errorf("targets table:\n%s", b.String())
	}
}

func TestSize(t *testing.T) {
	dir := t.TempDir()
	for name, n := range map[string]int{"a": 3, "sub/b": 5} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := size(dir); got != 8 || err != nil {
		t.Errorf("size(dir) = %d, %v; want 8", got, err)
	}
	if got, err := size(filepath.Join(dir, "a")); got != 3 || err != nil {
		t.Errorf("size(file) = %d, %v; want 3", got, err)
	}
}
