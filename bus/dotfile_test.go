package bus

import (
	"slices"
	"strings"
	"testing"
)

// A bus entry's file refs are kept as written, top-level dotfiles included
// (the same answer parse gives for refs in a report).
func TestDotfileRefsKept(t *testing.T) {
	entries, diags, err := DecodeAll(strings.NewReader(
		`{"severity":"blocking","agent":"fd-a","summary":"key in .env","file_refs":[".env:1",".gitlab-ci.yml:2-4",".github/ci.yml:1"]}`+"\n"), 0)
	if err != nil || len(diags) != 0 || len(entries) != 1 {
		t.Fatalf("DecodeAll = %+v, %v, %v", entries, diags, err)
	}
	if want := []string{".env:1", ".gitlab-ci.yml:2-4", ".github/ci.yml:1"}; !slices.Equal(entries[0].FileRefs, want) {
		t.Errorf("bus file_refs = %q; want %q", entries[0].FileRefs, want)
	}
}
