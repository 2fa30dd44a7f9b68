package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

func TestStem(t *testing.T) {
	for _, group := range [][]string{
		{"cache", "caches", "cached", "caching"},
		{"validation", "validations", "validate", "validated", "validates"},
		{"injection", "injections", "inject", "injected"},
		{"process", "processes", "processing"},
		{"status", "statuses"},
		{"policy", "policies"},
		{"token", "tokens"},
		{"timestamp", "timestamps"},
	} {
		want := stem(group[0])
		for _, w := range group[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q: want one stem", w, got, group[0], want)
			}
		}
	}
	for _, w := range []string{"sql", "race", "bus", "analysis", "access", "uses"} {
		if got := stem(w); len(got) < min(len(w), 3) {
			t.Errorf("stem(%q) = %q: too short", w, got)
		}
	}
}

// mergeCase is two findings of two agents, with the agents' other findings.
type mergeCase struct {
	name   string
	a, b   parse.Finding
	others [2][]parse.Finding // more findings of a's and b's agent
	merge  bool
}

func TestMergeRule(t *testing.T) {
	f := func(section, title string, refs ...string) parse.Finding {
		return fnd(parse.P1, "", section, title, refs...)
	}
	cases := []mergeCase{
		{name: "same section, title rule",
			a: f("Security", "SQL injection in list_uploads"), b: f("Security", "SQL query built with string formatting (injection risk)"),
			merge: true},
		{name: "other section, title rule only",
			a: f("Uploads", "SQL injection in list_uploads"), b: f("", "SQL query built with string formatting (injection risk)")},
		{name: "other section, shared file:line",
			a: f("Uploads", "SQL injection in list_uploads", "src/db.py:40"), b: f("", "SQL query built with string formatting (injection risk)", "src/db.py:40-44"),
			merge: true},
		{name: "other section, same file, other line",
			a: f("Uploads", "SQL injection in list_uploads", "src/db.py:40"), b: f("", "SQL query built with string formatting (injection risk)", "src/db.py:41")},
		{name: "other section, stricter form",
			a: f("Uploads", "Path traversal in upload filename"), b: f("", "Uploaded file name allows path traversal"),
			merge: true},
		{name: "one shared keyword is not enough, even at one file:line",
			a: f("Auth", "SQL injection in login", "a.go:10"), b: f("Auth", "Missing CSRF token on login form", "a.go:10")},
		{name: "same keywords, one each",
			a: f("Concurrency", "Deadlock"), b: f("Concurrency", "Deadlocks"), merge: true},
		{name: "same keyword in other sections",
			a: f("Concurrency", "Deadlock"), b: f("Storage", "Deadlocks")},
		{name: "a keyword each agent repeats is a topic, not evidence",
			a: f("Plan", "Agent count check misses references"), b: f("Plan", "Agent count is hardcoded"),
			others: [2][]parse.Finding{
				{f("Plan", "Agent roster stale"), f("Plan", "Agent names unchecked")},
				{f("Plan", "Agent files not listed"), f("Plan", "Count of agents drifts")},
			}},
		{name: "the same keywords without repetition merge",
			a: f("Plan", "Agent count check misses references"), b: f("Plan", "Agent count is hardcoded"),
			merge: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.a.ID, c.b.ID = "A-001", "B-001"
			s := Synthesize(&Run{Agents: []Agent{
				agentOf("fd-a", parse.StatusValid, append([]parse.Finding{c.a}, c.others[0]...)...),
				agentOf("fd-b", parse.StatusValid, append([]parse.Finding{c.b}, c.others[1]...)...),
			}}, Options{})
			got := false
			for _, f := range s.Findings {
				if len(f.Agents) == 2 {
					got = true
				}
			}
			if got != c.merge {
				t.Errorf("%q (%s) and %q (%s): merged = %v, want %v", c.a.Title, c.a.Section, c.b.Title, c.b.Section, got, c.merge)
			}
		})
	}
}

// A description naming another agent's finding by its ID is shared
// evidence, as a file:line is; an ID two findings carry names neither.
func TestMergeByCitedID(t *testing.T) {
	a := fnd(parse.P1, "SEC-001", "Uploads", "SQL injection in list_uploads")
	b := fnd(parse.P1, "Q-7", "", "SQL query built with string formatting (injection risk)")
	b.Description = "Same defect as fd-a's SEC-001, from the query side."
	run := &Run{Agents: []Agent{agentOf("fd-a", parse.StatusValid, a), agentOf("fd-b", parse.StatusValid, b)}}
	if s := Synthesize(run, Options{}); len(s.Findings) != 1 {
		t.Errorf("a finding citing another's ID did not merge with it: %d findings", len(s.Findings))
	}
	run.Agents = append(run.Agents, agentOf("fd-c", parse.StatusValid, fnd(parse.P3, "SEC-001", "Docs", "Readme typo")))
	if s := Synthesize(run, Options{}); len(s.Findings) != 3 {
		t.Errorf("an ID two findings carry merged: %d findings, want 3", len(s.Findings))
	}
}

// mergePlain is the merge rule asked about every pair of nodes: the
// reference fuzzyUnion must equal.
func mergePlain(nodes []*node) unionFind {
	uf := newUnionFind(len(nodes))
	g := newMerger(nodes)
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			if g.mergeable(i, j) {
				uf.union(i, j)
			}
		}
	}
	return uf
}

// fuzzyUnion asks only the pairs its postings find; it must give the
// partition of asking every pair. Random runs draw titles from a small
// vocabulary, so titles share common words, agents repeat words (weights
// below 1), and with a low cap words fall out as common: the cases a
// shortcut gets wrong.
func TestFuzzyUnionIsPairwise(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	words := []string{"token", "tokens", "cache", "cached", "race", "login", "limit", "retry", "pool", "leak",
		"missing", "unbounded", "injection", "query", "path", "traversal", "lock", "deadlock", "the", "in"}
	sections := []string{"Auth", "Storage", "", "API"}
	refs := []string{"a.go:1", "a.go:2", "b.go:7-9", "c.go"}
	defer func(n int) { commonTitlesLimit = n }(commonTitlesLimit)
	for trial := range 400 {
		commonTitlesLimit = []int{2, 5, 64}[trial%3]
		var srcs []*src
		agents := 1 + r.IntN(6)
		for a := range agents {
			for k := range r.IntN(12) {
				ws := make([]string, 1+r.IntN(5))
				for i := range ws {
					ws[i] = words[r.IntN(len(words))]
				}
				f := fnd(parse.P1, fmt.Sprintf("X-%d", r.IntN(30)), sections[r.IntN(len(sections))], strings.Join(ws, " "))
				f.Line = k + 1
				if r.IntN(3) == 0 {
					f.FileRefs = []string{refs[r.IntN(len(refs))]}
				}
				if r.IntN(4) == 0 {
					f.Description = fmt.Sprintf("see X-%d", r.IntN(30))
				}
				s := newSrc(fmt.Sprintf("fd-%d", a), "f.md", &f)
				srcs = append(srcs, &s)
			}
		}
		nodes := nodesOf(srcs)
		want := mergePlain(nodes)
		got := newUnionFind(len(nodes))
		fuzzyUnion(nodes, got)
		for i := range nodes {
			for j := i + 1; j < len(nodes); j++ {
				if (got.find(i) == got.find(j)) != (want.find(i) == want.find(j)) {
					t.Fatalf("trial %d (cap %d): %q and %q: fuzzyUnion joined = %v, every pair = %v", trial, commonTitlesLimit,
						nodes[i].key, nodes[j].key, got.find(i) == got.find(j), want.find(i) == want.find(j))
				}
			}
		}
	}
}

// Nodes' probes are exact: a node's probe is the shortest prefix of its
// stems, heaviest first, whose rest weighs under 3/5 of the node.
func TestProbeBound(t *testing.T) {
	nodes := nodesOf([]*src{
		ptr(newSrc("a", "a.md", &parse.Finding{Section: "S", Title: "alpha beta gamma delta epsilon"})),
	})
	g := newMerger(nodes)
	if got := len(g.m[0].probe); got != 3 {
		t.Errorf("probe of five equal keywords has %d stems, want 3 (two left weigh 2/5)", got)
	}
	if !slices.IsSorted(g.m[0].stems) {
		t.Errorf("stems not sorted: %v", g.m[0].stems)
	}
}

func ptr[T any](v T) *T { return &v }

// One defect in three formats (a strict index with an ID-prefixed detail
// paragraph, a table index, a prose report) is one finding of 3/3 agents;
// an injection both indexes cite at one file:line, in other sections and
// other words, is one of 2/3.
func TestThreeFormatsConverge(t *testing.T) {
	reports := map[string]string{
		"fd-safety": "### Findings Index\n" +
			"- P0 | SEC-001 | \"Uploads\" | Path traversal in upload filename\n" +
			"- P1 | SEC-002 | \"Uploads\" | SQL injection in list_uploads\n" +
			"Verdict: risky\n\n" +
			"SEC-001: the file name from the form is joined to the upload directory at\n`src/upload.py:11` without normalising it.\n\n" +
			"SEC-002: `src/db.py:40` formats the user's filter into the query.\n",
		"fd-api": "## Findings Index\n\n| ID | Severity | Section | Title |\n|---|---|---|---|\n" +
			"| API-1 | CRITICAL | API | Uploaded file name allows path traversal |\n" +
			"| API-2 | HIGH | API | SQL query built with string formatting (injection risk) |\n\n" +
			"Verdict: risky\n\n- API-1 writes outside the upload root: `src/upload.py:11`.\n- API-2 is at `src/db.py:40`.\n",
		"fd-review": "# Review of the upload service\n\n## Issues\n\n" +
			"### P0 — Path traversal through the upload filename\n\n`src/upload.py:11` joins the client's file name to the upload root.\n",
	}
	run := &Run{}
	for _, name := range []string{"fd-api", "fd-review", "fd-safety"} {
		rep := parse.ReadReportString(reports[name])
		run.Agents = append(run.Agents, Agent{Name: name, File: name + ".md", Status: rep.Status, Report: rep, ModTime: t0})
	}
	s := Synthesize(run, Options{})
	var got []string
	for _, f := range s.Findings {
		got = append(got, string(f.Severity)+" "+f.ConvergenceDisplay+" "+strings.Join(f.Agents, ","))
	}
	want := []string{"P0 3/3 fd-api,fd-review,fd-safety", "P1 2/3 fd-api,fd-safety"}
	if !slices.Equal(got, want) {
		t.Errorf("findings = %q, want %q", got, want)
	}
}

// One agent's two findings are two, however alike their titles; the same
// findings of two agents merge.
func TestMergeOneAgentKeepsItsFindings(t *testing.T) {
	a := fnd(parse.P1, "A-1", "Security", "Session token stored in localStorage")
	b := fnd(parse.P1, "A-2", "Security", "Session tokens kept in localStorage")
	if s := Synthesize(&Run{Agents: []Agent{agentOf("fd-a", parse.StatusValid, a, b)}}, Options{}); len(s.Findings) != 2 {
		t.Errorf("one agent's two findings merged: %d findings", len(s.Findings))
	}
	b.ID = "B-1"
	s := Synthesize(&Run{Agents: []Agent{agentOf("fd-a", parse.StatusValid, a), agentOf("fd-b", parse.StatusValid, b)}}, Options{})
	if len(s.Findings) != 1 {
		t.Errorf("two agents' alike findings did not merge: %d findings", len(s.Findings))
	}
}
