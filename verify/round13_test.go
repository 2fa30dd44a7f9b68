package verify

import (
	"fmt"
	"github.com/fluxwatch/fluxwatch/synth"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestTrackCountNotAgents: in a run of several agents per track, a count
// of tracks ("(3/3 tracks)") is not a count of agents: trackcount's
// synthesis checked against a fourth agent's report besides raises no
// wrong count.
func TestTrackCountNotAgents(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "trackcount.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	a.Files = append(a.Files, txtar.File{Name: "agents/fd-extra.md", Data: []byte("### Findings Index\n- P2 | X-1 | \"Docs\" | The README omits the install step\nVerdict: safe\n")})
	r := checked(t, a)
	if n := r.Tally[WrongCount]; n != 0 {
		t.Errorf("%d wrong counts, want none:\n%s", n, r.Text("synthesis.md"))
	}
}

// TestCitingItem: an item that lists finding IDs after a label, and
// nothing else but asides, cites the findings bearing out the finding
// above it.
func TestCitingItem(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Track A: NET-1 (P1), QUEUE-1 (P1)", true},
		{"Track C: CACHE-2 (P0, the expiry angle), LOG-1 (P1, the replay angle)", true},
		{"**Sources:** NET-1 and QUEUE-1", true},
		{"Track B: (implied in POOL-3's drain analysis)", false},
		{"Track A: retries double the load (NET-1)", false},
		{"Convergence: 3/4 agents", false},
		{"NET-1, QUEUE-1", false},
	} {
		if got := citingItem(tt.text); got != tt.want {
			t.Errorf("citingItem(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestRestatedCount: a line under a finding that only states its count is
// a claim of that count at its own line, about the finding above, with
// what the finding's block says after it (its sources, its prose); the
// finding's own line is not judged for that count.
func TestRestatedCount(t *testing.T) {
	src := "## Findings\n\n**Retry storms after a regional failover** (P1)\n\n**Convergence:** 2/3 agents\n**Sources:** fd-net, fd-queue\n\nEvery consumer retries at once.\n"
	cs := Claims([]byte(src))
	if len(cs) != 2 {
		t.Fatalf("%d claims, want 2: %+v", len(cs), cs)
	}
	f, n := cs[0], cs[1]
	if f.Line != 3 || f.Count != 2 || f.countLine != 5 || !strings.Contains(f.body, "Every consumer") || !slices.Equal(f.Agents, []string{"fd-net", "fd-queue"}) {
		t.Errorf("finding: line %d count %d body %q agents %v, want line 3, its count judged at line 5, the prose after the count line, both agents", f.Line, f.Count, f.body, f.Agents)
	}
	if n.Line != 5 || n.Count != 2 || n.Of != 3 || n.Title != f.Title || n.restates != 3 || n.Severity != "" || !slices.Equal(n.Agents, f.Agents) {
		t.Errorf("count line: %+v, want line 5, 2/3, the finding's title and agents, no severity", n)
	}
}

// citingRun is a run of findings findings and a synthesis of one finding
// over items items, each citing two of the findings' IDs, its count
// restated after them, and a row citing its own ID: the shape whose
// citations a finding gathers (reader.cite).
func citingRun(t testing.TB, findings, items int) Input {
	var report strings.Builder
	report.WriteString("### Findings Index\n")
	for i := range findings {
		fmt.Fprintf(&report, "- P2 | AB-%04d | \"API\" | Retry budget %d is shared across regions\n", i, i)
	}
	report.WriteString("Verdict: needs-changes\n")
	var syn strings.Builder
	syn.WriteString("# Synthesis\n\n**F1. Retry budget shared across regions**\n")
	for i := range items {
		fmt.Fprintf(&syn, "- Track %d: AB-%04d (P2), AB-%04d (P2)\n", i, i%findings, (i+1)%findings)
	}
	syn.WriteString("- Convergence: 2/4 agents\n\n| ID | Title | Agents |\n|---|---|---|\n| F1 | Retry budget shared | 2/4 |\n")
	return oneAgentInput(report.String(), syn.String(), synth.Options{Dedup: synth.DedupExact})
}

// BenchmarkCitingItems: a finding over 1,000 to 8,000 items citing IDs
// (citingRun); the time should grow with the items, not their square.
func BenchmarkCitingItems(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 8000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchCheck(b, citingRun(b, 2000, n)) })
	}
}

// TestThemeOwnNumber: a table row citing a finding's own number ("| F1 |
// … |") takes the IDs its items cite; a row citing an agent's ID that a
// finding of items also cites ("**NET-1: …**") does not.
func TestThemeOwnNumber(t *testing.T) {
	src := "**F1. Retry storms after failover**\n- Track A: NET-1 (P1)\n- Track B: QUEUE-1 (P1)\n\n" +
		"**NET-2: Pool drained on failover**\n- Track A: NET-2 (P1)\n- Track C: CACHE-2 (P2)\n\n" +
		"| ID | Title | Agents |\n|---|---|---|\n| F1 | Retry storms | 3/4 |\n| NET-2 | Pool drained | 2/4 |\n"
	var rows []Claim
	for _, c := range Claims([]byte(src)) {
		if strings.HasPrefix(c.Text, "|") {
			rows = append(rows, c)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	if rows[0].items != 1 || !slices.Contains(rows[0].Cites, "QUEUE-1") {
		t.Errorf("F1 row: items %d cites %v, want the finding of line 1 and its items' IDs", rows[0].items, rows[0].Cites)
	}
	if rows[1].items != 0 || slices.Contains(rows[1].Cites, "CACHE-2") {
		t.Errorf("NET-2 row: items %d cites %v, want neither the finding's line nor its items' IDs", rows[1].items, rows[1].Cites)
	}
}
