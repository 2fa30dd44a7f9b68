package verify

import (
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// TestClaims reads the shapes of claim real syntheses write, one case each.
func TestClaims(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  string
		want []Claim // Line, ID, Title, Severity, Count, Of, Agents compared
	}{
		{"checkbox with severity ID and agents",
			"- [ ] P0-1: Reconcile agent count — update all sources (3/3 agents: architecture, quality)",
			[]Claim{{Line: 1, ID: "P0-1", Title: "Reconcile agent count", Severity: parse.P0, Count: 3, Of: 3, Agents: []string{"architecture", "quality"}}}},
		{"bold title, parenthesised severity and count",
			"4. **Step 3.5 is the least specified output** (P0, 1/5 agents) — no template.",
			[]Claim{{Line: 1, Title: "Step 3.5 is the least specified output", Severity: parse.P0, Count: 1, Of: 5}}},
		{"bold severity lead-in and trailing attribution",
			"- [ ] **P1**: Add timeout to foreground retry (concurrency-reviewer, fd-code-quality)",
			[]Claim{{Line: 1, Title: "Add timeout to foreground retry", Severity: parse.P1, Agents: []string{"concurrency-reviewer", "fd-code-quality"}}}},
		{"severity word in brackets",
			"- [HIGH] Cache eviction ignores pinned entries",
			[]Claim{{Line: 1, Title: "Cache eviction ignores pinned entries", Severity: parse.P1}}},
		{"a severity word that is only a word",
			"- High memory use under load was measured",
			nil},
		{"convergence heading",
			"### Convergence 6/7: False Positive Feedback Loop\n\n- **spec-flow-analyzer** (P0-2): detail",
			[]Claim{{Line: 1, Title: "False Positive Feedback Loop", Count: 6, Of: 7}}},
		{"group heading, items and sub-heading findings, details ignored",
			"## P1 Findings (8 — Undermining)\n\n- Session tokens in localStorage (2 agents)\n\n### 6. Schema changes required\n\n- **Fix:** add a column\n",
			[]Claim{{Line: 3, Title: "Session tokens in localStorage", Severity: parse.P1, Count: 2},
				{Line: 5, Title: "Schema changes required", Severity: parse.P1}}},
		{"triage group heading",
			"### Important (P1)\n1. **Login lacks rate limiting** — brute force",
			[]Claim{{Line: 2, Title: "Login lacks rate limiting", Severity: parse.P1}}},
		{"table under a group heading",
			"## P0 Findings\n\n| # | Finding | Agents | File |\n|---|---|---|---|\n| 1 | **AgentNotFoundMsg dropped** — dead end | onboarding, vision-gap | `a.go:186` |\n",
			[]Claim{{Line: 5, ID: "1", Title: "AgentNotFoundMsg dropped", Severity: parse.P0, Count: 2, Agents: []string{"onboarding", "vision-gap"}}}},
		{"table with a severity column and a count",
			"| Severity | Issue | Convergence |\n|---|---|---|\n| **P2** | Slow query in reports | 3/5 |\n",
			[]Claim{{Line: 3, Title: "Slow query in reports", Severity: parse.P2, Count: 3, Of: 5}}},
		{"verdict table states nothing",
			"| Agent | Verdict | Summary |\n|---|---|---|\n| fd-a | needs-changes | P0 gaps |\n",
			nil},
		{"improvements and fences are not claims",
			"## Improvements Suggested\n- [P1] Add docs\n## Findings\n```\n- [P0] example only\n```\n- [P2] Real one\n",
			[]Claim{{Line: 7, Title: "Real one", Severity: parse.P2}}},
		{"flagged by names",
			"- **[P1] Token leak in logs** — flagged by fd-safety, fd-quality",
			[]Claim{{Line: 1, Title: "Token leak in logs", Severity: parse.P1, Agents: []string{"fd-safety", "fd-quality"}}}},
		{"no keyword is no claim",
			"- [P1] + P1-C",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Claims([]byte(tt.src))
			if len(got) != len(tt.want) {
				t.Fatalf("got %d claims %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Line != w.Line || g.ID != w.ID || g.Title != w.Title || g.Severity != w.Severity ||
					g.Count != w.Count || g.Of != w.Of || !slices.Equal(g.Agents, w.Agents) {
					t.Errorf("claim %d:\n got %+v\nwant %+v", i, g, w)
				}
			}
		})
	}
}
