package synth

import (
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Evidence of meaning for the merge rule (SPEC §5.2). Two agents often name
// one defect in words they do not share ("SQL injection in list_uploads",
// "query built with string formatting"); what they share is the kind of
// defect and the concrete thing it is in. So a finding is also read for
//   - its defect classes: the classes of defectClasses that its title or
//     the first classBytes of its description name (classesOf);
//   - its anchors: the concrete names its title and the first descBytes of
//     its description give (eachAnchor: code identifiers, code spans,
//     quoted names, endpoints, numbers). A file it cites is a place, not an
//     anchor: two findings at far lines of one file are two (refBonus). An
//     anchor is evidence only when it is specific: at most maxAnchorNodes
//     findings of the run name it and no agent names it in two of its
//     findings (an agent's two findings are two defects by its own
//     judgement, so a name it gives both is their topic, not one
//     defect's).
//
// Two findings of different agents that share a class and an anchor score
// meaningBonus more, counting the identBonus of an identifier their titles
// share as part of it (one name is one piece of evidence): the same kind of
// defect in the same thing. As every evidence, it raises a match of words
// and never makes one; and it raises a score to at most meaningCeiling,
// under sharedAgentScore, so that it joins the findings of two agents but
// never chains two findings of one agent into one group.

const (
	// meaningBonus is what a shared class and anchor add to a score.
	meaningBonus = 0.25
	// meaningCeiling is the most the evidence of meaning raises a score to.
	meaningCeiling = sharedAgentScore - 0.01
	// maxAnchorNodes is how many findings of a run may name an anchor.
	maxAnchorNodes = 8
	// classBytes is how much of a description its classes are read from: a
	// finding names its defect first; further on it names its neighbours.
	classBytes = 400
)

// meaningNode is what the evidence of meaning knows of a node: its classes
// (a bit per defectClasses entry) and its specific anchors, sorted.
type meaningNode struct {
	classes uint64
	anchors []int32
}

// means reports whether two nodes share a defect class and an anchor.
func means(a, b *meaningNode) bool {
	return a.classes&b.classes != 0 && intersects(a.anchors, b.anchors)
}

// raise returns score s of two nodes raised by the evidence of meaning,
// ident telling whether identBonus is in it already.
func (a *meaningNode) raise(b *meaningNode, s float64, ident bool) float64 {
	if !means(a, b) {
		return s
	}
	bonus := meaningBonus
	if ident {
		bonus -= identBonus
	}
	return max(s, min(s+bonus, meaningCeiling))
}

// meaningOf reads the specific anchors of each node, and the classes of
// those that have one (a node without one shares no anchor): from its
// representative's title and description (reps). agents returns a node's
// agents. It also returns each anchor's number by its hash (anchorHash),
// for a reader to name them.
func meaningOf(nodes []*node, reps []*src, agents func(i int) []int32) ([]meaningNode, map[uint64]int32) {
	out := make([]meaningNode, len(nodes))
	ids := map[uint64]int32{}
	var df []int32
	all := newLists[int32](len(nodes))
	add := func(h uint64) {
		id, ok := ids[h]
		if !ok {
			id = int32(len(df))
			ids[h] = id
			df = append(df, 0)
		}
		all.add(id)
	}
	for i := range nodes {
		start := len(all.all)
		rep := reps[i]
		eachAnchor(rep.f.Title, add)
		if d := rep.f.Description; d != "" {
			eachAnchor(d[:min(len(d), descBytes)], add)
		}
		as := all.all[start:]
		slices.Sort(as)
		all.all = append(all.all[:start], slices.Compact(as)...)
		all.end()
		for _, a := range all.of(i) {
			df[a]++
		}
	}
	// The nodes naming each anchor that two to maxAnchorNodes name.
	at := make([]int32, len(df)+1)
	for a, n := range df {
		at[a+1] = at[a]
		if n >= 2 && n <= maxAnchorNodes {
			at[a+1] += n
		}
	}
	post := make([]int32, at[len(df)])
	fill := slices.Clone(at[:len(df)])
	for i := range nodes {
		for _, a := range all.of(i) {
			if at[a+1] > at[a] {
				post[fill[a]] = int32(i)
				fill[a]++
			}
		}
	}
	// An anchor one agent names in two nodes is none.
	specific := make([]bool, len(df))
	for a := range df {
		ns := post[at[a]:at[a+1]]
		specific[a] = len(ns) > 0
		for x := 0; x < len(ns) && specific[a]; x++ {
			for y := x + 1; y < len(ns); y++ {
				if intersects(agents(int(ns[x])), agents(int(ns[y]))) {
					specific[a] = false
					break
				}
			}
		}
	}
	// The classes, of the nodes that kept an anchor (the others' could
	// not count). The sources' titles normalise alike (their key): the
	// words of one are the words of all; what stands in them as written
	// is read in the representative's.
	var cr classReader
	for i, nd := range nodes {
		var kept []int32
		for _, a := range all.of(i) {
			if specific[a] {
				kept = append(kept, a)
			}
		}
		if kept == nil {
			continue
		}
		out[i] = meaningNode{cr.node(nd, reps[i]), kept}
	}
	return out, ids
}

// node returns the classes of a node with representative rep: of its
// title (its key's normalised title, and what stands in rep's as
// written) and of the first classBytes of rep's description.
func (cr *classReader) node(nd *node, rep *src) uint64 {
	set := cr.norm(nd.norm()) | cr.raw(rep.f.Title)
	if d := rep.f.Description; d != "" {
		d = d[:min(len(d), classBytes)]
		set |= cr.norm(parse.Normalize(d)) | cr.raw(d)
	}
	return set
}

// anchorHash returns the FNV-1a hash of an anchor: its kind and its text.
func anchorHash(kind byte, text string) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(kind)) * prime
	for i := 0; i < len(text); i++ {
		h = (h ^ uint64(text[i])) * prime
	}
	return h
}

// eachAnchor calls f with the hash (anchorHash) of each anchor of a text:
// its code identifiers (eachIdent, lower-cased), its code spans and quoted
// names (normalised: parse.Normalize, four characters or more, on one line
// and at most 120 bytes), its endpoints ("/import", "/api/v1/users") and its
// numbers of two digits or more ("35", "80%", "60s"; a single digit numbers
// steps and lists). A file:line ref is a place, not a name: it gives none.
func eachAnchor(text string, f func(uint64)) {
	eachNamedAnchor(text, func(kind byte, a string) { f(anchorHash(kind, a)) })
}

// eachNamedAnchor is eachAnchor, giving each anchor's kind and text:
// identifiers 'i', code spans 'c', quoted names 'q', endpoints 'e', numbers
// 'n'.
func eachNamedAnchor(text string, f func(kind byte, a string)) {
	for w := range strings.FieldsSeq(text) {
		if looksLikeRef(w) {
			continue
		}
		eachIdent(w, func(w string) { f('i', lowerASCII(w)) })
		w = strings.TrimRight(strings.Trim(w, "`'\"()[]{}<>,;:!?*"), ".")
		switch {
		case isEndpoint(w):
			f('e', w)
		case isNumber(w):
			f('n', strings.ToLower(w))
		}
	}
	for _, q := range [...]struct {
		open, close string
		kind        byte
	}{{"`", "`", 'c'}, {`"`, `"`, 'q'}, {"“", "”", 'q'}} {
		for rest := text; ; {
			i := strings.Index(rest, q.open)
			if i < 0 {
				break
			}
			rest = rest[i+len(q.open):]
			j := strings.Index(rest, q.close)
			if j < 0 {
				break
			}
			inner := rest[:j]
			rest = rest[j+len(q.close):]
			if len(inner) > 120 || strings.IndexByte(inner, '\n') >= 0 || looksLikeRef(inner) {
				continue
			}
			if n := parse.Normalize(inner); len(n) >= 4 {
				f(q.kind, n)
			}
		}
	}
}

// isEndpoint reports whether w is written as an endpoint: a slash, a small
// letter, then small letters, digits, "-", "_" and at most three more
// slashes.
func isEndpoint(w string) bool {
	if len(w) < 3 || w[0] != '/' || w[1] < 'a' || w[1] > 'z' || strings.Count(w, "/") > 4 {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '/') {
			return false
		}
	}
	return true
}

// isNumber reports whether w is a number worth naming: two digits or more,
// an optional fraction and unit ("35", "80%", "60s", "1.5x").
func isNumber(w string) bool {
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	if i < 2 {
		return false
	}
	if i+1 < len(w) && w[i] == '.' && w[i+1] >= '0' && w[i+1] <= '9' {
		for i++; i < len(w) && w[i] >= '0' && w[i] <= '9'; i++ {
		}
	}
	switch strings.ToLower(w[i:]) {
	case "", "%", "s", "ms", "x", "kb", "mb", "gb", "k", "m":
		return true
	}
	return false
}
