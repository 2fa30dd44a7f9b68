//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestWholeProcessSynth times the real binary on generated runs (SPEC §9):
// the median wall time of 5 runs and the peak RSS, beside the input size. It
// runs only with FLUXWATCH_BENCH=1 (make bench-synth): timings are shown,
// not asserted.
func TestWholeProcessSynth(t *testing.T) {
	bin := benchFluxwatch(t, "bench-synth")
	tmp := t.TempDir()
	cases := []struct {
		name string
		args []string
	}{
		{"64 agents, 200k-line bus", []string{"--agents", "64", "--findings", "12", "--bus-lines", "200000"}},
		{"1000 agents x 50 findings", []string{"--agents", "1000", "--findings", "50", "--bus-lines", "1000"}},
		{"1000 agents x 10 findings", []string{"--agents", "1000", "--findings", "10", "--bus-lines", "1000"}},
		{"1000 agents x 100 findings", []string{"--agents", "1000", "--findings", "100", "--bus-lines", "1000"}},
	}
	fmt.Printf("%-28s %10s %12s %12s %10s\n", "run", "input MB", "median s", "peak RSS MB", "RSS/input")
	for i, c := range cases {
		dir := filepath.Join(tmp, fmt.Sprintf("run%d", i))
		if out, err := exec.Command(bin, append(append([]string{"demo"}, c.args...), dir)...).CombinedOutput(); err != nil {
			t.Fatalf("demo: %v\n%s", err, out)
		}
		var size int64
		filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				size += info.Size()
			}
			return nil
		})
		var walls []time.Duration
		var rss int64
		for range 5 {
			cmd := exec.Command(bin, "synth", "-q", "--out", filepath.Join(tmp, "out"), dir)
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("synth: %v\n%s", err, out)
			}
			walls = append(walls, time.Since(start))
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rss = max(rss, ru.Maxrss*1024)
			}
		}
		slices.Sort(walls)
		mb := func(b int64) float64 { return float64(b) / (1 << 20) }
		fmt.Printf("%-28s %10.1f %12.3f %12.1f %10.2f\n", c.name, mb(size), walls[2].Seconds(), mb(rss), float64(rss)/float64(size))
	}
}
