package synth

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
)

// Synthesize computes the synthesis of run (SPEC §5). It is pure and does not
// modify run: the same run and options always give the same Synthesis.
//
// It is the reference: each step done once, in order, over the whole run,
// with nothing kept from an earlier call. A watcher that synthesises after
// every change keeps a [Live] instead, which must give the same result at a
// cost that follows the change; the tests hold Live to this function.
func Synthesize(run *Run, opts Options) *Synthesis {
	s, tl := synthesizeReports(run, opts, false)
	var segs []segment
	for _, b := range run.Bus {
		if len(b.Entries) > 0 {
			segs = append(segs, segment{b.Name, 0, b.Entries})
		}
	}
	tl.add(segs)
	return synthesizeBus(s, tl, run)
}

// synthesizeReports does every step of Synthesize but reading the bus: the
// agents, the merged findings and their evidence, the verdict, the
// specialists; it returns the synthesis so far and an empty timeline for
// the bus. With release, run's reports are its own (SynthesizeStream's
// copies): a run without a bus and evidence lets go of their findings once
// it has made the Sources from them.
func synthesizeReports(run *Run, opts Options, release bool) (*Synthesis, *timeline) {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	s := newSynthesis(run, opts)
	completed := accountAgents(s, run, opts)
	if release {
		// agentResult has copied the reports' diagnostics, and nothing
		// reads them again: they are garbage before the merge, not
		// beside it (100k of them at 8,000 agents, 14 MB).
		for i := range run.Agents {
			if r := run.Agents[i].Report; r != nil {
				r.Diagnostics = nil
			}
		}
	}
	srcs := sourcesOf(completed)
	nodes := nodesOf(srcs) // for dedup, then the timeline's matcher
	groups := dedup(nodes, opts.Dedup)
	if len(run.Bus) == 0 {
		// No bus, so no matcher: the nodes are garbage before the merged
		// findings are made, not beside them (a tenth of the live heap of
		// a 16 MiB strict index).
		nodes = nil
	}
	if release && len(run.Bus) == 0 && opts.Evidence == nil {
		// Nothing reads the sources of the merge after the findings are
		// made: no matcher, no evidence.
		srcs = nil
		s.Findings = findingsReleasing(groups, completed)
	} else {
		s.Findings = findingsOf(groups, len(completed))
	}
	s.Baseline, s.Suppressions = judge(s.Findings, opts)
	if opts.Evidence != nil {
		s.Evidence = checkEvidence(s, srcs, opts.Evidence, opts.EvidenceRepo)
	} else {
		s.EvidenceNote = opts.EvidenceNote
	}
	summarize(s, run, completed, opts)
	return s, newTimeline(s.Findings, completed, nodes, opts, newBusMemo(false), runAnchor(run))
}

// synthesizeBus completes s with the timeline tl read from run's bus: who
// discovered each finding, the timeline, the diagnostics of the run.
func synthesizeBus(s *Synthesis, tl *timeline, run *Run) *Synthesis {
	// The bus is read: what follows needs no matcher (the nodes, the
	// keyword blocks, the file:line index, the entries' matches by key),
	// so it is garbage before the findings are annotated, not beside them.
	tl.m = nil
	tl.annotate(s)
	files := make([]string, 0, len(run.Bus))
	for _, b := range run.Bus {
		files = append(files, b.Name)
	}
	s.Timeline = tl.snapshot(files)
	s.Diagnostics = append(runDiagnostics(run, tl), suppressionDiagnostics(s.Suppressions)...)
	// tl is not used past this point: the rest of it is garbage before the
	// sources are made, not beside them.
	fillSources(s.Findings)
	return s
}

// BusReader streams one bus file of a run for SynthesizeStream: it calls add
// with the file's entries in file order, in batches that add does not keep,
// and returns the file's diagnostics. Its error stops the synthesis.
type BusReader func(name string, add func([]record.Entry)) ([]parse.Diagnostic, error)

// SynthesizeStream is Synthesize for a bus too large to hold: run.Bus names
// the bus files, in reading order, without their entries, and read streams
// each one through the timeline as it is decoded. The result is Synthesize's
// for the run with the entries and diagnostics read filled in; memory does
// not grow with the bus. The error is the first of read.
func SynthesizeStream(run *Run, opts Options, read BusReader) (*Synthesis, error) {
	listed := *run
	listed.Bus = make([]BusFile, len(run.Bus))
	for i, b := range run.Bus {
		listed.Bus[i] = BusFile{Name: b.Name}
	}
	// The agents and their reports are copies (what the reports hold is
	// not), so that the synthesis can let go of the parsed findings once
	// they are merged without modifying run: when the caller holds run no
	// more, they are garbage before the merged findings are made.
	listed.Agents = slices.Clone(run.Agents)
	for i := range listed.Agents {
		if r := listed.Agents[i].Report; r != nil {
			c := *r
			listed.Agents[i].Report = &c
		}
	}
	s, tl := synthesizeReports(&listed, opts, true)
	for i, b := range listed.Bus {
		n := 0
		diags, err := read(b.Name, func(batch []record.Entry) {
			if len(batch) > 0 {
				tl.add([]segment{{b.Name, n, batch}})
				n += len(batch)
			}
		})
		if err != nil {
			return nil, err
		}
		listed.Bus[i].Diagnostics = diags
	}
	return synthesizeBus(s, tl, &listed), nil
}

// newSynthesis returns a synthesis of run with what it says of itself: the
// protocol, the generator, the input, the run and when it was reviewed.
func newSynthesis(run *Run, opts Options) *Synthesis {
	s := &Synthesis{
		ProtocolVersion: ProtocolVersion,
		Generator:       opts.Generator,
		Input:           run.Input,
		Runs:            run.Runs,
		Improvements:    []Improvement{},
		Specialists:     []Specialist{},
		Design:          []parse.Design{},
	}
	if run.ID != "" {
		id := run.ID
		s.Run = &id
	}
	return s
}

// summarize fills what follows from the merged findings of s and the
// completed agents: the time source and the reviewed time, the
// improvements, the counts, the verdict (SPEC §5.4), the specialists and
// the designs.
func summarize(s *Synthesis, run *Run, completed []*Agent, opts Options) {
	rt := timesOf(run, completed)
	s.TimeSource = rt.source
	reviewed := opts.Reviewed
	if reviewed.IsZero() {
		reviewed = rt.declared
	}
	if reviewed.IsZero() {
		reviewed = run.Newest
	}
	if !reviewed.IsZero() {
		s.Reviewed = reviewed.UTC().Format(time.RFC3339)
	}
	s.Improvements = improvementsOf(completed)
	for _, f := range s.Findings {
		s.Counts.Add(f.Severity)
	}
	switch {
	case len(completed) == 0 && opts.Watching:
		s.Verdict = parse.Pending
	case len(completed) == 0:
		s.Verdict = parse.Error
	default:
		sevs := make([]parse.Severity, 0, len(s.Findings))
		for _, f := range s.Findings {
			if f.Suppressed() == nil { // an accepted finding does not count
				sevs = append(sevs, f.Severity)
			}
		}
		s.Verdict = parse.VerdictOf(sevs...)
	}
	s.Specialists = specialistsOf(run.Specialists)
	if run.Design != nil && run.Design.Manifest != nil {
		s.Design = append(s.Design, run.Design.Manifest.Designs...)
	}
}

// accountAgents fills the agent lists of s (SPEC §5.1) and returns the
// completed agents sorted by name.
func accountAgents(s *Synthesis, run *Run, opts Options) []*Agent {
	var completed []*Agent
	launched, failed := map[string]bool{}, map[string]bool{}
	foreign, partial := map[string]bool{}, map[string]bool{}
	s.Agents = make([]AgentResult, 0, len(run.Agents)+len(opts.Expect)) // [] in findings.json, never null
	for i := range run.Agents {
		a := &run.Agents[i]
		s.Agents = append(s.Agents, agentResult(a, run.Manifest, opts.Watching))
		switch {
		case a.Status == parse.StatusForeign:
			foreign[a.Name] = true
			continue
		case a.Status.Completed():
			completed = append(completed, a)
		case a.Status == parse.StatusPartial:
			partial[a.Name] = true
		default:
			failed[a.Name] = true
		}
		launched[a.Name] = true
	}
	for _, name := range opts.Expect {
		if launched[name] {
			continue
		}
		launched[name] = true
		missing := AgentResult{Name: name, Status: parse.StatusError, Verdict: parse.Error,
			Diagnostics: []Diagnostic{{Level: parse.LevelError, Message: "expected agent wrote no report"}}}
		if opts.Watching {
			// Not failed yet: it may still start.
			partial[name] = true
			missing.Status, missing.Verdict = parse.StatusPartial, parse.Pending
			missing.Diagnostics[0] = Diagnostic{Level: parse.LevelInfo, Message: "expected agent has not written a file yet"}
		} else {
			failed[name] = true
		}
		s.Agents = append(s.Agents, missing)
	}
	slices.SortFunc(s.Agents, func(a, b AgentResult) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(deref(a.File), deref(b.File)))
	})
	slices.SortFunc(completed, func(a, b *Agent) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.File, b.File))
	})
	s.AgentsLaunched = sortedKeys(launched)
	s.AgentsCompleted = make([]string, len(completed))
	s.AgentsUnreadable = []string{}
	for i, a := range completed {
		s.AgentsCompleted[i] = a.Name
		if a.Status == parse.StatusUnreadable {
			s.AgentsUnreadable = append(s.AgentsUnreadable, a.Name)
		}
	}
	s.AgentsFailed = sortedKeys(failed)
	s.AgentsForeign = sortedKeys(foreign)
	s.AgentsPartial = sortedKeys(partial)
	if len(run.Ignored) > 0 {
		s.Ignored = slices.Sorted(slices.Values(run.Ignored))
	}
	return completed
}

// agentResult is agent a as the synthesis reports it. A .partial's time
// (when it last grew) is kept only while watching: a one-shot synthesis of
// a copied run would otherwise show the copy's time.
func agentResult(a *Agent, manifest *parse.RunManifest, watching bool) AgentResult {
	file := a.File
	r := AgentResult{Name: a.Name, File: &file, Run: a.Run, Status: a.Status, Diagnostics: []Diagnostic{}}
	for _, d := range a.Diagnostics {
		r.Diagnostics = append(r.Diagnostics, Diagnostic{Line: d.Line, Level: d.Level, Message: d.Message})
	}
	fin, src, why := FinishTime(a.Report, a.ModTime)
	if a.Status == parse.StatusPartial {
		fin, src = time.Time{}, TimeFile // still being written
		if watching {
			fin = a.ModTime
		}
	}
	if !fin.IsZero() {
		r.FinishedAt = fin.UTC()
	}
	r.TimeSource = &src
	if why != "" {
		r.Diagnostics = append(r.Diagnostics, Diagnostic{Level: parse.LevelWarning, Message: why})
	}
	declared := manifest.For(a.Name)
	if a.Report != nil {
		declared = a.Report.Provenance.Or(declared) // the report's own word first
	}
	r.Provenance, r.tokens = provenanceOf(declared), declared.Tokens
	if a.Report == nil {
		r.Verdict = parse.Error
		if a.Status.Completed() {
			r.Verdict = parse.Safe
		}
		return r
	}
	rep := a.Report
	if rep.DeclaredVerdict != "" {
		v := rep.DeclaredVerdict
		r.DeclaredVerdict = &v
	}
	r.Verdict = rep.Verdict()
	if a.Status == parse.StatusError {
		r.Verdict = parse.Error
	}
	for _, f := range rep.Findings {
		r.Counts.Add(f.Severity)
	}
	r.Counts.Improvements = len(rep.Improvements)
	r.Complete = rep.Complete
	if len(rep.Envelope) > 0 {
		r.Envelope = maps.Clone(rep.Envelope)
	}
	for _, d := range rep.Diagnostics {
		r.Diagnostics = append(r.Diagnostics, Diagnostic{Line: d.Line, Level: d.Level, Message: d.Message})
	}
	slices.SortStableFunc(r.Diagnostics, func(a, b Diagnostic) int { return cmp.Compare(a.Line, b.Line) })
	return r
}

// sourcesOf returns a source for each finding of the completed agents. Each
// is an object of its own, not one block for all: fillSources drops them
// one finding at a time as it makes the Sources, and a block would stay
// whole until the last.
func sourcesOf(completed []*Agent) []*src {
	n := 0
	for _, a := range completed {
		if a.Report != nil {
			n += len(a.Report.Findings)
		}
	}
	srcs := make([]*src, 0, n)
	for _, a := range completed {
		if a.Report == nil {
			continue
		}
		for i := range a.Report.Findings {
			s := newSrc(a.Name, a.File, &a.Report.Findings[i])
			srcs = append(srcs, &s)
		}
	}
	return srcs
}

// findingsOf turns dedup groups into merged findings, sorted by severity,
// then convergence (highest first), then key.
func findingsOf(groups [][]*src, m int) []Finding {
	fs := make([]Finding, 0, len(groups))
	var sh shares
	var ms []member
	for i, g := range groups {
		ms = ms[:0]
		for _, s := range g {
			ms = append(ms, member{s: s, key: s.key})
		}
		fs = append(fs, mergedFinding(ms, m, &sh))
		fs[i].srcs = &groups[i]
	}
	sortFindings(fs)
	for i := range fs {
		for _, s := range *fs[i].srcs {
			s.finding = int32(i)
		}
	}
	coLocate(fs)
	return fs
}

// findingsReleasing is findingsOf for a synthesis that reads nothing of the
// sources of the merge once the findings are made (no bus, no evidence) and
// whose completed agents' reports are its own: it makes the Sources first,
// from the sources, and lets go of the sources and of the reports' parsed
// findings before it makes the merged findings from the Sources. A 16 MiB
// strict index is 200k findings: the parsed findings (31 MB) and the
// sources (16 MB) were held beside the merged findings (45 MB) and their
// Sources (27 MB), at the synthesis's peak.
func findingsReleasing(groups [][]*src, completed []*Agent) []Finding {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	block := make([]Source, 0, n)
	keys := make([]string, 0, n)
	off := make([]int32, len(groups)+1)
	var raw map[int32][]string // the refs as written of a source whose Source rewrote them
	for i, g := range groups {
		for _, s := range g {
			if !s.asWritten {
				if raw == nil {
					raw = map[int32][]string{}
				}
				raw[int32(len(block))] = s.f.FileRefs
			}
			block = append(block, sourceOf(s))
			keys = append(keys, s.key)
		}
		off[i+1] = int32(len(block))
		groups[i] = nil
	}
	for _, a := range completed {
		if a.Report != nil {
			a.Report.Findings = nil
		}
	}
	fs := make([]Finding, 0, len(groups))
	var sh shares
	var ms []member
	for i := range len(groups) {
		ms = ms[:0]
		for k := off[i]; k < off[i+1]; k++ {
			ms = append(ms, member{so: &block[k], key: keys[k], raw: raw[k]})
		}
		f := mergedFinding(ms, len(completed), &sh)
		f.Sources = block[off[i]:off[i+1]:off[i+1]]
		fs = append(fs, f)
	}
	sortFindings(fs)
	coLocate(fs)
	return fs
}

// member is one source of a merged finding as mergedFinding reads it: a
// source of the merge (s), or the Source made of one (so, and, when its
// Source rewrote them, its file refs as written); key is the source's.
type member struct {
	s   *src
	so  *Source
	key string
	raw []string
}

func (m *member) agent() string {
	if m.s != nil {
		return m.s.agent
	}
	return m.so.Agent
}

func (m *member) sev() parse.Severity {
	if m.s != nil {
		return m.s.f.Severity
	}
	return m.so.Severity
}

// lowConfidence reports whether the agent marked it low (a Source's
// confidence is high when the agent gave none).
func (m *member) lowConfidence() bool {
	if m.s != nil {
		return m.s.f.Confidence == parse.ConfidenceLow
	}
	return m.so.Confidence == parse.ConfidenceLow
}

// refs yields what src.refs yields of the source.
func (m *member) refs(yield func(Ref, string) bool) {
	switch {
	case m.s != nil:
		m.s.refs(yield)
	case m.raw != nil:
		s := src{f: &parse.Finding{FileRefs: m.raw}}
		s.refs(yield)
	default: // a Source has its file refs as the source yields them
		s := src{f: &parse.Finding{FileRefs: m.so.FileRefs}, asWritten: true}
		s.refs(yield)
	}
}

// nRefs is the number of file refs the agent wrote.
func (m *member) nRefs() int {
	switch {
	case m.s != nil:
		return len(m.s.f.FileRefs)
	case m.raw != nil:
		return len(m.raw)
	}
	return len(m.so.FileRefs)
}

// sortFindings sorts merged findings by severity, then convergence
// (highest first), then key.
func sortFindings(fs []Finding) {
	// The order is found on indexes and the findings moved once each: a
	// Finding is 456 bytes with pointers, and sorting them in place moved
	// each some log n times, every move behind the collector's write
	// barrier (11% of synth's CPU on a 16 MiB strict index).
	order := make([]int32, len(fs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		a, b := &fs[i], &fs[j]
		return cmp.Or(
			cmp.Compare(a.Severity.Rank(), b.Severity.Rank()),
			cmp.Compare(b.Convergence, a.Convergence),
			cmp.Compare(a.Key, b.Key),
		)
	})
	permute(fs, order)
}

// permute puts xs in the order given (order[k] is the index of the item
// that goes to k), moving each item once along the cycles of the order;
// order is used up.
func permute[T any](xs []T, order []int32) {
	for start := range order {
		if order[start] < 0 || int(order[start]) == start {
			continue
		}
		held := xs[start]
		k := start
		for {
			from := int(order[k])
			order[k] = -1
			if from == start {
				xs[k] = held
				break
			}
			xs[k] = xs[from]
			k = from
		}
	}
}

// shares are the small values the findings of one synthesis share rather
// than each hold a copy of: the agent list of a finding of one agent, the
// convergence "N/M". A 16 MiB strict index is 218k findings of one source
// each: a copy each was 218k objects more for the collector to scan.
type shares struct {
	agents  map[string][]string
	display []string // by convergence
}

// agent returns the agent list [a].
func (sh *shares) agent(a string) []string {
	l, ok := sh.agents[a]
	if !ok {
		if sh.agents == nil {
			sh.agents = map[string][]string{}
		}
		l = []string{a}
		sh.agents[a] = l
	}
	return l[:1:1]
}

// convergence returns "n/m".
func (sh *shares) convergence(n, m int) string {
	if n < len(sh.display) && sh.display[n] != "" {
		return sh.display[n]
	}
	d := strconv.Itoa(n) + "/" + strconv.Itoa(m)
	if n < 1024 {
		if n >= len(sh.display) {
			sh.display = append(sh.display, make([]string, n+1-len(sh.display))...)
		}
		sh.display[n] = d
	}
	return d
}

func mergedFinding(g []member, m int, sh *shares) Finding {
	var f Finding
	if rep := g[0]; rep.s != nil {
		f = Finding{ID: rep.s.f.ID, Key: rep.key, Severity: rep.s.f.Severity, Section: rep.s.f.Section, Title: rep.s.f.Title}
	} else {
		f = Finding{ID: rep.so.ID, Key: rep.key, Severity: rep.so.Severity, Section: rep.so.Section, Title: rep.so.Title}
	}
	// Each agent with its highest severity, and the refs of all sources:
	// slices, not maps, for the groups of one to a few sources that most
	// are.
	type agentSev struct {
		agent string
		sev   parse.Severity
	}
	agents := make([]agentSev, 0, len(g))
	type refText struct {
		ref  Ref
		text string // ref.String(): the source's own text when written so
	}
	var refs []refText
	allLow := true
	for i := range g {
		s := &g[i]
		for r, text := range s.refs {
			refs = append(refs, refText{r, text})
		}
		if !s.lowConfidence() {
			allLow = false
		}
		agents = append(agents, agentSev{s.agent(), s.sev()})
	}
	slices.SortFunc(agents, func(a, b agentSev) int {
		return cmp.Or(cmp.Compare(a.agent, b.agent), cmp.Compare(a.sev.Rank(), b.sev.Rank()))
	})
	agents = slices.CompactFunc(agents, func(a, b agentSev) bool { return a.agent == b.agent }) // the highest of each
	if len(agents) == 1 {
		f.Agents = sh.agent(agents[0].agent)
	} else {
		f.Agents = make([]string, len(agents))
	}
	conflict := false
	for i, a := range agents {
		f.Agents[i] = a.agent
		conflict = conflict || a.sev != agents[0].sev
	}
	f.Convergence = len(f.Agents)
	f.ConvergenceDisplay = sh.convergence(f.Convergence, m)
	f.Independent = f.Convergence // until a bus entry primes one
	switch {
	case allLow || f.Convergence <= 1:
		f.Confidence = parse.ConfidenceLow
	case f.Convergence == 2:
		f.Confidence = "medium"
	default:
		f.Confidence = parse.ConfidenceHigh
	}
	if conflict {
		sevs := make(map[string]parse.Severity, len(agents))
		for _, a := range agents {
			sevs[a.agent] = a.sev
		}
		f.setMore(func(m *findingMore) { m.severityConflict = sevs })
	}
	slices.SortFunc(refs, func(a, b refText) int { return compareRef(a.ref, b.ref) })
	refs = slices.CompactFunc(refs, func(a, b refText) bool { return a.ref == b.ref })
	f.FileRefs = make([]string, len(refs))
	for i, r := range refs {
		f.FileRefs[i] = r.text
	}
	first := ""
	if len(refs) > 0 {
		first = refs[0].ref.Path
	}
	f.Fingerprint = fingerprint(lineFreeKey(f.Key, f.Section), first)
	if xs := crossReferences(g); len(xs) > 0 {
		f.setMore(func(m *findingMore) { m.crossReferences = xs })
	}
	return f
}

// lineFreeKey is key (normalised section ":" normalised title) with the
// line numbers of the file references in section dropped: a heading
// "1.3 `distill` tool (mcp_server.py:699-735)" is a section whose numbers
// move with the code it cites, and a fingerprint must not (SPEC §6). A key
// whose section cites no line is returned as it is.
func lineFreeKey(key, section string) string {
	free := dropRefLines(section)
	if free == section {
		return key
	}
	_, title, _ := strings.Cut(key, ":") // a normalised section holds no ':'
	return parse.Normalize(free) + ":" + title
}

// fingerprint is the fingerprint of SPEC §6 of a finding whose key is key
// and whose first file path is path ("" for none): a hash of the two,
// stable across runs and line shifts.
func fingerprint(key, path string) string {
	// Hashed from a buffer on the stack when it fits: the string and
	// bytes made to hash were 15 MB of garbage for a 16 MiB strict index.
	var buf [256]byte
	sum := sha256.Sum256(append(append(append(buf[:0], key...), 0), path...))
	return hex.EncodeToString(sum[:16])
}

// fillSources makes the Sources of each finding from its sources, and
// lets go of them.
func fillSources(fs []Finding) {
	// The Sources are cut from blocks of sourceBlock: a 16 MiB strict index
	// is 218k findings of one source each, and a slice each was 218k
	// objects more for the collector (each rounded up to its size class).
	// Not one block for all: that block (27 MB there) was made while every
	// source of the merge still lived, at the synthesis's peak; blocks made
	// as the findings are filled let each source go as its Source is made.
	var block []Source
	for i := range fs {
		f := &fs[i]
		if f.srcs == nil {
			continue
		}
		n := len(*f.srcs)
		if cap(block)-len(block) < n {
			block = make([]Source, 0, max(n, sourceBlock))
		}
		start := len(block)
		block = block[:start+n]
		f.Sources = block[start:start:len(block)]
		for _, s := range *f.srcs {
			f.Sources = append(f.Sources, sourceOf(s))
		}
		// The group's slot in dedup's list too: that list is one block
		// that the findings not filled yet keep, and through it every
		// source would stay until the last finding is filled.
		*f.srcs = nil
		f.srcs = nil
	}
}

// sourceOf is the Source of s.
func sourceOf(s *src) Source {
	conf := s.f.Confidence
	if conf == "" {
		conf = parse.ConfidenceHigh
	}
	return Source{
		Agent: s.agent, ID: s.f.ID, Severity: s.f.Severity, Ref: sourceRef(s.file, s.f.Line),
		Confidence: conf, Section: s.f.Section, Title: s.f.Title, FileRefs: s.fileRefs(),
	}
}

// sourceBlock is how many Sources fillSources cuts from one block: 4,096
// (557 KB) keeps them to a few dozen objects where a run has 200k.
const sourceBlock = 4096

// eachSource calls fn with the section and title of each source of f,
// whether its Sources are made yet or not.
func eachSource(f *Finding, fn func(section, title string)) {
	if f.srcs != nil {
		for _, s := range *f.srcs {
			fn(s.f.Section, s.f.Title)
		}
		return
	}
	for _, s := range f.Sources {
		fn(s.Section, s.Title)
	}
}

func compareRef(a, b Ref) int {
	return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
}

// crossReferences lists the locations the sources of one key point at, for
// each key whose sources point at more than one location.
func crossReferences(g []member) []CrossReference {
	n := 0
	for i := range g {
		n += g[i].nRefs()
	}
	if n < 2 {
		return []CrossReference{} // one location at most
	}
	type keyRef struct{ key, ref, agent string }
	all := make([]keyRef, 0, n)
	for i := range g {
		s := &g[i]
		for _, text := range s.refs {
			all = append(all, keyRef{s.key, text, s.agent()})
		}
	}
	slices.SortFunc(all, func(a, b keyRef) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.ref, b.ref), cmp.Compare(a.agent, b.agent))
	})
	// The locations of each key that points at more than one.
	var listed []keyRef
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].key == all[i].key {
			j++
		}
		if all[i].ref != all[j-1].ref {
			listed = append(listed, all[i:j]...)
		}
		i = j
	}
	if len(listed) == 0 {
		return []CrossReference{}
	}
	slices.SortFunc(listed, func(a, b keyRef) int { return cmp.Or(cmp.Compare(a.ref, b.ref), cmp.Compare(a.agent, b.agent)) })
	out := []CrossReference{}
	for i, x := range listed {
		if i == 0 || x.ref != listed[i-1].ref {
			out = append(out, CrossReference{Ref: x.ref})
		}
		c := &out[len(out)-1]
		if len(c.Agents) == 0 || c.Agents[len(c.Agents)-1] != x.agent {
			c.Agents = append(c.Agents, x.agent)
		}
	}
	slices.SortFunc(out, func(a, b CrossReference) int { return compareRef(ParseRef(a.Ref), ParseRef(b.Ref)) })
	return out
}

// coLocate fills co_located_with: other findings citing the same file:line.
func coLocate(fs []Finding) {
	// Each finding's citations of a file:line, sorted by the point: a run
	// of two findings or more is a co-location. The points are compared as
	// path and line, and a point's text is made only for the findings that
	// share it: a map of every point's text to its findings was 23 MB at
	// the peak of a 16 MiB report whose 200k findings cite a line each.
	type citation struct {
		path string
		line int
		i    int32
	}
	var cs []citation
	for i := range fs {
		for _, r := range fs[i].FileRefs {
			if ref := ParseRef(r); ref.Start != 0 && ref.Path != "" {
				cs = append(cs, citation{ref.Path, ref.Start, int32(i)})
			}
		}
	}
	slices.SortFunc(cs, func(a, b citation) int {
		return cmp.Or(cmp.Compare(a.path, b.path), cmp.Compare(a.line, b.line), cmp.Compare(a.i, b.i))
	})
	// A point a finding cites twice counts once.
	cs = slices.Compact(cs)
	co := map[int32][]CoLocation{} // by finding: few have any
	for k := 0; k < len(cs); {
		l := k + 1
		for l < len(cs) && cs[l].path == cs[k].path && cs[l].line == cs[k].line {
			l++
		}
		if l-k > 1 {
			p := Ref{Path: cs[k].path, Start: cs[k].line, End: cs[k].line}.point()
			for _, a := range cs[k:l] {
				for _, b := range cs[k:l] {
					if a.i != b.i {
						co[a.i] = append(co[a.i], CoLocation{Key: fs[b.i].Key, ID: fs[b.i].ID, Ref: p})
					}
				}
			}
		}
		k = l
	}
	for i, l := range co {
		slices.SortFunc(l, func(a, b CoLocation) int {
			return cmp.Or(compareRef(ParseRef(a.Ref), ParseRef(b.Ref)), cmp.Compare(a.Key, b.Key))
		})
		fs[i].setMore(func(m *findingMore) { m.coLocatedWith = l })
	}
}

// improvementsOf merges the completed agents' improvements by key.
func improvementsOf(completed []*Agent) []Improvement {
	type imp struct {
		Improvement
		agents map[string]bool
	}
	byKey := map[string]*imp{}
	for _, a := range completed {
		if a.Report == nil {
			continue
		}
		for _, im := range a.Report.Improvements {
			k := parse.Key(im.Section, im.Title)
			x := byKey[k]
			if x == nil {
				x = &imp{Improvement: Improvement{ID: im.ID, Key: k, Section: im.Section, Title: im.Title}, agents: map[string]bool{}}
				byKey[k] = x
			}
			x.agents[a.Name] = true
		}
	}
	out := make([]Improvement, 0, len(byKey))
	for _, k := range sortedKeys(byKey) {
		x := byKey[k]
		x.Agents = sortedKeys(x.agents)
		out = append(out, x.Improvement)
	}
	return out
}

func specialistsOf(files []SpecialistFile) []Specialist {
	out := []Specialist{}
	for _, f := range files {
		sp := Specialist{Name: f.Name, File: f.File, Approaches: []Approach{}, Diagnostics: []Diagnostic{}}
		for _, d := range f.Diagnostics {
			sp.Diagnostics = append(sp.Diagnostics, Diagnostic{Line: d.Line, Level: d.Level, Message: d.Message})
		}
		if f.Specialist != nil {
			if f.Specialist.Name != "" {
				sp.Name = f.Specialist.Name
			}
			sp.Notes = f.Specialist.Notes
			for _, a := range f.Specialist.Approaches {
				ap := Approach{
					ID: a.ID(), Number: a.Number, Variant: a.Variant, Description: a.Description,
					RelevantFiles: nonNil(a.RelevantFiles), PendingRefinement: a.PendingRefinement,
					UnansweredQuestions: []string{},
				}
				for _, q := range a.Unanswered() {
					if q != "" {
						ap.UnansweredQuestions = append(ap.UnansweredQuestions, q)
					}
				}
				if ap.PendingRefinement != "" {
					sp.PendingRefinements++
				}
				sp.UnansweredQuestions += len(ap.UnansweredQuestions)
				sp.Approaches = append(sp.Approaches, ap)
			}
			slices.SortStableFunc(sp.Approaches, func(a, b Approach) int {
				return cmp.Or(cmp.Compare(a.Number, b.Number), cmp.Compare(a.Variant, b.Variant))
			})
		}
		out = append(out, sp)
	}
	slices.SortFunc(out, func(a, b Specialist) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Name, b.Name)) })
	return out
}

// runDiagnostics returns the diagnostics about the run's files: the
// directory's, the bus files', the design manifest's and those of the
// timeline tl read from the bus (implausible timestamps), by file and line.
func runDiagnostics(run *Run, tl *timeline) []Diagnostic {
	out := []Diagnostic{}
	for _, d := range run.Diagnostics {
		out = append(out, diagnostic(d))
	}
	if tl != nil {
		out = append(out, implausibleDiagnostics(&tl.implausible, tl.clock.at)...)
	}
	for _, b := range run.Bus {
		for _, d := range b.Diagnostics {
			if d.Path == "" {
				d.Path = b.Name
			}
			out = append(out, diagnostic(d))
		}
	}
	if run.Design != nil {
		for _, d := range run.Design.Diagnostics {
			if d.Path == "" {
				d.Path = run.Design.File
			}
			out = append(out, diagnostic(d))
		}
	}
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return out
}

// checkEvidence hands every claim of every finding to v and attaches the
// results (SPEC §5.7).
func checkEvidence(s *Synthesis, srcs []*src, v Verifier, repo string) *EvidenceTally {
	byFinding := make([][]parse.EvidenceClaim, len(s.Findings))
	for _, sr := range srcs {
		byFinding[sr.finding] = append(byFinding[sr.finding], ClaimsOf(sr.agent, sr.f)...)
	}
	var all []parse.EvidenceClaim
	var owner []int
	for i := range s.Findings {
		for _, c := range byFinding[i] {
			all = append(all, c)
			owner = append(owner, i)
		}
	}
	tally := &EvidenceTally{Repo: repo}
	results := v.Verify(all)
	if len(results) != len(all) {
		panic(fmt.Sprintf("synth: Verifier returned %d results for %d claims", len(results), len(all)))
	}
	evs := make([]*FindingEvidence, len(s.Findings))
	for i, r := range results {
		ev := evs[owner[i]]
		if ev == nil {
			ev = &FindingEvidence{Claims: []parse.ClaimResult{}}
			evs[owner[i]] = ev
		}
		ev.Claims = append(ev.Claims, r)
		tally.Add(r.Status)
	}
	for i, ev := range evs {
		if ev == nil {
			continue
		}
		f := &s.Findings[i]
		if ev.Ungrounded = Ungrounded(f.Severity, ev.Claims); ev.Ungrounded {
			tally.Ungrounded++
		}
		f.setMore(func(m *findingMore) { m.evidence = ev })
	}
	return tally
}

// Ungrounded reports whether a finding of severity sev with these claims is
// flagged ungrounded (SPEC §5.7): it is P0 or P1, and claims is not empty
// and every one of them failed (mismatch, missing-file or out-of-range). A
// skipped claim (a binary or oversized file) neither grounds nor fails.
// synth and check both ask this.
func Ungrounded(sev parse.Severity, claims []parse.ClaimResult) bool {
	if sev.Rank() > 1 {
		return false
	}
	for _, c := range claims {
		switch c.Status {
		case parse.EvidenceMismatch, parse.EvidenceMissingFile, parse.EvidenceOutOfRange:
		default:
			return false
		}
	}
	return len(claims) > 0
}

// ClaimsOf returns what one agent's finding claims, in the order checked
// (SPEC §5.7): its evidence claims, then each of its file:line references
// that is not an evidence claim already and that no evidence claim with an
// excerpt overlaps (an excerpt says more about those lines than the bare
// reference does). References without a line are not claims.
func ClaimsOf(agent string, f *parse.Finding) []parse.EvidenceClaim {
	out := make([]parse.EvidenceClaim, 0, len(f.Evidence)+len(f.FileRefs))
	var excerpts []Ref
	claimed := map[Ref]bool{}
	for _, c := range f.Evidence {
		out = append(out, parse.EvidenceClaim{Agent: agent, Claim: c})
		ref := ParseRef(c.Ref())
		claimed[ref] = true
		if strings.TrimSpace(c.Excerpt) != "" {
			excerpts = append(excerpts, ref)
		}
	}
refs:
	for _, r := range f.FileRefs {
		ref := ParseRef(r)
		if ref.Start == 0 || claimed[ref] {
			continue
		}
		for _, e := range excerpts {
			if ref.Overlaps(e) {
				continue refs
			}
		}
		out = append(out, parse.EvidenceClaim{Agent: agent,
			Claim: parse.Claim{Path: ref.Path, Start: ref.Start, End: ref.End, Line: f.Line}})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
