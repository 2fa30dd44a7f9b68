package verify

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestAbsentAgent: a claim no report of the run says is invented only
// when every agent the synthesis names is an agent of the run: absentagent
// names fd-billing, whose report the run lacks, and its claim is a note;
// with fd-billing's name taken out of the synthesis the same claim is
// invented.
func TestAbsentAgent(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "absentagent.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	r := checked(t, a)
	if r.Tally[Invented] != 0 || r.Tally[Unverifiable] != 1 {
		t.Errorf("with fd-billing named: %d invented, %d notes; want none and one:\n%s", r.Tally[Invented], r.Tally[Unverifiable], r.Text("synthesis.md"))
	}
	if !strings.Contains(string(r.Text("synthesis.md")), "fd-billing, whose report RUN does not hold") {
		t.Errorf("the note does not name fd-billing:\n%s", r.Text("synthesis.md"))
	}
	for i := range a.Files {
		if a.Files[i].Name == "synthesis.md" {
			s := strings.ReplaceAll(string(a.Files[i].Data), " and fd-billing", "")
			a.Files[i].Data = []byte(strings.ReplaceAll(s, " (fd-billing)", ""))
		}
	}
	r = checked(t, a)
	if r.Tally[Invented] != 1 {
		t.Errorf("without fd-billing: %d invented, want 1:\n%s", r.Tally[Invented], r.Text("synthesis.md"))
	}
}

// TestAbsentAgentsNames: the names of agents the run does not hold, and
// none it does (a shortened name, a name two agents fit) or a path.
func TestAbsentAgentsNames(t *testing.T) {
	a := &txtar.Archive{Files: []txtar.File{
		{Name: "agents/fd-architecture.md", Data: []byte("### Findings Index\n- P1 | A-1 | \"X\" | Layering is broken\nVerdict: risky\n")},
		{Name: "agents/fd-cache-read.md", Data: []byte("### Findings Index\n- P1 | C-1 | \"X\" | Reads are stale\nVerdict: risky\n")},
		{Name: "agents/fd-cache-write.md", Data: []byte("### Findings Index\n- P1 | W-1 | \"X\" | Writes are lost\nVerdict: risky\n")},
	}}
	s, reports := runOf(t, a)
	r := newRun(s, reports)
	got := r.absentAgents([]byte("fd-arch, fd-cache, `fd-routing` and fd-capability-routing.md; see out/fd-other.json and FD-NOTE"))
	if want := []string{"fd-capability-routing", "fd-routing"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("absentAgents = %v, want %v", got, want)
	}
}

// TestNumberedIndex: an agent whose index numbers its findings and gives
// them no ID is cited by number after its name ("fd-cache F3"): F1 and F3
// of numberedindex are its first and third findings, F7 an ID it never
// wrote. An index numbered afresh under each group ("1." twice) names no
// finding by its number.
func TestNumberedIndex(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "numberedindex.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	r := checked(t, a)
	flagged := map[int]bool{}
	for _, p := range r.Problems {
		flagged[p.Line] = true
	}
	if flagged[5] || flagged[6] || !flagged[7] || len(r.Problems) != 1 {
		t.Errorf("want F7 alone flagged:\n%s", r.Text("synthesis.md"))
	}
	s, reports := runOf(t, a)
	rn := newRun(s, reports)
	titleOf := func(es []idEntry) string {
		if len(es) != 1 {
			return fmt.Sprint(len(es), " findings")
		}
		return rn.cands[es[0].cand].f.Title
	}
	if got := titleOf(rn.byID("F3", "fd-cache")); !strings.HasPrefix(got, "Health probe") {
		t.Errorf("F3 of fd-cache = %q, want its third finding", got)
	}
	if got := rn.byID("F3", ""); len(got) != 0 {
		t.Errorf("F3 cited with no agent: %d findings, want none", len(got))
	}
	for i := range a.Files {
		if a.Files[i].Name == "agents/fd-cache.md" {
			a.Files[i].Data = []byte(strings.NewReplacer("2. Refill", "1. Refill", "3. Health", "1. Health").Replace(string(a.Files[i].Data)))
		}
	}
	s, reports = runOf(t, a)
	if got := newRun(s, reports).byID("F1", "fd-cache"); len(got) != 0 {
		t.Errorf("numbered afresh: F1 of fd-cache is %d findings, want none", len(got))
	}
}

// TestOneAgentCites: a line citing one agent's ID and naming no other
// agent does not state another agent's blocker by the words it shares
// with it (oneagentcites: fd-verdict's V-2 is missing); the same line
// citing no ID, or naming fd-verdict too, may state it.
func TestOneAgentCites(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "oneagentcites.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		from, to string
		missing  int
	}{
		{"", "", 1},
		{"fd-race R-2 [HIGH]", "fd-race [HIGH]", 0},
		{"renames them.", "renames them (fd-verdict).", 0},
	} {
		b := *a
		b.Files = slices.Clone(a.Files)
		for i := range b.Files {
			if b.Files[i].Name == "synthesis.md" && tt.from != "" {
				b.Files[i].Data = []byte(strings.Replace(string(b.Files[i].Data), tt.from, tt.to, 1))
			}
		}
		r := checked(t, &b)
		if n := r.Tally[MissingBlocker]; n != tt.missing {
			t.Errorf("%q: %d missing blockers, want %d:\n%s", tt.to, n, tt.missing, r.Text("synthesis.md"))
		}
	}
}

// TestAgentColumns: agentcolumns flags the row counting three agents and
// marking one, the row marking fd-store, none of whose findings says it,
// and the row whose count column says all agents agree (the table's three)
// and marks one; the row whose count column reads "Single report; high
// severity" is not a count of two.
func TestAgentColumns(t *testing.T) {
	r := resultOf(t, "agentcolumns")
	var lines []int
	for _, p := range r.Problems {
		if !p.Kind.Note() {
			lines = append(lines, p.Line)
		}
	}
	if !slices.Equal(lines, []int{7, 10, 11}) {
		t.Errorf("flagged lines %v, want [7 10 11]:\n%s", lines, r.Text("synthesis.md"))
	}
}

// TestMarkedAgents: the marks of an agent-column table's cells, and a
// table with one agent column, which is no agent-column table.
func TestMarkedAgents(t *testing.T) {
	tb := newTable([]string{"Issue", "fd-a", "fd-b", "fd-c", "fd-d", "Priority"})
	got := tb.markedAgents([]string{"Retry storm", "P3 info", "—", "✓", "no retry cap on the worker pool", "P1"})
	var labels []string
	for _, a := range got {
		labels = append(labels, a.label+":"+string(a.sev))
	}
	if want := []string{"fd-a:P3", "fd-c:"}; !slices.Equal(labels, want) {
		t.Errorf("marked %v, want %v", labels, want)
	}
	if tb := newTable([]string{"Issue", "fd-a", "Notes"}); tb.agentCols != nil {
		t.Errorf("one agent column: agentCols %v, want none", tb.agentCols)
	}
}

// TestRecommendationGroups: recgroups's claims are the two numbered bold
// lines under the severity groups of its section of recommendations, at
// their groups' severities; the section's own prose, the "**Blocker:**"
// field and the plan item under "2. Other Work" are none. Outside a
// severity group a numbered bold line is no claim by this rule.
func TestRecommendationGroups(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "recgroups.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	src := txtartest.File(a, "synthesis.md").Data
	var got []string
	for _, c := range Claims(src) {
		got = append(got, fmt.Sprintf("%d %s %s", c.Line, c.Severity, c.Title))
	}
	want := []string{"11 P1 Add a timeout to every state query", "19 P2 Publish a periodic coordination snapshot"}
	if !slices.Equal(got, want) {
		t.Errorf("claims %q, want %q", got, want)
	}
	if cs := Claims([]byte("# S\n\n## Notes\n\n**1.2: Publish a periodic coordination snapshot**\n- Effort: low\n")); len(cs) != 0 {
		t.Errorf("outside a group: %d claims, want none", len(cs))
	}
}

// TestHeadingLabels: headinglabels states both blockers in a paragraph
// under a heading naming their agents by label; with the labels taken
// out of the heading, or the heading a severity group ("### P1 (Queue
// Health + Cache Coherence)", which names the areas of its findings, not
// who the paragraph speaks of), both are missing.
func TestHeadingLabels(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "headinglabels.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	const head = "### Perspective 1: Operations as a Control Loop (Queue Health + Cache Coherence, Track A)"
	for _, tt := range []struct {
		to      string
		missing int
	}{
		{head, 0},
		{"### Perspective 1: Operations as a Control Loop", 2},
		{"### P1 (Queue Health + Cache Coherence)", 2},
	} {
		b := *a
		b.Files = slices.Clone(a.Files)
		for i := range b.Files {
			if b.Files[i].Name == "synthesis.md" {
				b.Files[i].Data = []byte(strings.Replace(string(b.Files[i].Data), head, tt.to, 1))
			}
		}
		r := checked(t, &b)
		if n := r.Tally[MissingBlocker]; n != tt.missing {
			t.Errorf("%q: %d missing blockers, want %d:\n%s", tt.to, n, tt.missing, r.Text("synthesis.md"))
		}
	}
}

// TestRatedBold: ratedbold's claims are the two bold ID lines its
// Priority fields rate, at those severities; the one with no rating
// field is none, and with its field rated it is one.
func TestRatedBold(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "ratedbold.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(txtartest.File(a, "synthesis.md").Data)
	claimsOf := func(src string) []string {
		var out []string
		for _, c := range Claims([]byte(src)) {
			out = append(out, fmt.Sprintf("%d %s", c.Line, c.Severity))
		}
		return out
	}
	if got, want := claimsOf(src), []string{"5 P0", "9 P1"}; !slices.Equal(got, want) {
		t.Errorf("claims %q, want %q", got, want)
	}
	src = strings.Replace(src, "- **Effort:** 3 days", "- **Priority:** P2\n- **Effort:** 3 days", 1)
	if got, want := claimsOf(src), []string{"5 P0", "9 P1", "13 P2"}; !slices.Equal(got, want) {
		t.Errorf("with AO-3 rated: claims %q, want %q", got, want)
	}
}
