package synth

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// src is one finding of one completed agent, ready for dedup.
//
// It is small: a synthesis holds one per finding of the run while it
// holds their reports too (400,000 at 8,000 agents). It keeps no prepared
// title (sources with one key share their node's) and, of its parsed file
// refs, only the one a finding with one ref has (one): in the 80 bytes the
// allocator gives a src anyway, where a list would cost a header and a
// block per source.
type src struct {
	agent string
	file  string // the agent's report file
	f     *parse.Finding
	key   string // parse.Key: normalised section ":" normalised title
	node  int32  // index of its key in the dedup nodes
	// finding is the index in Synthesis.Findings of the merged finding
	// holding it (findingsOf).
	finding int32
	// asWritten: every file ref of f has a path and is written as
	// Ref.String writes it.
	asWritten bool
	// one is f's file ref, parsed, when f has one alone and it is written
	// as Ref.String writes it (asWritten): refs yields it instead of
	// parsing the text again at each of the three steps that read it
	// (the merge, the timeline's index, the merged findings).
	one oneRef
}

// oneRef is a file ref written as Ref.String writes it, less its text:
// the length of its path (0: none) and its lines.
type oneRef struct{ path, start, end int32 }

func newSrc(agent, file string, f *parse.Finding) src {
	s := src{agent: agent, file: file, f: f, key: parse.Key(f.Section, f.Title), asWritten: true}
	for _, r := range f.FileRefs {
		if ref := ParseRef(r); ref.Path == "" || !ref.writes(r) {
			s.asWritten = false
			break
		} else if len(f.FileRefs) == 1 && ref.End <= math.MaxInt32 {
			s.one = oneRef{int32(len(ref.Path)), int32(ref.Start), int32(ref.End)}
		}
	}
	return s
}

// refs yields the references of s that have a path, each with its text as
// Ref.String writes it: the finding's own text when it is written that
// way already.
func (s *src) refs(yield func(Ref, string) bool) {
	if s.one.path > 0 {
		r := s.f.FileRefs[0]
		yield(Ref{Path: r[:s.one.path], Start: int(s.one.start), End: int(s.one.end)}, r)
		return
	}
	for _, r := range s.f.FileRefs {
		if ref := ParseRef(r); ref.Path != "" {
			if !s.asWritten && !ref.writes(r) {
				r = ref.String()
			}
			if !yield(ref, r) {
				return
			}
		}
	}
}

// fileRefs returns the texts of s's references, for its Source: the
// finding's own list when it writes every one as Ref.String does.
func (s *src) fileRefs() []string {
	if s.asWritten && s.f.FileRefs != nil {
		return s.f.FileRefs
	}
	texts := []string{}
	for _, text := range s.refs {
		texts = append(texts, text)
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
			s.node = int32(i)
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

// blocks is an index of titles by block key: the indexes of the nodes
// holding each, int32 (half the bytes of an int; the timeline's matcher
// holds one of a run's every node).
type blocks map[string][]int32

func (bl blocks) add(key string, i int) {
	if l := bl[key]; len(l) == 0 || l[len(l)-1] != int32(i) {
		bl[key] = append(l, int32(i))
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

// dedup merges the sources of nodes (nodesOf) into groups (SPEC §5.2):
// equal keys always; with DedupFuzzy also the nodes the merge rule makes one
// (merge.go). Merging is transitive and does not depend on the order of the
// sources. Each group is sorted by compareSrc; groups come in the order of
// their smallest key.
func dedup(nodes []*node, mode Dedup) [][]*src {
	uf := newUnionFind(len(nodes))
	if mode == DedupFuzzy {
		fuzzyUnion(nodes, uf)
	}
	// A group of one node of one source (most of a large run) is that
	// node's list, not a copy: a map and a slice per group were a tenth of
	// the allocation of a 16 MiB strict index. The groups come in the order
	// of their roots; a root is its group's first node in index order.
	nodesIn := make([]int32, len(nodes))
	for i := range nodes {
		nodesIn[uf.find(i)]++
	}
	at := make([]int32, len(nodes)) // a root's group in out
	out := make([][]*src, 0, len(nodes))
	for i, n := range nodes {
		r := uf.find(i)
		if r == i {
			at[r] = int32(len(out))
			if nodesIn[r] == 1 && len(n.srcs) == 1 {
				out = append(out, n.srcs[:1:1])
				continue
			}
			out = append(out, nil)
		}
		out[at[r]] = append(out[at[r]], n.srcs...)
	}
	for _, g := range out {
		slices.SortFunc(g, compareSrc)
	}
	return out
}

// sourceRef is "file:line" of a finding in its report.
func sourceRef(file string, line int) string {
	if line <= 0 {
		return file
	}
	return file + ":" + strconv.Itoa(line)
}
