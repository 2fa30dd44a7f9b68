package verify

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestSiblingsCitedNote: a blocker of a report without a findings index
// stays a note when the synthesis cites fewer than two of that agent's
// other blockers by ID, or fewer than half of them: siblingscited's
// synthesis with its second finding cited by words only (no "(Queue-Health
// F2)") reports the third finding as a note.
func TestSiblingsCitedNote(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata/golden", "siblingscited.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Files {
		if a.Files[i].Name == "synthesis.md" {
			a.Files[i].Data = []byte(strings.Replace(string(a.Files[i].Data), " (Queue-Health F2)", "", 1))
		}
	}
	r := checked(t, a)
	if n := r.Tally[MissingBlocker]; n != 0 {
		t.Errorf("%d missing blockers, want none:\n%s", n, r.Text("synthesis.md"))
	}
	if n := r.Tally[Unverifiable]; n != 1 {
		t.Errorf("%d notes, want the third finding's:\n%s", n, r.Text("synthesis.md"))
	}
}
