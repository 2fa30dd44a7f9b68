package synth

import (
	"cmp"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// The merge rule of SPEC §5.2: when two findings with different keys are one
// finding. It is written once, in mergeable; fuzzyUnion only chooses which
// pairs to ask it about, and TestFuzzyUnionIsPairwise holds it to asking
// about every pair.
//
// Titles are compared by their keywords (parse.Keywords), each cut to a
// stem (stem), and a keyword weighs what it says about one defect:
//   - A keyword one agent uses in several of its own titles names a topic
//     of its review ("agent", "plan", "test"), not a defect: it weighs 1/n
//     for the most titles n of one agent that hold it. Agents reporting the
//     same defect each use its words once.
//   - A keyword in more than commonTitles distinct titles of the run weighs
//     nothing: it is common words, not evidence (and looking candidates up
//     by it would cost the square of the run).
//
// Only findings of different agents merge by this rule: two findings one
// agent wrote apart are two (equal keys still merge).
//
// Two titles match (the title rule) when they share at least two keywords
// that weigh at least 3/5 of the lighter title, or when their keywords are
// the same. Findings then merge when they are in the same section, or share
// evidence: a file:line, or one's description names the other's ID (an ID
// that only one finding of the run carries). Findings in different sections
// with no shared evidence merge by a stricter form: at least three shared
// keywords weighing at least 3/4 of the lighter title.
//
// The thresholds were tuned on hand-labelled clusters of real runs
// (testdata/convergence.txt, TestConvergenceLabels); a run's words decide
// the weights, never the order of its files.

// commonTitles is how many distinct titles of a run may hold a keyword stem
// before it weighs nothing.
const commonTitles = 64

// commonTitlesLimit is commonTitles; tests lower it to reach the cap with
// small runs.
var commonTitlesLimit = commonTitles

// weightUnit is the weight of a keyword no agent repeats. Weights are
// integers (weightUnit/n), so that sums and the thresholds are exact on every
// platform.
const weightUnit = 1 << 20

// stem cuts an English inflection off a keyword: plurals, -ing, -ed, -ion, a
// final e, keeping at least four letters: "caches", "cached", "caching" and
// "cache" are "cach"; "validation" and "validates" are "validat".
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "es") && (strings.HasSuffix(w[:n-2], "s") || strings.HasSuffix(w[:n-2], "x") ||
		strings.HasSuffix(w[:n-2], "z") || strings.HasSuffix(w[:n-2], "ch") || strings.HasSuffix(w[:n-2], "sh")):
		w = w[:n-2]
	case n > 4 && w[n-1] == 's' && !strings.ContainsRune("sui", rune(w[n-2])):
		w = w[:n-1]
	}
	for _, suf := range []string{"ing", "ion", "ed"} {
		if len(w)-len(suf) >= 4 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if len(w) > 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	return w
}

// mergeNode is what the merge rule knows of one node.
type mergeNode struct {
	// agent is the one agent of its sources, "" when they are several.
	agent  string
	stems  []int32 // weighted keyword stems, ascending
	weight []int64 // the weight of each of stems
	total  int64
	// probe are the stems candidates are looked up by: the heaviest first,
	// until those left weigh less than 3/5 of total. A title that matches
	// this one by the title rule and weighs no less shares one of them.
	probe []int32
	// points are the file:line points of its sources, sorted, once
	// pointsOf made them (havePoints).
	points     []point
	havePoints bool
}

// merger holds the merge rule's view of a run's nodes.
type merger struct {
	nodes []*node
	m     []mergeNode
	// postings lists, for each weighted stem, the nodes holding it.
	postings [][]int32
	// ids counts the sources carrying each ID, once cites needs it.
	ids map[string]int32
}

// newMerger weighs the keywords of nodes (see the package comment above).
func newMerger(nodes []*node) *merger {
	g := &merger{nodes: nodes, m: make([]mergeNode, len(nodes))}
	ids := map[string]int32{}
	stemsOf := make([][]int32, len(nodes))
	var titles []int32 // distinct titles holding each stem
	for i, n := range nodes {
		var l []int32
		for _, kw := range parse.Keywords(n.norm()) {
			s := stem(kw)
			id, ok := ids[s]
			if !ok {
				id = int32(len(titles))
				ids[s] = id
				titles = append(titles, 0)
			}
			if !slices.Contains(l, id) {
				l = append(l, id)
				titles[id]++
			}
		}
		slices.Sort(l)
		stemsOf[i] = l
	}
	// rep: the most titles of one agent holding each stem.
	byAgent := map[string][]int32{}
	var agents []string
	for i, n := range nodes {
		for _, s := range n.srcs {
			if _, ok := byAgent[s.agent]; !ok {
				agents = append(agents, s.agent)
			}
			byAgent[s.agent] = append(byAgent[s.agent], int32(i))
		}
	}
	for i, n := range nodes {
		g.m[i].agent = n.srcs[0].agent
		for _, s := range n.srcs[1:] {
			if s.agent != g.m[i].agent {
				g.m[i].agent = ""
				break
			}
		}
	}
	rep := make([]int32, len(titles))
	count := make([]int32, len(titles))
	var touched []int32
	for _, a := range agents {
		for _, i := range byAgent[a] {
			for _, id := range stemsOf[i] {
				if count[id] == 0 {
					touched = append(touched, id)
				}
				count[id]++
			}
		}
		for _, id := range touched {
			rep[id] = max(rep[id], count[id])
			count[id] = 0
		}
		touched = touched[:0]
	}
	weight := make([]int64, len(titles))
	for id := range weight {
		if int(titles[id]) <= commonTitlesLimit && rep[id] > 0 {
			weight[id] = weightUnit / int64(rep[id])
		}
	}
	g.postings = make([][]int32, len(titles))
	for i := range nodes {
		mn := &g.m[i]
		for _, id := range stemsOf[i] {
			if w := weight[id]; w > 0 {
				mn.stems = append(mn.stems, id)
				mn.weight = append(mn.weight, w)
				mn.total += w
				g.postings[id] = append(g.postings[id], int32(i))
			}
		}
		probe := slices.Clone(mn.stems)
		slices.SortFunc(probe, func(a, b int32) int {
			return cmp.Or(cmp.Compare(weight[b], weight[a]), cmp.Compare(titles[a], titles[b]), cmp.Compare(a, b))
		})
		left := mn.total
		for k, id := range probe {
			left -= weight[id]
			if 5*left < 3*mn.total {
				probe = probe[:k+1]
				break
			}
		}
		mn.probe = probe
	}
	return g
}

// pointsOf returns the file:line points of node i, sorted. They are asked
// only of pairs whose titles match in other sections, so they are made
// when the first such pair comes.
func (g *merger) pointsOf(i int) []point {
	m := &g.m[i]
	if !m.havePoints {
		for _, s := range g.nodes[i].srcs {
			for r := range s.refs {
				if r.Start > 0 {
					m.points = append(m.points, point{r.Path, r.Start})
				}
			}
		}
		slices.SortFunc(m.points, comparePoint)
		m.points = slices.Compact(m.points)
		m.havePoints = true
	}
	return m.points
}

// cites reports whether a description of a source of node i names the ID of
// a source of node j of another agent, an ID no other finding of the run
// carries. It is asked only of pairs whose titles match in other sections
// without a shared file:line, so the IDs are counted, and descriptions read,
// only when such a pair comes.
func (g *merger) cites(i, j int) bool {
	if g.ids == nil {
		g.ids = map[string]int32{}
		for _, n := range g.nodes {
			for _, s := range n.srcs {
				if s.f.ID != "" {
					g.ids[s.f.ID]++
				}
			}
		}
	}
	for _, b := range g.nodes[j].srcs {
		if b.f.ID == "" || g.ids[b.f.ID] != 1 {
			continue
		}
		for _, a := range g.nodes[i].srcs {
			if a.agent != b.agent && names(a.f.Description, b.f.ID) {
				return true
			}
		}
	}
	return false
}

// mergeable reports whether nodes i and j are one finding by the merge
// rule. It is symmetric.
func (g *merger) mergeable(i, j int) bool {
	a, b := &g.m[i], &g.m[j]
	if a.agent != "" && a.agent == b.agent {
		return false // one agent's two findings: it meant two
	}
	var shared int64
	n := 0
	for x, y := 0, 0; x < len(a.stems) && y < len(b.stems); {
		switch {
		case a.stems[x] < b.stems[y]:
			x++
		case a.stems[x] > b.stems[y]:
			y++
		default:
			shared += a.weight[x]
			n++
			x++
			y++
		}
	}
	lo := min(a.total, b.total)
	same := n > 0 && n == len(a.stems) && n == len(b.stems)
	if !same && (n < 2 || 5*shared < 3*lo) {
		return false // not even the title rule
	}
	if n >= 3 && 4*shared >= 3*lo {
		return true // the stricter form: any sections
	}
	if g.nodes[i].section == g.nodes[j].section {
		return true
	}
	return sharesPoint(g.pointsOf(i), g.pointsOf(j)) || g.cites(i, j) || g.cites(j, i)
}

func comparePoint(a, b point) int {
	return cmp.Or(strings.Compare(a.path, b.path), cmp.Compare(a.line, b.line))
}

// oneAgent reports whether every source of nodes is one agent's.
func oneAgent(nodes []*node) bool {
	for _, n := range nodes {
		for _, s := range n.srcs {
			if s.agent != nodes[0].srcs[0].agent {
				return false
			}
		}
	}
	return true
}

// sharesPoint reports whether two sorted lists share a point.
func sharesPoint(a, b []point) bool {
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch c := comparePoint(a[x], b[y]); {
		case c < 0:
			x++
		case c > 0:
			y++
		default:
			return true
		}
	}
	return false
}

// fuzzyUnion joins the nodes that the merge rule makes one. A node asks
// only the nodes holding one of its probe stems, each once, and not those
// already in its set: every pair that matches is asked from the side of its
// lighter title, whose probe holds a shared stem. A probe stem's postings
// hold at most commonTitlesLimit nodes, so the cost is linear in the nodes.
func fuzzyUnion(nodes []*node, uf unionFind) {
	if oneAgent(nodes) {
		return // only findings of different agents merge by the rule
	}
	g := newMerger(nodes)
	seen := make([]int32, len(nodes)) // seen[j] == i+1: j already asked for i
	for i := range nodes {
		for _, s := range g.m[i].probe {
			for _, j := range g.postings[s] {
				if int(j) == i || seen[j] == int32(i+1) {
					continue
				}
				seen[j] = int32(i + 1)
				if uf.find(i) != uf.find(int(j)) && g.mergeable(i, int(j)) {
					uf.union(i, int(j))
				}
			}
		}
	}
}
