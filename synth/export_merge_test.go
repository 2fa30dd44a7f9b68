package synth

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
)

// MergeEvidence reads run's completed agents as Synthesize does and
// returns what the merge rule (SPEC §5.2) sees of two of their findings,
// each named by its report's base name and line ("fd-a.md:12"): the score
// and its parts, for TestConvergenceLabels to print beside a pair it
// left apart.
//
// With detail, each finding follows on a line of its own: its agent, ID,
// section, the identifiers its title names, the places it cites and the
// opening of the description the rule reads, so that a reader sees what
// the rule saw without opening the reports.
// descOpening is how much of a description MergeEvidence shows.
const descOpening = 300

func MergeEvidence(run *Run, detail bool) func(a, b string) string {
	nodes, at, g := mergeView(run)
	return func(a, b string) string {
		i, ok := at[a]
		j, ok2 := at[b]
		if !ok || !ok2 {
			return "not read"
		}
		score, _ := g.score(i, j)
		var ev []string
		if nodes[i].section == nodes[j].section && nodes[i].section != "" {
			ev = append(ev, "one section")
		}
		if g.near(i, j) {
			ev = append(ev, "one place")
		}
		if g.cites(i, j) || g.cites(j, i) {
			ev = append(ev, "cites")
		}
		if countShared(g.idents.of(i), g.named.of(j)) > 0 || countShared(g.named.of(i), g.idents.of(j)) > 0 {
			ev = append(ev, "identifier")
		}
		if cs, as := sharedMeaning(nodes, g, i, j); len(cs) > 0 || len(as) > 0 {
			ev = append(ev, fmt.Sprintf("meaning %v %q", cs, as))
		}
		// A finding whose report's prose was not linked to it (SPEC §2.4)
		// is read as its title alone.
		bare := ""
		for _, k := range []int{i, j} {
			if representative(nodes[k]).f.Description == "" {
				bare += fmt.Sprintf("; %s has no description", cmp.Or(nodes[k].srcs[0].f.ID, "one"))
			}
		}
		out := fmt.Sprintf("score %.2f (words %.2f, titles %.2f; evidence: %s%s)", score, g.cosine(i, j), g.titleCosine(i, j),
			cmp.Or(strings.Join(ev, ", "), "none"), bare)
		if detail {
			for _, k := range []int{i, j} {
				r := representative(nodes[k])
				var refs []string
				for _, x := range g.refs.of(k) {
					refs = append(refs, x.String())
				}
				d := r.f.Description
				d = strings.Join(strings.Fields(d[:min(len(d), descOpening)]), " ")
				out += fmt.Sprintf("\n      %s %s, section %q, title names %v, cites %v: %s", r.agent, cmp.Or(r.f.ID, "(no ID)"),
					nodes[k].section, identsOf(r.f.Title), refs, cmp.Or(d, "(no description)"))
			}
		}
		return out
	}
}

// mergeView reads run's completed agents as Synthesize does and returns
// its dedup nodes, the node of each finding by its report's base name and
// line ("fd-a.md:12"), and the merge rule's view of the nodes.
func mergeView(run *Run) ([]*node, map[string]int, *merger) {
	var s Synthesis
	nodes := nodesOf(sourcesOf(accountAgents(&s, run, Options{})))
	at := map[string]int{}
	for i, n := range nodes {
		for _, src := range n.srcs {
			at[fmt.Sprintf("%s:%d", path.Base(src.file), src.f.Line)] = i
		}
	}
	return nodes, at, newMerger(nodes)
}

// MergeRank reads run as MergeEvidence does and returns the rank the merge
// rule gives two of its findings (named as for MergeEvidence) before any
// threshold: the pair's score, or the cosine of their words or of their
// titles when higher. It reports false when either finding is not read.
// TestConvergenceLabels ranks the labelled pairs by it to show what the
// score can reach at any threshold.
func MergeRank(run *Run) func(a, b string) (float64, bool) {
	_, at, g := mergeView(run)
	return func(a, b string) (float64, bool) {
		i, ok := at[a]
		j, ok2 := at[b]
		if !ok || !ok2 {
			return 0, false
		}
		s, _ := g.score(i, j)
		return max(s, g.cosine(i, j), g.titleCosine(i, j)), true
	}
}

// sharedMeaning returns the defect classes nodes i and j name in common,
// and the specific anchors (each as its kind and text) they share.
func sharedMeaning(nodes []*node, g *merger, i, j int) (classes, anchors []string) {
	reps := make([]*src, len(nodes))
	for k, n := range nodes {
		reps[k] = representative(n)
	}
	_, ids := meaningOf(nodes, reps, func(k int) []int32 { return g.agents.of(k) })
	a, b := &g.meaning[i], &g.meaning[j]
	seen := map[string]bool{}
	name := func(kind byte, text string) {
		id, ok := ids[anchorHash(kind, text)]
		_, inA := slices.BinarySearch(a.anchors, id)
		_, inB := slices.BinarySearch(b.anchors, id)
		if k := string(kind) + " " + text; ok && inA && inB && !seen[k] {
			seen[k] = true
			anchors = append(anchors, k)
		}
	}
	eachNamedAnchor(reps[i].f.Title, name)
	if d := reps[i].f.Description; d != "" {
		eachNamedAnchor(d[:min(len(d), descBytes)], name)
	}
	slices.Sort(anchors)
	var cr classReader // the classes of a node without an anchor are not kept
	return classNames(cr.node(nodes[i], reps[i]) & cr.node(nodes[j], reps[j])), anchors
}
