package synth

import (
	"cmp"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// The merge rule of SPEC §5.2: when two findings with different keys are one
// finding. It is written once, in score; fuzzyUnion only chooses which pairs
// to ask it about, and TestFuzzyUnionIsPairwise holds it to finding every
// pair that asking every pair finds.
//
// A finding is read as its words: the keywords of its title (parse.Keywords,
// each cut to a stem by stem, and the defect classes they name:
// defectClasses) and the first descWords keywords of its
// description less its file:line refs (a place is evidence of its own), each
// as often as it stands. A word weighs what it says about
// one finding of the run: log2((N+n)/n) for a word n of the run's N findings
// hold, counted twice in a title; a word more than commonTitles findings hold
// weighs nothing (it is common words, and looking candidates up by it would
// cost the square of the run).
//
// The score of two findings of different agents is the cosine of their
// weighted words, or of their titles' words each weighed once by its idf
// when that is higher (a description has many words of its own), when it
// is at least minWords, plus evidence:
//   - sectionBonus when they are in the same section (agents name sections
//     differently, and prose has none: weak evidence);
//   - refBonus when they cite the same place: one file (one path the end of
//     the other) at line ranges of at most refSpan lines that meet or lie
//     within refGap lines of each other, and their titles share two weighted
//     words (two issues at one line that share one are co-located, SPEC
//     §5.2, not one);
//   - citeBonus when a description of one names the other's ID, an ID only
//     that finding of the run carries (and when one calls itself that
//     finding, in its title or the opening of its description: "[covered
//     by PER-04]", "duplicate of C2", sameAsRe, the pair scores at least
//     mergeScore whatever its words);
//   - identBonus when a code identifier (identsOf: snake_case, camelCase,
//     dotted names, paths, flags) that one's title names, the other names
//     in its title or description, and at most rareIdents findings of the
//     run name it;
//   - meaningBonus when they share a defect class and a specific anchor
//     (meaning.go), raising the score to meaningCeiling at most.
//
// Findings that cite one place (refBonus) and whose titles share two
// weighted words score at least mergeScore when their cosine is at least
// minPlaceWords: two agents pointing at one line with one defect class or
// one identifier in common name one defect (two issues at one line share a
// place, not their words).
//
// Findings of one section whose titles share at least three weighted words
// that weigh at least half of the lighter title (titlesMatch: SPEC §5.2's
// keyword rule in one section, its keywords weighed) score at least
// mergeScore, whatever their descriptions: a long title has too many words
// of its own for the cosine.
//
// Pairs scoring at least mergeScore merge, best first. An agent reports a
// defect once, so a pair whose groups already share an agent merges only
// when it scores at least sharedAgentScore: two findings of one agent are
// two defects unless another agent's finding matches them that strongly
// (two findings one agent wrote never merge by themselves; equal keys
// still merge). Convergence counts agents, not findings, so a group
// holding an agent twice counts it once. The order is the score, then the
// keys' order: never the order of the input.
//
// Then a group those pairs made is read as all its words (groupVec: the sum
// of its nodes' weighted words): a group and another group or node whose
// words have a cosine of at least groupScore merge, best first, by the same
// rule for shared agents. Two agents who name one defect from two sides
// name it better together than either does alone. A group looks up its
// candidates by its probe words, as a node does.
//
// The constants were tuned on hand-labelled clusters of real runs
// (testdata/convergence.txt, TestConvergenceLabels) and checked on runs that
// were not tuned on.

// commonTitles is how many findings of a run may hold a word before it
// weighs nothing.
const commonTitles = 64

// commonTitlesLimit is commonTitles; tests lower it to reach the cap with
// small runs.
var commonTitlesLimit = commonTitles

const (
	// descWords is how many keywords of a description are weighed, and
	// descBytes how much of it is read for them: a finding says what it is
	// about first.
	descWords = 80
	descBytes = 1024
	// titleWords is how many keywords of a title are weighed (a title
	// longer is a paragraph), each titleWeight times.
	titleWords  = 40
	titleWeight = 2
	// idfShift is the fixed point of word weights: integers, so that sums
	// are exact on every platform. A weight is at most (titleWeight +
	// descWords) × log2(N+1) × 2^idfShift < 2^19 for a million findings, so
	// a node's norm², at most 120 of them squared, stays under 2^45: exact in
	// a float64, and under 2^63 times probeDen².
	idfShift = 8
)

// The score's threshold and its evidence (see the comment above).
const (
	mergeScore = 0.5
	minWords   = 0.2
	// minPlaceWords is the cosine two findings citing one place need.
	minPlaceWords = 0.1
	sectionBonus  = 0.1
	refBonus      = 0.25
	citeBonus     = 0.3
	identBonus    = 0.15
	rareIdents    = 3
	refSpan       = 40
	refGap        = 6
	// sharedAgentScore is the score a pair needs to join groups that share
	// an agent.
	sharedAgentScore = 0.6
	// groupScore is the cosine of words a group of findings needs with
	// another (or with a finding) to join it; at least probeNum/probeDen.
	groupScore = 0.45
)

// probeNum/probeDen is a cosine whose square is under minWords: two nodes
// that each share no probe word with the other (their shared words are all
// among the words left of both, each under probeNum/probeDen of its node's
// norm) have a cosine under (probeNum/probeDen)², too little to merge. So a
// node's probe words find every node it may merge with.
const probeNum, probeDen = 44, 100

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

// log2Fixed returns log2(x) for x ≥ 1 in fixed point (idfShift bits), from
// integer operations only.
func log2Fixed(x uint64) int64 {
	ip := bits.Len64(x) - 1
	r := int64(ip) << idfShift
	// y = x / 2^ip in 2.62 fixed point, then one bit of the fraction per
	// squaring.
	y := x << (63 - ip) >> 1
	for b := idfShift - 1; b >= 0; b-- {
		hi, lo := bits.Mul64(y, y)
		y = hi<<2 | lo>>62 // y*y in 2.62
		if y >= 1<<63 {
			y >>= 1
			r |= 1 << b
		}
	}
	return r
}

// merger holds the merge rule's view of a run's nodes: for node i, each
// of its lists at of(i) in a block shared by all nodes (lists), and a
// value of each node in a slice. A node is 52 bytes and no pointer, not
// twelve slices of its own (304 bytes, a seventh of the live heap at
// 8,000 agents, scanned by the collector at each cycle).
type merger struct {
	nodes []*node
	// agents are each node's agents (their numbers by name), sorted.
	agents lists[int32]
	// terms are each node's weighted words, ascending, weight their
	// weights (weightOf), in one block with terms.all, and norm2 the sum
	// of their squares.
	terms  lists[int32]
	weight []int64
	norm2  []int64
	// probe are the words candidates are looked up by: the heaviest first,
	// until those left could not make a cosine of probeNum/probeDen.
	probe lists[int32]
	// refs are the places a node's sources cite, at most refSpan lines
	// each.
	refs lists[Ref]
	// cited are the nodes a node's descriptions name by ID (each an ID
	// only that node carries, named by a source of an agent that node does
	// not have), sorted.
	cited lists[int32]
	// sameAs are the nodes among cited that its title or the opening of
	// its description calls the same defect ("[covered by PER-04]",
	// "duplicate of C2"), sorted.
	sameAs lists[int32]
	// title are the weighted words of a node's title, ascending, titleIDF
	// the weight of each (its idf, counted once; titleIDFOf) and
	// titleNorm2 the sum of their squares; wordIDF is titleIDF less the
	// defect classes (0; wordIDFOf): the title rule weighs the words a
	// title holds.
	title             lists[int32]
	titleIDF, wordIDF []int64
	titleNorm2        []int64
	// idents are the rare code identifiers a node's titles name
	// (merger.identsOf), sorted; named those its titles or its description
	// name, sorted.
	idents, named lists[int32]
	// post lists, for each weighted word t, the nodes holding it, at
	// post[postAt[t]:postAt[t+1]] (postings).
	post, postAt []int32
	// groupAgents are the agents of each group join made, by its root,
	// sorted; a node not in one has its own (merger.agents).
	groupAgents map[int][]int32
	// meaning is the evidence of meaning of each node (meaning.go).
	meaning []meaningNode
}

// weightOf returns the weights of node i's terms.
func (g *merger) weightOf(i int) []int64 { return g.weight[g.terms.at[i]:g.terms.at[i+1]] }

// titleIDFOf returns the weights of node i's title words.
func (g *merger) titleIDFOf(i int) []int64 { return g.titleIDF[g.title.at[i]:g.title.at[i+1]] }

// wordIDFOf returns the weights of node i's title words for the title
// rule.
func (g *merger) wordIDFOf(i int) []int64 { return g.wordIDF[g.title.at[i]:g.title.at[i+1]] }

// newMerger weighs the words of nodes (see the comment above). It reads a
// node's sources once for all it needs of them (their agents, places, IDs
// and the identifiers their titles name, with the words of its title and
// of its representative's description) while they are in the cache, and
// keeps the nodes' lists in blocks shared by all (lists): at 8,000 agents
// the sources, cold in memory, were read in seven passes, and each node
// held ten lists of its own.
func newMerger(nodes []*node) *merger {
	g := &merger{nodes: nodes, norm2: make([]int64, len(nodes)), titleNorm2: make([]int64, len(nodes))}
	n := 0
	for _, nd := range nodes {
		n += len(nd.srcs)
	}
	words := make(map[string]int32, len(nodes))
	var df []int32 // nodes holding each word
	var classWord []bool
	counts, titles := newLists[termOf[int32]](len(nodes)), newLists[int32](len(nodes))
	agents, refs, idents := &g.agents, &g.refs, newLists[int32](len(nodes))
	*agents, *refs = newLists[int32](len(nodes)), newLists[Ref](len(nodes))
	// A source has one agent and most often one ref.
	agents.all, refs.all = make([]int32, 0, n), make([]Ref, 0, n)
	// The agents are numbered as first seen, then by name (num).
	agentNum := map[string]int32{}
	var agentNames []string
	ids := make(map[string]idAt, n)
	minLen, maxLen, unique := math.MaxInt, 0, 0
	identNum := map[string]int32{}
	reps := make([]*src, len(nodes))
	var stems []string
	for i, nd := range nodes {
		for k, s := range nd.srcs {
			a, ok := agentNum[s.agent]
			if !ok {
				a = int32(len(agentNames))
				agentNum[s.agent] = a
				agentNames = append(agentNames, s.agent)
			}
			agents.add(a)
			for r := range s.refs {
				if r.Start > 0 && r.End-r.Start <= refSpan {
					refs.add(r)
				}
			}
			if id := s.f.ID; id != "" {
				c := ids[id]
				switch c.sources {
				case 0:
					unique++
				case 1:
					unique--
				}
				ids[id] = idAt{int32(i), c.sources + 1}
				minLen, maxLen = min(minLen, len(id)), max(maxLen, len(id))
			}
			if k == 0 || s.f.Title != nd.srcs[k-1].f.Title {
				eachIdent(s.f.Title, func(w string) {
					w = lowerASCII(w)
					id, ok := identNum[w]
					if !ok {
						id = int32(len(identNum))
						identNum[w] = id
					}
					idents.add(id)
				})
			}
		}
		agents.end()
		refs.end()
		idents.end()
		start := len(counts.all)
		add := func(w string, c int32) int32 {
			s := w
			if !isClassWord(w) {
				s = stem(w)
			}
			id, ok := words[s]
			if !ok {
				id = int32(len(df))
				words[s] = id
				df = append(df, 0)
			}
			counts.add(termOf[int32]{id, c})
			return id
		}
		kws := parse.Keywords(nd.norm())
		kws = kws[:min(len(kws), titleWords)]
		stems = stems[:0]
		for _, kw := range kws {
			titles.add(add(kw, titleWeight))
			stems = append(stems, stem(kw))
		}
		for _, c := range defectClassesOf(stems) {
			id := add(c, titleWeight)
			titles.add(id)
			for len(classWord) <= int(id) {
				classWord = append(classWord, false)
			}
			classWord[id] = true
		}
		titles.end()
		rep := representative(nd)
		reps[i] = rep
		if d := rep.f.Description; d != "" {
			k := 0
			for w := range parse.Words(parse.Normalize(withoutRefs(d[:min(len(d), descBytes)]))) {
				if k == descWords {
					break
				}
				add(w, 1)
				k++
			}
		}
		counts.all = counts.all[:start+len(sumTerms(counts.all[start:]))]
		counts.end()
		for _, t := range counts.of(i) {
			df[t.id]++
		}
	}
	// The agents by name.
	byName := make([]int32, len(agentNames))
	for k := range byName {
		byName[k] = int32(k)
	}
	slices.SortFunc(byName, func(a, b int32) int { return strings.Compare(agentNames[a], agentNames[b]) })
	num := make([]int32, len(agentNames))
	for k, a := range byName {
		num[a] = int32(k)
	}
	idf := make([]int64, len(df))
	total := uint64(len(nodes))
	for id, d := range df {
		if int(d) <= commonTitlesLimit {
			idf[id] = log2Fixed(total+uint64(d)) - log2Fixed(uint64(d))
		}
	}
	// The postings: each weighted word's nodes, in one block.
	postAt := make([]int32, len(df)+1)
	nTerms, nTitle := 0, 0
	for i := range nodes {
		for _, t := range counts.of(i) {
			if int64(t.count)*idf[t.id] > 0 {
				postAt[t.id+1]++
				nTerms++
			}
		}
		for _, id := range titles.of(i) {
			if idf[id] > 0 {
				nTitle++
			}
		}
	}
	for t := range df {
		postAt[t+1] += postAt[t]
	}
	post := make([]int32, nTerms)
	fill := slices.Clone(postAt[:len(df)])
	termAll, weightAll := make([]int32, 0, nTerms), make([]int64, 0, nTerms)
	titleAll, titleIDFAll, wordIDFAll := make([]int32, 0, nTitle), make([]int64, 0, nTitle), make([]int64, 0, nTitle)
	// Each node's agents and places sorted, once each, in place.
	agents.compactEach(func(_ int, as []int32) []int32 {
		for k, a := range as {
			as[k] = num[a]
		}
		slices.Sort(as)
		return slices.Compact(as)
	})
	refs.compactEach(func(_ int, rs []Ref) []Ref {
		slices.SortFunc(rs, compareRef)
		return slices.Compact(rs)
	})
	g.terms, g.title, g.probe = newLists[int32](len(nodes)), newLists[int32](len(nodes)), newLists[int32](len(nodes))
	g.terms.all = termAll
	g.title.all = titleAll
	var order []int
	for i := range nodes {
		var norm2 int64
		for _, t := range counts.of(i) {
			if w := int64(t.count) * idf[t.id]; w > 0 {
				g.terms.add(t.id)
				weightAll = append(weightAll, w)
				norm2 += w * w
				post[fill[t.id]] = int32(i)
				fill[t.id]++
			}
		}
		g.terms.end()
		g.norm2[i] = norm2
		g.weight = weightAll
		g.probe.all = probeOf(g.terms.of(i), g.weightOf(i), norm2, &order, g.probe.all)
		g.probe.end()
		var titleNorm2 int64
		ts := titles.of(i)
		slices.Sort(ts)
		for _, id := range slices.Compact(ts) {
			if idf[id] > 0 {
				g.title.add(id)
				titleIDFAll = append(titleIDFAll, idf[id])
				titleNorm2 += idf[id] * idf[id]
				if int(id) < len(classWord) && classWord[id] {
					wordIDFAll = append(wordIDFAll, 0)
				} else {
					wordIDFAll = append(wordIDFAll, idf[id])
				}
			}
		}
		g.title.end()
		g.titleNorm2[i] = titleNorm2
	}
	g.titleIDF, g.wordIDF = titleIDFAll, wordIDFAll
	g.post, g.postAt = post, postAt
	g.cited, g.sameAs = emptyLists[int32](len(nodes)), emptyLists[int32](len(nodes))
	g.idents, g.named = emptyLists[int32](len(nodes)), emptyLists[int32](len(nodes))
	if unique > 0 {
		g.citedOf(ids, minLen, maxLen)
	}
	if len(identNum) > 0 {
		g.identsOf(idents, identNum, reps)
	}
	g.meaning, _ = meaningOf(nodes, reps, func(i int) []int32 { return g.agents.of(i) })
	return g
}

// lists is a list for each node in one block: node i's is
// all[at[i]:at[i+1]], made in the order of the nodes (add, then end).
type lists[T any] struct {
	all []T
	at  []int32
}

func newLists[T any](nodes int) lists[T] {
	return lists[T]{at: append(make([]int32, 0, nodes+1), 0)}
}

// add appends v to the list of the node being made.
func (l *lists[T]) add(v T) { l.all = append(l.all, v) }

// end closes the list of the node being made.
func (l *lists[T]) end() {
	if len(l.at) == 0 {
		l.at = append(l.at, 0)
	}
	l.at = append(l.at, int32(len(l.all)))
}

// of returns node i's list, its capacity its length.
func (l *lists[T]) of(i int) []T { return l.all[l.at[i]:l.at[i+1]:l.at[i+1]] }

// emptyLists returns an empty list for each of nodes.
func emptyLists[T any](nodes int) lists[T] { return lists[T]{at: make([]int32, nodes+1)} }

// compactEach replaces each node's list, in the order of the nodes, by
// what f returns of it: the list itself or a part of it, each element at
// most where it was (slices.Compact, slices.DeleteFunc). The lists stay in
// their block, without the gaps.
func (l *lists[T]) compactEach(f func(i int, list []T) []T) {
	w := int32(0)
	for i := 0; i+1 < len(l.at); i++ {
		out := f(i, l.all[l.at[i]:l.at[i+1]:l.at[i+1]])
		l.at[i] = w
		w += int32(copy(l.all[w:], out))
	}
	if len(l.at) > 0 {
		l.at[len(l.at)-1] = w
	}
	clear(l.all[w:])
	l.all = l.all[:w]
}

// postings returns the nodes holding the weighted word t.
func (g *merger) postings(t int32) []int32 { return g.post[g.postAt[t]:g.postAt[t+1]] }

// identsOf gives each node the code identifiers its titles name (idents,
// by the numbers of identNum), and those of them that its titles or its
// representative's description name (named), each when at most
// rareIdents nodes name it.
func (g *merger) identsOf(idents lists[int32], identNum map[string]int32, reps []*src) {
	df := make([]int32, len(identNum)) // nodes naming each
	named := newLists[int32](len(g.nodes))
	for i := range g.nodes {
		start := len(named.all)
		named.all = append(named.all, idents.of(i)...)
		if d := reps[i].f.Description; d != "" {
			eachIdent(d[:min(len(d), descBytes)], func(w string) {
				if id, ok := identNum[lowerASCII(w)]; ok {
					named.add(id)
				}
			})
		}
		ns := named.all[start:]
		slices.Sort(ns)
		named.all = append(named.all[:start], slices.Compact(ns)...)
		named.end()
		for _, id := range named.of(i) {
			df[id]++
		}
	}
	common := func(id int32) bool { return df[id] > rareIdents }
	idents.compactEach(func(_ int, is []int32) []int32 {
		slices.Sort(is)
		return slices.DeleteFunc(slices.Compact(is), common)
	})
	named.compactEach(func(_ int, ns []int32) []int32 { return slices.DeleteFunc(ns, common) })
	g.idents, g.named = idents, named
}

// termOf is a word and how often it counts: in a node (an int32: at most
// titleWeight × titleWords + descWords; newMerger holds one per word of
// every node, 8 bytes each, not 16) or in a group's sum of weights
// (termCount).
type termOf[C int32 | int64] struct {
	id    int32
	count C
}

// termCount is a word of a group and its summed weight.
type termCount = termOf[int64]

// sumTerms sorts tc by word and adds up the counts of each word, in place.
func sumTerms[C int32 | int64](tc []termOf[C]) []termOf[C] {
	slices.SortFunc(tc, func(a, b termOf[C]) int { return cmp.Compare(a.id, b.id) })
	out := tc[:0]
	for _, t := range tc {
		if len(out) > 0 && out[len(out)-1].id == t.id {
			out[len(out)-1].count += t.count
		} else {
			out = append(out, t)
		}
	}
	return out
}

// probeOf returns the probe of weighted words (words, their weights, the
// sum of the squares of those: exact integers for a node, float64 for a
// group, whose sums may pass 2^63): its words, heaviest first, until the
// squares of those left weigh less than (probeNum/probeDen)² of its norm.
// Words sharing none of them have a cosine under probeNum/probeDen with
// it: their dot product is at most the norm of the words left. The probe
// is appended to dst; order is scratch space.
func probeOf[N int64 | float64](terms []int32, weight []int64, norm2 N, order *[]int, dst []int32) []int32 {
	o := (*order)[:0]
	for k := range terms {
		o = append(o, k)
	}
	*order = o
	slices.SortFunc(o, func(a, b int) int {
		return cmp.Or(cmp.Compare(weight[b], weight[a]), cmp.Compare(terms[a], terms[b]))
	})
	left := norm2
	probe := dst
	for _, k := range o {
		if left*probeDen*probeDen < probeNum*probeNum*norm2 {
			break
		}
		probe = append(probe, terms[k])
		left -= N(N(weight[k]) * N(weight[k])) // one rounding each, no fused multiply-add
	}
	return probe
}

// representative returns the source of n whose description is read: the
// first by agent, file and line, so that it does not depend on the input's
// order (sources with those equal read the same description at one place).
func representative(n *node) *src {
	r := n.srcs[0]
	for _, s := range n.srcs[1:] {
		if cmp.Or(strings.Compare(s.agent, r.agent), strings.Compare(s.file, r.file), cmp.Compare(s.f.Line, r.f.Line),
			strings.Compare(s.f.Description, r.f.Description)) < 0 {
			r = s
		}
	}
	return r
}

// citedOf finds the nodes each node's descriptions name by ID: an ID that
// only one source of the run carries, so that "F1", which many agents use,
// names none. ids holds each ID of the run with its node and how many
// sources carry it, none shorter than minLen bytes or longer than maxLen:
// a description's words are looked up only when they are as long as some
// ID (most are not).
func (g *merger) citedOf(ids map[string]idAt, minLen, maxLen int) {
	// One closure for every source: it appends to list the node an ID of
	// the source of agent names, at node i.
	var (
		i     int
		agent string
		list  *lists[int32]
	)
	cite := func(_ string, a idAt) {
		if a.sources == 1 && int(a.node) != i && !g.hasAgent(int(a.node), agent) {
			list.add(a.node)
		}
	}
	cited, sameAs := newLists[int32](len(g.nodes)), newLists[int32](len(g.nodes))
	for i = range g.nodes {
		c, sa := len(cited.all), len(sameAs.all)
		for _, s := range g.nodes[i].srcs {
			agent, list = s.agent, &cited
			eachMention(s.f.Description, ids, minLen, maxLen, cite)
			if !hasSameAsWord(s.f.Title) && !hasSameAsWord(s.f.Description[:min(len(s.f.Description), sameAsBytes)]) {
				continue
			}
			list = &sameAs
			eachSameAs(s.f.Title, s.f.Description, ids, cite)
		}
		slices.Sort(cited.all[c:])
		cited.all = append(cited.all[:c], slices.Compact(cited.all[c:])...)
		cited.end()
		slices.Sort(sameAs.all[sa:])
		sameAs.all = append(sameAs.all[:sa], slices.Compact(sameAs.all[sa:])...)
		sameAs.end()
	}
	g.cited, g.sameAs = cited, sameAs
}

// idAt is an ID of the run: the node of the last source carrying it, and
// how many sources carry it.
type idAt struct{ node, sources int32 }

// sameAsRe finds a finding calling itself another's: "covered by PER-04",
// "duplicate of `C2`", "same issue as SEC-1", "also reported as F3". A
// bare "see C2" is not one: it points at something related.
var sameAsRe = regexp.MustCompile(`(?i)\b(?:covered by|duplicates?(?: of)?|same (?:issue|defect|finding|problem|bug|root cause) as|also reported (?:as|by|in))[\s:\[(*` + "`" + `]*([A-Za-z][A-Za-z0-9_.-]*[0-9][A-Za-z0-9_]*)`)

// hasSameAsWord reports whether t holds, in any case, a word sameAsRe
// starts with; it reads t without copying it.
func hasSameAsWord(t string) bool {
	for i := 0; i+3 <= len(t); i++ {
		switch t[i] | 0x20 {
		case 'c', 'd', 's', 'a':
			for _, w := range [...]string{"cover", "dup", "same", "also"} {
				if len(t)-i >= len(w) && strings.EqualFold(t[i:i+len(w)], w) {
					return true
				}
			}
		}
	}
	return false
}

// sameAsBytes is how much of a description's opening is read for
// sameAsRe: its heading and first line, where a finding says what it is.
const sameAsBytes = 400

// eachSameAs calls f with each ID of ids that a finding's title or the
// opening of its description says it is the same defect as.
func eachSameAs(title, desc string, ids map[string]idAt, f func(id string, a idAt)) {
	desc = desc[:min(len(desc), sameAsBytes)]
	for _, t := range [...]string{title, desc} {
		if !hasSameAsWord(t) {
			continue // the regexp only where one of its words is
		}
		for _, m := range sameAsRe.FindAllStringSubmatch(t, -1) {
			if a, ok := ids[m[1]]; ok {
				f(m[1], a)
			}
		}
	}
}

// sameFile reports whether two cited paths name one file: equal, or one
// the end of the other after a slash ("db.py" and "src/db.py").
func sameFile(p, q string) bool {
	if len(p) > len(q) {
		p, q = q, p
	}
	return p == q || strings.HasSuffix(q, p) && q[len(q)-len(p)-1] == '/'
}

// near reports whether nodes i and j cite one place (see refBonus).
func (g *merger) near(i, j int) bool {
	for _, r := range g.refs.of(i) {
		for _, o := range g.refs.of(j) {
			if sameFile(r.Path, o.Path) && r.Start <= o.End+refGap && o.Start <= r.End+refGap {
				return true
			}
		}
	}
	return false
}

// same reports whether node i or node j calls itself the other (sameAs).
func (g *merger) same(i, j int) bool {
	_, ok := slices.BinarySearch(g.sameAs.of(i), int32(j))
	if !ok {
		_, ok = slices.BinarySearch(g.sameAs.of(j), int32(i))
	}
	return ok
}

// cites reports whether node i's descriptions name node j (citedOf).
func (g *merger) cites(i, j int) bool {
	_, ok := slices.BinarySearch(g.cited.of(i), int32(j))
	return ok
}

// hasAgent reports whether node j has a source of agent a.
func (g *merger) hasAgent(j int, a string) bool {
	for _, s := range g.nodes[j].srcs {
		if s.agent == a {
			return true
		}
	}
	return false
}

// cosine returns the cosine of the weighted words of nodes i and j.
func (g *merger) cosine(i, j int) float64 {
	return cosineOf(g.terms.of(i), g.weightOf(i), g.norm2[i], g.terms.of(j), g.weightOf(j), g.norm2[j])
}

// cosineOf returns the cosine of two weighted word lists (words ascending,
// their weights, the sum of the squares of those: integers for nodes,
// float64 for groups).
func cosineOf[N int64 | float64](at []int32, aw []int64, an2 N, bt []int32, bw []int64, bn2 N) float64 {
	if an2 == 0 || bn2 == 0 {
		return 0
	}
	var dot N
	for x, y := 0, 0; x < len(at) && y < len(bt); {
		switch {
		case at[x] < bt[y]:
			x++
		case at[x] > bt[y]:
			y++
		default:
			dot += N(N(aw[x]) * N(bw[y]))
			x++
			y++
		}
	}
	// Each step is one rounding (no fused multiply-add), so every platform
	// computes the same value.
	norms := float64(float64(an2) * float64(bn2))
	return float64(dot) / math.Sqrt(norms)
}

// titleCosine returns the cosine of the titles of nodes i and j, each word
// weighed once by its idf.
func (g *merger) titleCosine(i, j int) float64 {
	return cosineOf(g.title.of(i), g.titleIDFOf(i), g.titleNorm2[i], g.title.of(j), g.titleIDFOf(j), g.titleNorm2[j])
}

// score returns the score of nodes i and j (see the comment above) and
// whether it is one a pair may merge at: nodes of one agent never are.
func (g *merger) score(i, j int) (float64, bool) {
	if as, bs := g.agents.of(i), g.agents.of(j); len(as) == 1 && len(bs) == 1 && as[0] == bs[0] {
		return 0, false
	}
	s := max(g.cosine(i, j), g.titleCosine(i, j))
	same := g.nodes[i].section == g.nodes[j].section && g.nodes[i].section != ""
	shared := countShared(g.title.of(i), g.title.of(j))
	titleRule := same && shared >= 3 && g.titlesMatch(i, j)
	// Two agents citing one place with two title words in common (a
	// defect class is one) name one defect there; co-located issues share
	// a place, not their words.
	near := shared >= 2 && g.near(i, j)
	placeRule := near && s >= minPlaceWords
	// A finding that calls itself another agent's ("covered by PER-04")
	// is that one, whatever its words.
	sameRule := g.same(i, j)
	if s < minWords && !titleRule && !placeRule && !sameRule {
		return s, false // evidence raises a match of words, it never makes one
	}
	if same {
		s += sectionBonus
	}
	if near {
		s += refBonus
	}
	if g.cites(i, j) || g.cites(j, i) {
		s += citeBonus
	}
	ident := countShared(g.idents.of(i), g.named.of(j)) > 0 || countShared(g.named.of(i), g.idents.of(j)) > 0
	if ident {
		s += identBonus
	}
	s = g.meaning[i].raise(&g.meaning[j], s, ident)
	if titleRule || placeRule || sameRule {
		s = max(s, mergeScore) // these rules merge whatever the words of the descriptions
	}
	return s, s >= mergeScore
}

// titlesMatch reports whether the words two titles share weigh at least
// half of the lighter title: the keyword form of SPEC §5.2's rule in one
// section, its keywords weighed (titleIDF), so that words every agent uses
// make up little of a title.
func (g *merger) titlesMatch(i, j int) bool {
	at, aw, bt, bw := g.title.of(i), g.wordIDFOf(i), g.title.of(j), g.wordIDFOf(j)
	var shared, ta, tb int64
	for _, w := range aw {
		ta += w
	}
	for _, w := range bw {
		tb += w
	}
	for x, y := 0, 0; x < len(at) && y < len(bt); {
		switch {
		case at[x] < bt[y]:
			x++
		case at[x] > bt[y]:
			y++
		default:
			shared += aw[x]
			x++
			y++
		}
	}
	return 2*shared >= min(ta, tb)
}

// countShared returns how many elements two sorted lists share.
func countShared(a, b []int32) int {
	n := 0
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x] < b[y]:
			x++
		case a[x] > b[y]:
			y++
		default:
			n++
			x++
			y++
		}
	}
	return n
}

// scored is a pair of nodes that may merge, with its score.
type scored struct {
	score float64
	i, j  int32
}

// candidates calls f with every node j that a pair (i, j) that may merge
// has, when j does not find i: the nodes sharing a probe word of i (see
// probeNum). f may be called more than once for one j.
func (g *merger) candidates(i int, f func(j int)) {
	for _, t := range g.probe.of(i) {
		for _, j := range g.postings(t) {
			f(int(j))
		}
	}
	// The title rule needs three shared title words, and a title cosine
	// one: a node they join holds one of them.
	for _, t := range g.title.of(i) {
		for _, j := range g.postings(t) {
			f(int(j))
		}
	}
	for _, j := range g.sameAs.of(i) {
		f(int(j))
	}
}

// pairs returns every pair of nodes that may merge, each once, sorted best
// first: by score, then by the nodes' order (their keys').
func (g *merger) pairs() []scored {
	var out []scored
	seen := make([]int32, len(g.nodes)) // seen[j] == i+1: j already scored for i
	for i := range g.nodes {
		g.candidates(i, func(j int) {
			if j == i || seen[j] == int32(i+1) {
				return
			}
			seen[j] = int32(i + 1)
			if s, ok := g.score(i, j); ok {
				out = append(out, scored{s, int32(min(i, j)), int32(max(i, j))})
			}
		})
	}
	return sortPairs(out)
}

// sortPairs sorts pairs best first and drops repeats (a pair found from
// both its nodes).
func sortPairs(ps []scored) []scored {
	slices.SortFunc(ps, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j))
	})
	return slices.CompactFunc(ps, func(a, b scored) bool { return a.i == b.i && a.j == b.j })
}

// join merges pairs into uf in their order, each only when the two groups
// have no agent in common or it scores at least sharedAgentScore.
func (g *merger) join(ps []scored, uf unionFind) {
	if g.groupAgents == nil {
		g.groupAgents = make(map[int][]int32, len(ps))
	}
	agents := g.groupAgents
	of := func(r int) []int32 {
		if as, ok := agents[r]; ok {
			return as
		}
		return g.agents.of(r)
	}
	for _, p := range ps {
		a, b := uf.find(int(p.i)), uf.find(int(p.j))
		if a == b {
			continue
		}
		as, bs := of(a), of(b)
		if p.score < sharedAgentScore && intersects(as, bs) {
			continue
		}
		uf.union(a, b)
		r := uf.find(a)
		delete(agents, a)
		delete(agents, b)
		agents[r] = mergeSorted(as, bs)
	}
}

// intersects reports whether two sorted lists share an element.
func intersects(a, b []int32) bool {
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x] < b[y]:
			x++
		case a[x] > b[y]:
			y++
		default:
			return true
		}
	}
	return false
}

// mergeSorted returns the sorted union of two sorted lists, each element
// once.
func mergeSorted(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	slices.Sort(out)
	return slices.Compact(out)
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

// fuzzyUnion joins the nodes that the merge rule makes one: the pairs of
// nodes, then the pairs of the groups they made. A node or group asks only
// its candidates (merger.candidates, groupPairs), each once: a probe word's
// postings hold at most commonTitlesLimit nodes, so the cost is linear in
// the nodes.
func fuzzyUnion(nodes []*node, uf unionFind) {
	if oneAgent(nodes) {
		return // only findings of different agents merge by the rule
	}
	g := newMerger(nodes)
	g.join(g.pairs(), uf)
	vs := g.groupVecs(uf)
	g.join(g.groupPairs(uf, vs), uf)
}

// groupVec is the words of a group of nodes join made: the sum of its
// nodes' weighted words (merger.terms and weight), words ascending.
type groupVec struct {
	terms  []int32
	weight []int64
	// norm2 is the sum of the squares of weight: a float64, for a group's
	// sums may pass 2^63 (a node's, under 2^45, are exact in it).
	norm2 float64
	// root: the vector is a group's (its index the group's root); big: the
	// group holds two nodes or more (a node alone was compared by score
	// already).
	root, big bool
	// probe are the words a big group looks its candidates up by
	// (probeOf).
	probe []int32
}

// groupVecs returns the words of each group of uf, at its root's index. A
// group of one node reads the node's own.
func (g *merger) groupVecs(uf unionFind) []groupVec {
	vs := make([]groupVec, len(g.nodes))
	members := map[int][]int{} // the other nodes of each big group
	for i := range g.nodes {
		if r := uf.find(i); r != i {
			members[r] = append(members[r], i)
		}
	}
	var sum []termCount
	var order []int
	for i := range g.nodes {
		if uf.find(i) != i {
			continue
		}
		v := &vs[i]
		v.root = true
		ms, big := members[i]
		if !big {
			v.terms, v.weight, v.norm2 = g.terms.of(i), g.weightOf(i), float64(g.norm2[i])
			continue
		}
		v.big = true
		sum = sum[:0]
		for _, k := range append(ms, i) {
			w := g.weightOf(k)
			for x, t := range g.terms.of(k) {
				sum = append(sum, termCount{t, w[x]})
			}
		}
		tc := sumTerms(sum)
		v.terms, v.weight = make([]int32, len(tc)), make([]int64, len(tc))
		for x, t := range tc {
			v.terms[x], v.weight[x] = t.id, t.count
			v.norm2 += float64(float64(t.count) * float64(t.count))
		}
		v.probe = probeOf(v.terms, v.weight, v.norm2, &order, nil)
	}
	return vs
}

// groupCosine returns the cosine of the words of two groups.
func groupCosine(a, b *groupVec) float64 {
	return cosineOf(a.terms, a.weight, a.norm2, b.terms, b.weight, b.norm2)
}

// groupPairs returns the pairs of groups (by their roots) whose words match
// at groupScore or more, one of them holding two nodes or more, each once,
// sorted best first. A group looks its candidates up by its probe words.
func (g *merger) groupPairs(uf unionFind, vs []groupVec) []scored {
	var out []scored
	seen := make([]int32, len(g.nodes)) // seen[h] == r+1: h already scored for r
	for r := range vs {
		v := &vs[r]
		if !v.big {
			continue
		}
		for _, t := range v.probe {
			for _, j := range g.postings(t) {
				h := uf.find(int(j))
				if h == r || seen[h] == int32(r+1) {
					continue
				}
				seen[h] = int32(r + 1)
				if s := groupCosine(v, &vs[h]); s >= groupScore {
					out = append(out, scored{s, int32(min(r, h)), int32(max(r, h))})
				}
			}
		}
	}
	return sortPairs(out)
}

// withoutRefs returns text without the file:line refs it cites: a place is
// evidence of its own (refBonus), and its path's words would count it twice.
func withoutRefs(text string) string {
	if !strings.Contains(text, ":") {
		return text
	}
	f := strings.Fields(text)
	out := f[:0]
	for _, w := range f {
		if !looksLikeRef(w) {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// looksLikeRef reports whether a word is a file:line ref: a path holding a
// . or a /, a colon, a digit.
func looksLikeRef(w string) bool {
	w = strings.Trim(w, "`'\"()[],;")
	i := strings.LastIndexByte(w, ':')
	if i <= 0 || i+1 >= len(w) || w[i+1] < '0' || w[i+1] > '9' {
		return false
	}
	return strings.ContainsAny(w[:i], "./")
}
