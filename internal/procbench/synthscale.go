//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/procbench/reportgen"
)

// The synthesis rows of the scale table (issue 29): whole runs and single
// reports through `fluxwatch synth`, where the merging of findings, not the
// parsing, is what grows — demo runs of N agents × 50 findings, one strict
// index report of 2–16 MiB, one prose report of severity groups of 2–16 MiB
// (the shape whose parse holds the most), one report of 5,000–40,000 bold
// `**P1: title n**` items — with the bars of SPEC §9 for them.

// synthSizes sizes the synthesis rows: the full table's, and a tiny one for
// the test that keeps the harness from rotting.
type synthSizes struct {
	demoAgents   int // 1× agents of the demo rows
	demoFindings int // findings per agent
	indexMiB     int // 1× size of the strict index report (see reportBytes)
	boldItems    int // 1× bold items
}

var (
	fullSynthSizes = synthSizes{demoAgents: 1000, demoFindings: 50, indexMiB: 2, boldItems: 5000}
	tinySynthSizes = synthSizes{demoAgents: 10, demoFindings: 10, indexMiB: 1, boldItems: 200}
)

// synthScaleKinds are the synthesis rows, made under dir as asked.
func synthScaleKinds(bin string, c scaleConfig, out string) []*scaleKind {
	sz := c.synth
	synth := func(d string) []string { return []string{bin, "synth", "-q", "--no-evidence", "--out", out, d} }
	return append([]*scaleKind{
		{name: fmt.Sprintf("demo: N agents × %d findings (synth)", sz.demoFindings), unit: "agents", base: sz.demoAgents,
			make: func(dir string, n int) ([]string, string, error) {
				d := filepath.Join(dir, fmt.Sprintf("synth-demo-%d×%d", n, sz.demoFindings))
				if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
					cmd := exec.Command(bin, "demo", "--agents", strconv.Itoa(n), "--findings", strconv.Itoa(sz.demoFindings),
						"--bus-lines", "1000", "--seed", "1", d)
					if b, err := cmd.CombinedOutput(); err != nil {
						return nil, "", fmt.Errorf("demo %s: %v\n%s", d, err, b)
					}
				}
				return synth(d), d, nil
			}},
		{name: "one strict index report (synth)", unit: "MiB", base: sz.indexMiB,
			make: func(dir string, n int) ([]string, string, error) {
				d := filepath.Join(dir, fmt.Sprintf("synth-strict-%d", n))
				err := writeOnce(filepath.Join(d, "fd-index.md"), func() []byte { return reportgen.Report(reportgen.Strict, c.reportSize(n)) })
				return synth(d), d, err
			}},
		{name: "one prose report of severity groups (synth)", unit: "MiB", base: sz.indexMiB,
			make: func(dir string, n int) ([]string, string, error) {
				d := filepath.Join(dir, fmt.Sprintf("synth-prose-group-%d", n))
				err := writeOnce(filepath.Join(d, "fd-groups.md"), func() []byte { return reportgen.Report(reportgen.ProseGroup, c.reportSize(n)) })
				return synth(d), d, err
			}},
		{name: "one report of bold **P1: title n** items (synth)", unit: "items", base: sz.boldItems,
			make: func(dir string, n int) ([]string, string, error) {
				d := filepath.Join(dir, fmt.Sprintf("synth-bold-%d", n))
				err := writeOnce(filepath.Join(d, "fd-bold.md"), func() []byte { return boldItems(n) })
				return synth(d), d, err
			}},
	}, generalSynthKinds(c, synth)...)
}

// writeOnce writes what data returns to path, its directory made, unless
// path exists.
func writeOnce(path string, data func() []byte) error {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data(), 0o644)
}

// boldItems is a prose report of n items "**P1: title i**", a paragraph
// each: titles that share a word and differ by a number.
func boldItems(n int) []byte {
	var b strings.Builder
	b.WriteString("# Review\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "**P1: title %d**\n\n", i)
	}
	return []byte(b.String())
}

// synthScaleBars are the bars of issue 29 on the synthesis rows, when the
// table reached their sizes: 8,000 agents × 50 findings in < 15 s of CPU,
// 1,000 × 50 in < 1 s wall, a 16 MiB report synthesised in < 5 s (CPU time,
// as the other bars on this shared machine; wall time shown).
func synthScaleBars(kinds []*scaleKind) []target {
	var ts []target
	for _, k := range kinds {
		first, last := k.rows[0], k.rows[len(k.rows)-1]
		switch {
		case strings.HasPrefix(k.name, "demo: N agents × 50 findings"):
			if k.base == 1000 {
				ts = append(ts, target{"synth of 1,000 agents × 50 findings in < 1 s wall (CPU)",
					fmt.Sprintf("%.3f s (%.3f s)", first.wall.Seconds(), first.cpu.Seconds()), first.wall < time.Second})
			}
			if k.base<<(len(k.rows)-1) == 8000 {
				ts = append(ts, target{"synth of 8,000 agents × 50 findings in < 15 s CPU (wall)",
					fmt.Sprintf("%.3f s (%.3f s)", last.cpu.Seconds(), last.wall.Seconds()), last.cpu < 15*time.Second})
			}
		case k.unit == "MiB" && last.inputBytes > 15<<20:
			ts = append(ts, target{"16 MiB report synthesised in < 5 s CPU (wall): " + k.name,
				fmt.Sprintf("%.3f s (%.3f s)", last.cpu.Seconds(), last.wall.Seconds()), last.cpu < 5*time.Second})
		}
	}
	return ts
}
