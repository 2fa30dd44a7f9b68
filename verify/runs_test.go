package verify

import (
	"slices"
	"testing"
)

// TestHeaderCount: the count of agents a synthesis's header states, in
// digits or words, and nothing from its body or front matter.
func TestHeaderCount(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"# Synthesis\n\n**Review:** plan review (3 agents)\n\n## Verdict\n", 3},
		{"# Synthesis\n**Reviewers:** 8 review agents\n", 8},
		{"# Synthesis\n**Agents:** 7 domain reviewers (a, b)\n", 7},
		{"# Synthesis\nFive agents reviewed the plan.\n", 5},
		{"# Synthesis\n\n## Findings\n\nReviewed with 4 agents.\n", 0},
		{"---\nnote: 9 agents\n---\n# Synthesis\n", 0},
		{"# Synthesis\n**Agents:** fd-a, fd-b\n", 0},
	} {
		if got := headerCount([]byte(tc.src)); got != tc.want {
			t.Errorf("headerCount(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

// TestFrontMatterRoster: the agents a synthesis's front matter lists as
// those it was written from, under the keys of fmRosterKeys only.
func TestFrontMatterRoster(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"---\nagents_launched:\n  - fd-a\n  - fd-b\n---\n# S\n", []string{"fd-a", "fd-b"}},
		{"---\nreviewers: [fd-a]\nagents: [fd-c]\n---\n", []string{"fd-a", "fd-c"}},
		{"---\nfindings:\n  - title: x\n    agents: [fd-a]\n---\n", nil},
		{"---\nagents: 3\n---\n", nil},
		{"# S\nagents_launched: [fd-a]\n", nil},
		{"---\nagents: [\n---\n", nil},
	} {
		if got := frontMatterRoster([]byte(tc.src)); !slices.Equal(got, tc.want) {
			t.Errorf("frontMatterRoster(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}
