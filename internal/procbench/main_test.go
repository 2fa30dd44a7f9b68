//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/cmdtest"
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

// TestScaleTiny runs the scale table at two small sizes with a fluxwatch
// built for the test, so that the harness of make bench cannot rot: every
// kind is measured at 1× and 2× and every bar is judged.
func TestScaleTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fluxwatch and runs it twice for each kind and size")
	}
	var b bytes.Buffer
	if err := runScale(&b, cmdtest.Build(t), tinyScale, 1, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"strict index report", "variant report: bold IDs", "prose report: severity groups",
		"bus lines, 64 agents", "20 agents × findings", "general report: severity groups", "general report: JSON body", "2× (4000 lines)",
		"demo: N agents × 10 findings (synth)", "one strict index report (synth)", "one prose report of severity groups (synth)", "2× (400 items)", "≤ 2.2× CPU time per doubling (mean 1×→8×; worst step): ",
		"peak RSS ≤ 8× input + 64 MiB ((RSS−64 MiB)/input): "} {
		if !strings.Contains(out, want) {
			t.Errorf("scale table has no %q:\n%s", want, out)
		}
	}
	kinds := len(scaleKinds("", tinyScale, "")) + len(synthScaleKinds("", tinyScale, ""))
	if n := strings.Count(out, "  met") + strings.Count(out, "NOT met"); n != 2*kinds {
		t.Errorf("%d bars judged, want %d (%d kinds × 2):\n%s", n, 2*kinds, kinds, out)
	}
}

// TestScaleBars: the scale bars follow the figures, both ways.
func TestScaleBars(t *testing.T) {
	row := func(in int64, cpu, wall float64, rss int64) *measured {
		return &measured{inputBytes: in, cpu: time.Duration(cpu * 1e9), wall: time.Duration(wall * 1e9), rss: rss}
	}
	mib := int64(1 << 20)
	// r is linear; its 16 MiB row takes 2.5 s of wall time but 0.9 s of CPU.
	linear := &scaleKind{name: "r", report: true, unit: "MiB", base: 2, rows: []*measured{
		row(2*mib, 0.1, 0.2, 30e6), row(4*mib, 0.2, 0.4, 50e6), row(8*mib, 0.44, 0.8, 90e6), row(16*mib-1024, 0.9, 2.5, 190e6)}}
	quadratic := &scaleKind{name: "q", report: true, unit: "MiB", base: 2, rows: []*measured{
		row(2*mib, 0.1, 0.2, 30e6), row(4*mib, 0.4, 0.8, 50e6), row(8*mib, 1.6, 3.2, 90e6), row(16*mib-1024, 6.4, 12.8, 300e6)}}
	bus := &scaleKind{name: "b", unit: "lines", base: 125000, rows: []*measured{
		row(25e6, 1, 1, 60e6), row(50e6, 2, 2, 80e6), row(100e6, 4, 4, 120e6), row(200e6, 8, 8, 210e6)}}
	const dbl, rss = "≤ 2.2× CPU time per doubling (mean 1×→8×; worst step): ", "peak RSS ≤ 8× input + 64 MiB ((RSS−64 MiB)/input): "
	got := map[string]bool{}
	for _, b := range scaleBars([]*scaleKind{linear, quadratic, bus}) {
		got[b.bar] = b.met
	}
	want := map[string]bool{
		dbl + "r": true, dbl + "q": false, dbl + "b": true,
		rss + "r": true, rss + "q": false, rss + "b": true,
		"16 MiB report parsed in < 2 s CPU (wall): r": true, "16 MiB report parsed in < 2 s CPU (wall): q": false,
		"watch on a 1M-line bus < 200 MB peak RSS": false,
	}
	for bar, met := range want {
		if g, ok := got[bar]; !ok || g != met {
			t.Errorf("%s: met = %v (judged: %v), want %v", bar, g, ok, met)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d bars, want %d: %v", len(got), len(want), got)
	}
}

// TestSynthScaleBars: the synthesis bars follow the figures, both ways,
// and are judged only when the table reached their sizes.
func TestSynthScaleBars(t *testing.T) {
	row := func(in int64, cpu, wall float64) *measured {
		return &measured{inputBytes: in, cpu: time.Duration(cpu * 1e9), wall: time.Duration(wall * 1e9)}
	}
	mib := int64(1 << 20)
	demo := func(first, last float64) *scaleKind {
		return &scaleKind{name: "demo: N agents × 50 findings (synth)", unit: "agents", base: 1000,
			rows: []*measured{row(7e6, first, first), row(14e6, 1, 1), row(28e6, 2, 2), row(56e6, last, last)}}
	}
	index := func(last float64) *scaleKind {
		return &scaleKind{name: "one strict index report (synth)", unit: "MiB", base: 2,
			rows: []*measured{row(2*mib, 0.5, 0.5), row(4*mib, 1, 1), row(8*mib, 2, 2), row(16*mib-1024, last, last)}}
	}
	judge := func(kinds ...*scaleKind) map[string]bool {
		got := map[string]bool{}
		for _, b := range synthScaleBars(kinds) {
			got[b.bar] = b.met
		}
		return got
	}
	const one, eight, big = "synth of 1,000 agents × 50 findings in < 1 s wall (CPU)", "synth of 8,000 agents × 50 findings in < 15 s CPU (wall)",
		"16 MiB report synthesised in < 5 s CPU (wall): one strict index report (synth)"
	if got := judge(demo(0.5, 12), index(4)); !got[one] || !got[eight] || !got[big] || len(got) != 3 {
		t.Errorf("good figures: %v", got)
	}
	if got := judge(demo(1.5, 20), index(6)); got[one] || got[eight] || got[big] || len(got) != 3 {
		t.Errorf("bad figures: %v", got)
	}
	small := demo(0.5, 12)
	small.base, small.rows = 10, small.rows[:2]
	if got := judge(small); len(got) != 0 {
		t.Errorf("a tiny table judged %v", got)
	}
}

// TestOnceRSSIsTheChilds: a child's peak RSS is its own, not procbench's
// peak before it (200 MB touched and let go here): at most what this
// process holds now (the race detector's shadow of the 200 MB stays) and a
// margin.
func TestOnceRSSIsTheChilds(t *testing.T) {
	if _, err := os.Stat("/proc/self/clear_refs"); err != nil {
		t.Skip("no /proc/self/clear_refs: the peak cannot be reset here")
	}
	bin, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true(1)")
	}
	b := make([]byte, 200<<20)
	for i := range b {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	_, _, rss, err := once([]string{bin}, filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	var held int64
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			held = kb << 10
		}
	}
	if held == 0 {
		t.Fatal("no VmRSS in /proc/self/status")
	}
	if rss > held+64<<20 {
		t.Errorf("true(1) peaked at %d MB; this process holds %d MB, and peaked above 200", rss>>20, held>>20)
	}
}
