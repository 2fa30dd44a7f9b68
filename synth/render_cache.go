package synth

import (
	"maps"
	"reflect"
	"slices"
	"sync"
)

// A watcher writes findings.json at every change, and at 8,000 agents ×
// 50 findings its findings are 340 of its 357 MB: rendering them took 1–2 s
// of every bus append, which changes the timeline and the few findings its
// entry matches, not the others. A Live therefore hands its syntheses a
// renderCache: the bytes each finding rendered to at the previous write,
// with the finding they came from, by key (unique in a synthesis). A
// finding equal by value to the one its bytes came from (equalFinding)
// writes those bytes again; appendFinding is a function of the finding's
// value alone, so the output is byte for byte what rendering it again
// writes (TestLiveMatchesSynthesize renders every step of a changing run
// both ways). The price is memory: the cache holds the findings' rendering
// (340 MB at 8,000 agents) beside the synthesis.

// renderCache is the rendered findings of the last findings.json written
// from a Live's syntheses. It is safe for concurrent use.
type renderCache struct {
	mu    sync.Mutex
	byKey map[string]*cachedFinding
	gen   uint64 // the write being made; entries not used by it are dropped
}

type cachedFinding struct {
	f     Finding // shallow: its slices are the synthesis's, never modified
	depth int
	json  []byte
	gen   uint64
}

// start begins a write of all the findings: the entries it does not use are
// dropped at its end (finish).
func (c *renderCache) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
}

// appendFinding appends f as appendFinding does, from the cache when the
// finding rendered last is equal to it.
func (c *renderCache) appendFinding(dst []byte, f *Finding, depth int, enc *jsonEncoder) []byte {
	c.mu.Lock()
	x := c.byKey[f.Key]
	if x != nil && x.depth == depth && equalFinding(&x.f, f) {
		x.gen = c.gen
		c.mu.Unlock()
		return append(dst, x.json...)
	}
	c.mu.Unlock()
	start := len(dst)
	dst = appendFinding(dst, f, depth, enc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]*cachedFinding{}
	}
	c.byKey[f.Key] = &cachedFinding{f: *f, depth: depth, json: slices.Clone(dst[start:]), gen: c.gen}
	return dst
}

// finish drops the entries the write begun by start did not use: findings
// that are gone, or changed.
func (c *renderCache) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	maps.DeleteFunc(c.byKey, func(_ string, x *cachedFinding) bool { return x.gen != c.gen })
}

// equalFinding reports whether a and b render alike: every exported field
// equal by value, a nil slice or map unequal to an empty one (null and []
// differ in JSON). TestEqualFindingSeesEveryField changes each field in
// turn: a field added to Finding must be compared here.
func equalFinding(a, b *Finding) bool {
	return a.ID == b.ID && a.Key == b.Key && a.Fingerprint == b.Fingerprint && a.Severity == b.Severity &&
		a.Section == b.Section && a.Title == b.Title &&
		equalStrings(a.Agents, b.Agents) &&
		sameNil(a.Sources, b.Sources) && slices.EqualFunc(a.Sources, b.Sources, equalSource) &&
		a.Convergence == b.Convergence && a.ConvergenceDisplay == b.ConvergenceDisplay && a.Confidence == b.Confidence &&
		equalStrings(a.FileRefs, b.FileRefs) &&
		(a.SeverityConflict == nil) == (b.SeverityConflict == nil) && maps.Equal(a.SeverityConflict, b.SeverityConflict) &&
		sameNil(a.CoLocatedWith, b.CoLocatedWith) && slices.Equal(a.CoLocatedWith, b.CoLocatedWith) &&
		sameNil(a.CrossReferences, b.CrossReferences) && slices.EqualFunc(a.CrossReferences, b.CrossReferences,
		func(x, y CrossReference) bool { return x.Ref == y.Ref && equalStrings(x.Agents, y.Agents) }) &&
		equalPtr(a.DiscoveredBy, b.DiscoveredBy) && a.Independent == b.Independent &&
		sameNil(a.Primed, b.Primed) && slices.Equal(a.Primed, b.Primed) &&
		sameNil(a.Provenance, b.Provenance) && slices.EqualFunc(a.Provenance, b.Provenance, equalPtr[AgentProvenance]) &&
		equalDeep(a.Evidence, b.Evidence) && equalDeep(a.Baseline, b.Baseline) && equalDeep(a.Suppressed, b.Suppressed)
}

func equalSource(a, b Source) bool {
	return a.Agent == b.Agent && a.ID == b.ID && a.Severity == b.Severity && a.Ref == b.Ref &&
		a.Confidence == b.Confidence && a.Section == b.Section && a.Title == b.Title && equalStrings(a.FileRefs, b.FileRefs)
}

func equalStrings(a, b []string) bool { return sameNil(a, b) && slices.Equal(a, b) }

func sameNil[T any](a, b []T) bool { return (a == nil) == (b == nil) }

// equalPtr reports whether a and b are both nil or point at equal values
// (AgentProvenance's by its fields' values: Provenance is pointers).
func equalPtr[T any](a, b *T) bool {
	switch {
	case a == b:
		return true
	case a == nil || b == nil:
		return false
	}
	switch x := any(a).(type) {
	case *string:
		return *x == *any(b).(*string)
	case *AgentProvenance:
		y := any(b).(*AgentProvenance)
		return x.Agent == y.Agent && equalProvenance(x.Provenance, y.Provenance)
	}
	return reflect.DeepEqual(a, b)
}

func equalProvenance(a, b Provenance) bool {
	return equalPtr(a.Model, b.Model) && equalPtr(a.PromptHash, b.PromptHash) && equalPtr(a.ToolVersion, b.ToolVersion) &&
		equalPtr(a.Commit, b.Commit) && equalPtr(a.Repository, b.Repository) && equalPtr(a.Started, b.Started) &&
		equalPtr(a.Finished, b.Finished) && equalPtr(a.RunID, b.RunID)
}

// equalDeep compares rare pointer fields: the same pointer (a Live's
// findings keep theirs) or equal values, nil and empty slices apart.
func equalDeep[T any](a, b *T) bool {
	return a == b || a != nil && b != nil && reflect.DeepEqual(*a, *b)
}
