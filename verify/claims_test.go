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
		{"a cell of agent names under a header that names no agents",
			"## P1\n\n| ID | Title | Agents | Evidence |\n|---|---|---|---|\n| **P1-3** | Scenario runs underspecified | 1 agent | `fd-user-product` |\n",
			[]Claim{{Line: 5, ID: "P1-3", Title: "Scenario runs underspecified", Severity: parse.P1, Count: 1, Agents: []string{"fd-user-product"}}}},
		{"labels after a dash name agents; one label alone only on a claim with a severity",
			"# Cache Review — Synthesis Report\n\n**Reviewed by:** (3 agents)\n\n- [P1] **Stale reads after failover** — Cache Coherence + API Surface\n- [P2] **Plural endpoint names** — API Surface\n",
			[]Claim{{Line: 5, Title: "Stale reads after failover", Severity: parse.P1, Agents: []string{"Cache Coherence", "API Surface"}},
				{Line: 6, Title: "Plural endpoint names", Severity: parse.P2, Agents: []string{"API Surface"}}}},
		{"labels with the number of their agent's finding",
			"## P0\n\n#### 1. **Consumers skip the dead-letter queue** (Queue-Health F1, Cache-Coherence F4)\n",
			[]Claim{{Line: 3, Title: "Consumers skip the dead-letter queue (Queue-Health F1, Cache-Coherence F4)", Severity: parse.P0, Agents: []string{"Queue-Health", "Cache-Coherence"}}}},
		{"verdict table states nothing",
			"| Agent | Verdict | Summary |\n|---|---|---|\n| fd-a | needs-changes | P0 gaps |\n",
			nil},
		{"improvements and fences are not claims",
			"## Improvements Suggested\n- [P1] Add docs\n## Findings\n```\n- [P0] example only\n```\n- [P2] Real one\n",
			[]Claim{{Line: 7, Title: "Real one", Severity: parse.P2}}},
		{"a count of all the agents in words, the verb in the present",
			"2. **Old brands must leave the landing page.** All four agents flag the two-brand framing.",
			[]Claim{{Line: 1, Title: "Old brands must leave the landing page", Count: 4}}},
		{"flagged by names",
			"- **[P1] Token leak in logs** — flagged by fd-safety, fd-quality",
			[]Claim{{Line: 1, Title: "Token leak in logs", Severity: parse.P1, Agents: []string{"fd-safety", "fd-quality"}}}},
		{"bold ID and a dash before the title, under a group",
			"### P1 (architecture)\n\n13. **PER-03 — detect-domains.sh: 80+ yq forks per invocation.** Close to the budget.",
			[]Claim{{Line: 3, ID: "PER-03", Title: "detect-domains.sh: 80+ yq forks per invocation", Severity: parse.P1}}},
		{"table with a convergence column beside the agents",
			"| # | Finding | Convergence | Agents |\n|---|---|---|---|\n| 1 | **Loading is illusory** — all files read | 2/4 | fd-a, fd-b |\n",
			[]Claim{{Line: 3, ID: "1", Title: "Loading is illusory", Count: 2, Of: 4, Agents: []string{"fd-a", "fd-b"}}}},
		{"a bold title with a colon inside is no field",
			"### Important Findings (P1)\n\n4. **Over-commitment: 3 capabilities designed at once** (2/6 agents: fd-a, fd-b). More.\n\n- **Fix:** trim the scope",
			[]Claim{{Line: 3, Title: "Over-commitment: 3 capabilities designed at once", Severity: parse.P1, Count: 2, Of: 6, Agents: []string{"fd-a", "fd-b"}}}},
		{"a skipped section's word inside another word skips nothing",
			"# Reaction Round — Synthesis\n\n## Critical Issues (P0-P1)\n\n### RXN-01 — Zero agents proceed silently (P0)\n\n## Next Actions\n\n- [P1] Add a guard\n",
			[]Claim{{Line: 5, ID: "RXN-01", Title: "Zero agents proceed silently", Severity: parse.P0}}},
		{"a field-shaped item with no finding above that says who",
			"## Convergence\n\n- **Lock-subshell pattern**: three review agents (fd-a, fd-b) independently flagged it.\n- **Location**: `a.sh:3`\n",
			[]Claim{{Line: 3, Title: "Lock-subshell pattern", Count: 3, Agents: []string{"fd-a", "fd-b"}}}},
		{"a bold lead-in with two IDs",
			"**P1-SC-01 / DO-01 — F3 criterion silently requires F4 complete (2/2 agents)**\nMore text.",
			[]Claim{{Line: 1, ID: "P1-SC-01", Title: "F3 criterion silently requires F4 complete", Severity: parse.P1, Count: 2, Of: 2}}},
		{"a resolved row is no claim",
			"| # | Severity | Finding | Agents |\n|---|---|---|---|\n| 9 | **P2** | Overrides lack semantics | Bedin |\n| 10 | Resolved | Multi-family membership | Dogon |\n| 11 | P2 | Fixed cache | ✅ |\n",
			[]Claim{{Line: 3, ID: "9", Title: "Overrides lack semantics", Severity: parse.P2, Count: 1, Agents: []string{"Bedin"}}}},
		{"no keyword is no claim",
			"- [P1] + P1-C",
			nil},
		{"group heading with a triage label and a tally",
			"### P1 — Should Fix (14 deduplicated)\n- [ ] **Broad shell access in sync job** — narrow it (fd-security: 1/5)\n",
			[]Claim{{Line: 2, Title: "Broad shell access in sync job", Severity: parse.P1, Count: 1, Of: 5, Agents: []string{"fd-security"}}}},
		{"a label heading over a list keeps the group's severity",
			"### P1 Findings (19) — Needs Attention\n#### Architecture Track\n- **NEW-P1: Offset bound crosses tiers** (fd-arch)\n",
			[]Claim{{Line: 3, ID: "NEW-P1", Title: "Offset bound crosses tiers", Severity: parse.P1, Agents: []string{"fd-arch"}}}},
		{"a finding heading with an attribution field",
			"## Critical Findings (P0 — Blocks PRD)\n### 1. No implementable switching criteria\n**Sources:** fd-ux (P0), fd-product (Concern 1)\n\nThe table never says who decides.\n",
			[]Claim{{Line: 2, Title: "No implementable switching criteria", Severity: parse.P0, Agents: []string{"fd-ux", "fd-product"}}}},
		{"a bold lead-in with an italic attribution line",
			"**[P1-A]** No criticality taxonomy for judgment agents\n*(fd-kiln: KLN-1, KLN-2 | 2/4 agents)*\n",
			[]Claim{{Line: 1, ID: "P1-A", Title: "No criticality taxonomy for judgment agents", Severity: parse.P1, Count: 2, Of: 4, Agents: []string{"fd-kiln"}}}},
		{"an agent's attribution item",
			"### Who flagged it\n- **fd-flow (P0-2):** no retraction for compounded entries\n- fd-perf: injection adds tokens per agent\n",
			[]Claim{{Line: 2, ID: "P0-2", Title: "no retraction for compounded entries", Severity: parse.P0, Agents: []string{"fd-flow"}},
				{Line: 3, Title: "injection adds tokens per agent", Agents: []string{"fd-perf"}}}},
		{"a convergence map: agent columns hold the IDs they gave",
			"| Finding | fd-arch | simplicity | Convergence |\n|---|---|---|---|\n| Hooks underdocumented | P0-1, P0-2 | — | 1/5 |\n",
			[]Claim{{Line: 3, Title: "Hooks underdocumented", Count: 1, Of: 5, Agents: []string{"fd-arch"}}}},
		{"a table of one agent's diagnosis a row",
			"| Agent | Domain Mechanism | Diagnosis |\n|---|---|---|\n| **Dogon** | seed categories | The type system labels but derives nothing |\n",
			[]Claim{{Line: 3, Title: "The type system labels but derives nothing", Agents: []string{"Dogon"}}}},
		{"tallies, front matter and verdict tables state nothing",
			"---\nagents:\n  - fd-a\np0_count: 1\n---\n## Gate\n- **P0 Blockers**: 1 (silent proceed)\n- Findings: 8 (P0: 1, P1: 3)\n",
			nil},
		{"a heading naming a false positive is no praise section",
			"### Convergence 3/4: False Positive Loop Is Self-Reinforcing\n\nThree agents flagged it.\n",
			[]Claim{{Line: 1, Title: "False Positive Loop Is Self-Reinforcing", Count: 3, Of: 4}}},
		{"a count in the paragraph under a heading",
			"### Convergence Point 2: Lifecycle transitions are the remaining gap\n\nTwo agents converged on the same missing specification. More.\n",
			[]Claim{{Line: 1, Title: "Lifecycle transitions are the remaining gap", Count: 2}}},
		{"every agent, in the paragraph under a heading, counts nothing",
			"### 1. Event lifecycle is underspecified\n\nEvery agent found that dispatch is treated as completion.\n",
			nil},
		{"a paragraph over a table of who said what is the table's preamble",
			"### Convergence Point 1: Generative property untested\n\nAll three agents identified the gap.\n\n| Agent | Specific Gap |\n|---|---|\n| **Dogon** | Mapping not shown |\n",
			[]Claim{{Line: 7, Title: "Mapping not shown", Agents: []string{"Dogon"}}}},
		{"a paragraph ending a sentence with a colon labels a list",
			"### Convergence on core issues\n\nAll six agents converge on these problems:\n",
			nil},
		{"a numbered label before the title",
			"### Convergent finding 2 (3/3): Six of eight pieces are ride-alongs\n\nprose\n",
			[]Claim{{Line: 1, Title: "Six of eight pieces are ride-alongs", Count: 3, Of: 3}}},
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

// TestCounts reads each way a synthesis writes how many agents raise a
// finding, and leaves alone a number that counts nothing.
func TestCounts(t *testing.T) {
	for _, tt := range []struct {
		text  string
		n, of int
	}{
		{"Session cache ignores invalidation (3/5 agents)", 3, 5},
		{"Convergence 3/5: retries lack jitter", 3, 5},
		{"Retries lack jitter (2 agents)", 2, 0},
		{"Retries lack jitter [2 agents]", 2, 0},
		{"Retries lack jitter (P1, 2 agents: Ops, Queue)", 2, 0},
		{"confirmed by three agents", 3, 0},
		{"flagged by 3 of 5 agents", 3, 5},
		{"flagged by 3 of 5", 3, 5},
		{"three of the five agents raise it", 3, 5},
		{"**Agents:** 2/4", 2, 4},
		{"Two reviewers flagged the missing timeout", 2, 0},
		{"The queue holds 3 of 5 messages", 0, 0},
		{"Retries after 2 seconds", 0, 0},
		{"2 agents", 0, 0},
	} {
		if n, of := counts(tt.text); n != tt.n || of != tt.of {
			t.Errorf("counts(%q) = %d/%d, want %d/%d", tt.text, n, of, tt.n, tt.of)
		}
	}
}
