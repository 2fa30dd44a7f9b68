package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
)

// TestClaimDebug prints, for one synthesis of the corpus (DBG_SYN, its
// path as in corpus-labels.jsonl) and some of its lines (DBG_LINES, comma
// separated; 0 for all), what verify tied each claim to and why it judged
// it so, and the blockers it reports missing (DBG_TRACE=1: why each finding
// counts as present). A tool for labelling and for reading a miss; it
// asserts nothing and skips unless DBG_SYN is set.
func TestClaimDebug(t *testing.T) {
	name := os.Getenv("DBG_SYN")
	if name == "" {
		t.Skip("DBG_SYN not set")
	}
	lines := map[int]bool{}
	for _, f := range strings.Split(os.Getenv("DBG_LINES"), ",") {
		n, _ := strconv.Atoi(f)
		lines[n] = true
	}
	root := corpustest.Root(t)
	_, agents := readLabels(t)
	var rr *run
	debugClaim = func(r *run, c *Claim, m matched, ps []Problem) {
		rr = r
		if !lines[c.Line] && !lines[0] {
			return
		}
		fmt.Printf("L%d %q sev=%s count=%d/%d agents=%v cites=%v\n", c.Line, c.Title, c.Severity, c.Count, c.Of, c.Agents, c.Cites)
		fmt.Printf("   named=%v citers=%v\n", m.named, m.citers)
		for _, j := range m.cands {
			fmt.Printf("   cand %s %v %v\n", r.cands[j].key(), r.cands[j].agents, r.cands[j].f != nil && true)
			if f := r.cands[j].f; f != nil {
				for _, s := range f.Sources {
					fmt.Printf("      src %s %s %s\n", s.Agent, s.ID, s.Severity)
				}
			}
		}
		for _, j := range m.weak {
			fmt.Printf("   weak %s %v\n", r.cands[j].key(), r.cands[j].agents)
		}
		for a, fs := range m.said {
			if fs.title > 0.1 || fs.all > 0.1 {
				fmt.Printf("   said %s title=%.2f all=%.2f\n", a, fs.title, fs.all)
			}
		}
		for i, s := range m.scores {
			if s > 0.1 {
				fmt.Printf("   score %s %.2f\n", r.reports.names[i], s)
			}
		}
		for _, p := range ps {
			fmt.Printf("   => %s: %s\n", p.Kind, p.Message)
		}
	}
	defer func() { debugClaim = nil }()
	// Why each blocker counts as present, kept until the run is known
	// (claims are matched before the first is judged).
	type why struct {
		j   int
		why string
	}
	var whys []why
	tracePresent = func(j int, s string) {
		if os.Getenv("DBG_TRACE") != "" {
			whys = append(whys, why{j, s})
		}
	}
	defer func() { tracePresent = nil }()
	debugRestate = func(j, k int) {
		fmt.Printf("RESTATED %s BY %s\n", rr.cands[j].key(), rr.cands[k].key())
	}
	defer func() { debugRestate = nil }()
	r, _ := corpusCheck(t, filepath.Join(root, name), agents[name])
	for _, w := range whys {
		if rr != nil && rr.cands[w.j].f != nil && rr.cands[w.j].f.Severity.Rank() <= 1 {
			fmt.Printf("   present %s: %s\n", rr.cands[w.j].key(), w.why)
		}
	}
	for _, p := range r.Problems {
		if p.Kind == MissingBlocker || p.Line == 0 {
			fmt.Println("MISSING", p.Message)
		}
	}
}
