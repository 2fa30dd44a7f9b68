package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// TestCorpusPriming synthesises every corpus run directory that has a bus
// and logs how many agreements were independent and how many primed, with
// the yield table of the run with the most findings. It checks the
// invariants: independent + primed = convergence for every finding, and
// each agent's yield adds up. Skipped when ../shared is absent.
//
// The corpus keeps no real modification times (a checkout gives every
// report the time it was written to disk, after every bus entry), so the
// split it logs is the one of agents that all finished after the bus: the
// most primed the rule can make of these runs.
func TestCorpusPriming(t *testing.T) {
	root := corpustest.Root(t)
	var runs, findings, shared, independent, primed int
	var best *synth.Synthesis
	bestRel := ""
	for _, dir := range runDirs(t, root) {
		if !hasBus(dir) {
			continue
		}
		run, err := watcher.Scan(context.Background(), dir, watcher.ScanOptions{})
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		s := synth.Synthesize(run, synth.Options{})
		runs++
		ind, pr := 0, 0
		for _, f := range s.Findings {
			if f.Independent+len(f.Primed()) != f.Convergence {
				t.Errorf("%s: %s: %d independent + %d primed != convergence %d", dir, f.Key, f.Independent, len(f.Primed()), f.Convergence)
			}
			ind += f.Independent
			pr += len(f.Primed())
			if f.Convergence > 1 {
				shared++
			}
		}
		for _, y := range s.Yield {
			if y.Unique+y.Independent+y.Primed != y.Reported {
				t.Errorf("%s: yield of %s does not add up: %+v", dir, y.Agent, y)
			}
		}
		findings += len(s.Findings)
		independent += ind
		primed += pr
		rel, _ := filepath.Rel(root, dir)
		t.Logf("%s: %d findings, %d agreements independent, %d primed", rel, len(s.Findings), ind, pr)
		if best == nil || len(s.Findings) > len(best.Findings) {
			best, bestRel = s, rel
		}
	}
	if runs == 0 {
		t.Fatal("no corpus run directory with a bus")
	}
	t.Logf("%d runs with a bus: %d findings (%d reported by more than one agent); agent reports: %d independent, %d primed",
		runs, findings, shared, independent, primed)
	var b strings.Builder
	for _, y := range best.Yield {
		tokens := "unknown"
		if y.Tokens != nil {
			tokens = "stated"
		}
		b.WriteString("\n  " + y.Agent + ": reported " + strconv.Itoa(y.Reported) + ", unique " + strconv.Itoa(y.Unique) +
			", independent " + strconv.Itoa(y.Independent) + ", primed " + strconv.Itoa(y.Primed) + ", adjusted " + strconv.Itoa(y.Adjusted) +
			", contradicted " + strconv.Itoa(y.Contradicted) + ", tokens " + tokens)
	}
	t.Logf("yield of %s:%s", bestRel, b.String())
}

func hasBus(dir string) bool {
	for _, name := range []string{"findings.jsonl", "peer-findings.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}
