package verify

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// manyClaimsRun is a check whose claims no finding matches, each looked
// for in the agents' reports (invented or unverifiable): 800 claims against
// a 0.7 MB report of 10,000 paragraphs, and one claim a paragraph restates.
// The paragraphs holding a claim's rarest keywords are tried, not every
// paragraph of every report (TestCorpusEachIsPlain holds that to the plain
// reading); trying each took 3.3 s here, the index 0.1 s
// (BenchmarkManyClaimsLongReport).
func manyClaimsRun(t testing.TB) Input {
	rng := rand.New(rand.NewSource(1))
	word := func() string { return fmt.Sprintf("word%d", rng.Intn(5000)) }
	words := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = word()
		}
		return strings.Join(w, " ")
	}
	var report strings.Builder
	report.WriteString("### Findings Index\n- P1 | AB-001 | \"API\" | Session token leaks into the logs\nVerdict: needs-changes\n\n### AB-001 Session token leaks into the logs\n\n")
	for range 10000 {
		report.WriteString(words(8) + "\n\n")
	}
	report.WriteString("<!-- flux-drive:complete -->\n")
	data := []byte(report.String())
	rep := parse.ReadReport(data)
	run := &synth.Run{Input: "run", Agents: []synth.Agent{{Name: "fd-a", File: "fd-a.md", Status: rep.Status, Report: rep, Text: data}}}
	s := synth.Synthesize(run, synth.Options{})

	var syn strings.Builder
	syn.WriteString("# Review Summary\n\n## Key Findings\n\n- **P1** Session token leaks into the logs (1/1 agents)\n")
	for range 800 {
		syn.WriteString("- **P2** " + words(6) + "\n")
	}
	// One claim restated by a paragraph of the report: unverifiable.
	syn.WriteString("- **P2** " + strings.TrimSpace(strings.SplitN(report.String(), "\n\n", 4)[2]) + "\n")

	return Input{Synthesis: []byte(syn.String()), Run: s, Reports: map[string][]byte{"fd-a": data}}
}

// TestManyClaimsLongReport: of the 802 claims, the one that names the
// finding is grounded, the restated one unverifiable, the rest invented or
// unverifiable.
func TestManyClaimsLongReport(t *testing.T) {
	r := Check(manyClaimsRun(t))
	if len(r.Claims) != 802 || r.Grounded != 1 || r.Tally[Unverifiable] < 1 || r.Tally[Invented]+r.Tally[Unverifiable] != 801 {
		t.Errorf("claims %d, grounded %d, tally %v; want 802 claims, 1 grounded, the rest invented or unverifiable (at least the restated one)", len(r.Claims), r.Grounded, r.Tally)
	}
}

func BenchmarkManyClaimsLongReport(b *testing.B) {
	in := manyClaimsRun(b)
	for b.Loop() {
		Check(in)
	}
}
