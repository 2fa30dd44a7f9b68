package verify

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzClaims: the claim parser never panics, every claim lies on a line of
// the input, and a claim's title is bounded and, for valid UTF-8 input,
// valid UTF-8, and it holds a word or cites an ID.
func FuzzClaims(f *testing.F) {
	for _, b := range txtartest.Files(f, "testdata/golden/*.txtar", txtartest.Named("synthesis.md")) {
		f.Add(b)
	}
	for _, s := range []string{
		"| # | Finding | Agents |\n|---|---|---|\n| 1 | **x** | a, b |",
		"## P0 Findings\n- **T**\n### Sub\n- detail",
		"- [ ] P1-2: Title (3/3 agents: a, b)",
		"```\n- [P0] example\n```",
		"### Convergence 99/7: x",
		"### P1: Improvements\n#### 1. **T u** (A-B F1, C F2-F3)\n",
		"#### 2. [P1] **T u** — A + B C\n- **Agents reporting:** a-b (2 findings)\n### HIGH: x\n",
		"- **",
		"|",
		"| Issue | fd-a | fd-b | Convergence |\n|---|---|---|---|\n| x y z | P3 info | — | Single report; high |\n| w | ✓ |",
		"| Pattern | fd-a | fd-b |\n|---|---|---|\n| P1 | P1 | ✓ |\n|",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := strings.Count(string(src), "\n") + 1
		for _, c := range Claims(src) {
			if c.Line < 1 || c.Line > lines {
				t.Fatalf("claim line %d outside 1..%d", c.Line, lines)
			}
			if utf8.RuneCountInString(c.Title) > maxTitle || len(c.Text) > maxText {
				t.Fatalf("claim too long: %d runes, text %d bytes", utf8.RuneCountInString(c.Title), len(c.Text))
			}
			if utf8.Valid(src) && (!utf8.ValidString(c.Title) || !utf8.ValidString(c.Text)) {
				t.Fatalf("invalid UTF-8 from valid input: %q", c.Title)
			}
			if !hasKeyword(c.Title) && len(c.Cites) == 0 {
				// A row may name its finding by an ID alone ("| fd-a |
				// RXN-02 | P0 |"); anything else needs a word.
				t.Fatalf("claim without a keyword or an ID: %q", c.Title)
			}
		}
		// Check never panics either, with and without a run.
		Check(Input{Synthesis: src})
	})
}

// FuzzCheckRun: checked against a run with findings, improvements, IDs and
// agents (the archives' runs), any synthesis gives problems on lines it has
// (0 for a missing blocker), each with a message, and never a panic.
func FuzzCheckRun(f *testing.F) {
	for _, b := range txtartest.Files(f, "testdata/golden/*.txtar", txtartest.Named("synthesis.md")) {
		f.Add(b)
	}
	for _, s := range []string{
		"| Agent | Verdict | P0 | P1 |\n|---|---|---|---|\n| fd-perf | safe | 0 | 0 |\n| fd-perf | 0 |",
		"**Reviewed by**: 3 agents (fd-docs, fd-api, (fd-ops",
		"- Replace it (fd-launch P0) (fd-spec (P1-1)) (fd-launch P0-",
		"## Critical (P0)\n- **Eviction job has no scheduler** (fd-cache CA-1, fd-queue QU-1)\n- x (1/1 agents)",
		"---\nagents_launched: [fd-cache, fd-nobody]\n---\n# S\n## High (P1)\n- **x y z** (fd-cache CA-1)",
		"# S\n**Reviewers:** 2 review agents\n## High (P1)\n- **x y z** (fd-c, fd-cache)",
		"### P0: Blocking\n#### 1. **x y z** (Cache F1, Cache-Coherence F01) — Cache + Nobody\n",
		"- **fd-cache F9 [HIGH]**: x y z (fd-nobody, fd-)\n| Issue | fd-cache | fd-queue |\n|---|---|---|\n| x y z | P0 | x |",
		"## Queue (fd-queue, Track q)\n- worker\n#\n## Track \n- dead letter table poison",
	} {
		f.Add([]byte(s))
	}
	a, err := txtar.ParseFile("testdata/golden/agentseverity.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range []string{"zerotally", "unrelatedcite", "onecount", "fixnamed", "indexless"} {
		b, err := txtar.ParseFile("testdata/golden/" + name + ".txtar")
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range b.Files {
			if strings.HasPrefix(file.Name, "agents/") && !slices.ContainsFunc(a.Files, func(x txtar.File) bool { return x.Name == file.Name }) {
				a.Files = append(a.Files, file)
			}
		}
	}
	s, reports := runOf(f, a)
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := strings.Count(string(src), "\n") + 1
		r := Check(Input{Synthesis: src, Run: s, Reports: reports})
		for _, p := range r.Problems {
			if p.Line < 0 || p.Line > lines || p.Message == "" {
				t.Fatalf("problem at line %d of %d: %+v", p.Line, lines, p)
			}
		}
	})
}

// FuzzRatedPlace: any line of any report is rated or not (ratedPlace),
// never a panic, and a line the report does not have is not rated.
func FuzzRatedPlace(f *testing.F) {
	for _, s := range []string{
		"### [P1] Retry worker drops poison messages\n",
		"**Billing ignores partial refunds** (High)\n",
		"## Finding 5: x\n\n**Severity:** HIGH\n",
		"| F5 | high | x |\n- **[P0] x.**\n1. Add a table\n",
		"**P0**\n(\n[high]\n",
	} {
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, src []byte, n int) {
		r := &run{texts: map[string][]byte{"fd-a": src}, lineStarts: map[string][]int{}}
		got := r.ratedPlace("fd-a", n)
		if lines := strings.Count(string(src), "\n") + 1; got && (n < 1 || n > lines) {
			t.Fatalf("line %d of %d rated", n, lines)
		}
	})
}
