package verify

import (
	"slices"
	"testing"
)

// TestGoldenKindsRound6 pins what the archives of issue 28's sixth round
// and after are about, as TestGoldenKinds does for the others, so that a
// -update that loses the point of a fixture fails.
func TestGoldenKindsRound6(t *testing.T) {
	for _, tc := range []struct {
		archive    string
		kinds      []Kind // the kinds the fixture shows, and no other
		ungrounded bool
	}{
		{"topicwords", []Kind{MissingBlocker}, true},
		{"fixcited", []Kind{MissingBlocker}, true},
		{"rosterline", []Kind{MissingBlocker}, true},
		{"frontmatter", []Kind{SeverityRaised, WrongCount}, true},
		{"citedcount", []Kind{WrongCount}, true},
		{"neighbour", []Kind{WrongCount}, true},    // round 7
		{"fixnamed", []Kind{MissingBlocker}, true}, // round 11
		{"onecount", []Kind{MissingBlocker}, true},
		{"unrelatedcite", []Kind{SeverityRaised}, true},
		{"zerotally", []Kind{MissingBlocker}, true},
		{"agentseverity", []Kind{MissingBlocker}, true},
		{"rosterfirst", []Kind{MissingBlocker}, true},
		{"agentsevnames", []Kind{MissingBlocker}, true},
		{"otheragents", []Kind{MissingBlocker}, true},
		{"countedfix", []Kind{MissingBlocker}, true},
	} {
		t.Run(tc.archive, func(t *testing.T) {
			r := resultOf(t, tc.archive)
			if got := r.Ungrounded(); got != tc.ungrounded {
				t.Errorf("Ungrounded() = %v, want %v\n%s", got, tc.ungrounded, r.Text("synthesis.md"))
			}
			for _, k := range Kinds {
				if n := r.Tally[k]; slices.Contains(tc.kinds, k) != (n > 0) {
					t.Errorf("%d %s problems, want them only of kinds %v:\n%s", n, k, tc.kinds, r.Text("synthesis.md"))
				}
			}
		})
	}
}

// TestFrontMatterClaims: a front-matter findings list gives a claim per
// item with a title, at the item's line, with its fields; the roster,
// tallies and invalid YAML give none.
func TestFrontMatterClaims(t *testing.T) {
	src := "---\nagents: [fd-a, fd-b]\np0_count: 1\nissues:\n  - title: Tokens never expire\n    priority: Critical\n    found_by: [fd-a, fd-b (SEC-2)]\n    agreement: 2/2\n  - severity: P1\n  - Just a string\n---\n# Synthesis\n"
	cs := Claims([]byte(src))
	if len(cs) != 1 {
		t.Fatalf("got %d claims, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if c.Line != 5 || c.Title != "Tokens never expire" || c.Severity != "P0" || c.Count != 2 || c.Of != 2 ||
		!slices.Equal(c.Agents, []string{"fd-a", "fd-b"}) || !slices.Equal(c.Cites, []string{"SEC-2"}) {
		t.Errorf("claim = %+v", c)
	}
	for src, want := range map[string]int{
		"---\nfindings: [unclosed\n---\n":                                    0, // invalid YAML
		"---\nfindings:\n  - &a {title: Tokens never expire}\n  - *a\n---\n": 1, // an alias is not expanded
		"---\n---\n": 0,
		"---\nfindings:\n  - title: never closed\n": 0, // no closing line: not front matter
	} {
		if got := len(Claims([]byte(src))); got != want {
			t.Errorf("%q: %d claims, want %d", src, got, want)
		}
	}
}
