package synth

import (
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// entryMatch is what one bus entry matches among the completed agents'
// findings (SPEC §5.5: same key, a shared file:line, or the title rule
// applied to its summary).
type entryMatch struct {
	// holders maps each agent holding a matching finding to one of them,
	// preferring a P2/P3 one (the contradiction rule needs it).
	holders map[string]*src
	// finding is the position, in Synthesis.Findings, of the first merged
	// finding matched; -1 for none. findings lists every one.
	finding  int
	findings []int
}

// matcher finds the findings a bus entry matches, without comparing the entry
// with every finding: candidates come from keyword-prefix blocks (title
// rule) and a file:line index.
type matcher struct {
	nodes   []*node
	blocks  blocks
	byPoint map[string][]*src
	pos     map[string]int // merged key → position in Synthesis.Findings
	cache   map[matchKey]*entryMatch
	stamp   []int
	round   int
}

func newMatcher(srcs []*src, findings []Finding) *matcher {
	m := &matcher{
		nodes:   nodesOf(srcs),
		blocks:  blocks{},
		byPoint: map[string][]*src{},
		pos:     map[string]int{},
		cache:   map[matchKey]*entryMatch{},
	}
	for i, n := range m.nodes {
		for _, b := range blockKeys(&n.title) {
			m.blocks.add(b, i)
		}
		for _, s := range n.srcs {
			for _, r := range s.refs {
				if p := r.point(); p != "" {
					m.byPoint[p] = append(m.byPoint[p], s)
				}
			}
		}
	}
	m.stamp = make([]int, len(m.nodes))
	for i, f := range findings {
		m.pos[f.Key] = i
	}
	return m
}

// matchKey identifies what an entry's match depends on: its summary and refs.
type matchKey struct{ summary, refs string }

func (m *matcher) match(e *parse.Entry) *entryMatch {
	ck := matchKey{summary: e.Summary}
	switch len(e.FileRefs) {
	case 0:
	case 1:
		ck.refs = e.FileRefs[0]
	default:
		ck.refs = strings.Join(e.FileRefs, "\x00")
	}
	if r, ok := m.cache[ck]; ok {
		return r
	}
	r := &entryMatch{finding: -1}
	var hits []*src
	if e.Summary != "" {
		t := parse.NewTitle(e.Summary)
		m.round++
		for _, b := range m.blocks.probe("", blockKeys(&t)) {
			for _, i := range m.blocks[b] {
				if m.stamp[i] == m.round {
					continue
				}
				m.stamp[i] = m.round
				if t.Matches(&m.nodes[i].title) {
					hits = append(hits, m.nodes[i].srcs...)
				}
			}
		}
	}
	for _, fr := range e.FileRefs {
		if p := ParseRef(fr).point(); p != "" {
			hits = append(hits, m.byPoint[p]...)
		}
	}
	if len(hits) > 0 {
		r.holders = map[string]*src{}
		seen := map[int]bool{}
		for _, s := range hits {
			if old, ok := r.holders[s.agent]; !ok || betterHolder(s, old) {
				r.holders[s.agent] = s
			}
			if p, ok := m.pos[s.merged]; ok && !seen[p] {
				seen[p] = true
				r.findings = append(r.findings, p)
			}
		}
		slices.Sort(r.findings)
		if len(r.findings) > 0 {
			r.finding = r.findings[0]
		}
	}
	m.cache[ck] = r
	return r
}

// betterHolder prefers a P2/P3 finding (it makes a contradiction), then the
// source order.
func betterHolder(s, old *src) bool {
	if lowSeverity(s) != lowSeverity(old) {
		return lowSeverity(s)
	}
	return compareSrc(s, old) < 0
}

func lowSeverity(s *src) bool { return s.f.Severity == parse.P2 || s.f.Severity == parse.P3 }

// bounded keeps the latest n items appended to it and counts them all.
type bounded[T any] struct {
	n     int
	total int
	items []T
}

func (b *bounded[T]) add(x T) {
	b.total++
	b.items = append(b.items, x)
	if len(b.items) >= 2*b.n {
		b.items = append(b.items[:0], b.items[len(b.items)-b.n:]...)
	}
}

func (b *bounded[T]) list() []T {
	if len(b.items) > b.n {
		return b.items[len(b.items)-b.n:]
	}
	if b.items == nil {
		return []T{}
	}
	return b.items
}

// timelineOf reads the bus (SPEC §5.5) and sets discovered_by on the findings
// of s. It returns nil when the bus is missing or empty.
func timelineOf(run *Run, s *Synthesis, completed []*Agent, srcs []*src, opts Options) *Timeline {
	total := 0
	for _, b := range run.Bus {
		total += len(b.Entries)
	}
	if total == 0 {
		return nil
	}
	tl := &Timeline{Files: []string{}, Total: total}
	for _, b := range run.Bus {
		tl.Files = append(tl.Files, b.Name)
	}
	n := opts.MaxEntries
	entries := bounded[TimelineEntry]{n: n}
	adjust := bounded[Adjustment]{n: n}
	unack := bounded[Unacknowledged]{n: n}
	contra := bounded[Contradiction]{n: n}
	stalls := bounded[Stall]{n: n}
	perAgent := map[string]*SeverityTally{}
	stalled := map[string]bool{}
	discovered := make([]bool, len(s.Findings))

	m := newMatcher(srcs, s.Findings)
	acks := newAcknowledger(run, completed)

	seq := 0
	for _, b := range run.Bus {
		for i := range b.Entries {
			e := &b.Entries[i]
			seq++
			t := perAgent[e.Agent]
			if t == nil {
				t = &SeverityTally{}
				perAgent[e.Agent] = t
			}
			keep := seq > total-n // among the latest n entries
			var te TimelineEntry
			if keep {
				te = TimelineEntry{
					Seq: seq, File: b.Name, Line: e.Line, Timestamp: e.Timestamp, Agent: e.Agent, Kind: e.Kind,
					Severity: e.Severity, Priority: e.Priority, ID: e.ID, Category: e.Category, Summary: e.Summary,
					FileRefs: nonNil(e.FileRefs),
				}
			}
			if e.Kind == parse.EntryStall {
				t.Stalls++
				tl.PerSeverity.Stalls++
				stalled[e.Agent] = true
				stalls.add(Stall{Seq: seq, Agent: e.Agent, Timestamp: e.Timestamp, Message: e.Summary})
				if keep {
					entries.add(te)
				}
				continue
			}
			switch e.Severity {
			case parse.Blocking:
				t.Blocking++
				tl.PerSeverity.Blocking++
			case parse.Notable:
				t.Notable++
				tl.PerSeverity.Notable++
			default:
				t.Unknown++
				tl.PerSeverity.Unknown++
			}
			r := m.match(e)
			if r.finding >= 0 && keep {
				te.Finding = s.Findings[r.finding].Key
			}
			for _, p := range r.findings {
				if !discovered[p] {
					discovered[p] = true
					agent := e.Agent
					s.Findings[p].DiscoveredBy = &agent
				}
			}
			if keep {
				entries.add(te)
			}
			if e.Severity != parse.Blocking {
				continue
			}
			var notBy []string
			named := acks.naming(e)
			for k, ag := range acks.agents {
				if ag.a.Name == e.Agent {
					continue
				}
				timed := !e.Time.IsZero()
				if timed && !ag.a.ModTime.After(e.Time) {
					continue // B finished before E was written
				}
				holder := r.holders[ag.a.Name]
				if holder != nil || named.has(k) {
					adjust.add(Adjustment{Seq: seq, Agent: ag.a.Name, After: e.Agent, Summary: e.Summary})
				} else if timed {
					notBy = append(notBy, ag.a.Name)
				}
				switch {
				case holder != nil && lowSeverity(holder):
					contra.add(Contradiction{Seq: seq, Of: e.Agent, Agent: ag.a.Name, Summary: e.Summary,
						Finding: holder.merged, Severity: holder.f.Severity, Reason: "lower-severity"})
				case ag.safe && overlapsAny(e.FileRefs, ag.refs):
					contra.add(Contradiction{Seq: seq, Of: e.Agent, Agent: ag.a.Name, Summary: e.Summary,
						Reason: "safe-verdict"})
				}
			}
			if len(notBy) > 0 {
				unack.add(Unacknowledged{Seq: seq, Agent: e.Agent, Summary: e.Summary, By: notBy})
			}
		}
	}
	tl.Entries = entries.list()
	tl.EntriesOmitted = total - len(tl.Entries)
	tl.Adjustments, tl.AdjustmentsTotal = adjust.list(), adjust.total
	tl.Unacknowledged, tl.UnacknowledgedTotal = unack.list(), unack.total
	tl.Contradictions, tl.ContradictionsTotal = contra.list(), contra.total
	tl.Stalls, tl.StallsTotal = stalls.list(), stalls.total
	tl.Stalled = sortedKeys(stalled)
	tl.PerAgent = make([]AgentTally, 0, len(perAgent))
	for _, a := range sortedKeys(perAgent) {
		tl.PerAgent = append(tl.PerAgent, AgentTally{Agent: a, SeverityTally: *perAgent[a]})
	}
	return tl
}

// ackAgent is a completed agent as the acknowledgement rule sees it.
type ackAgent struct {
	a    *Agent
	refs []Ref // its findings' file refs
	safe bool  // its computed verdict is safe
}

// bitset is a set of completed agents, by index.
type bitset []uint64

func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// acknowledger decides whether a completed agent acknowledged a blocking
// entry by naming it: for every word an entry could need named, the set of
// agents whose report names it.
type acknowledger struct {
	agents []*ackAgent
	namers map[string]bitset
	words  int // bitset length in words
}

// newAcknowledger scans each completed agent's text once for every word the
// blocking entries could need named: their agents, ids and file refs.
func newAcknowledger(run *Run, completed []*Agent) *acknowledger {
	needles := map[string]struct{}{}
	for _, b := range run.Bus {
		for i := range b.Entries {
			e := &b.Entries[i]
			if e.Severity != parse.Blocking || e.Kind == parse.EntryStall {
				continue
			}
			for _, w := range entryNeedles(e) {
				needles[w] = struct{}{}
			}
		}
	}
	k := &acknowledger{namers: map[string]bitset{}, words: (len(completed) + 63) / 64}
	for i, a := range completed {
		ag := &ackAgent{a: a}
		if a.Report != nil {
			ag.safe = a.Report.Verdict() == parse.Safe
			for _, f := range a.Report.Findings {
				for _, r := range f.FileRefs {
					if ref := ParseRef(r); ref.Path != "" {
						ag.refs = append(ag.refs, ref)
					}
				}
			}
		}
		k.agents = append(k.agents, ag)
		for w := range mentions(a.Text, needles) {
			set := k.namers[w]
			if set == nil {
				set = make(bitset, k.words)
				k.namers[w] = set
			}
			set[i/64] |= 1 << (i % 64)
		}
	}
	return k
}

// naming returns the completed agents whose reports name e's agent, its id or
// one of its file refs.
func (k *acknowledger) naming(e *parse.Entry) bitset {
	var out bitset
	add := func(w string) {
		set := k.namers[w]
		if set == nil {
			return
		}
		if out == nil {
			out = make(bitset, k.words)
		}
		for i, x := range set {
			out[i] |= x
		}
	}
	add(e.Agent)
	if e.ID != "" {
		add(e.ID)
	}
	for _, fr := range e.FileRefs {
		add(strings.TrimSpace(fr))
		r := ParseRef(fr)
		if s := r.String(); s != fr {
			add(s)
		}
		if p := r.point(); p != "" {
			add(p)
		}
	}
	return out
}

// entryNeedles are the words whose mention acknowledges e: its agent, its id,
// and each file ref as written, normalised, and as its file:line.
func entryNeedles(e *parse.Entry) []string {
	w := []string{e.Agent}
	if e.ID != "" {
		w = append(w, e.ID)
	}
	for _, fr := range e.FileRefs {
		r := ParseRef(fr)
		w = append(w, strings.TrimSpace(fr), r.String())
		if p := r.point(); p != "" {
			w = append(w, p)
		}
	}
	return w
}

func overlapsAny(refs []string, with []Ref) bool {
	for _, fr := range refs {
		r := ParseRef(fr)
		for _, o := range with {
			if r.Overlaps(o) {
				return true
			}
		}
	}
	return false
}
