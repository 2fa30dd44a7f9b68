package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
)

// The classes a text names as evidence of meaning, one case per way of
// naming one: a title word of the table (alone, or one of each list), a
// phrase of keywords standing together, a marker of words, a marker that
// is not words; and texts that name none.
func TestClassesOf(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Path traversal in upload filename", []string{"traversal"}},
		{"SQL query built with string formatting", []string{"injection"}},
		{"The query is built by string concatenation of the filter", []string{"injection"}},
		{"Two simultaneous imports double-insert rows", []string{"race", "idempotency"}},
		{"No idempotency key or lock prevents two imports", []string{"race", "idempotency"}},
		{"Commit and file write are not atomic: a failure leaves partial state", []string{"atomicity"}},
		{"Agents timing out serially: no outer bound", nil}, // "timing" is no timeout
		{"Nothing enforces the timeout of a dispatched agent", []string{"timeout"}},
		{"The step can time out and nobody notices", []string{"timeout"}},
		{"The runtime outage page", nil}, // "time out" stands in no words here
		{"Pagination is off by one on the last page", []string{"offbyone"}},
		{"Pagination is off-by-one on the last page", []string{"offbyone"}},
		{"Each order runs a query in a loop (N+1)", []string{"nplus1"}},
		{"Archive entries with ../ in their names", []string{"traversal"}},
		{"subprocess.run(cmd, shell=True) with user input", []string{"injection"}},
		{"The read error is silently ignored", []string{"swallowed"}},
		{"Counts in AGENTS.md are out of sync with the plan", []string{"docsdrift"}},
		{"Counts are inconsistent across the docs", []string{"docsdrift"}},
		{"Overlay content reaches prompts without sanitization", []string{"validation"}},
		// "hardcoded" alone names a secret as a title word (the table's
		// first classes), and a hard-coded value as evidence of meaning.
		{"Threshold magic number hardcoded in the spec", []string{"secret", "hardcoded"}},
		{"Upload size is never limited", nil},
		{"The directory layout is confusing", nil},
		{"SQL schema lacks an index", nil},
		{"", nil},
	} {
		if got := classNames(classesOf(c.text)); !slices.Equal(got, c.want) {
			t.Errorf("classesOf(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A phrase of the table is read as its keywords: one holding a word the
// reading drops ("out", "of") would name more than it says, and is refused
// when the table is made; so is a marker that is neither words nor holds a
// byte it is looked up by.
func TestPhrasesAreKeywords(t *testing.T) {
	for _, p := range []string{"out of sync", "no timeout", "off"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("phrases(%q) did not refuse a word the reading drops", p)
				}
			}()
			phrases(p)
		}()
	}
	if got := phrases("string formatting|=n+1"); len(got) != 2 || !slices.Equal(got[0], []string{"string", "formatt"}) ||
		!slices.Equal(got[1], []string{"=n+1"}) {
		t.Errorf("phrases = %q", got)
	}
	for _, m := range classIndex.raw {
		if m.at < 0 || m.at >= len(m.text) || m.text[m.at] >= 'a' && m.text[m.at] <= 'z' {
			t.Errorf("raw marker %q looked up at %d", m.text, m.at)
		}
	}
}

// The anchors of a text: identifiers, code spans, quoted names, endpoints
// and numbers of two digits or more; a file:line ref is a place and gives
// none, nor does a single digit or a long quotation.
func TestEachNamedAnchor(t *testing.T) {
	var got []string
	eachNamedAnchor("`list_uploads` formats the filter (see src/db.py:40); POST /import twice; "+
		"\"Atomic: if commit fails\" says the PRD; 35 agents, 80% of 60s, step 3; `db.py:12`; "+
		"“Tier 4 (Oracle)”; \""+strings.Repeat("long ", 30)+"\"",
		func(kind byte, a string) { got = append(got, string(kind)+" "+a) })
	slices.Sort(got)
	want := []string{"c listuploads", "e /import", "i list_uploads", "n 35", "n 60s", "n 80%",
		"q atomic if commit fails", "q tier 4 oracle"}
	if !slices.Equal(got, want) {
		t.Errorf("anchors = %q, want %q", got, want)
	}
}

// meaningRun returns the nodes of findings given as agent → findings, and
// their evidence of meaning, by node key.
func meaningRun(t *testing.T, agents map[string][]parse.Finding) map[string]meaningNode {
	t.Helper()
	var srcs []*src
	for _, a := range slices.Sorted(func(yield func(string) bool) {
		for a := range agents {
			if !yield(a) {
				return
			}
		}
	}) {
		for _, f := range agents[a] {
			srcs = append(srcs, ptr(newSrc(a, a+".md", &f)))
		}
	}
	nodes := nodesOf(srcs)
	g := newMerger(nodes)
	out := map[string]meaningNode{}
	for i, n := range nodes {
		out[n.key] = g.meaning[i]
	}
	return out
}

// An anchor is evidence when it is specific: two findings of two agents
// name it; not one finding alone, not two findings of one agent (their
// topic), not more than maxAnchorNodes findings.
func TestSpecificAnchors(t *testing.T) {
	f := func(title, d string) parse.Finding { return desc(fnd(parse.P1, "", "S", title), d) }
	var crowd []parse.Finding
	for k := range maxAnchorNodes {
		crowd = append(crowd, f(fmt.Sprintf("Crowd %c", 'a'+k), "Each names `crowd_key`."))
	}
	m := meaningRun(t, map[string][]parse.Finding{
		"fd-a": {f("Alpha", "Uses `pair_key` and `own_key` and `topic_key`."), f("Beta", "Also `topic_key`.")},
		"fd-b": append([]parse.Finding{f("Gamma", "Uses `pair_key` and `topic_key` and `crowd_key`.")}, crowd...),
	})
	shared := func(a, b string) int {
		x, y := m["s:"+a], m["s:"+b]
		return countShared(x.anchors, y.anchors)
	}
	// alpha and gamma share pair_key (identifier and code span: two
	// anchors of one name); topic_key is fd-a's topic, crowd_key too
	// common.
	if n := shared("alpha", "gamma"); n != 2 {
		t.Errorf("alpha and gamma share %d anchors, want 2 (pair_key as an identifier and a code span)", n)
	}
	if n := shared("beta", "gamma"); n != 0 {
		t.Errorf("beta and gamma share %d anchors, want 0: topic_key is a name fd-a gives two findings", n)
	}
	if n := shared("gamma", "crowd a"); n != 0 {
		t.Errorf("gamma and crowd a share %d anchors, want 0: %d findings name crowd_key", n, maxAnchorNodes+1)
	}
	if len(m["s:alpha"].anchors) != 2 {
		t.Errorf("alpha keeps %d anchors, want 2: own_key is named once", len(m["s:alpha"].anchors))
	}
}

// meaningOthers are other findings of fd-a and fd-b, so that words weigh
// as in a real run.
var meaningOthers = [2][]parse.Finding{
	{desc(fnd(parse.P2, "A-8", "Ops", "Backups are never restored in a test"), "Nothing checks that a backup can be restored."),
		desc(fnd(parse.P2, "A-9", "API", "Pagination cursor exposes row ids"), "The cursor is the row id, base64 encoded.")},
	{desc(fnd(parse.P2, "B-8", "Ops", "No alert on a full disk"), "The disk fills and nobody is told."),
		desc(fnd(parse.P2, "B-9", "API", "Error bodies are not JSON"), "Handlers write plain text on failure.")},
}

// Two agents naming one defect in other words merge when they share a
// class and a specific anchor; a class alone or an anchor alone is not
// enough.
func TestMergeByMeaning(t *testing.T) {
	others := meaningOthers
	a := desc(fnd(parse.P1, "A-1", "Storage", "Two imports may run concurrently"),
		"Nothing stops a second import while the first runs: both read `import_progress` and write the same rows.")
	for _, c := range []struct {
		name  string
		b     parse.Finding
		merge bool
	}{
		{"one class, one anchor", desc(fnd(parse.P1, "B-1", "Ops", "Concurrent runs of the importer"),
			"Two concurrent runs both read `import_progress`, so both write the same rows."), true},
		{"one class, no anchor", desc(fnd(parse.P1, "B-1", "Ops", "Concurrent runs of the importer"),
			"Two concurrent runs both read the progress table, so both write the same rows."), false},
		{"one anchor, no class", desc(fnd(parse.P1, "B-1", "Ops", "Runs of the importer are slow"),
			"Each run reads `import_progress` in full before it writes the same rows."), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Synthesize(&Run{Agents: []Agent{
				agentOf("fd-a", parse.StatusValid, append([]parse.Finding{a}, others[0]...)...),
				agentOf("fd-b", parse.StatusValid, append([]parse.Finding{c.b}, others[1]...)...),
			}}, Options{})
			got := false
			for _, f := range s.Findings {
				got = got || slices.Contains(f.Agents, "fd-a") && slices.Contains(f.Agents, "fd-b")
			}
			if got != c.merge {
				t.Errorf("%q and %q: merged = %v, want %v", a.Title, c.b.Title, got, c.merge)
			}
		})
	}
}

// The evidence of meaning joins two agents' findings but never chains two
// findings of one agent: it raises a score to meaningCeiling at most, under
// sharedAgentScore, so fd-a's finding joins the closer of fd-b's two and
// the other stays apart.
func TestMeaningNeverChainsOneAgent(t *testing.T) {
	if meaningCeiling >= sharedAgentScore {
		t.Fatalf("meaningCeiling %.2f is not under sharedAgentScore %.2f", meaningCeiling, sharedAgentScore)
	}
	a := desc(fnd(parse.P1, "A-1", "Storage", "Two imports may run concurrently"),
		"Nothing stops a second POST /import while the first runs: both read `import_progress` and write the same rows.")
	b1 := desc(fnd(parse.P1, "B-1", "Ops", "Concurrent runs of the importer"),
		"Two concurrent runs both read `import_progress`, so both write the same rows.")
	// B-2 shares a class and another anchor with A-1 (fd-b names each
	// anchor once: both are specific) and scores enough in words to reach
	// sharedAgentScore with the evidence of meaning uncapped: a chain.
	b2 := desc(fnd(parse.P2, "B-2", "Ops", "Concurrent imports hold the lock forever"),
		"Two concurrent POST /import calls take a lock and never release it, so later imports may run concurrently and wait.")
	if s := scoreOf(t, append([]parse.Finding{a}, meaningOthers[0]...), append([]parse.Finding{b2, b1}, meaningOthers[1]...)); s < meaningCeiling {
		t.Fatalf("A-1 and B-2 score %.2f, want the ceiling %.2f", s, meaningCeiling)
	}
	s := Synthesize(&Run{Agents: []Agent{
		agentOf("fd-a", parse.StatusValid, append([]parse.Finding{a}, meaningOthers[0]...)...),
		agentOf("fd-b", parse.StatusValid, append([]parse.Finding{b1, b2}, meaningOthers[1]...)...),
	}}, Options{})
	merged := 0
	for _, f := range s.Findings {
		if len(f.Sources) > 1 {
			merged++
		}
		ids := map[string]int{}
		for _, src := range f.Sources {
			ids[src.Agent]++
		}
		if ids["fd-b"] > 1 {
			t.Errorf("finding %s holds %d findings of fd-b", f.ID, ids["fd-b"])
		}
	}
	if merged != 1 {
		t.Errorf("%d merged findings, want 1 (A-1 with one of fd-b's)", merged)
	}
}

// meaningRandomRun makes a run whose findings draw titles and descriptions
// from a small pool naming defect classes and anchors, so that the
// evidence of meaning decides merges.
func meaningRandomRun(r *rand.Rand, n int) *Run {
	titles := []string{"Import can run twice at once", "Concurrent runs of the importer", "Importer lock is never released",
		"Query built with string formatting", "SQL injection in list_uploads", "Timeout nobody enforces",
		"Dispatch has no outer bound", "Counts are inconsistent across docs", "Stale counts in AGENTS.md"}
	descs := []string{"Both read `import_progress`.", "The filter reaches `list_uploads` unparameterized.",
		"Step 3 says \"Timeout: 60s\" and nobody enforces it.", "POST /import twice writes rows twice.",
		"AGENTS.md says 29, the plan 35.", "A race on `import_progress` loses updates.", ""}
	run := &Run{}
	for i := range n {
		a := agentOf(fmt.Sprintf("fd-%02d", i), parse.StatusValid)
		for j := range r.IntN(6) {
			f := desc(fnd(parse.Severity(fmt.Sprintf("P%d", r.IntN(3))), fmt.Sprintf("X-%03d", r.IntN(20)), "",
				titles[r.IntN(len(titles))]), descs[r.IntN(len(descs))]+" "+descs[r.IntN(len(descs))])
			f.Line = j + 3
			a.Report.Findings = append(a.Report.Findings, f)
		}
		run.Agents = append(run.Agents, a)
	}
	return run
}

// The evidence of meaning does not depend on the order of the input, and
// the merges it makes are the merges of asking every pair (mergePlain).
func TestPropertyMeaningOrderIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 29))
	byMeaning := 0
	for i := range 200 {
		run := meaningRandomRun(r, 2+r.IntN(6))
		want := must(RenderJSON(Synthesize(run, Options{})))
		got := must(RenderJSON(Synthesize(shuffled(r, run), Options{})))
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: synthesis depends on input order:\n%s", i, txtartest.FirstDiff(want, got))
		}
		var s Synthesis
		nodes := nodesOf(sourcesOf(accountAgents(&s, run, Options{})))
		plain := mergePlain(nodes)
		fast := newUnionFind(len(nodes))
		fuzzyUnion(nodes, fast)
		g := newMerger(nodes)
		for x := range nodes {
			for y := x + 1; y < len(nodes); y++ {
				if (plain.find(x) == plain.find(y)) != (fast.find(x) == fast.find(y)) {
					t.Fatalf("case %d: %q and %q: fuzzyUnion joined = %v, every pair = %v", i, nodes[x].key, nodes[y].key,
						fast.find(x) == fast.find(y), plain.find(x) == plain.find(y))
				}
				if fast.find(x) == fast.find(y) && means(&g.meaning[x], &g.meaning[y]) {
					byMeaning++
				}
			}
		}
	}
	if byMeaning < 20 {
		t.Errorf("%d merged pairs share a class and an anchor: too few to test the evidence of meaning", byMeaning)
	}
}

// The evidence of meaning reads any text: its classes are classes of the
// table, the same whatever the case of its ASCII letters, and its anchors
// are lower-cased names of a known kind, each read from the text.
func FuzzMeaning(f *testing.F) {
	for _, s := range []string{"SQL query built with string formatting in `list_uploads`",
		"Each order runs a query in a loop (N+1) on POST /import", "\"Atomic: if commit fails\" is 80% of 60s",
		"off-by-one ../../etc `a", "“Tier 4 (Oracle)” src/db.py:40 shell=True", "\x00`\n`\"\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		set := classesOf(text)
		if len(defectClasses) < 64 && set>>len(defectClasses) != 0 {
			t.Fatalf("classesOf(%q) = %b: a class out of the table", text, set)
		}
		upper := []byte(text)
		for i, c := range upper {
			if 'a' <= c && c <= 'z' {
				upper[i] = c - 'a' + 'A'
			}
		}
		if got := classesOf(string(upper)); got != set {
			t.Fatalf("classesOf(%q) = %v, of its upper case %v", text, classNames(set), classNames(got))
		}
		eachNamedAnchor(text, func(kind byte, a string) {
			if !strings.ContainsRune("icqen", rune(kind)) || a == "" {
				t.Fatalf("%q: anchor %c %q", text, kind, a)
			}
			if lowerASCII(a) != a {
				t.Fatalf("%q: anchor %c %q is not lower-cased", text, kind, a)
			}
		})
	})
}
