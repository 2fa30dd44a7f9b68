package synth

import (
	"bytes"
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
	// byAgent is holders by the index of the completed agent (nil when
	// there are no holders), made the first time a blocking entry needs it.
	byAgent []*src
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

// snapshot returns a copy of the latest n items (never nil).
func (b *bounded[T]) snapshot() []T {
	l := b.items
	if len(l) > b.n {
		l = l[len(l)-b.n:]
	}
	return append(make([]T, 0, len(l)), l...)
}

// segment is a run of consecutive entries of one bus file.
type segment struct {
	file    string
	entries []parse.Entry
}

// timeline accumulates the bus side of a synthesis (SPEC §5.5) entry by
// entry, against a fixed report side (the completed agents and the merged
// findings). Adding entries costs in proportion to the entries added, not to
// the entries already read: a live watcher extends it on every append.
type timeline struct {
	n        int // Options.MaxEntries
	findings []Finding
	m        *matcher
	acks     *acknowledger

	total       int
	perSeverity SeverityTally
	entries     bounded[TimelineEntry]
	adjust      bounded[Adjustment]
	unack       bounded[unackItem]
	contra      bounded[Contradiction]
	stalls      bounded[Stall]
	perAgent    map[string]*SeverityTally
	stalled     map[string]bool
	// discoveredBy is, by position in findings, the agent whose entry first
	// matched the finding (nil for none yet).
	discoveredBy []*string
}

// unackItem is an Unacknowledged with By as a set of completed agents: most
// are dropped before a snapshot names them.
type unackItem struct {
	Unacknowledged
	by bitset
}

func newTimeline(findings []Finding, completed []*Agent, srcs []*src, opts Options) *timeline {
	n := opts.MaxEntries
	return &timeline{
		n:            n,
		findings:     findings,
		m:            newMatcher(srcs, findings),
		acks:         newAcknowledger(completed),
		entries:      bounded[TimelineEntry]{n: n},
		adjust:       bounded[Adjustment]{n: n},
		unack:        bounded[unackItem]{n: n},
		contra:       bounded[Contradiction]{n: n},
		stalls:       bounded[Stall]{n: n},
		perAgent:     map[string]*SeverityTally{},
		stalled:      map[string]bool{},
		discoveredBy: make([]*string, len(findings)),
	}
}

// add reads the entries of segs, in order, after those already read.
func (t *timeline) add(segs []segment) {
	batch := 0
	for _, sg := range segs {
		batch += len(sg.entries)
		t.acks.learn(sg.entries)
	}
	first := t.total // entries read before this batch
	for _, sg := range segs {
		for i := range sg.entries {
			e := &sg.entries[i]
			t.total++
			seq := t.total
			ta := t.perAgent[e.Agent]
			if ta == nil {
				ta = &SeverityTally{}
				t.perAgent[e.Agent] = ta
			}
			// Only the latest n entries of the batch can stay in the list.
			keep := seq-first > batch-t.n
			var te TimelineEntry
			if keep {
				te = TimelineEntry{
					Seq: seq, File: sg.file, Line: e.Line, Timestamp: e.Timestamp, Agent: e.Agent, Kind: e.Kind,
					Severity: e.Severity, Priority: e.Priority, ID: e.ID, Category: e.Category, Summary: e.Summary,
					FileRefs: nonNil(e.FileRefs),
				}
			}
			if e.Kind == parse.EntryStall {
				ta.Stalls++
				t.perSeverity.Stalls++
				t.stalled[e.Agent] = true
				t.stalls.add(Stall{Seq: seq, Agent: e.Agent, Timestamp: e.Timestamp, Message: e.Summary})
				if keep {
					t.entries.add(te)
				}
				continue
			}
			switch e.Severity {
			case parse.Blocking:
				ta.Blocking++
				t.perSeverity.Blocking++
			case parse.Notable:
				ta.Notable++
				t.perSeverity.Notable++
			default:
				ta.Unknown++
				t.perSeverity.Unknown++
			}
			r := t.m.match(e)
			if r.finding >= 0 && keep {
				te.Finding = t.findings[r.finding].Key
			}
			for _, p := range r.findings {
				if t.discoveredBy[p] == nil {
					agent := e.Agent
					t.discoveredBy[p] = &agent
				}
			}
			if keep {
				t.entries.add(te)
			}
			if e.Severity == parse.Blocking {
				t.blocking(seq, e, r)
			}
		}
	}
}

// blocking applies the acknowledgement rules of SPEC §5.5 to blocking entry
// e, number seq, which matches r.
func (t *timeline) blocking(seq int, e *parse.Entry, r *entryMatch) {
	var notBy bitset
	named := t.acks.naming(e)
	if len(r.holders) > 0 && r.byAgent == nil {
		r.byAgent = make([]*src, len(t.acks.agents))
		for k, ag := range t.acks.agents {
			r.byAgent[k] = r.holders[ag.a.Name]
		}
	}
	timed := !e.Time.IsZero()
	sec, nsec := e.Time.Unix(), e.Time.Nanosecond()
	self, ok := t.acks.index[e.Agent]
	if !ok {
		self = -1
	}
	for k, ag := range t.acks.agents {
		if timed && (ag.sec < sec || ag.sec == sec && ag.nsec <= nsec) {
			continue // B finished before E was written
		}
		if k == self {
			continue
		}
		var holder *src
		if r.byAgent != nil {
			holder = r.byAgent[k]
		}
		if holder != nil || named.has(k) {
			t.adjust.add(Adjustment{Seq: seq, Agent: ag.a.Name, After: e.Agent, Summary: e.Summary})
		} else if timed {
			if notBy == nil {
				notBy = make(bitset, t.acks.words)
			}
			notBy.add(k)
		}
		switch {
		case holder != nil && lowSeverity(holder):
			t.contra.add(Contradiction{Seq: seq, Of: e.Agent, Agent: ag.a.Name, Summary: e.Summary,
				Finding: holder.merged, Severity: holder.f.Severity, Reason: "lower-severity"})
		case ag.safe && overlapsAny(e.FileRefs, ag.refs):
			t.contra.add(Contradiction{Seq: seq, Of: e.Agent, Agent: ag.a.Name, Summary: e.Summary,
				Reason: "safe-verdict"})
		}
	}
	if notBy != nil {
		t.unack.add(unackItem{Unacknowledged{Seq: seq, Agent: e.Agent, Summary: e.Summary}, notBy})
	}
}

// snapshot returns the Timeline as read so far (nil when no entry was read),
// files naming the bus files. It shares nothing that later adds change.
func (t *timeline) snapshot(files []string) *Timeline {
	if t == nil || t.total == 0 {
		return nil
	}
	tl := &Timeline{Files: append([]string{}, files...), Total: t.total, PerSeverity: t.perSeverity}
	tl.Entries = t.entries.snapshot()
	tl.EntriesOmitted = t.total - len(tl.Entries)
	tl.Adjustments, tl.AdjustmentsTotal = t.adjust.snapshot(), t.adjust.total
	tl.Unacknowledged, tl.UnacknowledgedTotal = []Unacknowledged{}, t.unack.total
	for _, u := range t.unack.snapshot() {
		u.By = []string{}
		for k, ag := range t.acks.agents {
			if u.by.has(k) {
				u.By = append(u.By, ag.a.Name)
			}
		}
		tl.Unacknowledged = append(tl.Unacknowledged, u.Unacknowledged)
	}
	tl.Contradictions, tl.ContradictionsTotal = t.contra.snapshot(), t.contra.total
	tl.Stalls, tl.StallsTotal = t.stalls.snapshot(), t.stalls.total
	tl.Stalled = sortedKeys(t.stalled)
	tl.PerAgent = make([]AgentTally, 0, len(t.perAgent))
	for _, a := range sortedKeys(t.perAgent) {
		tl.PerAgent = append(tl.PerAgent, AgentTally{Agent: a, SeverityTally: *t.perAgent[a]})
	}
	return tl
}

// ackAgent is a completed agent as the acknowledgement rule sees it.
type ackAgent struct {
	a    *Agent
	refs []Ref // its findings' file refs
	safe bool  // its computed verdict is safe
	// sec and nsec are a.ModTime, compared with every blocking entry's time.
	sec  int64
	nsec int
}

// bitset is a set of completed agents, by index.
type bitset []uint64

func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

func (b bitset) add(i int) { b[i/64] |= 1 << (i % 64) }

// acknowledger decides whether a completed agent acknowledged a blocking
// entry by naming it: for every word an entry could need named, the set of
// agents whose report names it. It learns the words as entries arrive.
type acknowledger struct {
	agents []*ackAgent
	index  map[string]int // agents by name
	namers map[string]bitset
	known  map[string]struct{} // words already looked for
	words  int                 // bitset length in words
	// refWords remembers the words of a file ref (see needles).
	refWords map[string][]string
}

func newAcknowledger(completed []*Agent) *acknowledger {
	k := &acknowledger{namers: map[string]bitset{}, known: map[string]struct{}{}, words: (len(completed) + 63) / 64,
		index: map[string]int{}, refWords: map[string][]string{}}
	for i, a := range completed {
		ag := &ackAgent{a: a, sec: a.ModTime.Unix(), nsec: a.ModTime.Nanosecond()}
		k.index[a.Name] = i
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
	}
	return k
}

// learn scans each completed agent's text once for the words that the
// blocking entries among es could need named (their agents, ids and file
// refs) and that were not looked for before.
func (k *acknowledger) learn(es []parse.Entry) {
	needles := map[string]struct{}{}
	for i := range es {
		e := &es[i]
		if e.Severity != parse.Blocking || e.Kind == parse.EntryStall {
			continue
		}
		k.needles(e, func(w string) {
			if _, ok := k.known[w]; !ok {
				needles[w] = struct{}{}
				k.known[w] = struct{}{}
			}
		})
	}
	if len(needles) == 0 {
		return
	}
	// A needle is named only where it occurs as a substring. When there are
	// few (entries keep arriving, mostly with words already looked for), a
	// substring search, many times faster than reading the text word by
	// word, tells which texts need reading at all.
	var few [][]byte
	if len(needles) <= fewNeedles {
		for w := range needles {
			few = append(few, []byte(w))
		}
	}
	for i, ag := range k.agents {
		look := needles
		if few != nil {
			look = nil
			for _, w := range few {
				if bytes.Contains(ag.a.Text, w) {
					if look == nil {
						look = map[string]struct{}{}
					}
					look[string(w)] = struct{}{}
				}
			}
		}
		for w := range mentions(ag.a.Text, look) {
			set := k.namers[w]
			if set == nil {
				set = make(bitset, k.words)
				k.namers[w] = set
			}
			set[i/64] |= 1 << (i % 64)
		}
	}
}

// fewNeedles is the most new needles learn looks for by substring search
// first.
const fewNeedles = 64

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
	k.needles(e, add)
	return out
}

// needles calls f with each word whose mention acknowledges e: its agent, its
// id, and each file ref as written, normalised, and as its file:line.
func (k *acknowledger) needles(e *parse.Entry, f func(string)) {
	f(e.Agent)
	if e.ID != "" {
		f(e.ID)
	}
	for _, fr := range e.FileRefs {
		ws, ok := k.refWords[fr]
		if !ok {
			r := ParseRef(fr)
			ws = []string{strings.TrimSpace(fr), r.String()}
			if p := r.point(); p != "" {
				ws = append(ws, p)
			}
			if len(k.refWords) < 1<<16 {
				k.refWords[fr] = ws
			}
		}
		for _, w := range ws {
			f(w)
		}
	}
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
