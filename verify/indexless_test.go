package verify

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestRatedPlace: a line rates the finding it is read from when it is a
// heading, a bold lead-in, a list item or a table row that writes a
// blocker's level as a label, or a heading or bold line over a rating
// field; a numbered step, a list item under a rated heading, prose, and
// a severity word that is a word of the title rate nothing.
func TestRatedPlace(t *testing.T) {
	report := strings.Join([]string{
		"### [P1] Retry worker drops poison messages", // 1
		"**Billing ignores partial refunds** (High)",  // 2
		"- **[P0] Lease renewal races the timeout.**", // 3
		"| F5 | high | Feedback latency too vague |",  // 4
		"## Finding 5: Snapshots are disconnected",    // 5
		"",                                  // 6
		"**Severity:** HIGH",                // 7
		"1. Add a dead-letter table",        // 8
		"### High memory use in the cache",  // 9
		"The worker is a P1 risk in prose.", // 10
		"- Station 1: dispatch view — not built.",    // 11
		"**P0 — No editorial judgment layer.** Text", // 12
		"### CRITICAL: tokens never expire",          // 13
		"### Critical gaps in the literature",        // 14
	}, "\n")
	r := &run{texts: map[string][]byte{"fd-a": []byte(report)}, lineStarts: map[string][]int{}}
	want := map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 12: true, 13: true}
	for n := 1; n <= 14; n++ {
		if n == 6 || n == 7 {
			continue
		}
		if got := r.ratedPlace("fd-a", n); got != want[n] {
			t.Errorf("line %d %q: rated %v, want %v", n, r.reportLine("fd-a", n), got, want[n])
		}
	}
}

// TestStatedLoosely: indexless's fd-queue blocker "Retry worker drops
// poison messages silently" is stated, and no longer missing, when a line
// holds two of its title's words, when a section naming fd-queue holds
// one, or when a line holds three words of its title and description
// together; a line holding one title word outside a section naming
// fd-queue does not state it.
func TestStatedLoosely(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "indexless.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		add     string
		missing bool
	}{
		{"", true},
		{"\n## Notes\n\nThe worker pool is sized by hand.\n", true},
		{"\n## Medium (P2)\n\n- **Poison messages vanish after three tries**\n", false},
		{"\n## Queue (fd-queue)\n\n- **Failures are swallowed by the worker**\n", false},
		{"\n## Medium (P2)\n\n- **Nothing lands in the dead-letter table** (fd-api)\n", false},
	} {
		b := *a
		b.Files = slices.Clone(a.Files)
		for i := range b.Files {
			if b.Files[i].Name == "synthesis.md" {
				b.Files[i].Data = append(slices.Clone(b.Files[i].Data), tc.add...)
			}
		}
		r := checked(t, &b)
		got := strings.Contains(string(r.Text("synthesis.md")), "missing-blocker: the run's P1 “Retry worker")
		if got != tc.missing {
			t.Errorf("with %q: missing %v, want %v:\n%s", tc.add, got, tc.missing, r.Text("synthesis.md"))
		}
	}
}

// TestTrackLabel: a review writing one report per track names the agent
// track-b-orthogonal "Track B"; "Track 3" names no track-b agent.
func TestTrackLabel(t *testing.T) {
	r := &run{cands: []candidate{{agents: []string{"track-b-orthogonal"}}}, agents: newAgentIndex(nil, nil, nil)}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"**Found by:** Track B (clinical, newsroom)", true},
		{"- track-b: no confidence model", true},
		{"**Found by:** Track A, Track C", false},
		{"Backtracking b-trees", false},
	} {
		if got := r.namesAgentOf(tc.line, 0); got != tc.want {
			t.Errorf("%q names track-b-orthogonal: %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestIndexlessAgentUnnamed: a rated blocker of an agent the synthesis
// never names, by name or label, stays a note: the synthesis may not have
// read that report.
func TestIndexlessAgentUnnamed(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "indexless.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	b := *a
	b.Files = slices.Clone(a.Files)
	for i := range b.Files {
		if b.Files[i].Name == "synthesis.md" {
			b.Files[i].Data = []byte(strings.Replace(string(b.Files[i].Data), " (fd-queue)", "", 1))
		}
	}
	r := checked(t, &b)
	if r.Tally[MissingBlocker] != 0 || r.Tally[Unverifiable] == 0 {
		t.Errorf("%d missing blockers, %d notes; want none and notes:\n%s", r.Tally[MissingBlocker], r.Tally[Unverifiable], r.Text("synthesis.md"))
	}
}

// BenchmarkIndexlessBlockersLeftOut: 1,000 claims against a 4.7 MB report
// with no findings index, 1,000 blockers each under a heading that rates
// it ("### [P1] …") over a long paragraph, half of them left out: the
// rule of rated places reads each one left out (its place, the
// synthesis's lines and sections, its block).
func BenchmarkIndexlessBlockersLeftOut(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	word := func(p string) string { return fmt.Sprintf("%s%d", p, rng.Intn(3000)) }
	words := func(p string, n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = word(p)
		}
		return strings.Join(w, " ")
	}
	var report strings.Builder
	report.WriteString("# Review\n\n")
	titles := make([]string, 1000)
	for i := range titles {
		titles[i] = words("term", 6)
		fmt.Fprintf(&report, "### [P1] %s\n\n", titles[i])
		for range 6 {
			report.WriteString(words("prose", 90) + ".\n")
		}
		report.WriteString("\n")
	}
	var syn strings.Builder
	syn.WriteString("# Review Summary\n\n## High (P1)\n\n")
	for i := range 1000 {
		if i%2 == 0 {
			fmt.Fprintf(&syn, "- **%s** (fd-a)\n", titles[i])
		} else {
			fmt.Fprintf(&syn, "- **%s** (fd-a)\n", words("other", 6))
		}
	}
	in := oneAgentInput(report.String(), syn.String(), synth.Options{Dedup: synth.DedupExact})
	b.SetBytes(int64(len(in.Reports["fd-a"])))
	benchCheck(b, in)
}
