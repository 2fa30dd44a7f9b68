package synth

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// src is one finding of one completed agent, ready for dedup.
//
// It holds no prepared title: sources with one key share their node's (a
// synthesis of 96,000 findings held 96,000 prepared titles, 30 MB, at its
// peak).
type src struct {
	agent  string
	file   string // the agent's report file
	f      *parse.Finding
	key    string // parse.Key: normalised section ":" normalised title
	refs   []srcRef
	node   int    // index of its key in the dedup nodes
	merged string // key of the merged finding holding it
}

func newSrc(agent, file string, f *parse.Finding) src {
	s := src{agent: agent, file: file, f: f, key: parse.Key(f.Section, f.Title)}
	for _, r := range f.FileRefs {
		if ref := ParseRef(r); ref.Path != "" {
			if !ref.writes(r) {
				r = ref.String()
			}
			if s.refs == nil {
				s.refs = make([]srcRef, 0, len(f.FileRefs))
			}
			s.refs = append(s.refs, srcRef{ref, r})
		}
	}
	return s
}

// srcRef is a reference of a source, with its text as Ref.String writes it:
// the finding's own text when it is written that way already.
type srcRef struct {
	Ref
	text string
}

// fileRefs returns the texts of s's references, for its Source.
func (s *src) fileRefs() []string {
	texts := make([]string, len(s.refs))
	for i, r := range s.refs {
		texts[i] = r.text
	}
	return texts
}

// compareSrc orders the sources of a merged finding; the first is its
// representative: highest severity, then agent name, then line (SPEC §5.2),
// then the remaining fields so that the order never depends on input order.
func compareSrc(a, b *src) int {
	return cmp.Or(
		cmp.Compare(a.f.Severity.Rank(), b.f.Severity.Rank()),
		cmp.Compare(a.agent, b.agent),
		cmp.Compare(a.f.Line, b.f.Line),
		cmp.Compare(a.f.ID, b.f.ID),
		cmp.Compare(a.key, b.key),
		cmp.Compare(a.file, b.file),
		cmp.Compare(a.f.Section, b.f.Section),
		cmp.Compare(a.f.Title, b.f.Title),
		slices.Compare(a.f.FileRefs, b.f.FileRefs),
	)
}

// node is one distinct key: all sources with that key merge exactly.
type node struct {
	key     string
	section string       // normalised: the key up to its first colon
	title   *parse.Title // prepared when first asked for (prepared)
	srcs    []*src
}

// norm is the node's normalised title: its key after the section.
func (n *node) norm() string { return n.key[len(n.section)+1:] }

// prepared returns the node's title prepared for the title rule, from any
// of its sources (they share its normalised text). The timeline's matcher
// compares a few bus entries with a few candidate nodes: it prepares those,
// not every node.
func (n *node) prepared() *parse.Title {
	if n.title == nil {
		t := parse.NewTitle(n.srcs[0].f.Title)
		n.title = &t
	}
	return n.title
}

// unionFind is a disjoint-set forest over node indexes.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// union joins the sets of i and j, keeping the smaller index as the root so
// that the forest does not depend on the order of unions.
func (u unionFind) union(i, j int) {
	a, b := u.find(i), u.find(j)
	if a == b {
		return
	}
	if b < a {
		a, b = b, a
	}
	u[b] = a
}

// nodesOf groups sources by key. Nodes are sorted by key, so node indexes do
// not depend on the order of srcs.
func nodesOf(srcs []*src) []*node {
	byKey := map[string]*node{}
	for _, s := range srcs {
		n := byKey[s.key]
		if n != nil {
			s.key = n.key // one copy of a key for all its sources
		} else {
			section, _, _ := strings.Cut(s.key, ":") // a normalised section has no colon
			n = &node{key: s.key, section: section}
			byKey[s.key] = n
		}
		n.srcs = append(n.srcs, s)
	}
	nodes := make([]*node, 0, len(byKey))
	for _, n := range byKey {
		nodes = append(nodes, n)
	}
	slices.SortFunc(nodes, func(a, b *node) int { return cmp.Compare(a.key, b.key) })
	for i, n := range nodes {
		for _, s := range n.srcs {
			s.node = i
		}
	}
	return nodes
}

// blockKeys are the candidate blocks of a title with the keywords kws: one
// per keyword, by its first four letters (so "deadlock" and "deadlocks"
// meet), or a single block for a title without keywords.
func blockKeys(kws []string) []string {
	if len(kws) == 0 {
		return []string{""}
	}
	keys := make([]string, 0, len(kws))
	for _, k := range kws {
		keys = append(keys, k[:min(4, len(k))])
	}
	return keys
}

// blocks is an index of titles by block key.
type blocks map[string][]int

func (bl blocks) add(key string, i int) {
	if l := bl[key]; len(l) == 0 || l[len(l)-1] != i {
		bl[key] = append(l, i)
	}
}

// probe returns the block keys a title looks up candidates in: the rarest
// of its keys, all but two of them. Two titles sharing three keywords share
// one of any title's keys but two, so the keyword rule loses nothing; the
// Levenshtein rule, which needs most characters in common, keeps the rare
// words. Common words ("missing", "error") no longer make every title a
// candidate of every other.
func (bl blocks) probe(prefix string, keys []string) []string {
	if len(keys) <= 3 {
		return keys
	}
	// Each block's size is looked up once, not at every comparison (two
	// map lookups each, 16% of synth's CPU on a 200k-line bus).
	type sized struct {
		n   int
		key string
	}
	byRarity := make([]sized, len(keys))
	for i, k := range keys {
		byRarity[i] = sized{len(bl[prefix+k]), k}
	}
	slices.SortStableFunc(byRarity, func(a, b sized) int {
		return cmp.Or(cmp.Compare(a.n, b.n), cmp.Compare(a.key, b.key))
	})
	out := make([]string, len(keys)-2)
	for i := range out {
		out[i] = byRarity[i].key
	}
	return out
}

// dedup merges sources into groups (SPEC §5.2): equal keys always; with
// DedupFuzzy also titles of one section that match by the title rule, and
// titles of different sections that match and share a file:line. Merging is
// transitive. Candidates are found through blocks (section and keyword, or
// file:line), never by comparing every pair, and a pair already in one set is
// not compared again. Each group is sorted by compareSrc; groups come in the
// order of their smallest key.
func dedup(srcs []*src, mode Dedup) [][]*src {
	nodes := nodesOf(srcs)
	uf := newUnionFind(len(nodes))
	if mode == DedupFuzzy {
		fuzzyUnion(nodes, uf)
	}
	groups := map[int][]*src{}
	var roots []int
	for i, n := range nodes {
		r := uf.find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], n.srcs...)
	}
	slices.Sort(roots)
	out := make([][]*src, 0, len(roots))
	for _, r := range roots {
		g := groups[r]
		slices.SortFunc(g, compareSrc)
		out = append(out, g)
	}
	return out
}

func fuzzyUnion(nodes []*node, uf unionFind) {
	// Within a section: blocks of (section, keyword prefix).
	bl := blocks{}
	keys := make([][]string, len(nodes))
	for i, n := range nodes {
		keys[i] = blockKeys(n.prepared().Keywords())
		for _, k := range keys[i] {
			bl.add(n.section+"\x00"+k, i)
		}
	}
	seen := make([]int, len(nodes)) // seen[j] == i+1: j already tried for i
	for i, n := range nodes {
		prefix := n.section + "\x00"
		for _, k := range bl.probe(prefix, keys[i]) {
			for _, j := range bl[prefix+k] {
				if j == i || seen[j] == i+1 {
					continue
				}
				seen[j] = i + 1
				if uf.find(i) != uf.find(j) && n.prepared().Matches(nodes[j].prepared()) {
					uf.union(i, j)
				}
			}
		}
	}
	// Across sections: nodes sharing a file:line.
	byPoint := map[string][]int{}
	for i, n := range nodes {
		for _, s := range n.srcs {
			for _, r := range s.refs {
				p := r.point()
				if p == "" {
					continue
				}
				if l := byPoint[p]; len(l) == 0 || l[len(l)-1] != i {
					byPoint[p] = append(l, i)
				}
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(byPoint)) {
		l := byPoint[p]
		for a := 0; a < len(l); a++ {
			for b := a + 1; b < len(l); b++ {
				i, j := l[a], l[b]
				if nodes[i].section == nodes[j].section || uf.find(i) == uf.find(j) {
					continue
				}
				if nodes[i].prepared().Matches(nodes[j].prepared()) {
					uf.union(i, j)
				}
			}
		}
	}
}

// sourceRef is "file:line" of a finding in its report.
func sourceRef(file string, line int) string {
	if line <= 0 {
		return file
	}
	return file + ":" + strconv.Itoa(line)
}
