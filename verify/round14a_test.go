package verify

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestSiblingsCitedNote: a blocker of a report without a findings index
// that the synthesis cites fewer than two of that agent's other blockers
// of by ID, or fewer than half of them, is a missing blocker only when
// the rule of rated places holds (indexless.go): siblingscited's
// synthesis with its second finding cited by words only (no "(Queue-Health
// F2)") still names Queue-Health, and the third finding's heading over a
// severity field rates it: missing. With no citation left that names the
// agent, the synthesis may not have read that report: a note.
func TestSiblingsCitedNote(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "siblingscited.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		drop          []string
		missing, note int
	}{
		{[]string{" (Queue-Health F2)"}, 1, 0},
		{[]string{" (Queue-Health F2)", " (Queue-Health F1)"}, 0, 1},
	} {
		b := *a
		b.Files = slices.Clone(a.Files)
		for i := range b.Files {
			if b.Files[i].Name == "synthesis.md" {
				s := string(b.Files[i].Data)
				for _, d := range tc.drop {
					s = strings.Replace(s, d, "", 1)
				}
				b.Files[i].Data = []byte(s)
			}
		}
		r := checked(t, &b)
		if r.Tally[MissingBlocker] != tc.missing || r.Tally[Unverifiable] != tc.note {
			t.Errorf("without %q: %d missing blockers and %d notes, want %d and %d:\n%s",
				tc.drop, r.Tally[MissingBlocker], r.Tally[Unverifiable], tc.missing, tc.note, r.Text("synthesis.md"))
		}
	}
}

// TestNamedMayRate: a named agent tied to no finding a claim matched may
// have rated it as high as the claim only by a finding rated that high
// whose block says it, or whose block is the nearest the claim's title of
// its findings: namedraised's fd-ordering, whose P0 is the fixed drain
// order, may not rate the shared retry budget P0; with a P0 whose block
// says the budget is shared besides, or whose block names the budget, it
// may.
func TestNamedMayRate(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "namedraised.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	c := &Claim{Title: "The retry budget is shared by every tenant", Text: "### 1. The retry budget is shared by every tenant [P0]"}
	for _, tt := range []struct {
		extra string
		want  bool
	}{
		{"", false},
		{"### ORD-3. Job extraction rejects every batch\n\nThe retry budget is shared by every tenant, so one noisy tenant starves the rest.\n", true},
		{"### ORD-3. Job extraction rejects every batch\n\nThe filter drops jobs that no worker claimed.\n", false},
		// Its finding nearest the claim's title, rated P0, though its
		// block holds little of the claim: it may rate it P0.
		{"### ORD-3. Job extraction rejects every batch\n\nThe budget is read once per run.\n", true},
	} {
		b := *a
		b.Files = slices.Clone(a.Files)
		for i := range b.Files {
			if b.Files[i].Name == "agents/fd-ordering.md" && tt.extra != "" {
				b.Files[i].Data = []byte(strings.Replace(string(b.Files[i].Data), "Verdict:", "- P0 | ORD-3 | \"Extraction\" | Job extraction rejects every batch\nVerdict:", 1) + "\n" + tt.extra)
			}
		}
		s, reports := runOf(t, &b)
		r := newRun(s, reports)
		if got := r.mayRate("fd-ordering", c, 0); got != tt.want {
			t.Errorf("with %q: mayRate = %v, want %v", tt.extra, got, tt.want)
		}
	}
}

// TestByIDFindingNumber: "(Queue-Health F2)" cites fd-queue-health's
// "## Finding 2", even when another agent's index has an ID F2; cited
// without an agent, F2 is that other agent's ID.
func TestByIDFindingNumber(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "findingno.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	a.Files = append(a.Files, txtar.File{Name: "agents/fd-other.md", Data: []byte("### Findings Index\n- P1 | F2 | \"Docs\" | The README omits the install step\nVerdict: needs-changes\n")})
	s, reports := runOf(t, a)
	r := newRun(s, reports)
	agentsOf := func(es []idEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.agent)
		}
		return out
	}
	if got := agentsOf(r.byID("F2", "fd-queue-health")); !slices.Equal(got, []string{"fd-queue-health"}) {
		t.Errorf("byID(F2, fd-queue-health) = %v, want fd-queue-health's finding 2", got)
	}
	if got := agentsOf(r.byID("F2", "")); !slices.Equal(got, []string{"fd-other"}) {
		t.Errorf("byID(F2, \"\") = %v, want fd-other's F2", got)
	}
}
