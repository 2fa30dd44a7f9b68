package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

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

// desc returns f with a description.
func desc(f parse.Finding, d string) parse.Finding {
	f.Description = d
	return f
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
	// Other findings of the run, so that words weigh as in a real one.
	others := [2][]parse.Finding{
		{desc(f("Storage", "Backups are never restored in a test"), "Nothing checks that a backup can be restored."),
			desc(f("API", "Pagination cursor leaks internal ids"), "The cursor is the row id, base64 encoded.")},
		{desc(f("Ops", "No alert on a full disk"), "The disk fills and nobody is told."),
			desc(f("API", "Error bodies are not JSON"), "Handlers write plain text on failure.")},
	}
	traversalA := desc(f("Uploads", "Path traversal in upload filename"),
		"The filename from the multipart form is joined to the upload directory without cleaning it: a name with ../ escapes the upload root.")
	traversalB := desc(f("API", "Uploaded file name allows path traversal"),
		"A client-chosen filename holding ../ is joined to the upload root, so writes escape the upload directory.")
	cases := []mergeCase{
		{name: "one defect in other words and sections", a: traversalA, b: traversalB, merge: true},
		{name: "one topic, two defects",
			a: desc(f("Uploads", "Upload size is unbounded"), "A client can send a multipart body of any size; the upload handler buffers it in memory."),
			b: traversalB},
		{name: "one shared word is not enough, even in one section at one file:line",
			a: f("Auth", "SQL injection in login", "a.go:10"), b: f("Auth", "Missing CSRF token on login form", "a.go:10")},
		{name: "a weak match at one place merges",
			a: f("Uploads", "SQL injection in list_uploads", "src/db.py:40"), b: f("", "SQL query built with string formatting (injection risk)", "db.py:40-44"),
			merge: true},
		{name: "a weak match at two places stays two",
			a: f("Uploads", "SQL injection in list_uploads", "src/db.py:40"), b: f("", "SQL query built with string formatting (injection risk)", "src/db.py:90")},
		{name: "a weak match in files of one name in two directories stays two",
			a: f("Uploads", "SQL injection in list_uploads", "src/db.py:40"), b: f("", "SQL query built with string formatting (injection risk)", "tools/db.py:40")},
		{name: "a weak match over a whole file stays two",
			a: f("Uploads", "SQL injection in list_uploads", "src/db.py:1-400"), b: f("", "SQL query built with string formatting (injection risk)", "src/db.py:40")},
		{name: "the same words, one each",
			a: f("Concurrency", "Deadlock"), b: f("Storage", "Deadlocks"), merge: true},
		// Round 7 of issue 29 left out a bonus for one identifier in both
		// titles: it merges two defects of one function.
		{name: "one function named by two titles, two defects, stays two",
			a: desc(f("Config", "parse_config ignores read errors"), "parse_config drops the error of the read and returns defaults."),
			b: desc(f("Security", "parse_config follows symlinks out of the config dir"), "A symlink in the config dir makes parse_config read any file.")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.a.ID, c.b.ID = "A-001", "B-001"
			o := c.others
			if o[0] == nil && o[1] == nil {
				o = others
			}
			s := Synthesize(&Run{Agents: []Agent{
				agentOf("fd-a", parse.StatusValid, append([]parse.Finding{c.a}, o[0]...)...),
				agentOf("fd-b", parse.StatusValid, append([]parse.Finding{c.b}, o[1]...)...),
			}}, Options{})
			got := false
			for _, f := range s.Findings {
				if slices.Contains(f.Agents, "fd-a") && slices.Contains(f.Agents, "fd-b") && f.ID == "A-001" {
					got = true
				}
			}
			if got != c.merge {
				t.Errorf("%q (%s) and %q (%s): merged = %v, want %v", c.a.Title, c.a.Section, c.b.Title, c.b.Section, got, c.merge)
			}
		})
	}
}

// scoreOf returns the score of the first findings of two agents in a run
// of those findings.
func scoreOf(t *testing.T, a, b []parse.Finding) float64 {
	t.Helper()
	var srcs []*src
	for _, f := range a {
		srcs = append(srcs, ptr(newSrc("fd-a", "a.md", &f)))
	}
	for _, f := range b {
		srcs = append(srcs, ptr(newSrc("fd-b", "b.md", &f)))
	}
	nodes := nodesOf(srcs)
	g := newMerger(nodes)
	s, _ := g.score(int(srcs[0].node), int(srcs[len(a)].node))
	return s
}

// Evidence adds to the score of words exactly its bonus, and only when
// it is evidence.
func TestScoreEvidence(t *testing.T) {
	a := fnd(parse.P1, "A-7", "Uploads", "SQL injection in list_uploads")
	b := fnd(parse.P1, "B-3", "API", "SQL query built with string formatting (injection risk)")
	bare := scoreOf(t, []parse.Finding{a}, []parse.Finding{b})
	if bare <= 0 || bare >= mergeScore {
		t.Fatalf("bare score %v, want a weak match in (0, %v)", bare, mergeScore)
	}
	with := func(name string, bonus float64, a, b parse.Finding) {
		t.Helper()
		if got := scoreOf(t, []parse.Finding{a}, []parse.Finding{b}) - bare; math.Abs(got-bonus) > 1e-9 {
			t.Errorf("%s: score %+v over the words', want %+v", name, got, bonus)
		}
	}
	// An identifier one title names and the other finding names: the
	// words are the same with or without it ("list_uploads" and
	// "listuploads" normalise alike). Without a defect class in common it
	// adds identBonus; with one (b's title names injection as a's does),
	// it is an anchor of the evidence of meaning too, which adds
	// meaningBonus in all, up to meaningCeiling.
	noClass := b
	noClass.Title = "SQL query built in listuploads"
	for _, c := range []struct {
		name string
		b    parse.Finding
		want func(bare float64) float64
	}{
		{"one identifier", noClass, func(float64) float64 { return identBonus }},
		{"one identifier and one class", b, func(bare float64) float64 { return min(bare+meaningBonus, meaningCeiling) - bare }},
	} {
		plain, withID := c.b, c.b
		plain.Description, withID.Description = "Built in listuploads.", "Built in `list_uploads`."
		identBare := scoreOf(t, []parse.Finding{a}, []parse.Finding{plain})
		if identBare < minWords {
			t.Fatalf("%s: bare score %v, want at least %v", c.name, identBare, minWords)
		}
		if got, want := scoreOf(t, []parse.Finding{a}, []parse.Finding{withID})-identBare, c.want(identBare); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: score %+v over the words' %v, want %+v", c.name, got, identBare, want)
		}
	}
	// In one section, a pair the title rule does not join (two title
	// words in common, a defect class one of them) gains sectionBonus.
	a2 := a
	a2.Title = "Injection through list_uploads"
	bare2 := scoreOf(t, []parse.Finding{a2}, []parse.Finding{b})
	sec := b
	sec.Section = "Uploads"
	if got := scoreOf(t, []parse.Finding{a2}, []parse.Finding{sec}) - bare2; bare2 < minWords || math.Abs(got-sectionBonus) > 1e-9 {
		t.Errorf("one section: score %+v over the words' %v, want %+v", got, bare2, sectionBonus)
	}
	place := func(ra, rb string) (parse.Finding, parse.Finding) {
		x, y := a, b
		x.FileRefs, y.FileRefs = []string{ra}, []string{rb}
		return x, y
	}
	for _, c := range []struct {
		ra, rb string
		bonus  float64
	}{
		{"src/db.py:40", "src/db.py:40", refBonus},
		{"src/db.py:40", "db.py:46", refBonus},
		{"src/db.py:40-44", "src/db.py:50", refBonus},
		{"src/db.py:40", "src/db.py:47", 0},
		{"src/db.py:40", "tools/db.py:40", 0},
		{"src/db.py:40", "src/db.py", 0},
		{"src/db.py:1-41", "src/db.py:40", refBonus},
		{"src/db.py:1-42", "src/db.py:40", 0},
		{"src/db.py:40", "src/dbxpy:40", 0},
	} {
		x, y := place(c.ra, c.rb)
		with(c.ra+" and "+c.rb, c.bonus, x, y)
	}
	// The same words, naming A-7 or an ID nobody carries.
	cite, none := b, b
	cite.Description = "The same defect as A-7, seen from the query builder."
	none.Description = "The same defect as A-9, seen from the query builder."
	named := func(a []parse.Finding) float64 {
		return scoreOf(t, a, []parse.Finding{cite}) - scoreOf(t, a, []parse.Finding{none})
	}
	if got := named([]parse.Finding{a}); math.Abs(got-citeBonus) > 1e-9 {
		t.Errorf("a description naming the other's ID: %+v, want %+v", got, citeBonus)
	}
	// An ID two findings of the run carry names neither.
	if got := named([]parse.Finding{a, fnd(parse.P3, "A-7", "Docs", "Readme typo")}); math.Abs(got) > 1e-9 {
		t.Errorf("an ID two findings carry added %+v", got)
	}
}

// A word more than commonTitlesLimit findings hold weighs nothing: the
// same words in three findings of three agents merge them, unless the cap
// is under three.
func TestCommonWordsWeighNothing(t *testing.T) {
	run := &Run{Agents: []Agent{
		agentOf("fd-a", parse.StatusValid, fnd(parse.P1, "A-1", "Cache", "Stale cache entries")),
		agentOf("fd-b", parse.StatusValid, fnd(parse.P1, "B-1", "Cache", "Cache entries stale")),
		agentOf("fd-c", parse.StatusValid, fnd(parse.P1, "C-1", "Cache", "Entries in the cache go stale")),
	}}
	if s := Synthesize(run, Options{}); len(s.Findings) != 1 {
		t.Errorf("%d findings, want 1", len(s.Findings))
	}
	defer func(n int) { commonTitlesLimit = n }(commonTitlesLimit)
	commonTitlesLimit = 2
	if s := Synthesize(run, Options{}); len(s.Findings) != 3 {
		t.Errorf("with words over the cap: %d findings, want 3", len(s.Findings))
	}
}

// log2Fixed is log2 in fixed point, floored, from integers only.
func TestLog2Fixed(t *testing.T) {
	for _, x := range []uint64{1, 2, 3, 4, 5, 7, 10, 64, 65, 1000, 123456, 1 << 40, 1<<63 + 12345} {
		want := int64(math.Floor(math.Log2(float64(x)) * (1 << idfShift)))
		if got := log2Fixed(x); got != want && got != want-1 {
			t.Errorf("log2Fixed(%d) = %d, want %d", x, got, want)
		}
	}
	if log2Fixed(1) != 0 || log2Fixed(2) != 1<<idfShift || log2Fixed(1<<20) != 20<<idfShift {
		t.Errorf("log2Fixed of powers of two: %d %d %d", log2Fixed(1), log2Fixed(2), log2Fixed(1<<20))
	}
}

// An agent reports a defect once: a finding of fd-a like two of fd-b joins
// the more alike, and the other joins them only when it scores at least
// sharedAgentScore with fd-a's (one defect fd-b wrote twice), not when it
// merely shares the topic. Convergence counts fd-b once.
func TestMergeOneAgentTwice(t *testing.T) {
	x := desc(fnd(parse.P1, "A-1", "Cache", "Stale cache entries after a config reload"),
		"After a config reload the cache keeps entries computed with the old config until they expire.")
	y1 := desc(fnd(parse.P1, "B-1", "Cache", "Config reload leaves stale cache entries"),
		"A config reload does not clear the cache: entries computed with the old config are served until they expire.")
	for _, tc := range []struct {
		name string
		y2   parse.Finding
		want [][]string // the sources' IDs of each finding, as Synthesize orders them
	}{
		{"one defect written twice", desc(fnd(parse.P2, "B-2", "Cache", "Cache entries outlive a config reload"),
			"The cache is not cleared on config reload."), [][]string{{"A-1", "B-1", "B-2"}}},
		{"a defect of its own on one topic", desc(fnd(parse.P2, "B-2", "Cache", "Config reload is not logged"),
			"A config reload writes no log line, so stale entries cannot be traced to it."), [][]string{{"A-1", "B-1"}, {"B-2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Synthesize(&Run{Agents: []Agent{agentOf("fd-a", parse.StatusValid, x), agentOf("fd-b", parse.StatusValid, y1, tc.y2)}}, Options{})
			var got [][]string
			for _, f := range s.Findings {
				var ids []string
				for _, src := range f.Sources {
					ids = append(ids, src.ID)
				}
				got = append(got, ids)
				if len(ids) > 1 && (f.Convergence != 2 || f.ConvergenceDisplay != "2/2") {
					t.Errorf("%v: convergence %d (%s), want 2 (2/2): fd-b counts once", ids, f.Convergence, f.ConvergenceDisplay)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("findings' sources = %v, want %v", got, tc.want)
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

// A finding that calls itself another agent's ("[covered by PER-04]",
// "duplicate of C2") merges with it whatever its words; a "see" names
// something related, and an ID two findings carry or the finder's own
// names neither.
func TestMergeBySameAs(t *testing.T) {
	per := fnd(parse.P2, "PER-04", "Performance", "Fixed poll interval adds latency without inotify")
	for _, c := range []struct {
		title, desc string
		extra       []parse.Finding // more findings of fd-a
		same        bool
		want        int
	}{
		{"Backoff should grow between checks [covered by PER-04]", "", nil, false, 1},
		{"Backoff should grow between checks", "### ID-8: Backoff should grow\n\nDuplicate of `PER-04`.", nil, false, 1},
		{"Backoff should grow between checks", "Same issue as PER-04, seen from the caller.", nil, false, 1},
		{"Backoff should grow between checks (see PER-04)", "", nil, false, 2},
		{"Backoff should grow between checks [covered by PER-04]", "", []parse.Finding{fnd(parse.P3, "PER-04", "Docs", "Readme typo")}, false, 3},
		{"Backoff should grow between checks [covered by PER-04]", "", nil, true, 2},
	} {
		f := fnd(parse.P2, "ID-8", "", c.title)
		f.Description = strings.ReplaceAll(c.desc, `\n`, "\n")
		var run *Run
		if c.same {
			run = &Run{Agents: []Agent{agentOf("fd-a", parse.StatusValid, per, f)}}
		} else {
			run = &Run{Agents: []Agent{agentOf("fd-a", parse.StatusValid, append([]parse.Finding{per}, c.extra...)...), agentOf("fd-b", parse.StatusValid, f)}}
		}
		if s := Synthesize(run, Options{}); len(s.Findings) != c.want {
			t.Errorf("%q / %q (one agent %v, %d more): %d findings, want %d", c.title, c.desc, c.same, len(c.extra), len(s.Findings), c.want)
		}
	}
}

// mergePlain is the merge rule asked about every pair of nodes, then every
// pair of the groups they make: the reference fuzzyUnion must equal.
func mergePlain(nodes []*node) unionFind {
	uf := newUnionFind(len(nodes))
	g := newMerger(nodes)
	var ps []scored
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			if s, ok := g.score(i, j); ok {
				ps = append(ps, scored{s, int32(i), int32(j)})
			}
		}
	}
	g.join(sortPairs(ps), uf)
	vs := g.groupVecs(uf)
	ps = ps[:0]
	for r := range vs {
		for h := r + 1; h < len(vs); h++ {
			if !vs[r].root || !vs[h].root || !vs[r].big && !vs[h].big {
				continue
			}
			if s := groupCosine(&vs[r], &vs[h]); s >= groupScore {
				ps = append(ps, scored{s, int32(r), int32(h)})
			}
		}
	}
	g.join(sortPairs(ps), uf)
	return uf
}

// fuzzyUnion asks only the pairs its postings find; it must give the
// partition of asking every pair. Random runs draw titles and descriptions
// from a small vocabulary, so findings share common words, and with a low
// cap words fall out as common; references land in two directories at near
// and far lines, and descriptions name IDs: the cases a shortcut gets wrong.
// The runs must merge findings by words alone and by evidence, or the test
// proves nothing.
func TestFuzzyUnionIsPairwise(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	words := []string{"token", "tokens", "cache", "cached", "race", "login", "limit", "retry", "pool", "leak",
		"missing", "unbounded", "injection", "query", "path", "traversal", "lock", "deadlock", "the", "in"}
	sections := []string{"Auth", "Storage", "", "API"}
	refs := []string{"a.go:1", "a.go:2", "src/a.go:5-9", "lib/a.go:5", "b.go:7-9", "b.go:30", "c.go", "b.go:1-90"}
	defer func(n int) { commonTitlesLimit = n }(commonTitlesLimit)
	var merged, byWords, byEvidence, sharedAgent, byGroup int
	for trial := range 400 {
		commonTitlesLimit = []int{2, 5, 64}[trial%3]
		var srcs []*src
		agents := 1 + r.IntN(6)
		for a := range agents {
			for k := range r.IntN(12) {
				f := fnd(parse.P1, fmt.Sprintf("X-%d", r.IntN(30)), sections[r.IntN(len(sections))],
					strings.Join(pick(r, words, 1+r.IntN(5)), " "))
				f.Line = k + 1
				if r.IntN(3) == 0 {
					f.FileRefs = []string{refs[r.IntN(len(refs))]}
				}
				switch r.IntN(5) {
				case 0:
					f.Description = fmt.Sprintf("see X-%d", r.IntN(30))
				case 1:
					f.Description = strings.Join(pick(r, words, r.IntN(12)), " ")
				case 2:
					// sameAs: merges whatever the words, found by
					// candidates through sameAs, not the postings.
					f.Title += fmt.Sprintf(" [covered by X-%d]", r.IntN(30))
				}
				s := newSrc(fmt.Sprintf("fd-%d", a), "f.md", &f)
				srcs = append(srcs, &s)
			}
		}
		nodes := nodesOf(srcs)
		want := mergePlain(nodes)
		got := newUnionFind(len(nodes))
		fuzzyUnion(nodes, got)
		sharedAgent += groupsHoldingAnAgentTwice(nodes, got)
		g := newMerger(nodes)
		byScore := newUnionFind(len(nodes))
		g.join(g.pairs(), byScore)
		for i := range nodes {
			for j := i + 1; j < len(nodes); j++ {
				if (got.find(i) == got.find(j)) != (want.find(i) == want.find(j)) {
					t.Fatalf("trial %d (cap %d): %q and %q: fuzzyUnion joined = %v, every pair = %v", trial, commonTitlesLimit,
						nodes[i].key, nodes[j].key, got.find(i) == got.find(j), want.find(i) == want.find(j))
				}
				if got.find(i) == got.find(j) {
					merged++
					if byScore.find(i) != byScore.find(j) {
						byGroup++
					}
					if s := g.cosine(i, j); s >= mergeScore {
						byWords++
					} else if s < float64(probeNum)/probeDen {
						byEvidence++
					}
				}
			}
		}
	}
	t.Logf("%d pairs merged, %d by words alone, %d only by evidence, %d only by a group's words; %d groups hold an agent twice",
		merged, byWords, byEvidence, byGroup, sharedAgent)
	if merged < 100 || byWords < 20 || byEvidence < 20 || byGroup < 20 || sharedAgent < 20 {
		t.Errorf("random runs merged %d pairs, %d by words alone, %d only by evidence, %d only by a group's words, %d groups holding an agent twice: too few to test the index",
			merged, byWords, byEvidence, byGroup, sharedAgent)
	}
	if groupScore < float64(probeNum)/probeDen {
		t.Errorf("groupScore %.2f is under probeNum/probeDen: a group's probe would miss groups it joins", groupScore)
	}
}

// groupsHoldingAnAgentTwice counts the groups of uf in which one agent has
// sources in two nodes: groups that only a pair scoring sharedAgentScore
// or more can make.
func groupsHoldingAnAgentTwice(nodes []*node, uf unionFind) int {
	seen := map[[2]string]int{} // {root, agent}: the node it was first seen in
	twice := map[int]bool{}
	for i, n := range nodes {
		r := uf.find(i)
		for _, s := range n.srcs {
			k := [2]string{fmt.Sprint(r), s.agent}
			if j, ok := seen[k]; !ok {
				seen[k] = i
			} else if j != i {
				twice[r] = true
			}
		}
	}
	return len(twice)
}

// A node's probe is its heaviest words, heaviest first, the fewest whose
// rest weighs under (probeNum/probeDen)² of the node's norm²: a node sharing
// none of them cannot reach that cosine.
func TestProbeBound(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	words := strings.Fields("token cache race login limit retry pool leak query path lock upload filename " +
		"directory root session config reload stale entries")
	var srcs []*src
	for i := range 60 {
		f := fnd(parse.P1, "", "S", strings.Join(pick(r, words, 1+r.IntN(6)), " "))
		f.Description = strings.Join(pick(r, words, r.IntN(30)), " ")
		srcs = append(srcs, ptr(newSrc(fmt.Sprintf("fd-%d", i%5), "a.md", &f)))
	}
	g := newMerger(nodesOf(srcs))
	for i := range g.nodes {
		terms, weight, norm2, probe := g.terms.of(i), g.weightOf(i), g.norm2[i], g.probe.of(i)
		if !slices.IsSorted(terms) {
			t.Fatalf("node %d: terms not sorted: %v", i, terms)
		}
		w := map[int32]int64{}
		var sum int64
		for k, id := range terms {
			w[id] = weight[k]
			sum += weight[k] * weight[k]
		}
		if sum != norm2 {
			t.Errorf("node %d: norm2 %d, its weights' squares %d", i, norm2, sum)
		}
		left := norm2
		for k, id := range probe {
			if k > 0 && w[id] > w[probe[k-1]] {
				t.Errorf("node %d: probe not heaviest first: %v", i, probe)
			}
			if left*probeDen*probeDen < probeNum*probeNum*norm2 {
				t.Errorf("node %d: probe longer than it needs: %v", i, probe)
			}
			left -= w[id] * w[id]
		}
		if left*probeDen*probeDen >= probeNum*probeNum*norm2 && norm2 > 0 {
			t.Errorf("node %d: probe %v leaves %d of %d", i, probe, left, norm2)
		}
	}
}

// pick returns n words of words, drawn with repeats.
func pick(r *rand.Rand, words []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))]
	}
	return out
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

// A place is evidence for titles that share two words: two findings at one
// line whose titles share one are two issues there (co_located_with), however
// their descriptions' words meet.
func TestPlaceNeedsTwoTitleWords(t *testing.T) {
	f := func(id, section, title, ref, d string) parse.Finding {
		return desc(fnd(parse.P2, id, section, title, ref), d)
	}
	a := []parse.Finding{
		f("AR-3", "Storage", "Cache key collides across tenants", "store/cache.go:7", "`store/cache.go:7` builds the key from the user id alone."),
		f("AR-1", "Auth", "Session tokens stored in localStorage", "web/session.ts:18", "`web/session.ts:18` writes both tokens."),
		f("AR-2", "API", "Missing rate limiting on login", "api/login.go:40", "`api/login.go:40` accepts unlimited attempts."),
	}
	b := []parse.Finding{
		f("SAF-3", "Logging", "Tenant id logged in clear", "store/cache.go:7", "`store/cache.go:7` logs the key, which holds the tenant id."),
		f("SAF-1", "Auth", "Session tokens stored in localStorage!", "web/session.ts:30", "Read by any script."),
		f("SAF-2", "Limits", "Login has no rate limiting", "api/login.go:40-44", "No limiter in front of it."),
	}
	if s := scoreOf(t, a, b); s >= mergeScore {
		t.Errorf("findings at one line sharing one title word score %v, want under %v", s, mergeScore)
	}
	a[0].FileRefs, b[0].FileRefs = nil, nil
	if s := scoreOf(t, a, b); s < minWords {
		t.Fatalf("setup: the words score %v, want a match of at least %v that a place would raise", s, minWords)
	}
}

// A description's file:line refs are not words of it.
func TestWithoutRefs(t *testing.T) {
	got := withoutRefs("`store/cache.go:7` logs the key (see db.py:40-44), at 10:30 and in a.go")
	if want := "logs the key (see at 10:30 and in a.go"; got != want {
		t.Errorf("withoutRefs = %q, want %q", got, want)
	}
}

// The title rule in one section: a long title shares with a short one words
// that weigh half of the short one, too few of its own words for the cosine.
func TestTitleRuleInOneSection(t *testing.T) {
	a := []parse.Finding{
		fnd(parse.P0, "SAF-1", "Session Management", "Session tokens in localStorage exposed to XSS"),
		fnd(parse.P2, "SAF-3", "API Design", "Login endpoint lacks rate limiting"),
	}
	b := []parse.Finding{
		fnd(parse.P1, "AR-1", "Session Management", "Session tokens stored in localStorage are readable by any script with a very long title that does not fit"),
		fnd(parse.P1, "AR-2", "API Design", "Login endpoint has no rate limiting"),
	}
	if s := scoreOf(t, a, b); s < mergeScore {
		t.Errorf("one section: score %v, want the title rule's %v", s, mergeScore)
	}
	b[0].Section = "Storage"
	if s := scoreOf(t, a, b); s >= mergeScore {
		t.Errorf("two sections: score %v, want the words' alone, under %v", s, mergeScore)
	}
}

// A group of findings is read as all its words: a finding that matches no
// finding of the group at mergeScore joins it when its words match the
// group's at groupScore (two agents name one defect better than either);
// one on the same topic that matches the group's words less stays apart.
func TestMergeByGroupWords(t *testing.T) {
	run := func(c parse.Finding) *Run {
		return &Run{Agents: []Agent{
			agentOf("fd-a", parse.StatusValid,
				desc(fnd(parse.P0, "A-1", "F3", "Git commit and override file write are not atomic"),
					"The override file is written, then git commit runs; a failed commit leaves the file changed in the working tree."),
				desc(fnd(parse.P2, "A-2", "F2", "Threshold of 80% is hardcoded"), "The routing threshold cannot be tuned.")),
			agentOf("fd-b", parse.StatusValid,
				desc(fnd(parse.P1, "B-1", "F3 Apply Flow", "Override write and git commit not in one transaction"),
					"If git commit fails after the override file is written the working tree keeps a partial override."),
				desc(fnd(parse.P2, "B-2", "F1", "Pattern definition incomplete"), "Routing-eligible patterns are not defined.")),
			agentOf("fd-c", parse.StatusValid, c,
				desc(fnd(parse.P2, "C-3", "Docs", "Canary skipped when the apply fails"), "No canary is recorded.")),
		}}
	}
	for _, tc := range []struct {
		name string
		c    parse.Finding
		want string // the sources' IDs of the finding holding A-1
	}{
		{"one defect in the words of both", desc(fnd(parse.P1, "C-1", "Features", "Commit failure leaves override written but not committed"),
			"The file write and the git commit are two steps."), "[A-1 B-1 C-1]"},
		{"another defect of the topic", desc(fnd(parse.P1, "C-1", "Features", "Commit failure is not reported"),
			"When git commit fails the command still exits 0."), "[A-1 B-1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(tc.c)
			var srcs []*src
			for _, a := range r.Agents {
				for i := range a.Report.Findings {
					srcs = append(srcs, ptr(newSrc(a.Name, a.File, &a.Report.Findings[i])))
				}
			}
			nodes := nodesOf(srcs)
			g := newMerger(nodes)
			for i, n := range nodes {
				for j, o := range nodes {
					if n.srcs[0].f.ID == "C-1" && (o.srcs[0].f.ID == "A-1" || o.srcs[0].f.ID == "B-1") {
						if s, ok := g.score(i, j); ok {
							t.Fatalf("C-1 and %s score %.2f: they merge without the group", o.srcs[0].f.ID, s)
						}
					}
				}
			}
			s := Synthesize(r, Options{})
			for _, f := range s.Findings {
				var ids []string
				for _, src := range f.Sources {
					ids = append(ids, src.ID)
				}
				if slices.Contains(ids, "A-1") && fmt.Sprint(ids) != tc.want {
					t.Errorf("A-1's finding holds %v, want %s", ids, tc.want)
				}
			}
		})
	}
}

// Merging is transitive (SPEC §5.2): a finding that matches two others
// joins them, though those two share too few words to merge alone.
func TestMergeThroughOneFinding(t *testing.T) {
	r := &Run{Agents: []Agent{
		agentOf("fd-a", parse.StatusValid,
			desc(fnd(parse.P1, "A-1", "Hooks", "Token budget check races with concurrent hook writes"),
				"The budget file is read, checked and written in separate steps; two hooks running at once both pass the check and both write."),
			desc(fnd(parse.P2, "A-2", "Docs", "Install guide skips the plugin cache"), "The guide never says where the cache lives.")),
		agentOf("fd-b", parse.StatusValid,
			desc(fnd(parse.P1, "B-1", "Budget", "TOCTOU on token budget check"),
				"Check and write of the budget file are separate steps, not atomic.")),
		agentOf("fd-c", parse.StatusValid,
			desc(fnd(parse.P2, "C-1", "Concurrency", "Concurrent hook writes overspend"),
				"Two hooks running at once both pass and both write.")),
	}}
	var srcs []*src
	for _, a := range r.Agents {
		for i := range a.Report.Findings {
			srcs = append(srcs, ptr(newSrc(a.Name, a.File, &a.Report.Findings[i])))
		}
	}
	nodes := nodesOf(srcs)
	g := newMerger(nodes)
	at := map[string]int{}
	for i, n := range nodes {
		at[n.srcs[0].f.ID] = i
	}
	for _, p := range []struct {
		a, b  string
		merge bool
	}{{"A-1", "B-1", true}, {"A-1", "C-1", true}, {"B-1", "C-1", false}} {
		if s, ok := g.score(at[p.a], at[p.b]); ok != p.merge {
			t.Fatalf("%s and %s score %.2f, merge %v; the test wants %v", p.a, p.b, s, ok, p.merge)
		}
	}
	s := Synthesize(r, Options{})
	i := slices.IndexFunc(s.Findings, func(f Finding) bool { return f.ID == "A-1" })
	if i < 0 {
		t.Fatal("no finding A-1")
	}
	if got := s.Findings[i].Agents; len(got) != 3 {
		t.Errorf("A-1 holds agents %v, want fd-a, fd-b and fd-c", got)
	}
}

// citedPlain is citedOf as it was first written: a map of counts, a map of
// nodes, a set of the IDs one source carries, and every word of every
// description looked up in it. citedOf must give every node the same cited
// and sameAs lists.
func citedPlain(g *merger) (cited, sameAs [][]int32) {
	count := map[string]int{}
	at := map[string]int32{}
	for i, n := range g.nodes {
		for _, s := range n.srcs {
			if s.f.ID != "" {
				count[s.f.ID]++
				at[s.f.ID] = int32(i)
			}
		}
	}
	needles := map[string]idAt{}
	for id, c := range count {
		if c == 1 {
			needles[id] = idAt{at[id], 1}
		}
	}
	cited, sameAs = make([][]int32, len(g.nodes)), make([][]int32, len(g.nodes))
	for i, n := range g.nodes {
		for _, s := range n.srcs {
			add := func(list *[]int32) func(string, idAt) {
				return func(_ string, a idAt) {
					if int(a.node) != i && !g.hasAgent(int(a.node), s.agent) {
						*list = append(*list, a.node)
					}
				}
			}
			eachMention(s.f.Description, needles, 0, math.MaxInt, add(&cited[i]))
			eachSameAs(s.f.Title, s.f.Description, needles, add(&sameAs[i]))
		}
		slices.Sort(cited[i])
		cited[i] = slices.Compact(cited[i])
		slices.Sort(sameAs[i])
		sameAs[i] = slices.Compact(sameAs[i])
	}
	return cited, sameAs
}

// citedOf looks a description's words up only when they are as long as
// some ID, in one map of every ID; it must find what looking up every word
// in a set of the unique IDs finds. IDs are of many lengths, some carried
// twice, named bare and in punctuation, in descriptions of a few words.
func TestCitedOfIsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2))
	prefixes := []string{"F", "X-", "SEC-00", "PERFORMANCE-", "fd-a.", ""}
	wraps := []string{"%s", "`%s`", "(%s)", "%s.", "%s:", "#%s", "./%s", "[covered by %s]", "duplicate of %s", "%s,"}
	words := []string{"see", "the", "race", "in", "cache", "a.go:12", "also", "same"}
	var cites, same int
	for trial := range 300 {
		id := func() string { return fmt.Sprintf("%s%d", prefixes[r.IntN(len(prefixes))], r.IntN(12)) }
		var srcs []*src
		for a := range 2 + r.IntN(4) {
			for k := range r.IntN(10) {
				f := fnd(parse.P2, id(), "", strings.Join(pick(r, words, 1+r.IntN(3)), " "))
				f.Line = k + 1
				var d []string
				for range r.IntN(6) {
					if r.IntN(2) == 0 {
						d = append(d, fmt.Sprintf(wraps[r.IntN(len(wraps))], id()))
					} else {
						d = append(d, words[r.IntN(len(words))])
					}
				}
				f.Description = strings.Join(d, " ")
				if r.IntN(4) == 0 {
					f.Title += " " + fmt.Sprintf(wraps[r.IntN(len(wraps))], id())
				}
				s := newSrc(fmt.Sprintf("fd-%d", a), "f.md", &f)
				srcs = append(srcs, &s)
			}
		}
		nodes := nodesOf(srcs)
		if len(nodes) == 0 {
			continue
		}
		g := newMerger(nodes)
		cited, sameAs := citedPlain(g)
		for i := range nodes {
			if !slices.Equal(g.cited.of(i), cited[i]) || !slices.Equal(g.sameAs.of(i), sameAs[i]) {
				t.Fatalf("trial %d, node %q (%q): citedOf cited %v, sameAs %v; every word looked up: %v, %v", trial,
					nodes[i].key, nodes[i].srcs[0].f.Description, g.cited.of(i), g.sameAs.of(i), cited[i], sameAs[i])
			}
			cites += len(cited[i])
			same += len(sameAs[i])
		}
	}
	if cites < 200 || same < 20 {
		t.Errorf("random runs cited %d nodes, called themselves %d: too few to test citedOf", cites, same)
	}
}

// A source keeps its finding's one ref parsed (src.one); refs must yield
// what parsing every text yields.
func TestSrcRefsIsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 3))
	texts := []string{"a.go:12", "src/a.go:5-9", "a.go", "./a.go:3", "`b.py:7`", "a.go:9-3", "a.go:0", ":4", "",
		"c.go:99999999999", "c.go:2147483647", "d.go:1-2147483648", " e.go:8 ", "f.go:08"}
	var one int
	for trial := range 2000 {
		f := fnd(parse.P2, "X-1", "", "title")
		for range r.IntN(3) {
			f.FileRefs = append(f.FileRefs, texts[r.IntN(len(texts))])
		}
		s := newSrc("fd-a", "f.md", &f)
		if s.one.path > 0 {
			one++
		}
		type refText struct {
			r    Ref
			text string
		}
		var got, want []refText
		for ref, text := range s.refs {
			got = append(got, refText{ref, text})
		}
		asWritten := true
		for _, text := range f.FileRefs {
			if ref := ParseRef(text); ref.Path == "" || ref.String() != text {
				asWritten = false
			}
		}
		for _, text := range f.FileRefs {
			if ref := ParseRef(text); ref.Path != "" {
				if !asWritten {
					text = ref.String()
				}
				want = append(want, refText{ref, text})
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, refs %q: refs yields %v, parsing them %v", trial, f.FileRefs, got, want)
		}
	}
	if one < 300 {
		t.Errorf("%d of 2000 sources kept their ref parsed: too few to test it", one)
	}
	if size := unsafe.Sizeof(src{}); size > 80 {
		t.Errorf("a src is %d bytes: more than the 80 the allocator gives it", size)
	}
}

// lists.compactEach keeps each node's list in one block without gaps: it
// must give each node what f gives of its list alone, a fresh copy each
// (the plain reference), whatever parts f keeps.
func TestCompactEach(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for trial := range 200 {
		nodes := r.IntN(12)
		l := newLists[int32](nodes)
		var plain [][]int32
		for range nodes {
			var list []int32
			for range r.IntN(8) {
				v := int32(r.IntN(6))
				l.add(v)
				list = append(list, v)
			}
			l.end()
			plain = append(plain, list)
		}
		drop := int32(r.IntN(6))
		f := func(_ int, xs []int32) []int32 {
			slices.Sort(xs)
			return slices.DeleteFunc(slices.Compact(xs), func(x int32) bool { return x == drop })
		}
		l.compactEach(f)
		total := 0
		for i, list := range plain {
			want := f(i, slices.Clone(list))
			if got := l.of(i); !slices.Equal(got, want) || cap(got) != len(got) {
				t.Fatalf("trial %d, node %d: %v (cap %d), want %v", trial, i, got, cap(got), want)
			}
			total += len(want)
		}
		if len(l.all) != total || len(l.at) != nodes+1 {
			t.Fatalf("trial %d: %d elements in the block, %d offsets; want %d, %d", trial, len(l.all), len(l.at), total, nodes+1)
		}
	}
}
