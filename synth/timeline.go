package synth

import (
	"bytes"
	"cmp"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
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
	// there are no holders), made the first time a blocking entry needs it,
	// with the sets the acknowledgement rule needs (see sets).
	byAgent []*src
	sets    *matchSets
}

// matchSets are, for the entries of one entryMatch, sets of completed
// agents: those holding a matching finding, those whose matching finding is
// P2/P3, and the safe agents whose file refs overlap the entry's.
type matchSets struct {
	holders, low, safeOverlap bitset
	// namedByRefs: the agents whose report names one of the entries' file
	// refs (their words are all learned before the first such entry).
	namedByRefs bitset
}

// matcher finds the findings a bus entry matches, without comparing the entry
// with every finding: candidates come from keyword-prefix blocks (title
// rule) and a file:line index.
type matcher struct {
	nodes []*node
	// more makes the nodes when none were given (a Live lets them go
	// while its run has no bus entries); index calls it.
	more    func() []*node
	blocks  blocks
	byPoint map[point][]*src
	cache   []*entryMatch // by match key id (busMemo)
	stamp   []int
	round   int
	// prepared: every node's title is made (see prematch).
	prepared bool
	// workers is how many goroutines prematch uses (Options.Workers).
	workers int
	// indexed: blocks and byPoint are made (index).
	indexed bool
}

// newMatcher returns the matcher of nodes, whose prematch uses workers
// goroutines (≤ 0: GOMAXPROCS). It indexes them when the first entry is
// matched: a run without a bus never pays for it.
func newMatcher(nodes []*node, workers int) *matcher {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &matcher{nodes: nodes, workers: workers}
}

// index makes the blocks and the file:line index of the nodes, once.
func (m *matcher) index() {
	if m.indexed {
		return
	}
	m.indexed = true
	if m.nodes == nil && m.more != nil {
		m.nodes, m.more = m.more(), nil
	}
	m.blocks, m.byPoint = blocks{}, map[point][]*src{}
	for i, n := range m.nodes {
		for _, b := range blockKeys(parse.Keywords(n.norm())) {
			m.blocks.add(b, i)
		}
		for _, s := range n.srcs {
			for r := range s.refs {
				if r.Start > 0 {
					p := point{r.Path, r.Start}
					m.byPoint[p] = append(m.byPoint[p], s)
				}
			}
		}
	}
	m.stamp = make([]int, len(m.nodes))
}

// matchKey identifies what an entry's match depends on: its summary and refs.
type matchKey struct{ summary, refs string }

// keyOf returns the match key of e.
func keyOf(e *record.Entry) matchKey {
	ck := matchKey{summary: e.Summary}
	switch len(e.FileRefs) {
	case 0:
	case 1:
		ck.refs = e.FileRefs[0]
	default:
		ck.refs = strings.Join(e.FileRefs, "\x00")
	}
	return ck
}

// match returns what e, whose match key has the given id, matches.
func (m *matcher) match(e *record.Entry, id int32) *entryMatch {
	m.index()
	m.grow(id)
	if r := m.cache[id]; r != nil {
		return r
	}
	r := m.compute(e, m.stamp, &m.round)
	m.cache[id] = r
	return r
}

// made returns what match made for match key id, or nil.
func (m *matcher) made(id int32) *entryMatch {
	if int(id) < len(m.cache) {
		return m.cache[id]
	}
	return nil
}

// grow makes the cache hold match key id.
func (m *matcher) grow(id int32) {
	if int(id) >= len(m.cache) {
		m.cache = slices.Grow(m.cache, int(id)+1-len(m.cache))[:int(id)+1]
	}
}

// compute returns what e matches. stamp and round mark the nodes compared
// for e: each goroutine computing has its own. compute changes nothing of m
// but the titles of nodes not prepared yet (see prematch).
func (m *matcher) compute(e *record.Entry, stamp []int, round *int) *entryMatch {
	r := &entryMatch{finding: -1}
	var hits []*src
	if e.Summary != "" {
		t := parse.NewTitle(e.Summary)
		*round++
		for _, b := range m.blocks.probe("", blockKeys(t.Keywords())) {
			for _, i := range m.blocks[b] {
				if stamp[i] == *round {
					continue
				}
				stamp[i] = *round
				if t.Matches(m.nodes[i].prepared()) {
					hits = append(hits, m.nodes[i].srcs...)
				}
			}
		}
	}
	for _, fr := range e.FileRefs {
		if r := ParseRef(fr); r.Start > 0 && r.Path != "" {
			hits = append(hits, m.byPoint[point{r.Path, r.Start}]...)
		}
	}
	if len(hits) > 0 {
		r.holders = map[string]*src{}
		seen := map[int]bool{}
		for _, s := range hits {
			if old, ok := r.holders[s.agent]; !ok || betterHolder(s, old) {
				r.holders[s.agent] = s
			}
			if p := int(s.finding); !seen[p] {
				seen[p] = true
				r.findings = append(r.findings, p)
			}
		}
		slices.Sort(r.findings)
		if len(r.findings) > 0 {
			r.finding = r.findings[0]
		}
	}
	return r
}

// prematchMin is the fewest entries to match that prematch shares out.
const prematchMin = 256

// prematch makes, on several goroutines, what match would make for each
// entry of es whose match key (ids, by entry) has no match yet, each key
// once. What an entry matches depends on its match key and the findings
// only, so which goroutine makes it, and when, changes nothing: match then
// finds it made. A nil entry is passed over (a stall: never matched).
func (m *matcher) prematch(es []*record.Entry, ids []int32) {
	if m.workers < 2 { // every match left to match
		return
	}
	m.index() // before the goroutines that read it
	var todo []int
	for i, e := range es {
		if e == nil {
			continue
		}
		m.grow(ids[i])
		if m.cache[ids[i]] == nil {
			m.cache[ids[i]] = pending // each key once
			todo = append(todo, i)
		}
	}
	// The nodes' titles are made lazily; goroutines may only read them, so
	// all are made first, which pays when there are not many more nodes
	// than entries to match.
	if len(todo) < prematchMin || !m.prepared && len(m.nodes) > 4*len(todo) {
		for _, i := range todo {
			m.cache[ids[i]] = nil // left to match
		}
		return
	}
	if !m.prepared {
		for _, n := range m.nodes {
			n.prepared()
		}
		m.prepared = true
	}
	made := make([]*entryMatch, len(todo))
	workers := min(m.workers, (len(todo)+prematchMin-1)/prematchMin)
	var wg conc.WaitGroup
	for w := range workers {
		lo, hi := w*len(todo)/workers, (w+1)*len(todo)/workers
		wg.Go(func() {
			stamp, round := make([]int, len(m.nodes)), 0
			for j := lo; j < hi; j++ {
				made[j] = m.compute(es[todo[j]], stamp, &round)
			}
		})
	}
	wg.Wait()
	for j, i := range todo {
		m.cache[ids[i]] = made[j]
	}
}

// pending marks, in the cache, a match key prematch is making.
var pending = &entryMatch{}

// busMemo is what a Live remembers of the bus entries it read, across the
// timelines it builds for them while they stay the same (until Rewind): the
// match key id of each entry, by file, and the words the acknowledgement rule
// looked for, with how many entries of each file they cover. A new timeline
// of the same entries (an agent completed: the findings changed) then neither
// hashes their summaries again nor derives their words again.
type busMemo struct {
	keyIDs map[matchKey]int32
	keys   []matchKey        // by id: what a rebase matches for an entry
	names  map[string]string // agents and ids of recorded entries, interned
	// ids are the key ids of the entries read, by file; nil when not kept
	// (a one-shot synthesis reads each entry once: it keeps none of this).
	ids     map[string][]int32
	known   map[string]struct{}
	learned map[string]int

	// In reading order since forgetOrder, when ids are kept: the first
	// entry (not a stall) of each match key, and every blocking entry;
	// recorded counts the entries of each file they cover. A timeline made
	// again against new findings (rebase) reads only these.
	firsts   []entryRef
	hasFirst []bool // by key id
	// firstAgent is the agent of the first entry of each key id; otherFirst
	// the keys whose first entry of another agent was recorded too (the
	// priming rule needs the first entry of each agent).
	firstAgent []string
	otherFirst map[keyAgent]bool
	blocking   []entryRef
	recorded   map[string]int
}

// entryRef is entry i of a bus file, number seq in the timeline, with match
// key id, its agent and, for a blocking entry, what the acknowledgement rule
// reads of it: a rebase never goes back to the entry itself, which the
// caller of a Live need not hold any more (a watcher keeps only the entries
// not yet read), and whose strings would keep its whole bus line alive (the
// strings here are interned or the match key's).
type entryRef struct {
	file string
	i    int
	id   int32
	blockingEntry
}

// ref returns the entryRef of entry e, entry i of file, number seq, with
// match key id.
func (m *busMemo) ref(file string, i int, seq int, id int32, e *record.Entry) entryRef {
	r := entryRef{file: file, i: i, id: id}
	r.seq, r.agent = seq, m.intern(e.Agent)
	r.timed, r.sec, r.nsec = !e.Time.IsZero(), e.Time.Unix(), e.Time.Nanosecond() // the priming rule's
	if e.Severity == record.Blocking {
		r.blockingEntry = blockingOf(seq, file, e)
		r.agent, r.blockingEntry.id, r.summary = m.intern(e.Agent), m.intern(e.ID), m.keys[id].summary
	}
	return r
}

func (m *busMemo) intern(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := m.names[s]; ok {
		return v
	}
	s = strings.Clone(s)
	m.names[s] = s
	return s
}

// entry returns what a rebase matches of the entries with match key id: an
// entry with their summary and file refs.
func (m *busMemo) entry(id int32) *record.Entry {
	k := m.keys[id]
	e := &record.Entry{Summary: k.summary}
	if k.refs != "" {
		e.FileRefs = strings.Split(k.refs, "\x00")
	}
	return e
}

// blockingEntry is what the acknowledgement rule reads of a blocking entry:
// its number, agent, id, summary and time (sec and nsec; timed is false for
// an entry without one).
type blockingEntry struct {
	seq                int
	agent, id, summary string
	timed              bool
	sec                int64
	nsec               int
	file               string // where it is, for a diagnostic
	line               int
}

func blockingOf(seq int, file string, e *record.Entry) blockingEntry {
	return blockingEntry{seq: seq, agent: e.Agent, id: e.ID, summary: e.Summary,
		timed: !e.Time.IsZero(), sec: e.Time.Unix(), nsec: e.Time.Nanosecond(), file: file, line: e.Line}
}

func newBusMemo(keepIDs bool) *busMemo {
	m := &busMemo{keyIDs: map[matchKey]int32{}, names: map[string]string{}, known: map[string]struct{}{},
		learned: map[string]int{}, recorded: map[string]int{}}
	if keepIDs {
		m.ids = map[string][]int32{}
	}
	return m
}

// forgetOrder forgets what depends on the numbering of the entries (their
// seq): the bus is about to be read again from its first entry.
func (m *busMemo) forgetOrder() {
	m.firsts, m.hasFirst, m.blocking, m.recorded = nil, nil, nil, map[string]int{}
	m.firstAgent, m.otherFirst = nil, nil
}

// id returns the match key id of e, entry i of file: called for each entry
// of a file in order, the first time it is read.
func (m *busMemo) id(file string, i int, e *record.Entry) int32 {
	ids := m.ids[file]
	if i < len(ids) {
		return ids[i]
	}
	ck := keyOf(e)
	id, ok := m.keyIDs[ck]
	if !ok {
		id = int32(len(m.keyIDs))
		m.keyIDs[ck] = id
		m.keys = append(m.keys, ck)
	}
	if m.ids != nil && i == len(ids) {
		m.ids[file] = append(ids, id)
	}
	return id
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

// segment is a run of consecutive entries of one bus file, from its entry
// number start (counted from 0).
type segment struct {
	file    string
	start   int
	entries []record.Entry
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
	memo     *busMemo

	total       int
	perSeverity SeverityTally
	entries     bounded[TimelineEntry]
	entryIDs    bounded[int32] // the match key ids of entries, -1 for a stall
	adjust      bounded[ackRecord]
	unack       bounded[ackRecord]
	contra      bounded[ackRecord]
	// adjustTotal and contraTotal count the adjustments and contradictions
	// (a record holds one per agent of its set); unack.total counts the
	// unacknowledged entries.
	adjustTotal, contraTotal int
	stalls                   bounded[Stall]
	perAgent                 map[string]*SeverityTally
	// busProv is, by agent, the first model and run_id its entries declare.
	busProv map[string]*[2]string
	stalled map[string]bool
	// discoveredBy is, by position in findings, the agent whose entry first
	// matched the finding (nil for none yet).
	discoveredBy []*string
	// firstBy is, by position in findings, the first matching entry of
	// each agent in bus order (see priming.go); nil before the first match.
	firstBy [][]firstMatch
	// firstSeen is, by position in findings, the set of bus agents (by
	// number in busAgents) with an entry in firstBy.
	firstSeen []bitset
	// touched are the positions in findings whose annotation may have
	// changed since takeTouched (priming.go); taken says it was called.
	touched   bitset
	taken     bool
	busAgents map[string]int
	// adjustedBy counts the adjustments of each completed agent (by index),
	// contradictedOf the contradictions of each entry agent's entries.
	adjustedBy     []int
	contradictedOf map[string]int
	scratch        [3]bitset // of blocking
	// slab is where blocking's records take their sets from: one allocation
	// for many records (most of which the bounded lists drop again).
	slab []uint64
	// clock judges the entries' timestamps (plausible.go); implausible
	// lists the blocking entries whose timestamp counts as none.
	clock       clock
	implausible bounded[implausible]
}

// ackRecord is what the acknowledgement rule found for one blocking entry:
// the completed agents (by index) that adjusted after it, did not
// acknowledge it, or contradict it. A snapshot turns the latest records into
// the items of findings.json; most records are dropped before.
type ackRecord struct {
	seq     int
	agent   string
	summary string
	set     bitset
	r       *entryMatch
	// by names the agents of set, made by the first snapshot that lists
	// the record and shared by the later ones: a record does not change,
	// and a watcher's snapshot at each change named up to 500 records ×
	// every completed agent again (8 MB at 1,000 agents).
	by []string
}

// newTimeline returns an empty timeline for the report side given, reading
// entries through memo (whose words it learns at once), judging their
// timestamps against at (runAnchor).
func newTimeline(findings []Finding, completed []*Agent, nodes []*node, opts Options, memo *busMemo, at anchor) *timeline {
	n := opts.MaxEntries
	acks := newAcknowledger(completed)
	acks.learnWords(memo.known)
	return &timeline{
		n:            n,
		findings:     findings,
		m:            newMatcher(nodes, opts.Workers),
		acks:         acks,
		memo:         memo,
		entries:      bounded[TimelineEntry]{n: n},
		entryIDs:     bounded[int32]{n: n},
		adjust:       bounded[ackRecord]{n: n},
		unack:        bounded[ackRecord]{n: n},
		contra:       bounded[ackRecord]{n: n},
		stalls:       bounded[Stall]{n: n},
		perAgent:     map[string]*SeverityTally{},
		stalled:      map[string]bool{},
		discoveredBy: make([]*string, len(findings)),
		adjustedBy:   make([]int, len(completed)),
		clock:        newClock(at),
		implausible:  bounded[implausible]{n: n},
	}
}

// add reads the entries of segs, in order, after those already read.
func (t *timeline) add(segs []segment) {
	batch := 0
	for _, sg := range segs {
		batch += len(sg.entries)
		// The entries before learned gave their words already.
		if from := t.memo.learned[sg.file] - sg.start; from < len(sg.entries) {
			t.acks.learn(sg.entries[max(from, 0):], t.memo.known)
			t.memo.learned[sg.file] = sg.start + len(sg.entries)
		}
	}
	// The match key id of every entry, that ids stay in step; the entries'
	// matches are made ahead, on several goroutines (see prematch).
	ids := make([]int32, 0, batch)
	es := make([]*record.Entry, 0, batch)
	for _, sg := range segs {
		for i := range sg.entries {
			e := &sg.entries[i]
			ids = append(ids, t.memo.id(sg.file, sg.start+i, e))
			if e.Kind == record.EntryStall {
				e = nil
			}
			es = append(es, e)
		}
	}
	t.m.prematch(es, ids)
	first := t.total // entries read before this batch
	for _, sg := range segs {
		// Entries from recordFrom on are read for the first time since the
		// order was forgotten: the memo records them (see rebase).
		recordFrom := len(sg.entries)
		if t.memo.ids != nil {
			recordFrom = max(t.memo.recorded[sg.file]-sg.start, 0)
			t.memo.recorded[sg.file] = max(t.memo.recorded[sg.file], sg.start+len(sg.entries))
		}
		for i := range sg.entries {
			e := &sg.entries[i]
			id := ids[t.total-first]
			t.total++
			seq := t.total
			ta := t.perAgent[e.Agent]
			if ta == nil {
				ta = &SeverityTally{}
				t.perAgent[e.Agent] = ta
			}
			if e.Model != "" || e.RunID != "" {
				t.sawProvenance(e.Agent, e.Model, e.RunID)
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
			if e.Kind == record.EntryStall {
				ta.Stalls++
				t.perSeverity.Stalls++
				t.stalled[e.Agent] = true
				t.stalls.add(Stall{Seq: seq, Agent: e.Agent, Timestamp: e.Timestamp, Message: e.Summary})
				if keep {
					t.entries.add(te)
					t.entryIDs.add(-1)
				}
				continue
			}
			if i >= recordFrom {
				t.memo.record(t.memo.ref(sg.file, sg.start+i, seq, id, e), e.Severity == record.Blocking)
			}
			switch e.Severity {
			case record.Blocking:
				ta.Blocking++
				t.perSeverity.Blocking++
			case record.Notable:
				ta.Notable++
				t.perSeverity.Notable++
			default:
				ta.Unknown++
				t.perSeverity.Unknown++
			}
			r := t.m.match(e, id)
			if r.finding >= 0 && keep {
				te.Finding = t.findings[r.finding].Key
			}
			for _, p := range r.findings {
				if t.discoveredBy[p] == nil {
					agent := e.Agent
					t.discoveredBy[p] = &agent
					t.touch(p)
				}
				t.sawMatch(p, seq, e.Agent, !e.Time.IsZero(), e.Time.Unix(), e.Time.Nanosecond())
			}
			if keep {
				t.entries.add(te)
				t.entryIDs.add(id)
			}
			if e.Severity == record.Blocking {
				t.sets(e.FileRefs, r)
				t.blocking(blockingOf(seq, sg.file, e), r)
			}
		}
	}
}

// keyAgent is a match key id and an agent.
type keyAgent struct {
	id    int32
	agent string
}

// record notes entry ref, not a stall, read for the first time: a first
// entry of its key, a blocking entry.
func (m *busMemo) record(ref entryRef, blocking bool) {
	if int(ref.id) >= len(m.hasFirst) {
		m.hasFirst = append(m.hasFirst, make([]bool, int(ref.id)+1-len(m.hasFirst))...)
	}
	if int(ref.id) >= len(m.firstAgent) {
		m.firstAgent = append(m.firstAgent, make([]string, int(ref.id)+1-len(m.firstAgent))...)
	}
	switch {
	case !m.hasFirst[ref.id]:
		m.hasFirst[ref.id] = true
		m.firstAgent[ref.id] = ref.agent
		m.firsts = append(m.firsts, ref)
	case m.firstAgent[ref.id] != ref.agent && !m.otherFirst[keyAgent{ref.id, ref.agent}]:
		if m.otherFirst == nil {
			m.otherFirst = map[keyAgent]bool{}
		}
		m.otherFirst[keyAgent{ref.id, ref.agent}] = true
		m.firsts = append(m.firsts, ref)
	}
	if blocking {
		m.blocking = append(m.blocking, ref)
	}
}

// rebase returns a timeline of the entries t read against a new report
// side: the bus side (counts, entries, stalls) is t's, the report side is
// made again from what the memo recorded of the first entry of each match
// key and of the blocking entries, rather than from every entry (which it
// does not need: see entryRef), its timestamps judged against at. Its
// matcher makes its nodes with more when nodes is nil. t must not be used
// afterwards.
func (t *timeline) rebase(findings []Finding, completed []*Agent, nodes []*node, more func() []*node, opts Options, at anchor) *timeline {
	n := newTimeline(findings, completed, nodes, opts, t.memo, at)
	n.m.more = more
	n.m.adoptIndex(t.m) // the same nodes when the merge was kept (incremental.go)
	n.total, n.perSeverity, n.perAgent, n.stalled, n.stalls = t.total, t.perSeverity, t.perAgent, t.stalled, t.stalls
	n.busProv = t.busProv
	n.entries, n.entryIDs = t.entries, t.entryIDs
	n.entries.items = slices.Clone(t.entries.items)
	for j := range n.entries.items {
		te := &n.entries.items[j]
		te.Finding = ""
		if id := n.entryIDs.items[j]; id >= 0 {
			if r := n.m.match(&record.Entry{Summary: te.Summary, FileRefs: te.FileRefs}, id); r.finding >= 0 {
				te.Finding = n.findings[r.finding].Key
			}
		}
	}
	firsts := make([]*record.Entry, len(n.memo.firsts))
	ids := make([]int32, len(n.memo.firsts))
	for i, ref := range n.memo.firsts {
		firsts[i], ids[i] = n.memo.entry(ref.id), ref.id
	}
	n.m.prematch(firsts, ids)
	for i, ref := range n.memo.firsts {
		for _, p := range n.m.match(firsts[i], ref.id).findings {
			if n.discoveredBy[p] == nil {
				agent := ref.agent
				n.discoveredBy[p] = &agent
				n.touch(p)
			}
			n.sawMatch(p, ref.seq, ref.agent, ref.timed, ref.sec, ref.nsec)
		}
	}
	for _, ref := range n.memo.blocking {
		// The entry is made again (refs split) only for a key whose
		// match or sets are not made yet: once per key at most.
		r := n.m.made(ref.id)
		if r == nil || r.sets == nil {
			e := n.memo.entry(ref.id)
			r = n.m.match(e, ref.id)
			n.sets(e.FileRefs, r)
		}
		n.blocking(ref.blockingEntry, r)
	}
	return n
}

// blocking applies the acknowledgement rules of SPEC §5.5 to blocking entry
// e, which matches r (whose sets are made), with sets of completed agents:
// B finished after e was written (or e has no time, or an implausible one:
// plausible.go), B is not e's agent; B adjusted when it holds a matching
// finding or names e; B did not acknowledge e otherwise (only a timed e); B
// contradicts e when its matching finding is P2/P3 or its verdict is safe
// and its refs overlap e's.
func (t *timeline) blocking(e blockingEntry, r *entryMatch) {
	k := t.acks
	sets := r.sets
	timed, why := t.clock.judge(e.timed, e.sec, e.nsec)
	if e.timed && !timed {
		t.implausible.add(implausible{file: e.file, line: e.line, at: time.Unix(e.sec, int64(e.nsec)), why: why})
	}
	scope := k.finishedAfter(e.sec, e.nsec, timed)
	selfWord, selfBit := -1, uint64(0)
	if self, ok := k.index[e.agent]; ok {
		selfWord, selfBit = self/64, 1<<(self%64)
	}
	byAgent, byID := k.namers[e.agent], bitset(nil)
	if e.id != "" {
		byID = k.namers[e.id]
	}
	adjust, unack, contra := t.scratch[0][:0], t.scratch[1][:0], t.scratch[2][:0]
	var nAdjust, nUnack, nContra int
	for i, in := range scope {
		if i == selfWord {
			in &^= selfBit
		}
		acked := sets.holders.word(i) | sets.namedByRefs.word(i) | byAgent.word(i) | byID.word(i)
		adjust = append(adjust, in&acked)
		unack = append(unack, 0)
		if timed {
			unack[i] = in &^ acked
		}
		contra = append(contra, in&(sets.low.word(i)|sets.safeOverlap.word(i)))
		nAdjust += bits.OnesCount64(adjust[i])
		nUnack += bits.OnesCount64(unack[i])
		nContra += bits.OnesCount64(contra[i])
	}
	t.scratch = [3]bitset{adjust, unack, contra}
	rec := func(set bitset) ackRecord {
		return ackRecord{seq: e.seq, agent: e.agent, summary: e.summary, set: t.keep(set), r: r}
	}
	if nAdjust > 0 {
		for w, word := range adjust {
			for ; word != 0; word &= word - 1 {
				t.adjustedBy[w*64+bits.TrailingZeros64(word)]++
			}
		}
		t.adjustTotal += nAdjust
		t.adjust.add(rec(adjust))
	}
	if nUnack > 0 {
		t.unack.add(rec(unack))
	}
	if nContra > 0 {
		if t.contradictedOf == nil {
			t.contradictedOf = map[string]int{}
		}
		t.contradictedOf[e.agent] += nContra
		t.contraTotal += nContra
		t.contra.add(rec(contra))
	}
}

// keep returns a copy of set that a record holds, cut from t.slab.
func (t *timeline) keep(set bitset) bitset {
	if len(t.slab) < len(set) {
		t.slab = make([]uint64, max(1024, len(set)))
	}
	out := bitset(t.slab[:len(set):len(set)])
	t.slab = t.slab[len(set):]
	copy(out, set)
	return out
}

// sets makes the agent sets of r the first time a blocking entry matching it,
// with file refs refs, needs them: r stands for every entry with its summary
// and file refs.
func (t *timeline) sets(refs []string, r *entryMatch) {
	if r.sets != nil {
		return
	}
	k := t.acks
	ms := &matchSets{holders: make(bitset, k.words), low: make(bitset, k.words), safeOverlap: make(bitset, k.words)}
	if len(r.holders) > 0 {
		r.byAgent = make([]*src, len(k.agents))
		for i, ag := range k.agents {
			if h := r.holders[ag.a.Name]; h != nil {
				r.byAgent[i] = h
				ms.holders.add(i)
				if lowSeverity(h) {
					ms.low.add(i)
				}
			}
		}
	}
	for i, ag := range k.agents {
		if ag.safe && overlapsAny(refs, ag.refs) {
			ms.safeOverlap.add(i)
		}
	}
	ms.namedByRefs = k.naming(&record.Entry{FileRefs: refs})
	r.sets = ms
}

// items expands the latest records of b into the latest n items, made by
// item for each record and agent of its set, in order. It expands only the
// records it needs, from the last one back.
func items[T any](t *timeline, b *bounded[ackRecord], item func(rec *ackRecord, agent int) T) []T {
	recs := b.items
	count, from := 0, len(recs)
	for from > 0 && count < t.n {
		from--
		count += recs[from].set.count()
	}
	out := make([]T, 0, count)
	for i := from; i < len(recs); i++ {
		for _, a := range recs[i].set.members() {
			out = append(out, item(&recs[i], a))
		}
	}
	if len(out) > t.n {
		out = append(make([]T, 0, t.n), out[len(out)-t.n:]...)
	}
	return out
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
	name := func(agent int) string { return t.acks.agents[agent].a.Name }
	tl.Adjustments = items(t, &t.adjust, func(rec *ackRecord, agent int) Adjustment {
		return Adjustment{Seq: rec.seq, Agent: name(agent), After: rec.agent, Summary: rec.summary}
	})
	recs := t.unack.items
	if len(recs) > t.unack.n {
		recs = recs[len(recs)-t.unack.n:]
	}
	tl.Unacknowledged = make([]Unacknowledged, 0, len(recs))
	for i := range recs {
		rec := &recs[i]
		if rec.by == nil {
			rec.by = rec.set.names(name)
		}
		tl.Unacknowledged = append(tl.Unacknowledged, Unacknowledged{Seq: rec.seq, Agent: rec.agent, Summary: rec.summary, By: rec.by})
	}
	tl.Contradictions = items(t, &t.contra, func(rec *ackRecord, agent int) Contradiction {
		c := Contradiction{Seq: rec.seq, Of: rec.agent, Agent: name(agent), Summary: rec.summary, Reason: "safe-verdict"}
		if rec.r.sets.low.has(agent) {
			h := rec.r.byAgent[agent]
			c.Finding, c.Severity, c.Reason = t.findings[h.finding].Key, h.f.Severity, "lower-severity"
		}
		return c
	})
	tl.AdjustmentsTotal, tl.UnacknowledgedTotal, tl.ContradictionsTotal = t.adjustTotal, t.unack.total, t.contraTotal
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
	// sec and nsec are when a's report finished (Agent.Finished: declared,
	// else its file time), compared with every blocking entry's time.
	sec  int64
	nsec int
}

// bitset is a set of completed agents, by index.
type bitset []uint64

func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

func (b bitset) add(i int) { b[i/64] |= 1 << (i % 64) }

func (b bitset) remove(i int) { b[i/64] &^= 1 << (i % 64) }

// word returns the i-th word of b, 0 past its end (a nil set is empty).
func (b bitset) word(i int) uint64 {
	if i < len(b) {
		return b[i]
	}
	return 0
}

// count returns the number of members of b.
func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// names returns the name of each member of b, in order (never nil).
func (b bitset) names(name func(int) string) []string {
	out := make([]string, 0, b.count())
	for i, w := range b {
		for ; w != 0; w &= w - 1 {
			out = append(out, name(i*64+bits.TrailingZeros64(w)))
		}
	}
	return out
}

// members returns the indexes in b, in order.
func (b bitset) members() []int {
	var out []int
	for i, w := range b {
		for ; w != 0; w &= w - 1 {
			out = append(out, i*64+bits.TrailingZeros64(w))
		}
	}
	return out
}

// acknowledger decides whether a completed agent acknowledged a blocking
// entry by naming it: for every word an entry could need named, the set of
// agents whose report names it. It learns the words as entries arrive.
type acknowledger struct {
	agents []*ackAgent
	index  map[string]int // agents by name
	namers map[string]bitset
	words  int // bitset length in words
	// refWords remembers the words of a file ref (see needles).
	refWords map[string][]string
	// byTime are the agents by modification time; after[i] is the set of
	// byTime[i:], and after[0] every agent.
	byTime []int
	after  []bitset
}

// finishedAfter returns the set of agents whose report finished after the
// time sec, nsec, or every agent when the entry has no time (timed false). The caller must not modify it.
func (k *acknowledger) finishedAfter(sec int64, nsec int, timed bool) bitset {
	if !timed {
		return k.after[0]
	}
	i := sort.Search(len(k.byTime), func(i int) bool {
		ag := k.agents[k.byTime[i]]
		return ag.sec > sec || ag.sec == sec && ag.nsec > nsec
	})
	return k.after[i]
}

func newAcknowledger(completed []*Agent) *acknowledger {
	k := &acknowledger{namers: map[string]bitset{}, words: (len(completed) + 63) / 64,
		index: map[string]int{}, refWords: map[string][]string{}}
	for i, a := range completed {
		fin, _ := a.Finished()
		ag := &ackAgent{a: a, sec: fin.Unix(), nsec: fin.Nanosecond()}
		k.index[a.Name] = i
		if a.Report != nil {
			ag.safe = a.Report.Verdict() == parse.Safe
		}
		if ag.safe { // only a safe agent's refs are asked (the contradiction rule)
			for _, f := range a.Report.Findings {
				for _, r := range f.FileRefs {
					if ref := ParseRef(r); ref.Path != "" {
						ag.refs = append(ag.refs, ref)
					}
				}
			}
		}
		k.agents = append(k.agents, ag)
		k.byTime = append(k.byTime, i)
	}
	slices.SortStableFunc(k.byTime, func(i, j int) int {
		a, b := k.agents[i], k.agents[j]
		return cmp.Or(cmp.Compare(a.sec, b.sec), cmp.Compare(a.nsec, b.nsec))
	})
	k.after = make([]bitset, len(k.byTime)+1)
	k.after[len(k.byTime)] = make(bitset, k.words)
	for i := len(k.byTime) - 1; i >= 0; i-- {
		k.after[i] = slices.Clone(k.after[i+1])
		k.after[i].add(k.byTime[i])
	}
	return k
}

// learn scans each completed agent's text once for the words that the
// blocking entries among es could need named (their agents, ids and file
// refs) and that are not in known, the words looked for before, which it
// extends.
func (k *acknowledger) learn(es []record.Entry, known map[string]struct{}) {
	needles := map[string]struct{}{}
	for i := range es {
		e := &es[i]
		if e.Severity != record.Blocking || e.Kind == record.EntryStall {
			continue
		}
		k.needles(e, func(w string) {
			if _, ok := known[w]; !ok {
				needles[w] = struct{}{}
				known[w] = struct{}{}
			}
		})
	}
	k.learnWords(needles)
}

// learnWords scans each completed agent's text once for needles.
func (k *acknowledger) learnWords(needles map[string]struct{}) {
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
func (k *acknowledger) naming(e *record.Entry) bitset {
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
func (k *acknowledger) needles(e *record.Entry, f func(string)) {
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
