package synth

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Live keeps the synthesis of a changing run current. Each [Live.Update]
// takes the run as it now is; [Live.Synthesis] returns what [Synthesize]
// would return for it, byte for byte once rendered, at a cost that follows
// what changed:
//   - bus entries appended since the previous Update are read on their own
//     (the cost of an append does not grow with the bus);
//   - the findings are merged again only when the findings of the
//     completed agents changed (an agent that completes with findings, a
//     report rewritten with other findings); when only the agents changed
//     (one that completes without a finding, a report rewritten with the
//     same findings: incremental.go), the findings stay, with their
//     convergence_display made again. Either way the report side of the
//     timeline is made again, against the bus entries read;
//   - anything else (a .partial growing, a specialist file) costs a pass over
//     the agents.
//
// Update relies on two things it does not check. An agent whose Report
// pointer, file, status and modification time are unchanged has an unchanged
// report and text. The entries of each bus file are those of the previous
// Update with new ones appended at its end; when a bus file was truncated or
// replaced, call [Live.Rewind] before the Update. Entries appended to a bus
// file that another, later bus file with entries follows are read by reading
// the whole bus again (the timeline numbers entries over the files in order).
//
// A Live is not safe for concurrent use.
type Live struct {
	opts Options
	run  *Run
	base *Synthesis // everything but the bus side

	// The report side: the completed agents and their merged findings.
	agents    []agentKey
	completed []*Agent
	// nodes are the merge's sources by key (nodesOf), which the timeline
	// matches bus entries against; nil while the run has no bus entries
	// (nodesAgain makes them when they come).
	nodes    []*node
	findings []Finding // annotated by the last Synthesis, when handed
	evidence *EvidenceTally
	// plain is what the annotation of each finding writes over, as the
	// merge left it; handed says that Synthesis handed out findings, so
	// they are never written again (copy on write); prov is the agents'
	// provenance the annotation of findings read.
	plain  []plainFinding
	handed bool
	prov   map[string]Provenance
	// The comparison with the baseline and the suppressions of findings.
	baseline     *BaselineReport
	suppressions *SuppressionReport

	// The bus side, read against the report side.
	tl   *timeline
	read []busMark // the bus files as read into tl
	memo *busMemo  // what the entries read gave, for the next timeline

	merges int // how many times the findings were merged (for tests)
}

// agentKey is what the report side of a completed agent depends on.
type agentKey struct {
	name, file string
	status     parse.Status
	mod        time.Time
	report     *parse.Report
	text       int
}

// busMark is how many entries of a bus file were read.
type busMark struct {
	name string
	n    int
}

// NewLive returns a Live that synthesises with opts. Call Update before
// Synthesis.
func NewLive(opts Options) *Live {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	return &Live{opts: opts, memo: newBusMemo(true)}
}

// Rewind forgets the bus entries read: the next Update reads the whole bus.
// Call it when a bus file was truncated, replaced or removed.
func (l *Live) Rewind() { l.tl, l.read, l.memo = nil, nil, newBusMemo(l.memo.ids != nil) }

// Update brings the synthesis up to date with run (see [Live] for what it
// assumes of the bus). Run is kept until the next Update and not modified.
func (l *Live) Update(run *Run) {
	opts := l.opts
	s := newSynthesis(run, opts)
	completed := accountAgents(s, run, opts)
	rebase := false
	keys := keysOf(completed)
	if l.findings != nil && !slices.Equal(keys, l.agents) && opts.Evidence == nil && opts.Baseline == nil &&
		len(opts.Suppressions) == 0 && sameMerge(l.completed, completed) {
		// The merge reads what it read (incremental.go): its findings
		// stay, their displays made for the agents completed now. The
		// baseline, the suppressions and the evidence are left to a merge.
		l.agents, l.completed = keys, completed
		l.keepMerge(len(completed))
		l.handed, l.prov = false, nil
		if _, ok := l.appended(run); ok && l.memo.ids != nil {
			rebase = true
		} else {
			l.Rewind()
		}
	} else if l.findings == nil || !slices.Equal(keys, l.agents) {
		l.merges++
		l.agents, l.completed = keys, completed
		srcs := sourcesOf(completed)
		l.nodes = nodesOf(srcs)
		l.findings = findingsOf(dedup(l.nodes, opts.Dedup), len(completed))
		l.baseline, l.suppressions = judge(l.findings, opts)
		if opts.Evidence != nil {
			s.Findings = l.findings
			l.evidence = checkEvidence(s, srcs, opts.Evidence, opts.EvidenceRepo)
		}
		if !hasEntries(run) {
			// No matcher needs the sources before a bus entry comes, as
			// in Synthesize: they go as the findings' Sources are made,
			// not beside them (a 16 MiB strict index's are 48 MB: the
			// sources, their keys, the nodes).
			l.nodes = nil
		}
		srcs = nil
		fillSources(l.findings)
		l.plain = slices.Grow(l.plain[:0], len(l.findings))[:len(l.findings)]
		for i := range l.findings {
			l.plain[i] = plainOf(&l.findings[i])
		}
		l.handed, l.prov = false, nil
		// The bus side stays while the entries are those read before and
		// new ones: only the report side of the timeline is made again.
		if _, ok := l.appended(run); ok && l.memo.ids != nil {
			rebase = true
		} else {
			l.Rewind()
		}
	}
	if l.tl != nil && !rebase && l.tl.clock.moves(runAnchor(run)) {
		// A newer (or older) newest report would judge a timestamp read
		// before otherwise (plausible.go): the report side is made again
		// against it, as when the agents changed.
		if _, ok := l.appended(run); ok && l.memo.ids != nil {
			rebase = true
		} else {
			l.Rewind()
		}
	} else if l.tl != nil && !rebase {
		l.tl.clock.at = runAnchor(run) // no judgement changes: the entries to come are judged against it
	}
	if opts.Evidence != nil {
		s.Evidence = l.evidence
	} else {
		s.EvidenceNote = opts.EvidenceNote
	}
	s.Findings = l.findings
	s.Baseline, s.Suppressions = l.baseline, l.suppressions
	summarize(s, run, l.completed, opts)
	l.base, l.run = s, run
	l.readBus(run, rebase)
}

// keysOf returns what the report side of each completed agent depends on.
func keysOf(completed []*Agent) []agentKey {
	keys := make([]agentKey, len(completed))
	for i, a := range completed {
		keys[i] = agentKey{name: a.Name, file: a.File, status: a.Status, mod: a.ModTime, report: a.Report, text: len(a.Text)}
	}
	return keys
}

// Final returns the synthesis of run as [Synthesize] makes it not
// watching (Options.Watching false: an expected agent without a file has
// failed, a run with no completed agent is an error), when the Live can
// make it without merging the findings again: the completed agents are
// those of the last Update, and it merged them. The Live then
// synthesises as not watching from here on. Otherwise ok is false and
// the Live is unchanged: a merge made beside the one it keeps would hold
// both, where a caller that lets go of the Live first holds one. With
// evidence checked (Options.Evidence) it declines too: Synthesize reads
// the cited files again, which may have changed since the merge.
//
// A watcher's final update is mostly of a run already merged: the last
// report completed, the run settled. Merging it again was a whole
// synthesis more (at 8,000 agents, most of `synth`'s 15 s of CPU) for
// the same findings.
func (l *Live) Final(run *Run) (s *Synthesis, ok bool) {
	if l.findings == nil || l.opts.Evidence != nil {
		return nil, false
	}
	opts := l.opts
	opts.Watching = false
	completed := accountAgents(newSynthesis(run, opts), run, opts)
	if !slices.Equal(keysOf(completed), l.agents) {
		return nil, false
	}
	l.opts = opts
	l.Update(run)
	return l.Synthesis(), true
}

// readBus reads the entries of run's bus that the timeline has not read: the
// appended ones when that is possible, else all of them into a new timeline.
// With rebase (the report side changed, the entries read did not) the
// timeline keeps its bus side and makes its report side again first.
func (l *Live) readBus(run *Run, rebase bool) {
	segs, ok := l.appended(run)
	switch {
	case ok && rebase:
		l.tl = l.tl.rebase(l.findings, l.completed, l.nodes, l.nodesAgain, l.opts, runAnchor(run))
	case !ok:
		l.memo.forgetOrder()
		l.tl = newTimeline(l.findings, l.completed, l.nodes, l.opts, l.memo, runAnchor(run))
		l.tl.m.more = l.nodesAgain
		segs = segs[:0]
		for _, b := range run.Bus {
			if len(b.Entries) > 0 {
				segs = append(segs, segment{b.Name, 0, b.Entries})
			}
		}
	}
	if len(segs) > 0 {
		l.tl.add(segs)
	}
	l.read = l.read[:0]
	for _, b := range run.Bus {
		if n := b.Dropped + len(b.Entries); n > 0 {
			l.read = append(l.read, busMark{b.Name, n})
		}
	}
}

// hasEntries reports whether run's bus has entries, read or dropped.
func hasEntries(run *Run) bool {
	for _, b := range run.Bus {
		if b.Dropped+len(b.Entries) > 0 {
			return true
		}
	}
	return false
}

// nodesAgain makes the nodes of the merge again (let go while the run had
// no bus entries), for the timeline's matcher: the sources of the completed
// agents by key, each pointing at the finding whose Sources hold its key
// (all the sources of a key merge into one finding). It keeps them for
// the timelines to come.
func (l *Live) nodesAgain() []*node {
	nodes := nodesOf(sourcesOf(l.completed))
	for i := range l.findings {
		for _, s := range l.findings[i].Sources {
			j, ok := slices.BinarySearchFunc(nodes, parse.Key(s.Section, s.Title), func(n *node, key string) int {
				return strings.Compare(n.key, key)
			})
			if ok {
				for _, src := range nodes[j].srcs {
					src.finding = int32(i)
				}
			}
		}
	}
	l.nodes = nodes
	return nodes
}

// appended returns the entries of run's bus after those read, when they all
// come after them in reading order; ok is false when the bus must be read
// again from the start.
func (l *Live) appended(run *Run) (segs []segment, ok bool) {
	if l.tl == nil {
		return nil, false
	}
	i := 0
	for _, b := range run.Bus {
		n := b.Dropped + len(b.Entries)
		if n == 0 {
			continue
		}
		switch {
		case i < len(l.read):
			old := l.read[i]
			last := i == len(l.read)-1
			if b.Name != old.name || n < old.n || (!last && n != old.n) || old.n < b.Dropped {
				return nil, false
			}
			if n > old.n {
				segs = append(segs, segment{b.Name, old.n, b.Entries[old.n-b.Dropped:]})
			}
		case b.Dropped > 0:
			return nil, false
		default:
			segs = append(segs, segment{b.Name, 0, b.Entries})
		}
		i++
	}
	if i < len(l.read) {
		return nil, false // a bus file with entries is gone
	}
	return segs, true
}

// Synthesis returns the synthesis of the run of the last Update. What it
// returns is not changed by later Updates; it shares its findings with
// the Live and with other syntheses returned, so callers must not modify
// them (nothing in this module does; TestLiveSnapshotsReadOnly renders
// syntheses concurrently with later Updates under -race).
//
// The findings handed out are those the Live keeps: they are annotated in
// place the first time after a merge; later, the annotation is made on a
// copy, which replaces the kept findings only when an annotation differs
// (copy on write). A copy per synthesis was 54 MB beside the 122 MB of a
// 16 MiB strict index's synthesis (heap profile, inuse_space).
func (l *Live) Synthesis() *Synthesis {
	s := *l.base
	s.Findings = l.findings
	if l.tl != nil {
		l.annotate(&s)
	}
	files := make([]string, 0, len(l.run.Bus))
	for _, b := range l.run.Bus {
		files = append(files, b.Name)
	}
	s.Timeline = l.tl.snapshot(files)
	s.Diagnostics = append(runDiagnostics(l.run, l.tl), suppressionDiagnostics(s.Suppressions)...)
	return &s
}

// plainFinding is what an annotation writes over in a finding, provenance
// included (it lives behind more).
type plainFinding struct {
	more        *findingMore
	independent int
}

func plainOf(f *Finding) plainFinding { return plainFinding{f.more, f.Independent} }

// annotate annotates s, whose findings are l.findings (see Synthesis).
// The first time after a merge it annotates them in place. Later, when
// the timeline knows which findings its entries since touched (a bus
// append: takeTouched), only those are annotated again, on a copy of the
// findings made only when one was touched or an agent's provenance
// changed, and kept only when an annotation differs: an append that
// touches no finding copies none. On a timeline made again (a rewind, a
// rebase) every finding is annotated again on a copy, as before.
func (l *Live) annotate(s *Synthesis) {
	touched, all := l.tl.takeTouched()
	switch {
	case !l.handed:
		l.tl.annotate(s)
		l.handed, l.prov = true, provenanceByName(s.Agents)
		return
	case all:
		l.annotateAll(s)
		return
	}
	prov := l.tl.agentProvenance(s)
	sameProv := maps.EqualFunc(prov, l.prov, equalProvenance)
	s.Findings = l.findings
	if len(touched) > 0 || !sameProv {
		fs := slices.Clone(l.findings)
		changed := !sameProv
		for _, p := range touched {
			f := &fs[p]
			f.more, f.Independent = l.plain[p].more, l.plain[p].independent
			l.tl.annotateFinding(f, p)
			if sameProv {
				// The plain finding holds no provenance: it lives behind
				// more since memsynth10, which the reset above replaced.
				findingProvenance(fs[p:p+1], prov)
			}
			changed = changed || !sameAnnotation(f, &l.findings[p])
		}
		if !sameProv {
			findingProvenance(fs, prov)
		}
		if changed {
			s.Findings, l.findings, l.prov = fs, fs, prov
		}
	}
	s.Yield = l.tl.yield(s)
}

// annotateAll annotates every finding again on a copy of l.findings, which
// replaces them only when an annotation differs (copy on write).
func (l *Live) annotateAll(s *Synthesis) {
	fs := slices.Clone(l.findings)
	for i := range fs {
		fs[i].more, fs[i].Independent = l.plain[i].more, l.plain[i].independent
	}
	s.Findings = fs
	l.tl.annotate(s)
	prov := provenanceByName(s.Agents)
	if maps.EqualFunc(prov, l.prov, equalProvenance) && sameAnnotations(fs, l.findings) {
		s.Findings = l.findings // the findings' provenance is that of their agents: equal
		return
	}
	l.findings, l.prov = fs, prov
}

// provenanceByName is the provenance of agents that annotate gives the
// findings of each (provenance, in priming.go).
func provenanceByName(agents []AgentResult) map[string]Provenance {
	m := make(map[string]Provenance, len(agents))
	for _, a := range agents {
		if a.Status != parse.StatusForeign {
			m[a.Name] = a.Provenance
		}
	}
	return m
}

func equalProvenance(a, b Provenance) bool {
	return reflect.DeepEqual(a, b)
}

// sameAnnotations reports whether the findings fs and gs, the same but for
// their annotation (and provenance), are annotated alike.
func sameAnnotations(fs, gs []Finding) bool {
	for i := range fs {
		if !sameAnnotation(&fs[i], &gs[i]) {
			return false
		}
	}
	return true
}

// sameAnnotation reports whether f and g, one finding but for their
// annotation (and provenance), are annotated alike.
func sameAnnotation(f, g *Finding) bool {
	if f.Independent != g.Independent || !slices.Equal(f.Primed(), g.Primed()) {
		return false
	}
	a, b := f.DiscoveredBy(), g.DiscoveredBy()
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
