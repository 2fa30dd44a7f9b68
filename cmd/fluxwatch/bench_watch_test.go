//go:build unix

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsnotifytest"
	"github.com/fluxwatch/fluxwatch/parse"
)

// TestWatchLatency measures the real binary (SPEC §9): `fluxwatch watch` on
// a generated 64-agent run with a 1k-line and a 1M-line bus, the time from
// a bus append to findings.json renamed into place holding it, and from an
// agent report renamed into place to findings.json counting it. It prints
// p50, p99 and max. It runs only with FLUXWATCH_BENCH=1 (make bench-watch):
// figures are shown, not asserted. WATCH_BENCH_APPENDS and
// WATCH_BENCH_RENAMES set the number of samples (default 300 and 40);
// WATCH_BENCH_AGENTS and WATCH_BENCH_FINDINGS the run (default 64 agents
// × 12 findings; make bench-watch-8000: 8,000 agents × 50 findings with a
// 1k-line bus only, WATCH_BENCH_LINES=1000).
func TestWatchLatency(t *testing.T) {
	bin := benchFluxwatch(t, "bench-watch")
	appends, renames := envInt("WATCH_BENCH_APPENDS", 300), envInt("WATCH_BENCH_RENAMES", 40)
	agents, findings := envInt("WATCH_BENCH_AGENTS", 64), envInt("WATCH_BENCH_FINDINGS", 12)
	buses := []int{1_000, 1_000_000}
	if n := envInt("WATCH_BENCH_LINES", 0); n > 0 {
		buses = []int{n}
	}
	tmp := t.TempDir()
	fmt.Printf("run: %d agents × %d findings\n", agents, findings)
	fmt.Printf("%-14s %-22s %8s %8s %8s %8s\n", "bus", "latency", "samples", "p50 ms", "p99 ms", "max ms")
	for _, lines := range buses {
		dir := filepath.Join(tmp, fmt.Sprintf("run%d", lines))
		if out, err := exec.Command(bin, "demo", "--agents", strconv.Itoa(agents), "--findings", strconv.Itoa(findings),
			"--bus-lines", strconv.Itoa(lines), dir).CombinedOutput(); err != nil {
			t.Fatalf("demo: %v\n%s", err, out)
		}
		fw := fsnotifytest.Watch(t, dir)
		cmd := exec.Command(bin, "watch", "-q", dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		started := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		findings := filepath.Join(dir, "findings.json")
		// await waits for findings.json to be renamed into place holding
		// marker and returns when that happened.
		await := func(marker string) time.Time {
			deadline := time.After(10 * time.Minute)
			for {
				select {
				case ev := <-fw.Events:
					if filepath.Base(ev.Name) != "findings.json" || !ev.Has(fsnotify.Create) {
						continue
					}
					at := time.Now()
					if data, err := os.ReadFile(findings); err == nil && bytes.Contains(data, []byte(marker)) {
						return at
					}
				case err := <-fw.Errors:
					t.Fatalf("fsnotify: %v", err)
				case <-deadline:
					t.Fatalf("no findings.json with %q after 10 minutes; watch said:\n%s", marker, stderr.String())
				}
			}
		}
		await(`"synthesis_protocol_version"`)
		fmt.Printf("%-14s %-22s %8s %8.0f\n", fmt.Sprintf("%d lines", lines), "start (first report)", "1", ms(time.Since(started)))

		r := rand.New(rand.NewPCG(1, uint64(lines)))
		busPath := filepath.Join(dir, parse.BusNames[0])
		var busLat []time.Duration
		for i := range appends {
			time.Sleep(time.Duration(10+r.IntN(20)) * time.Millisecond) // appends apart: each one its own update
			marker := fmt.Sprintf("bench append %d of %d", i, lines)
			t0 := time.Now()
			if _, err := bus.Append(busPath, bus.Entry{Severity: bus.Notable, Agent: "fd-bench", Category: "bench",
				Summary: marker, FileRefs: []string{"bench.go:1"}}, bus.WriteOptions{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			busLat = append(busLat, await(marker).Sub(t0))
		}
		printLatency(lines, "bus append", busLat)

		var renameLat []time.Duration
		for i := range renames {
			name := fmt.Sprintf("fd-bench-%03d", i)
			partial := filepath.Join(dir, name+".md.partial")
			report := fmt.Sprintf("### Findings Index\n- P2 | BN-%03d | \"Bench\" | Benchmark finding %d\nVerdict: safe\n<!-- flux-drive:complete -->\n", i, i)
			if err := os.WriteFile(partial, []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
			await(`"` + name + `.md.partial"`) // the .partial is seen first
			time.Sleep(time.Duration(20+r.IntN(20)) * time.Millisecond)
			t0 := time.Now()
			if err := os.Rename(partial, filepath.Join(dir, name+".md")); err != nil {
				t.Fatal(err)
			}
			renameLat = append(renameLat, await(`"file": "`+name+`.md"`).Sub(t0))
		}
		printLatency(lines, "report rename", renameLat)

		// SIGINT ends a watch with 130, as a shell reports a process the
		// signal ended (SPEC §7, main's mainStatus): the expected end.
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 130 {
			t.Fatalf("watch after SIGINT: %v, want exit status 130\n%s", err, stderr.String())
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			fmt.Printf("%-14s %-22s %8s %8.0f MB peak RSS, %.1f s CPU\n", fmt.Sprintf("%d lines", lines), "watch process", "",
				float64(ru.Maxrss)/1024, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()).Seconds())
		}
		fw.Close()
		os.RemoveAll(dir)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func printLatency(lines int, what string, lat []time.Duration) {
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	fmt.Printf("%-14s %-22s %8d %8.1f %8.1f %8.1f\n", fmt.Sprintf("%d lines", lines), what+" → findings.json",
		len(lat), ms(pct(0.50)), ms(pct(0.99)), ms(lat[len(lat)-1]))
}
