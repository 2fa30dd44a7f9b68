package verify

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// manyClaimsRun is a check whose claims no finding matches, each looked
// for in the agent's report (invented or unverifiable): claims random
// claims against a report of paras random paragraphs under a Notes heading,
// one claim the first such paragraph restates, and one claim that states
// the report's one finding. The paragraphs holding a claim's words are
// found through a word index, not by trying each (TestCorpusEachIsPlain
// holds that to the plain reading); trying each took 3.3 s for 800 claims
// against 10,000 paragraphs, the index 0.1 s (BenchmarkManyClaimsLongReport).
func manyClaimsRun(t testing.TB, paras, claims int) Input {
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
	report.WriteString("### Findings Index\n- P1 | AB-001 | \"API\" | Session token leaks into the logs\nVerdict: needs-changes\n\n### AB-001 Session token leaks into the logs\n\nThe token is written to the request log.\n\n## Notes\n\n")
	first := ""
	for i := range paras {
		p := words(8)
		if i == 0 {
			first = p
		}
		report.WriteString(p + "\n\n")
	}
	report.WriteString("<!-- flux-drive:complete -->\n")

	var syn strings.Builder
	syn.WriteString("# Review Summary\n\n## Key Findings\n\n- **P1** Session token leaks into the logs (1/1 agents)\n")
	for range claims {
		syn.WriteString("- **P2** " + words(6) + "\n")
	}
	// One claim restated by a paragraph of the report: unverifiable.
	syn.WriteString("- **P2** " + first + "\n")
	return oneAgentInput(report.String(), syn.String(), synth.Options{})
}

// oneAgentInput is the check of synthesis against a run of one agent,
// fd-a, whose report is report, synthesised with opts.
func oneAgentInput(report, synthesis string, opts synth.Options) Input {
	data := []byte(report)
	rep := parse.ReadReport(data)
	run := &synth.Run{Input: "run", Agents: []synth.Agent{{Name: "fd-a", File: "fd-a.md", Status: rep.Status, Report: rep, Text: data}}}
	return Input{Synthesis: []byte(synthesis), Run: synth.Synthesize(run, opts), Reports: map[string][]byte{"fd-a": data}}
}

// benchCheck times Check of in.
func benchCheck(b *testing.B, in Input) {
	for b.Loop() {
		Check(in)
	}
}

// TestManyClaimsLongReport: of the 802 claims, the one that names the
// finding is grounded, the restated one unverifiable, the rest invented or
// unverifiable.
func TestManyClaimsLongReport(t *testing.T) {
	r := Check(manyClaimsRun(t, 10000, 800))
	if len(r.Claims) != 802 || r.Grounded != 1 || r.Tally[Unverifiable] < 1 || r.Tally[Invented]+r.Tally[Unverifiable] != 801 {
		t.Errorf("claims %d, grounded %d, tally %v; want 802 claims, 1 grounded, the rest invented or unverifiable (at least the restated one)", len(r.Claims), r.Grounded, r.Tally)
	}
	last := r.Claims[len(r.Claims)-1]
	for _, p := range r.Problems {
		if p.Line == last.Line && p.Kind != Unverifiable {
			t.Errorf("the restated claim: %s %s, want unverifiable", p.Kind, p.Message)
		}
	}
}

// BenchmarkManyClaimsLongReport: 800 claims against a 0.7 MB report.
func BenchmarkManyClaimsLongReport(b *testing.B) {
	benchCheck(b, manyClaimsRun(b, 10000, 800))
}

// BenchmarkThousandClaims5MB: 1,000 claims against a 4.7 MB report, the
// size `fluxwatch verify` took 3.6 s for (83 s before the word index).
func BenchmarkThousandClaims5MB(b *testing.B) {
	in := manyClaimsRun(b, 66000, 1000)
	b.SetBytes(int64(len(in.Reports["fd-a"])))
	benchCheck(b, in)
}

// manyFindingsRun is a run of findings findings, each with a title of
// random words, and a synthesis of claims claims, each restating one
// finding's title in part: the title rule tries every claim against every
// finding, unless it can tell which findings a claim cannot match.
func manyFindingsRun(t testing.TB, findings, claims int) Input {
	rng := rand.New(rand.NewSource(2))
	word := func() string { return fmt.Sprintf("term%d", rng.Intn(3000)) }
	title := func(n int) []string {
		w := make([]string, n)
		for i := range w {
			w[i] = word()
		}
		return w
	}
	var report strings.Builder
	report.WriteString("### Findings Index\n")
	titles := make([][]string, findings)
	for i := range titles {
		titles[i] = title(6)
		fmt.Fprintf(&report, "- P2 | AB-%04d | \"API\" | %s\n", i, strings.Join(titles[i], " "))
	}
	report.WriteString("Verdict: needs-changes\n")
	var syn strings.Builder
	syn.WriteString("# Review Summary\n\n## P2 Findings\n\n")
	for i := range claims {
		tw := titles[rng.Intn(len(titles))]
		syn.WriteString("- " + strings.Join(tw[:4], " ") + " " + word() + fmt.Sprintf(" (%d agents)\n", 1+i%2))
	}
	return oneAgentInput(report.String(), syn.String(), synth.Options{Dedup: synth.DedupExact})
}

// BenchmarkManyFindingsManyClaims: 2,000 claims against a run of 2,000
// findings.
func BenchmarkManyFindingsManyClaims(b *testing.B) {
	benchCheck(b, manyFindingsRun(b, 2000, 2000))
}

// BenchmarkManyBlockersLeftOut: 2,000 P1 findings, 200 claims: most
// blockers are left out, each looked for in the synthesis.
func BenchmarkManyBlockersLeftOut(b *testing.B) {
	in := manyFindingsRun(b, 2000, 200)
	in.Run.Findings = slices.Clone(in.Run.Findings)
	for i := range in.Run.Findings {
		in.Run.Findings[i].Severity = parse.P1
	}
	benchCheck(b, in)
}
