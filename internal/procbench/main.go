//go:build unix

// Command procbench times fluxwatch against the tools it replaces, whole
// process against whole process, on the same generated inputs, and prints one
// table with ratios and the targets of SPEC §9 and issue 8 (make bench).
//
// Every command runs once to warm the page cache, then -runs times; the table
// shows the median wall time, the median CPU time (user + system, children
// included) and the largest peak RSS. Peak RSS is ru_maxrss as wait4(2)
// reports it, the figure GNU time prints as %M: for a shell pipeline it is the
// largest single process, not the sum. The inputs are written by
// `fluxwatch demo`, deterministically (seed 1):
//
//   - a 1M-line bus (64 agents): fluxwatch finding read --severity blocking
//     against jq -c 'select(.severity=="blocking")' and the floors cat and
//     wc -l; and finding read of every entry (decoding throughput);
//   - a 64-agent run with a 200k-line bus: fluxwatch synth against
//     scripts/shell-synth.sh, the shell + jq pipeline;
//   - 1,000 agents with 10, 50 and 100 findings each: fluxwatch synth, to
//     show that time grows linearly with the findings.
//
// Then the scale table (scale.go, -scale): each kind of input at 1×, 2×, 4×
// and 8× its base size — reports of internal/procbench/reportgen's shapes
// from 2 to 16 MiB (fluxwatch check), a bus of 125k to 1M lines (fluxwatch
// watch --until-complete), 1,000 agents with 12 to 96 findings each
// (fluxwatch synth) — with the ratios to 1× and the bars of SPEC §9 Scale.
//
// Usage:
//
//	go run ./internal/procbench [-bin bin/fluxwatch] [-shell scripts/shell-synth.sh] [-runs 5] [-work DIR]
//	        [-scale full|tiny|only|off] [-scale-runs 3] [-scale-kinds REGEXP]
//
// It needs jq, awk, sort, uniq, cat and wc on $PATH (make bench installs jq).
// The machine's load is printed before and after: figures taken on a busy
// machine are not worth much. It must never run in `make test`: it is
// `make bench`'s.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/fluxwatch", "the fluxwatch binary")
	shell := flag.String("shell", "scripts/shell-synth.sh", "the shell pipeline to compare synth with")
	runs := flag.Int("runs", 5, "timed runs of each command (after one warm-up run)")
	work := flag.String("work", "", "directory for the inputs and outputs (default: a temporary one, removed after)")
	scale := flag.String("scale", "full", "the scale table: full (1×–8×), tiny (two small sizes), only (the full table and nothing else) or off")
	scaleRuns := flag.Int("scale-runs", 3, "timed runs of each command of the scale table (after one warm-up run)")
	scaleKinds := flag.String("scale-kinds", "", "a regular expression: only the scale table's kinds whose name it matches (\"synth\\)\": the synthesis rows)")
	flag.Parse()
	only, err := regexp.Compile(*scaleKinds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "procbench: -scale-kinds:", err)
		os.Exit(2)
	}
	fullScale.only, tinyScale.only = only, only
	if err := run(os.Stdout, *bin, *shell, *runs, *work, *scale, *scaleRuns); err != nil {
		fmt.Fprintln(os.Stderr, "procbench:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, bin, shell string, runs int, work, scale string, scaleRuns int) error {
	if runs < 1 || scaleRuns < 1 {
		return errors.New("-runs and -scale-runs must be at least 1")
	}
	cfg, ok := map[string]scaleConfig{"full": fullScale, "only": fullScale, "tiny": tinyScale, "off": {}}[scale]
	if !ok {
		return fmt.Errorf("-scale %q: want full, tiny, only or off", scale)
	}
	for _, tool := range []string{"jq", "awk", "sort", "uniq", "cat", "wc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is not installed (make bench installs jq)", tool)
		}
	}
	var err error
	if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	if shell, err = filepath.Abs(shell); err != nil {
		return err
	}
	if work == "" {
		if work, err = os.MkdirTemp("", "procbench-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	}

	fmt.Fprintf(w, "procbench: %d CPUs, load average %s; generating inputs in %s\n", runtime.NumCPU(), loadAverage(), work)
	if scale == "only" {
		return scaleTable(w, bin, cfg, scaleRuns, work)
	}
	inputs := map[string]string{}
	for _, in := range []struct{ name, agents, findings, busLines string }{
		{"bus1m", "64", "12", "1000000"},
		{"run64", "64", "12", "200000"},
		{"f10k", "1000", "10", "1000"},
		{"f50k", "1000", "50", "1000"},
		{"f100k", "1000", "100", "1000"},
	} {
		dir := filepath.Join(work, in.name)
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			out, err := exec.Command(bin, "demo", "--agents", in.agents, "--findings", in.findings,
				"--bus-lines", in.busLines, "--seed", "1", dir).CombinedOutput()
			if err != nil {
				return fmt.Errorf("demo %s: %v\n%s", in.name, err, out)
			}
		}
		inputs[in.name] = dir
	}
	bus := filepath.Join(inputs["bus1m"], "findings.jsonl")
	out := filepath.Join(work, "out")
	synth := func(dir string) []string { return []string{bin, "synth", "-q", "--no-evidence", "--out", out, dir} }

	groups := []*group{
		{title: "read the blocking entries of a 1M-line bus", input: bus, cases: []*measured{
			{name: "fluxwatch finding read --severity blocking", argv: []string{bin, "finding", "read", "--severity", "blocking", "--bus", bus}},
			{name: `jq -c 'select(.severity=="blocking")'`, argv: []string{"jq", "-c", `select(.severity=="blocking")`, bus}},
			{name: "cat FILE >/dev/null", argv: []string{"cat", bus}},
			{name: "wc -l FILE", argv: []string{"wc", "-l", bus}},
		}},
		{title: "decode every entry of the 1M-line bus", input: bus, cases: []*measured{
			{name: "fluxwatch finding read (all entries)", argv: []string{bin, "finding", "read", "--bus", bus}},
		}},
		{title: "synthesise 64 agents + a 200k-line bus", input: inputs["run64"], cases: []*measured{
			{name: "fluxwatch synth", argv: synth(inputs["run64"])},
			{name: "shell pipeline (scripts/shell-synth.sh)", argv: []string{shell, inputs["run64"]}},
		}},
		{title: "synthesise 1,000 agents: growth in findings", input: inputs["f10k"], cases: []*measured{
			{name: "fluxwatch synth, 10k findings", argv: synth(inputs["f10k"]), input: inputs["f10k"]},
			{name: "fluxwatch synth, 50k findings", argv: synth(inputs["f50k"]), input: inputs["f50k"]},
			{name: "fluxwatch synth, 100k findings", argv: synth(inputs["f100k"]), input: inputs["f100k"]},
		}},
	}
	for _, g := range groups {
		for _, c := range g.cases {
			if c.input == "" {
				c.input = g.input
			}
			if c.inputBytes, err = size(c.input); err != nil {
				return err
			}
			if err := c.measure(runs, filepath.Join(work, "stdout")); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(w, "median of %d runs after a warm-up; load average now %s\n\n", runs, loadAverage())
	printTable(w, groups)
	fmt.Fprintln(w)
	printTargets(w, groups)
	if scale == "off" {
		return nil
	}
	fmt.Fprintln(w)
	return scaleTable(w, bin, cfg, scaleRuns, work)
}

func scaleTable(w io.Writer, bin string, cfg scaleConfig, runs int, work string) error {
	fmt.Fprintf(w, "scale table: median of %d runs after a warm-up; load average %s\n", runs, loadAverage())
	if err := runScale(w, bin, cfg, runs, work); err != nil {
		return err
	}
	fmt.Fprintf(w, "load average now %s\n", loadAverage())
	return nil
}

// group is one row group of the table: the first case is the reference of
// the ratios.
type group struct {
	title string
	input string
	cases []*measured
}

// measured is one command and what its runs measured.
type measured struct {
	name  string
	argv  []string
	input string // the file or directory it reads (default: its group's)

	inputBytes int64
	wall, cpu  time.Duration // medians
	rss        int64         // the largest peak RSS, bytes
}

// measure runs the command once to warm up, then runs times, its standard
// output going to the file stdout.
func (m *measured) measure(runs int, stdout string) error {
	var walls, cpus []time.Duration
	for i := range runs + 1 {
		wall, cpu, rss, err := once(m.argv, stdout)
		if err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
		if i == 0 {
			continue // the warm-up
		}
		walls, cpus = append(walls, wall), append(cpus, cpu)
		m.rss = max(m.rss, rss)
	}
	m.wall, m.cpu = median(walls), median(cpus)
	return nil
}

// once runs argv with standard output to the file stdout and returns its
// wall time, CPU time (user and system, waited-for children included) and
// peak RSS in bytes.
func once(argv []string, stdout string) (wall, cpu time.Duration, rss int64, err error) {
	out, err := os.Create(stdout)
	if err != nil {
		return 0, 0, 0, err
	}
	defer out.Close()
	var stderr strings.Builder
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = out, &stderr
	resetPeakRSS()
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, 0, errors.New("no resource usage on this system")
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return wall, cpu, ru.Maxrss * 1024, nil // Linux counts ru_maxrss in KiB
}

// resetPeakRSS lowers this process's peak RSS to what it holds now. On
// Linux a child's ru_maxrss starts from its parent's peak: os/exec starts
// it in the parent's memory (vfork) and execve keeps the high-water mark of
// the memory it leaves. After procbench has generated a 16 MiB report, a
// check of a 2 MiB one reported procbench's 124 MB, not its own 55 MB. The
// heap is returned to the system first, then the mark reset
// (/proc/self/clear_refs, "5"); where there is no such file the figures
// stay as they were.
func resetPeakRSS() {
	debug.FreeOSMemory()
	if f, err := os.OpenFile("/proc/self/clear_refs", os.O_WRONLY, 0); err == nil {
		f.Write([]byte("5"))
		f.Close()
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// size is the size of a file, or of the regular files of a directory.
func size(path string) (int64, error) {
	var n int64
	err := filepath.WalkDir(path, func(_ string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.Type().IsRegular() {
			info, err := de.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	return n, err
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func mb(b int64) float64 { return float64(b) / 1e6 }

func printTable(w io.Writer, groups []*group) {
	fmt.Fprintf(w, "%-46s %9s %9s %8s %9s %8s %12s\n", "command", "input MB", "wall s", "CPU s", "peak MB", "RSS/in", "time ratio")
	for _, g := range groups {
		fmt.Fprintf(w, "%s\n", g.title)
		ref := g.cases[0]
		for _, c := range g.cases {
			ratio := ""
			if c != ref || len(g.cases) > 1 {
				ratio = fmt.Sprintf("%.2f×", c.wall.Seconds()/ref.wall.Seconds())
			}
			fmt.Fprintf(w, "  %-44s %9.1f %9.3f %8.3f %9.1f %8.2f %12s\n", c.name, mb(c.inputBytes), c.wall.Seconds(),
				c.cpu.Seconds(), mb(c.rss), float64(c.rss)/float64(c.inputBytes), ratio)
		}
	}
	fmt.Fprintln(w, "time ratio: wall time over the first command of its group")
}

// target is one bar and whether the measurements meet it.
type target struct {
	bar, figure string
	met         bool
}

func targets(groups []*group) []target {
	read, all, synth, scale := groups[0].cases, groups[1].cases[0], groups[2].cases, groups[3].cases
	fw, jq, wc := read[0], read[1], read[3]
	perFinding := func(c *measured, n float64) float64 { return c.wall.Seconds() / n }
	growth := perFinding(scale[2], 100e3) / perFinding(scale[0], 10e3)
	ts := []target{
		{"bus decoding ≥ 250 MB/s (all entries, whole process)",
			fmt.Sprintf("%.0f MB/s", mb(all.inputBytes)/all.wall.Seconds()), mb(all.inputBytes)/all.wall.Seconds() >= 250},
		{"1M-line read of blocking entries within 3× of wc -l",
			fmt.Sprintf("%.1f×", fw.wall.Seconds()/wc.wall.Seconds()), fw.wall <= 3*wc.wall},
		{"1M-line read ≥ 5× faster than jq",
			fmt.Sprintf("%.1f×", jq.wall.Seconds()/fw.wall.Seconds()), jq.wall >= 5*fw.wall},
		{"1M-line bus read in < 1.5 s (SPEC §9)", fmt.Sprintf("%.3f s", all.wall.Seconds()), all.wall < 1500*time.Millisecond},
		{"synth of 64 agents + 200k-line bus < 0.5 s (SPEC §9)", fmt.Sprintf("%.3f s", synth[0].wall.Seconds()), synth[0].wall < 500*time.Millisecond},
		{"synth ≥ 10× faster than the shell pipeline",
			fmt.Sprintf("%.1f×", synth[1].wall.Seconds()/synth[0].wall.Seconds()), synth[1].wall >= 10*synth[0].wall},
		{"1,000 agents × 50 findings in < 2 s", fmt.Sprintf("%.3f s", scale[1].wall.Seconds()), scale[1].wall < 2*time.Second},
		{"linear growth: time per finding at 100k within 1.5× of that at 10k",
			fmt.Sprintf("%.2f×", growth), growth <= 1.5},
	}
	for _, g := range groups {
		for _, c := range g.cases {
			if !strings.HasPrefix(c.name, "fluxwatch") {
				continue
			}
			r := float64(c.rss) / float64(c.inputBytes)
			ts = append(ts, target{"peak RSS < 2× input: " + c.name, fmt.Sprintf("%.2f×", r), r < 2})
		}
	}
	return ts
}

func printTargets(w io.Writer, groups []*group) {
	fmt.Fprintf(w, "%-70s %10s  %s\n", "target", "measured", "")
	for _, t := range targets(groups) {
		verdict := "met"
		if !t.met {
			verdict = "NOT met"
		}
		fmt.Fprintf(w, "%-70s %10s  %s\n", t.bar, t.figure, verdict)
	}
}
