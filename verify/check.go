package verify

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Kind is the kind of a problem with a synthesis.
type Kind string

// The kinds of problem, in the order the report lists them. The first four
// are wrong claims and trip the gate; the last two are notes.
const (
	Invented        Kind = "invented"
	SeverityRaised  Kind = "severity-raised"
	MissingBlocker  Kind = "missing-blocker"
	WrongCount      Kind = "wrong-count"
	SeverityDropped Kind = "severity-dropped"
	Unverifiable    Kind = "unverifiable"
)

// Kinds lists every kind, in report order.
var Kinds = []Kind{Invented, SeverityRaised, MissingBlocker, WrongCount, SeverityDropped, Unverifiable}

// Note reports whether a kind is a note (listed, never an error).
func (k Kind) Note() bool { return k == Unverifiable || k == SeverityDropped }

// Problem is one thing a synthesis says that the run does not bear out.
type Problem struct {
	// Line is the claim's line; 0 for a missing blocker.
	Line    int    `json:"line"`
	Kind    Kind   `json:"kind"`
	Message string `json:"message"`
	// Claim is the claim's title as the synthesis wrote it ("" for a missing
	// blocker); Finding the key of the run finding it was matched to.
	Claim   string `json:"claim,omitempty"`
	Finding string `json:"finding,omitempty"`
}

// Input is what Check reads.
type Input struct {
	// Synthesis is the Markdown to verify.
	Synthesis []byte
	// Run is fluxwatch's synthesis of the run it claims to summarise.
	Run *synth.Synthesis
	// Reports are the completed agents' report texts by agent name: what
	// an agent said in any words, beyond the findings fluxwatch read. Nil:
	// only the findings count.
	Reports map[string][]byte
}

// Result is the verdict on one synthesis.
type Result struct {
	// Claims are every claim read, in line order.
	Claims []Claim `json:"claims"`
	// Grounded counts the claims with no problem.
	Grounded int `json:"grounded"`
	// Problems are sorted by line, then kind.
	Problems []Problem `json:"problems"`
	// Tally counts the problems per kind (every kind present).
	Tally map[Kind]int `json:"tally"`
	// Run says, when RUN holds reports of several runs, which agents the
	// synthesis was judged against and how verify told its run ("" when
	// it covers the whole directory).
	Run string `json:"run,omitempty"`
}

// Ungrounded reports whether any problem other than a note was found: the
// gate trips.
func (r *Result) Ungrounded() bool {
	for _, p := range r.Problems {
		if !p.Kind.Note() {
			return true
		}
	}
	return false
}

// Thresholds of the word rules (see weigh): an agent whose best paragraph
// holds at most lowSay of a claim's weight said nothing like it; at least
// saySome, it said it in its own words; a claim some report holds at least
// grounded of is said in the run.
const (
	lowSay   = 0.25
	saySome  = 0.5
	grounded = 0.6
	invented = 0.25
	// plausible: a finding whose block holds this much of a claim's words
	// may be what it states.
	plausible = 0.4
	// stated: a claim whose words a finding's block holds this much of,
	// and clearly more than any other's, states that finding.
	stated = 0.6
	// far: an agent whose report holds less than this share of what the
	// report that says most of a claim holds says little of it.
	far = 0.5
	// silent: an agent whose report holds less than this share of what
	// the report that says most of a claim holds, and of the claim's own
	// words, says nothing of it.
	silent = 0.15
	// maybeSay: an agent whose report holds this much of a claim's words
	// may say it; a count is wrong only beyond those.
	maybeSay = 0.2
	// littleTitle, littleAll: an agent none of whose findings holds this
	// much of a claim's title's weight, nor littleAll of all its words,
	// has not reported it (saysLittle).
	littleTitle = 0.17
	littleAll   = 0.25
	// mayAll: an agent one of whose findings holds this much of a claim's
	// title's weight and of all its words may have reported it: a count
	// is wrong only beyond those.
	mayAll = 0.25
	// mentioned: a line naming an agent states that agent's finding
	// whose block holds this much of the line's words, clearly more than
	// its other findings' blocks.
	mentioned = 0.6
	// strictTitle: an agent one of whose findings holds this much of a
	// claim's title's weight reported it beyond doubt (neighbour).
	strictTitle = 0.75
	// apartShare: two findings whose blocks share less than this of the
	// weight of the smaller's words are about different things
	// (neighbour).
	apartShare = 0.25
	// rareFindings: a word that at most this many findings of the run
	// write names what a claim is about (neighbour).
	rareFindings = 3
	// themeWords: a count that names no agent, over a theme row's title
	// of at most this many words, is not judged by what the
	// reports say: a theme that short is said in other words as often.
	themeWords = 3
)

// candidate is one run finding or improvement with what matching needs.
type candidate struct {
	f      *synth.Finding     // nil for an improvement
	imp    *synth.Improvement // nil for a finding
	titles []parse.Title
	raw    []string // the titles as written
	words  map[string]bool
	folds  map[string]bool // words, folded (sharesFolded)
	tw     []string        // the words of raw (titleWords)
	refs   []synth.Ref
	agents []string
}

func (c *candidate) key() string {
	if c.f != nil {
		return c.f.Key
	}
	return c.imp.Key
}

// run is the run a synthesis is checked against, indexed.
type run struct {
	s     *synth.Synthesis
	cands []candidate
	ids   map[string][]idEntry // upper-cased ID → where
	// findingNo: an ID "Finding 3" of an agent's report, under "F3", the
	// way a synthesis cites it after the agent's label
	// ("(Queue-Health F3)"): found only with that agent (byID).
	findingNo map[string][]idEntry
	agents    *agentIndex
	reports   *corpus
	// blocks holds, per candidate, the words of its titles and of what its
	// agents wrote about it (block).
	blocks *corpus
	// byAgentSev: agent + " " + severity → the findings with such a source.
	byAgentSev map[string][]int
	// files: agent → its report's file name.
	files map[string]string
	// srcs are the agents' own findings and improvements, one per source
	// of a run finding; said holds, per source, the words of its title and
	// of what its agent wrote about it (its block): what that agent said.
	srcs []srcRec
	said *corpus
	// saidFold is said with each word folded (fold): what an agent said,
	// for telling whether a synthesis states one of its blockers.
	saidFold *corpus
	// firstSrc: each agent whose findings can be read → its first source.
	firstSrc map[string]int
	// unread are the agents whose reports fluxwatch could not fully read:
	// their findings are not all they said.
	unread map[string]bool
	// texts are the completed agents' report texts; lineStarts the
	// offsets of their lines, found when first asked (reportLine).
	texts      map[string][]byte
	lineStarts map[string][]int
	// owners: a name from code → the findings whose titles write it
	// (codeOwners).
	owners map[string][]int
	// byKeyword and byNorm index the candidates' titles by keyword and by
	// normalised title (titleCandidates).
	byKeyword, byNorm map[string][]int
	// topic: the words of the review's topic (topicWords).
	topic map[string]bool
	// citedByID: the candidates the synthesis cites by ID (cited).
	citedByID []bool
	// blockerCites: per agent, its blockers cited by ID and all its
	// blockers (blockersCited); nil until asked.
	blockerCites map[string][2]int
	// matches are the claims' matches, in claim order; statedBy: a
	// candidate → the claims (their indices) that match it (m.cands).
	matches []matched
	claims  []Claim
	lines   []int
	claimAt map[int]int // a line → the first claim on it
	// absent are the agents the synthesis names that are no agent of the
	// run (absentAgents): reports it was written from that RUN lacks.
	absent []string
	// zero: the severities the synthesis's tally gives an agent none of
	// (zeroTallies).
	zero map[string]bool
	// srcLines are the synthesis's lines; folded their words, folded
	// (foldedLines), found when first asked.
	srcLines []string
	folded   [][]string
	// rated: agent → its blockers read from a place that rates them
	// (ratedBlockers).
	rated map[string]int
	// named: per synthesis line, the agents and tracks it names
	// (lineAgents); lineIdx the reports' line indexes (blockWords).
	named   [][]string
	lineIdx reportLines
	// sections pools the words of each section of the synthesis that
	// names an agent, sectionAgents the agents each names (sectionStates).
	sections      *corpus
	sectionAgents [][]string
	// over: per claim, those of its m.cands its count leaves out
	// (overCount).
	over     [][]int
	statedBy map[int][]int
	// itemCiters: a candidate → the findings of items that cite it
	// (citedApart), found when first asked.
	itemCiters map[int][]int
	// titleShares: a title → each source's share of its words
	// (srcShare); candSrcs: a candidate → its sources (sourcesOf).
	titleShares map[string][]float64
	candSrcs    map[int][]int
}

// srcRec is one agent's finding (a source of a run finding) or improvement.
type srcRec struct {
	cand  int
	agent string
	id    string
	sev   parse.Severity // "" for an improvement
	ref   string
	title string
	// span is the lines of its report its ref's region covers (from 1,
	// end excluded); {0, 0} when unknown.
	span [2]int
}

// idEntry is one source of a finding with a given ID.
type idEntry struct {
	cand  int
	agent string
}

func newRun(s *synth.Synthesis, reports map[string][]byte) *run {
	r := &run{s: s, ids: map[string][]idEntry{}, findingNo: map[string][]idEntry{}, byAgentSev: map[string][]int{}, files: map[string]string{}, texts: reports, lineStarts: map[string][]int{}}
	r.unread = map[string]bool{}
	for _, a := range s.Agents {
		if a.File != nil {
			r.files[a.Name] = *a.File
		}
		if a.Status == parse.StatusUnreadable {
			r.unread[a.Name] = true
		}
	}
	agentIDs := map[string][]string{}
	for i := range s.Findings {
		f := &s.Findings[i]
		c := candidate{f: f, words: map[string]bool{}, agents: f.Agents}
		c.add(f.Title)
		for _, src := range f.Sources {
			c.add(src.Title)
			if src.ID != "" {
				r.addID(src.ID, len(r.cands), src.Agent)
				agentIDs[src.Agent] = append(agentIDs[src.Agent], src.ID)
			}
			k := src.Agent + " " + string(src.Severity)
			if l := r.byAgentSev[k]; len(l) == 0 || l[len(l)-1] != len(r.cands) {
				r.byAgentSev[k] = append(l, len(r.cands))
			}
		}
		for _, ref := range f.FileRefs {
			c.refs = append(c.refs, synth.ParseRef(ref))
		}
		r.cands = append(r.cands, c)
	}
	for i := range s.Improvements {
		imp := &s.Improvements[i]
		c := candidate{imp: imp, words: map[string]bool{}, agents: imp.Agents}
		c.add(imp.Title)
		if imp.ID != "" {
			for _, a := range imp.Agents {
				r.addID(imp.ID, len(r.cands), a)
			}
		}
		r.cands = append(r.cands, c)
	}
	r.agents = newAgentIndex(s.AgentsCompleted, agentIDs, reports)
	r.reports = paragraphsOf(reports)
	r.blocks = newCorpus()
	r.said = newCorpus()
	r.saidFold = newCorpus()
	r.firstSrc = map[string]int{}
	rl := reportLines{}
	for j := range r.cands {
		cd := &r.cands[j]
		r.blocks.names = append(r.blocks.names, cd.key())
		text := strings.Join(cd.raw, " ")
		if cd.f == nil {
			for _, a := range cd.imp.Agents {
				r.addSource(srcRec{cand: j, agent: a, id: cd.imp.ID, title: cd.imp.Title}, cd.imp.Title)
			}
		} else {
			for _, src := range cd.f.Sources {
				said := src.Title
				var span [2]int
				if _, ok := reports[src.Agent]; ok {
					var b string
					b, span = rl.of(src.Agent, reports).blockSpan(src.Ref, src.ID)
					text += " " + b
					said += " " + b
				}
				r.addSource(srcRec{cand: j, agent: src.Agent, id: src.ID, sev: src.Severity, ref: src.Ref, title: src.Title, span: span}, said)
			}
		}
		r.blocks.add(j, words(text))
	}
	r.numberedIndex(agentIDs)
	return r
}

// indexNoRe reads the number of an item of a numbered findings index:
// "9. F5 inverted return convention …", "**9.** …", "9) …".
var indexNoRe = regexp.MustCompile(`^\s*(?:[-*+]\s+)?\**(\d{1,3})[.)]\**\s`)

// numberedIndex indexes, for an agent whose findings have no ID of their
// own, each finding its index numbers ("9. F5 inverted return convention
// …") as its "Finding 9": a synthesis cites it after the agent's name as
// "F9" ("fd-architecture F9"), as the report's own sections call it
// ("### High-Impact Finding #9: …"). Only when each number is one
// finding's: an index numbered afresh under each group names none.
func (r *run) numberedIndex(agentIDs map[string][]string) {
	byAgent := map[string]map[string][]int{} // agent → "F9" → candidates
	for _, s := range r.srcs {
		if s.id != "" || s.ref == "" || len(agentIDs[s.agent]) > 0 || r.texts[s.agent] == nil {
			continue
		}
		m := indexNoRe.FindStringSubmatch(r.reportLine(s.agent, refLine(s.ref)))
		if m == nil {
			continue
		}
		if byAgent[s.agent] == nil {
			byAgent[s.agent] = map[string][]int{}
		}
		k := "F" + strings.TrimLeft(m[1], "0")
		if !slices.Contains(byAgent[s.agent][k], s.cand) {
			byAgent[s.agent][k] = append(byAgent[s.agent][k], s.cand)
		}
	}
	for _, a := range slices.Sorted(maps.Keys(byAgent)) {
		nos := byAgent[a]
		if slices.ContainsFunc(slices.Collect(maps.Values(nos)), func(js []int) bool { return len(js) > 1 }) {
			continue // numbered afresh: "1." is two findings
		}
		for _, k := range slices.Sorted(maps.Keys(nos)) {
			r.findingNo[k] = append(r.findingNo[k], idEntry{nos[k][0], a})
		}
	}
}

// addSource indexes one source and the words of what its agent said.
func (r *run) addSource(s srcRec, text string) {
	if _, ok := r.firstSrc[s.agent]; !ok && !r.unread[s.agent] {
		r.firstSrc[s.agent] = len(r.srcs)
	}
	r.said.names = append(r.said.names, s.agent)
	r.saidFold.names = r.said.names
	ws := words(text)
	r.said.add(len(r.srcs), ws)
	r.saidFold.add(len(r.srcs), folded(ws))
	r.srcs = append(r.srcs, s)
}

// findingNoRe reads an agent's ID that is its finding's number: "Finding
// 3", "Finding #3".
var findingNoRe = regexp.MustCompile(`^(?i)finding\s*#?\s*(\d{1,3})$`)

// byID returns where an ID a claim cites is: any agent's finding with the
// ID, and for an agent the claim names, its "Finding 3" cited as "F3".
func (r *run) byID(id, agent string) []idEntry {
	k := strings.ToUpper(id)
	es := r.ids[k]
	if agent == "" || slices.ContainsFunc(es, func(e idEntry) bool { return e.agent == agent }) {
		return es
	}
	var out []idEntry
	for _, e := range r.findingNo[k] {
		if e.agent == agent {
			out = append(out, e)
		}
	}
	if len(out) > 0 {
		return out // F3 of fd-a, whose "Finding 3" it is, not fd-b's ID F3
	}
	return es
}

func (r *run) addID(id string, cand int, agent string) {
	if m := findingNoRe.FindStringSubmatch(strings.TrimSpace(id)); m != nil {
		k := "F" + strings.TrimLeft(m[1], "0")
		r.findingNo[k] = append(r.findingNo[k], idEntry{cand, agent})
	}
	for _, x := range expandID(id) {
		k := strings.ToUpper(x)
		r.ids[k] = append(r.ids[k], idEntry{cand, agent})
	}
}

func (c *candidate) add(title string) {
	t := parse.NewTitle(title)
	for i := range c.titles {
		if c.titles[i].Norm() == t.Norm() {
			return
		}
	}
	c.titles = append(c.titles, t)
	c.raw = append(c.raw, title)
	for _, w := range words(title) {
		c.words[w] = true
	}
}

// titleWords returns the words of a candidate's titles (words), once.
func (c *candidate) titleWords() []string {
	if c.tw == nil {
		c.tw = words(strings.Join(c.raw, " "))
	}
	return c.tw
}

// sharesFolded counts the words of ws a candidate's titles hold, words
// compared folded (fold).
func (c *candidate) sharesFolded(ws []string) int {
	if c.folds == nil {
		c.folds = map[string]bool{}
		for w := range c.words {
			c.folds[fold(w)] = true
		}
	}
	n := 0
	for _, w := range folded(ws) {
		if c.folds[w] {
			n++
		}
	}
	return n
}

// shares counts the words of ws a candidate's titles hold.
func (c *candidate) shares(ws []string) int {
	n := 0
	for _, w := range ws {
		if c.words[w] {
			n++
		}
	}
	return n
}

// Check verifies a synthesis against the run (see the package documentation
// for the rules). It is pure and deterministic.
func Check(in Input) *Result {
	if in.Run == nil {
		in.Run = &synth.Synthesis{}
	}
	return checkWith(newRun(in.Run, in.Reports), in.Synthesis)
}

// withProse adds to the claims the list items that name, in their prose,
// two agents of the run or more (reader.proseItem): a claim of those
// agents. Words that resolve to no agent ("first-contact") are dropped.
func (r *run) withProse(claims []Claim, prose []proseClaim) []Claim {
	added := false
	for _, p := range prose {
		c := p.c
		var names, agents []string
		for _, n := range c.Agents {
			if a, ok := r.agents.resolve(n); ok && !slices.Contains(agents, a) {
				names, agents = append(names, n), append(agents, a)
			}
		}
		if len(agents) < p.min {
			continue
		}
		c.Agents, c.prose = names, true
		for _, n := range names {
			if !slices.ContainsFunc(c.attrib, func(a attribution) bool { return a.label == n }) {
				c.attrib = append(c.attrib, attribution{label: n})
			}
		}
		claims, added = append(claims, c), true
	}
	if added {
		slices.SortStableFunc(claims, func(a, b Claim) int { return a.Line - b.Line })
	}
	return claims
}

// checkWith verifies a synthesis against an indexed run.
func checkWith(r *run, src []byte) *Result {
	in := Input{Synthesis: src}
	claims, prose := claimsAndProse(in.Synthesis)
	claims = r.trackCounts(claims)
	res := &Result{Claims: r.withProse(claims, prose), Tally: map[Kind]int{}}
	for _, k := range Kinds {
		res.Tally[k] = 0
	}
	if keep, why := r.ownRun(in.Synthesis, res.Claims); keep != nil {
		// A directory of several runs: the synthesis is judged against
		// its own run alone, whose findings and IDs are the only ones it
		// can state or cite (another run's F1 is not its F1).
		res.Run = fmt.Sprintf("RUN holds %d completed agents; the synthesis was written from %d (%s): judged against %s only",
			len(r.s.AgentsCompleted), len(keep), why, strings.Join(sortedKeys(keep), ", "))
		r = newRun(restrictRun(r.s, keep), restrictReports(r.texts, keep))
		res.Claims = r.withProse(claims, prose)
	} else {
		res.Run = r.untold(in.Synthesis, res.Claims)
	}
	r.absent = r.absentAgents(in.Synthesis)
	present := make([]bool, len(r.cands))
	covers := r.covered(in.Synthesis, res.Claims)
	// Every claim is matched before any is judged: whether an agent was
	// credited for a neighbouring finding depends on what the other
	// claims state (apart).
	ms := make([]matched, len(res.Claims))
	r.statedBy, r.lines = map[int][]int{}, make([]int, len(res.Claims))
	r.over = make([][]int, len(res.Claims))
	first := map[int]int{} // a line → the first claim on it
	for i := range res.Claims {
		c := &res.Claims[i]
		if _, ok := first[c.Line]; !ok {
			first[c.Line] = i
		}
		var m matched
		if k, ok := first[c.restates]; c.restates > 0 && ok && k < i {
			// A line stating the count of the finding above: it says
			// what the finding says.
			m = ms[k]
		} else {
			m = r.match(c)
		}
		over := r.overCount(c, m)
		r.over[i] = over
		for _, j := range m.cands {
			if slices.Contains(over, j) {
				trace(j, "claim %d ties it by its title only, beyond the agents it counts", c.Line)
			} else {
				present[j] = true
				trace(j, "claim %d matches it", c.Line)
			}
			r.statedBy[j] = append(r.statedBy[j], i)
		}
		for _, j := range m.weak {
			present[j] = true
			trace(j, "claim %d states it in other words", c.Line)
		}
		ms[i], r.lines[i] = m, c.Line
	}
	r.matches, r.claims = ms, res.Claims
	r.claimAt = map[int]int{}
	for i := len(r.lines) - 1; i >= 0; i-- {
		r.claimAt[r.lines[i]] = i
	}
	judged := make([][]Problem, len(res.Claims))
	for i := range res.Claims {
		c := &res.Claims[i]
		m := ms[i]
		ps := r.judge(c, m)
		judged[i] = ps
		if debugClaim != nil {
			debugClaim(r, c, m, ps)
		}
		if len(ps) == 0 || allNotes(ps) && !hasKind(ps, Unverifiable) {
			res.Grounded++
		}
		for _, p := range ps {
			p.Line, p.Claim = c.Line, c.Title
			if len(m.cands) > 0 && p.Finding == "" {
				p.Finding = r.cands[m.cands[0]].key()
			}
			res.Problems = append(res.Problems, p)
		}
	}
	res.Problems = append(res.Problems, judgeHeads(res.Claims, ms, judged)...)
	r.cited(in.Synthesis, present)
	r.countedFixes(present)
	r.identified(in.Synthesis, present)
	lines := synthesisLines(in.Synthesis)
	r.srcLines = strings.Split(string(in.Synthesis), "\n")
	fixed := r.fixedSections()
	for j := range r.cands {
		cd := &r.cands[j]
		f := cd.f
		if present[j] || f == nil || f.Severity.Rank() > 1 || r.restated(j, lines) || r.sectionStates(j) || len(words(f.Title)) < 2 || resolvedTitle(f.Title) {
			// A title of one word ("Rank #1") is more likely a misread
			// line than a finding: too little to say whether it appears.
			continue
		}
		if covers != nil && !slices.ContainsFunc(f.Agents, func(a string) bool { return covers[a] }) {
			continue // another run's agent
		}
		if slices.ContainsFunc(f.Sources, func(s synth.Source) bool { return fixed[s.Agent+"\x00"+s.Section] }) {
			continue // its fix is cited in its place
		}
		if k := r.restatedBy(j, present); k >= 0 {
			if debugRestate != nil {
				debugRestate(j, k)
			}
			continue
		}
		p := Problem{
			Kind:    MissingBlocker,
			Message: fmt.Sprintf("the run's %s %s (%s; %s agents) is neither cited by ID nor stated anywhere in the synthesis", f.Severity, label(f), sourceRefs(f, 3), f.ConvergenceDisplay),
			Finding: f.Key,
		}
		for _, a := range f.Agents {
			if r.zero[a+"\x00"+string(f.Severity)] {
				p.Message += fmt.Sprintf("; its tally gives %s no %s", a, f.Severity)
				break
			}
		}
		if r.proseOnly(f) && !r.siblingsCited(j) && !r.gatedIndexless(j) {
			// Read from prose (SPEC 2.3, confidence low): a line its
			// report restates a finding with, or one that labels a list,
			// reads as a finding as well as the finding does. Worth a
			// look, not a gate.
			p.Kind = Unverifiable
			p.Message += "; its report has no findings index, and what fluxwatch read as this finding may be a line restating another"
		}
		res.Problems = append(res.Problems, p)
	}
	sort.SliceStable(res.Problems, func(a, b int) bool {
		pa, pb := res.Problems[a], res.Problems[b]
		if pa.Line != pb.Line {
			return pa.Line < pb.Line
		}
		return kindRank(pa.Kind) < kindRank(pb.Kind)
	})
	for _, p := range res.Problems {
		res.Tally[p.Kind]++
	}
	return res
}

// trackCounts keeps the counts of tracks ("(3/4 tracks)") as counts of
// agents when the run's agents are the tracks: as many completed agents as
// the count is against. In a run of several agents per track a track is
// not an agent: the count is dropped, and a claim that was one only by
// that count with it.
func (r *run) trackCounts(claims []Claim) []Claim {
	out := claims[:0]
	for _, c := range claims {
		if c.tracks && c.Of != len(r.s.AgentsCompleted) {
			restated := c.countLine > 0
			c.Count, c.Of, c.tracks, c.countLine = 0, 0, false, 0
			if !restated && c.Severity == "" && len(c.attrib) == 0 && len(c.Agents) == 0 {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// overCount returns the findings a claim is tied to by the title rule
// alone (m.titled: matches as good as each other) that the number of
// agents it says said it leaves out. A claim that says "1/5 agents", tied
// to two agents' findings whose titles it matches alike, states the one
// whose title holds more of its words, not both: the other is not present
// in the synthesis by it. Nil when the claim gives no count, or its count
// leaves none out.
func (r *run) overCount(c *Claim, m matched) []int {
	if c.Count == 0 || len(m.titled) < 2 {
		return nil
	}
	agents := map[string]bool{} // of the findings it is tied to otherwise
	for _, j := range m.cands {
		if !slices.Contains(m.titled, j) {
			for _, a := range r.cands[j].agents {
				agents[a] = true
			}
		}
	}
	all := words(c.Title + " " + withoutAttribution(c.Text) + " " + c.body)
	titled := slices.Clone(m.titled)
	slices.SortStableFunc(titled, func(a, b int) int { return r.cands[b].shares(all) - r.cands[a].shares(all) })
	var out []int
	for _, j := range titled {
		if len(agents) >= c.Count && slices.ContainsFunc(r.cands[j].agents, func(a string) bool { return !agents[a] }) {
			out = append(out, j)
			continue
		}
		for _, a := range r.cands[j].agents {
			agents[a] = true
		}
	}
	return out
}

// judgeHeads judges the count of each heading over a "who said what"
// table or list (countHead): "Two agents converged on …" over a row per
// agent. The rows are the synthesis's own evidence for the count: an
// agent whose row was judged a wrong count (its report does not say what
// the row gives it) does not bear it out, and a count above the agents
// left is wrong. Rows that are not one agent each, each a different one,
// are findings under a heading, not who said what: no judgement.
func judgeHeads(claims []Claim, ms []matched, judged [][]Problem) []Problem {
	var out []Problem
	for i := 0; i < len(claims); {
		h := claims[i].head
		if h == nil {
			i++
			continue
		}
		var agents, bad []string
		var badLine []string
		who := true
		k := i
		for ; k < len(claims) && claims[k].head == h; k++ {
			m := ms[k]
			if len(m.named) != 1 || slices.Contains(agents, m.named[0]) {
				who = false
				continue
			}
			a := m.named[0]
			agents = append(agents, a)
			if hasKind(judged[k], WrongCount) {
				bad = append(bad, a)
				badLine = append(badLine, fmt.Sprintf("%s (line %d)", a, claims[k].Line))
			}
		}
		i = k
		if !who || len(bad) == 0 || h.n <= len(agents)-len(bad) {
			continue
		}
		if at := slices.IndexFunc(claims, func(c Claim) bool { return c.Line == h.line && c.head == nil }); at >= 0 && hasKind(judged[at], WrongCount) {
			// The heading is a claim of its own count ("### Convergence
			// 5/7: …"), already found wrong: flagged once.
			continue
		}
		left := slices.DeleteFunc(slices.Clone(agents), func(a string) bool { return slices.Contains(bad, a) })
		says := "its row for %s gives that agent what its report does not say"
		if len(bad) > 1 {
			says = "its rows for %s give those agents what their reports do not say"
		}
		out = append(out, Problem{
			Line: h.line, Kind: WrongCount, Claim: h.title,
			Message: fmt.Sprintf("claims %d agents; "+says+": %d at most (%s)",
				h.n, strings.Join(badLine, ", "), len(left), strings.Join(left, ", ")),
		})
	}
	return out
}

// resolvedTitle reports whether a finding's title opens with a mark that
// it is resolved ("FIXED — ships with Wave 1", "Resolved: …"): a prior
// finding a re-review lists as done, which no synthesis need repeat. The
// mark is resolvedMark's, the one a synthesis's table row is read by.
func resolvedTitle(title string) bool {
	head, _, ok := strings.Cut(strings.NewReplacer("—", "\x00", "–", "\x00", ":", "\x00", " - ", "\x00", "(", "\x00").Replace(title), "\x00")
	return ok && resolvedMark(head)
}

func allNotes(ps []Problem) bool {
	for _, p := range ps {
		if !p.Kind.Note() {
			return false
		}
	}
	return true
}

func hasKind(ps []Problem, k Kind) bool {
	for _, p := range ps {
		if p.Kind == k {
			return true
		}
	}
	return false
}

func kindRank(k Kind) int {
	for i, x := range Kinds {
		if x == k {
			return i
		}
	}
	return len(Kinds)
}

func label(f *synth.Finding) string {
	if f.ID != "" {
		return f.ID + " " + quote(f.Title)
	}
	return quote(f.Title)
}

func quote(s string) string { return "\u201c" + s + "\u201d" }

// sourceRefs lists where the agents wrote a finding ("fd-a.md:12"), at
// most n.
func sourceRefs(f *synth.Finding, n int) string {
	var parts []string
	for _, s := range f.Sources {
		if len(parts) == n {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, s.Ref)
	}
	return strings.Join(parts, ", ")
}

// matched is what a claim was matched to.
type matched struct {
	cands []int // the findings (and improvements) it states, best first
	// titled are those of cands the title rule alone tied it to.
	titled []int
	// mismatch are the IDs the claim gives an agent that another agent
	// reported.
	mismatch []idMismatch
	// unwritten are the IDs the claim gives an agent whose report never
	// writes them ("user-advocate Q5" where no report has a Q5).
	unwritten []idMismatch
	// named are the agents the claim names, resolved.
	named []string
	// citers are the agents of the findings it cites by ID: like the
	// agents it names, they say who it holds reported it.
	citers []string
	// cited are the findings (and improvements) it cites by ID.
	cited []int
	// weak are the findings whose blocks hold the claim's words: what it
	// states in other words (never judged for severity).
	weak []int
	// coded are those of weak whose titles write a name from code the
	// claim writes: their agents said it.
	coded []int
	// namedWeak are those of weak tied to it only because their agent is
	// named (a finding holding 40% of its words): the credit judged.
	namedWeak []int
	// namedTitle are those of cands tied to it only because their agent
	// is named and their title holds half of its title's words.
	namedTitle []int
	// blockScores are the candidates whose blocks hold at least littleAll
	// of the claim's words, ascending, with their scores (the others
	// bear on no rule; kept sparse, as every claim's match is kept).
	blockScores []blockScore
	// scores are the agents' word scores for the claim (weigh), with the
	// paragraph of each; best the highest.
	scores []float64
	where  []int
	held   []int // words of the claim the paragraph of each holds
	best   float64
	// said is, per agent with findings of its own, how much of the claim
	// they say (findingSay); titleWords counts the words of its title.
	said       map[string]findingSay
	titleWords int
}

// blockScore is one candidate's block score for a claim.
type blockScore struct {
	j int
	v float64
}

// findingSay is how much of a claim an agent's own findings and
// improvements say: the best of them on the claim's title words, and on
// all its words (weighted as weigh does, over the agents' findings).
type findingSay struct {
	title, all float64
	src        int // the source that holds most of all its words
}

// idMismatch is an ID a claim attributes to an agent that did not report
// it, while another did.
type idMismatch struct {
	agent, id string
	holders   []idEntry
}

// match finds what a claim states: the findings it cites by ID (a cited ID
// that exists settles it), those an agent it names rates at the severity it
// gives, those whose titles match its title by the title rule, those
// sharing a file:line and a word, and, for an agent it names, that agent's
// finding its words best fit.
func (r *run) match(c *Claim) matched {
	var m matched
	add := func(j int) {
		if !slices.Contains(m.cands, j) {
			m.cands = append(m.cands, j)
		}
	}
	for _, l := range c.Agents {
		if a, ok := r.agents.resolve(l); ok && !slices.Contains(m.named, a) {
			m.named = append(m.named, a)
		}
	}
	tw := words(c.Title)
	all := words(c.Title + " " + withoutAttribution(c.Text) + " " + c.body)
	// Cited IDs.
	for _, at := range c.attrib {
		agent, resolved := "", false
		if at.label != "" {
			agent, resolved = r.agents.resolve(at.label)
		}
		for _, id := range at.ids {
			es := r.byID(id, agent)
			if len(es) == 0 {
				if resolved && adjacentID(c.Text, at.label, id) && r.unwritten(agent, id) {
					m.unwritten = append(m.unwritten, idMismatch{agent: agent, id: id})
				}
				continue
			}
			var keep []idEntry
			switch {
			case resolved:
				for _, e := range es {
					if e.agent == agent {
						keep = append(keep, e)
					}
				}
				if len(keep) == 0 {
					m.mismatch = append(m.mismatch, idMismatch{agent, id, es})
					continue
				}
			case len(m.named) > 0 && at.label == "":
				for _, e := range es {
					if slices.Contains(m.named, e.agent) {
						keep = append(keep, e)
					}
				}
				if len(keep) == 0 && distinct(es) == 1 {
					if at.lead && len(m.named) == 1 && r.titleMatches(c.Title, es[0].cand) {
						// "**D-06: Title** (fd-quality)" where fd-decisions
						// reported D-06: the ID given to the wrong agent.
						m.mismatch = append(m.mismatch, idMismatch{m.named[0], id, es})
					}
					if !at.lead || len(m.mismatch) > 0 {
						keep = es
					}
				}
			default:
				keep = es
			}
			if d := distinct(keep); (at.lead && !(resolved && len(keep) > 0)) || d > 1 {
				// The synthesis's own numbering can look like an agent's
				// ID (P1-2 is one of several agents' IDs): the title must
				// agree, more so when several findings have the ID.
				var agree []idEntry
				for _, e := range keep {
					if n := r.cands[e.cand].shares(all); (d == 1 && n > 0) || (d > 1 && 2*r.cands[e.cand].shares(tw) >= max(len(tw), 3)) {
						agree = append(agree, e)
					}
				}
				keep = agree
			}
			for _, e := range keep {
				add(e.cand)
				if !slices.Contains(m.cited, e.cand) {
					m.cited = append(m.cited, e.cand)
				}
				if !slices.Contains(m.citers, e.agent) {
					m.citers = append(m.citers, e.agent)
				}
			}
		}
		// An agent named with a severity ("fd-a (P0)") and no ID: its finding
		// of that severity the claim's words fit.
		if resolved && at.sev != "" && len(at.ids) == 0 {
			bestJ, bestN := -1, 0
			for _, j := range r.byAgentSev[agent+" "+string(at.sev)] {
				if n := r.cands[j].shares(all); n > bestN {
					bestJ, bestN = j, n
				}
			}
			if bestJ >= 0 {
				add(bestJ)
			}
		}
	}
	// The title rule: the findings whose titles match the claim's and
	// share most keywords with it; then a shared file:line and word.
	ct := parse.NewTitle(c.Title)
	var refs []synth.Ref
	for _, ref := range c.FileRefs {
		refs = append(refs, synth.ParseRef(ref))
	}
	var byTitle []int
	bestShared := -1
	for _, j := range r.titleCandidates(&ct) {
		cd := &r.cands[j]
		shared := -1
		for i := range cd.titles {
			if ct.Matches(&cd.titles[i]) {
				shared = max(shared, overlap(ct.Keywords(), cd.titles[i].Keywords()))
			}
		}
		switch {
		case shared > bestShared:
			byTitle, bestShared = []int{j}, shared
		case shared == bestShared && shared >= 0:
			byTitle = append(byTitle, j)
		}
	}
	if len(refs) > 0 {
		for j := range r.cands {
			if cd := &r.cands[j]; cd.shares(tw) > 0 && refsOverlap(refs, cd.refs) {
				add(j)
			}
		}
	}
	if bestShared >= 0 {
		for _, j := range byTitle {
			if !slices.Contains(m.cands, j) {
				m.titled = append(m.titled, j)
			}
			add(j)
		}
	}
	// An agent it names that none of these is from: that agent's finding
	// its words fit best, when they fit at least half of the title's words.
	if len(tw) > 0 {
		for _, a := range m.named {
			if r.covers(m.cands, a) {
				continue
			}
			bestJ, bestN := -1, 0
			for j := range r.cands {
				if !slices.Contains(r.cands[j].agents, a) {
					continue
				}
				if n := r.cands[j].shares(tw); n > bestN {
					bestJ, bestN = j, n
				}
			}
			if bestJ >= 0 && 2*bestN >= len(tw) && (bestN >= 2 || len(tw) <= 2) {
				if !slices.Contains(m.cands, bestJ) {
					m.namedTitle = append(m.namedTitle, bestJ)
				}
				add(bestJ)
			}
		}
	}
	// What it states in other words: the one finding whose block holds
	// most of its words, clearly more than any other.
	bs, _, _ := r.blocks.weigh(all)
	for j, v := range bs {
		if v >= littleAll {
			m.blockScores = append(m.blockScores, blockScore{j, v})
		}
	}
	if len(all) >= 3 {
		bestJ, best, second := -1, 0.0, 0.0
		for j, v := range bs {
			if r.cands[j].f == nil {
				continue // an improvement's block is only its title
			}
			switch {
			case v > best:
				bestJ, best, second = j, v, best
			case v > second:
				second = v
			}
		}
		if bestJ >= 0 && best >= stated && best >= 1.25*second && !slices.Contains(m.cands, bestJ) {
			m.weak = append(m.weak, bestJ)
		}
	}
	// A name from the code the claim writes ("AgentNotFoundMsg is
	// silently dropped") that the titles of a few findings write, and no
	// more: it states those findings (two defects rarely share an
	// identifier), for who said it, not for its severity.
	for _, id := range codeNames(c.Title + " " + c.Text) {
		if js := r.codeOwners()[id]; len(js) > 0 && len(js) <= maxCodeOwners {
			for _, j := range js {
				if !slices.Contains(m.cands, j) && !slices.Contains(m.weak, j) {
					m.weak = append(m.weak, j)
				}
				m.coded = append(m.coded, j)
			}
		}
	}
	// An agent it names that none of these is from, whose finding's block
	// holds much of its words, clearly more than its other findings'.
	for _, a := range m.named {
		if r.covers(append(slices.Clone(m.cands), m.weak...), a) {
			continue
		}
		bestJ, best, second := -1, 0.0, 0.0
		for j, v := range bs {
			if cd := &r.cands[j]; cd.f == nil || !slices.Contains(cd.agents, a) {
				continue
			}
			switch {
			case v > best:
				bestJ, best, second = j, v, best
			case v > second:
				second = v
			}
		}
		if bestJ >= 0 && best >= plausible && best >= 1.2*second {
			m.weak = append(m.weak, bestJ)
			m.namedWeak = append(m.namedWeak, bestJ)
		}
	}
	m.said, m.titleWords = r.findingsSay(tw, all), len(tw)
	// Each agent's report scored on the claim's title alone and with what
	// it says besides: the better of the two.
	m.scores, m.where, m.held, m.best = r.reports.weighN(all)
	t, w, h, b := r.reports.weighN(tw)
	for i := range m.scores {
		if t[i] > m.scores[i] {
			m.scores[i], m.where[i], m.held[i] = t[i], w[i], h[i]
		}
	}
	m.best = max(m.best, b)
	// A paragraph that holds one word of a claim of several says nothing
	// of it ("needs-changes" and "change").
	if len(tw) >= 3 {
		for i := range m.scores {
			if m.held[i] < 2 {
				m.scores[i] = 0
			}
		}
		m.best = slices.Max(append(slices.Clone(m.scores), 0))
	}
	return m
}

// findingsSay scores, per agent whose findings can be read (a report
// fluxwatch could not fully read is left out), how much of a claim its
// findings say.
func (r *run) findingsSay(tw, all []string) map[string]findingSay {
	out := make(map[string]findingSay, len(r.firstSrc))
	for a, k := range r.firstSrc {
		out[a] = findingSay{src: k}
	}
	// A paragraph of r.said is one source: its index is the source's.
	r.said.weighEach(all, func(k int, v float64, _ int) {
		if fs, ok := out[r.srcs[k].agent]; ok && v > fs.all {
			fs.all, fs.src = v, k
			out[r.srcs[k].agent] = fs
		}
	})
	r.said.weighEach(tw, func(k int, v float64, _ int) {
		if fs, ok := out[r.srcs[k].agent]; ok && v > fs.title {
			fs.title = v
			out[r.srcs[k].agent] = fs
		}
	})
	return out
}

// mayRate reports whether agent a, named by a claim and tied to none of
// the findings it matched, may have rated it as high as the claim does in
// a finding the rules did not tie: a finding of its, rated rank or above,
// whose block holds half of the claim's title's weight or 40% of all its
// words, or the one of its findings nearest the claim, holding most of
// its title's weight, when that one holds a sixth of it: what the agent
// wrote nearest the claim carries its rating. Nearest by all the claim's
// words instead, a P0 on another defect, nearest by words, held up
// a raised P0. An agent whose findings rated
// that high say nothing of it (or that has none) rates it no higher than
// the findings matched, and the severity is judged on those. An agent
// whose findings fluxwatch could not read may have.
func (r *run) mayRate(a string, c *Claim, rank int) bool {
	if _, ok := r.firstSrc[a]; !ok {
		return true
	}
	tw := words(c.Title)
	all := words(c.Title + " " + withoutAttribution(c.Text) + " " + c.body)
	title := map[int]float64{}
	r.said.weighEach(tw, func(k int, v float64, _ int) { title[k] = v })
	high := func(k int) bool { s := r.srcs[k]; return s.agent == a && s.sev != "" && s.sev.Rank() <= rank }
	may := false
	r.said.weighEach(all, func(k int, v float64, _ int) {
		if high(k) && (title[k] >= saySome || v >= plausible) {
			may = true
		}
	})
	bestT := -1 // its source holding most of the claim's title
	for k, v := range title {
		if r.srcs[k].agent != a {
			continue
		}
		if high(k) && v >= saySome {
			may = true
		}
		if v >= littleTitle && (bestT < 0 || v > title[bestT] || v == title[bestT] && k < bestT) {
			bestT = k
		}
	}
	// What the agent wrote nearest the claim carries its rating.
	return may || bestT >= 0 && high(bestT)
}

// saysLittle reports whether an agent's findings say too little of a claim
// to have reported it: none holds a word of its title (of two words or
// more), or none holds a sixth of its title's weight nor a quarter of all
// its words.
func saysLittle(fs findingSay, titleWords int) bool {
	return (fs.title == 0 && titleWords >= 2) || (fs.title < littleTitle && fs.all < littleAll)
}

// agentsOf returns the distinct agents of some candidates.
func (r *run) agentsOf(cands []int) []string {
	var out []string
	for _, j := range cands {
		for _, a := range r.cands[j].agents {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// titleCandidates returns, ascending, the findings and improvements a
// title may match by the title rule: those whose titles share a keyword
// with it or equal it. Trying every claim against every finding made
// 2,000 claims against 2,000 findings take 18 s, nearly all of it in the
// rule's edit distance; a title that shares no keyword with another
// matches it only when every one of its words is misspelt, which the
// rule's distance bound almost never allows. A title with no keyword is
// tried against all.
func (r *run) titleCandidates(ct *parse.Title) []int {
	if r.byKeyword == nil {
		r.byKeyword, r.byNorm = map[string][]int{}, map[string][]int{}
		for j := range r.cands {
			for i := range r.cands[j].titles {
				t := &r.cands[j].titles[i]
				r.byNorm[t.Norm()] = appendOnce(r.byNorm[t.Norm()], j)
				for _, k := range t.Keywords() {
					r.byKeyword[k] = appendOnce(r.byKeyword[k], j)
				}
			}
		}
	}
	kws := ct.Keywords()
	if len(kws) == 0 {
		all := make([]int, len(r.cands))
		for j := range all {
			all[j] = j
		}
		return all
	}
	var out []int
	for _, j := range r.byNorm[ct.Norm()] {
		out = append(out, j)
	}
	for _, k := range kws {
		out = append(out, r.byKeyword[k]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// appendOnce appends j unless it is already last.
func appendOnce(l []int, j int) []int {
	if len(l) > 0 && l[len(l)-1] == j {
		return l
	}
	return append(l, j)
}

// titleMatches reports whether a title matches a candidate's by the title
// rule.
func (r *run) titleMatches(title string, j int) bool {
	t := parse.NewTitle(title)
	for i := range r.cands[j].titles {
		if t.Matches(&r.cands[j].titles[i]) {
			return true
		}
	}
	return false
}

// covers reports whether some of the candidates are from agent a.
func (r *run) covers(cands []int, a string) bool {
	for _, j := range cands {
		if slices.Contains(r.cands[j].agents, a) {
			return true
		}
	}
	return false
}

// attributionRe matches what a claim's text says of who reported it: a
// parenthesised count or list of agents ("(2/3 agents: a, b)", "(fd-a,
// fd-b)"), or a "flagged by …" tail.
var attributionRe = regexp.MustCompile(`\([^()]*(?:\bagents?\b|\b[a-z][a-z0-9]*-[a-z0-9-]+)[^()]*\)|(?i)\b(?:flagged|found|raised|reported|confirmed)\s+by\b.*$`)

// withoutAttribution returns a claim's text less its attributions: the
// names of agents are not what it says.
func withoutAttribution(t string) string {
	return attributionRe.ReplaceAllString(t, " ")
}

// overlap counts the words of a that b holds.
func overlap(a, b []string) int {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return n
}

// distinct counts the different findings of some ID entries.
func distinct(es []idEntry) int {
	var seen []int
	for _, e := range es {
		if !slices.Contains(seen, e.cand) {
			seen = append(seen, e.cand)
		}
	}
	return len(seen)
}

// refsOverlap reports whether a claim's refs and a finding's share a file
// (by base name: syntheses shorten paths) with overlapping lines.
func refsOverlap(a, b []synth.Ref) bool {
	for _, x := range a {
		for _, y := range b {
			if path.Base(x.Path) != path.Base(y.Path) || x.Start == 0 || y.Start == 0 {
				continue
			}
			if x.Start <= y.End && y.Start <= x.End {
				return true
			}
		}
	}
	return false
}

// judge returns a claim's problems: its severity against the agents', the
// agents it names and counts against those that said it, and, when it
// matches nothing, whether any agent said it at all.
func (r *run) judge(c *Claim, m matched) []Problem {
	var ps []Problem
	if len(m.cands) == 0 && len(m.weak) == 0 {
		if p, ok := r.unquoted(c, m); ok {
			return []Problem{p}
		}
		if c.prose {
			// An item that names its agents only in its prose is held to
			// who said what it states, never called invented: its words
			// are as often a recommendation or a conflict as a finding.
			return []Problem{{Kind: Unverifiable, Message: "no finding of the run matches it"}}
		}
		ps = r.unmatched(c, m)
		if c.Count > 1 && ps[0].Kind == Unverifiable {
			// Tied to no finding, but said in the reports: the count it
			// claims is still held to the agents whose reports say it.
			if p, ok := r.agentsAndCount(c, m); ok {
				ps = []Problem{p}
			}
		}
		return ps
	}
	if p, ok := r.severity(c, m); ok {
		ps = append(ps, p)
	}
	if c.under != "" {
		if p, ok := r.itemCredits(c, m); ok {
			ps = append(ps, p)
		}
	}
	if c.items > 0 && c.Count > 0 && c.countLine == 0 {
		if p, ok := r.itemsCount(c, m); ok {
			ps = append(ps, p)
		}
		return ps
	}
	if p, ok := r.agentsAndCount(c, m); ok {
		ps = append(ps, p)
	}
	return ps
}

// itemsCount judges the count of a finding whose items cite the IDs that
// bear it out ("**F1. Title**" over "- Track A: NET-1 (P1), QUEUE-1 (P1)"
// and "- Convergence: 3/4 agents"), on the line that restates it or a
// row citing the finding's own ID ("| F1 | … | 3/4 |"): the synthesis's
// own evidence for it. A cited ID settles which finding it means, not
// that the finding says this: one the synthesis cites under another such
// finding too, whose title holds more of that one's title and little of
// this one's (less than littleTitle of its weight), is the other
// finding's defect, and its agent bears this count out only by another
// finding cited here. A count above the agents left is wrong. Words
// alone never discount a cited finding: syntheses group findings that
// share none of their words ("no backoff" under "retry storms after
// a regional failover").
func (r *run) itemsCount(c *Claim, m matched) (Problem, bool) {
	var agents, off []string
	var offNote []string
	r.eachCited(m, c.Title, c.items, func(a, apart string) {
		switch {
		case apart != "" && !slices.Contains(off, a):
			off = append(off, a)
			offNote = append(offNote, apart)
		case apart == "" && !slices.Contains(agents, a):
			agents = append(agents, a)
		}
	})
	off = slices.DeleteFunc(off, func(a string) bool { return slices.Contains(agents, a) })
	if c.Count <= len(agents) {
		return Problem{}, false
	}
	msg := fmt.Sprintf("claims %d agents; the IDs its items cite are of %d", c.Count, len(agents)+len(off))
	if len(off) > 0 {
		msg += fmt.Sprintf(", and %s: %d at most", strings.Join(offNote, ", "), len(agents))
	}
	return Problem{Kind: WrongCount, Message: msg}, true
}

// itemCredits judges an item citing IDs under a finding of items
// ("- Track C: NET-2 (P1), CACHE-2 (P2)" under "**F2. …**"): an ID whose
// finding the synthesis cites under another finding of items as that
// one's defect (citedApart) is credited to this one wrongly.
func (r *run) itemCredits(c *Claim, m matched) (Problem, bool) {
	var wrong []string
	r.eachCited(m, c.under, c.items, func(a, apart string) {
		if apart != "" {
			wrong = append(wrong, apart)
		}
	})
	if len(wrong) == 0 {
		return Problem{}, false
	}
	return Problem{Kind: WrongCount, Message: fmt.Sprintf("cites for %s what is not its defect: %s", quote(c.under), strings.Join(wrong, ", "))}, true
}

// eachCited calls f for each agent of each finding the claim cites that
// is among its citers, with apart saying, when citedApart finds the
// finding another finding of items' defect, whose and where
// ("fd-a NET-2 is the defect of line 40 (…)"); else apart is "".
func (r *run) eachCited(m matched, title string, items int, f func(a, apart string)) {
	for _, j := range m.cited {
		for _, a := range r.cands[j].agents {
			if !slices.Contains(m.citers, a) {
				continue
			}
			apart := ""
			if other, line := r.citedApart(title, items, j, a); line > 0 {
				apart = fmt.Sprintf("%s is the defect of line %d (%s)", r.citedLabel(j, a), line, quote(other))
			}
			f(a, apart)
		}
	}
}

// citedApart reports whether candidate j, cited for agent a under the
// finding of items (a line) titled title, is cited by another finding of
// items whose title holds more of j's agent's words than this one's does,
// while this one's holds little of them: the synthesis states it as that
// finding's defect. It returns that finding's title and line.
func (r *run) citedApart(title string, items, j int, a string) (string, int) {
	here := r.srcShare(j, a, title)
	if here >= littleTitle {
		return "", 0
	}
	if r.itemCiters == nil {
		r.itemCiters = map[int][]int{}
		for i, o := range r.claims {
			if o.items > 0 && o.Line == o.items {
				for _, k := range r.matches[i].cited {
					r.itemCiters[k] = append(r.itemCiters[k], i)
				}
			}
		}
	}
	for _, i := range r.itemCiters[j] {
		if o := &r.claims[i]; o.items != items && r.srcShare(j, a, o.Title) > here {
			return o.Title, o.Line
		}
	}
	return "", 0
}

// srcShare is the share of the weight of a title's words that agent a's
// source of candidate j holds, in its title and block. The shares of every
// source are weighed once per title (titleShares).
func (r *run) srcShare(j int, a string, title string) float64 {
	if r.titleShares == nil {
		r.titleShares = map[string][]float64{}
	}
	shares, ok := r.titleShares[title]
	if !ok {
		shares = make([]float64, len(r.srcs))
		r.said.weighEach(words(title), func(k int, v float64, _ int) { shares[k] = max(shares[k], v) })
		r.titleShares[title] = shares
	}
	best := 0.0
	for _, k := range r.sourcesOf(j) {
		if r.srcs[k].agent == a {
			best = max(best, shares[k])
		}
	}
	return best
}

// sourcesOf returns the sources (indices into srcs) of candidate j.
func (r *run) sourcesOf(j int) []int {
	if r.candSrcs == nil {
		r.candSrcs = map[int][]int{}
		for k, s := range r.srcs {
			r.candSrcs[s.cand] = append(r.candSrcs[s.cand], k)
		}
	}
	return r.candSrcs[j]
}

// citedLabel names agent a's source of candidate j: "NET-1
// (fd-network.md:2)".
func (r *run) citedLabel(j int, a string) string {
	for _, k := range r.sourcesOf(j) {
		if r.srcs[k].agent == a {
			return r.srcLabel(k)
		}
	}
	return a
}

// unquoted reports whether an item of a "who said what" list that no
// finding of the run matches (its heading's theme is the synthesis's own
// words) gives its agent words that agent's report does not hold: its
// best paragraph holds less than a quarter of the item's words, the
// share below which a claim no report says is invented. The item says
// what that agent said; a report that says nothing like it did not.
func (r *run) unquoted(c *Claim, m matched) (Problem, bool) {
	if !c.quotes || len(m.named) != 1 {
		return Problem{}, false
	}
	a := m.named[0]
	i := slices.Index(r.reports.names, a)
	if i < 0 || m.scores[i] >= invented {
		return Problem{}, false
	}
	return Problem{Kind: WrongCount, Message: fmt.Sprintf("names %s, whose report says nothing like what the item gives it (%.0f%% of its words at most, against %.0f%% in %s), and no finding of the run matches it",
		a, 100*m.scores[i], 100*m.best, r.bestAgent(m))}, true
}

// unmatched judges a claim that matches no finding of the run: an agent's
// report says it in other words (unverifiable: the synthesis or the reader
// cannot tie it to a finding), or none does (invented).
func (r *run) unmatched(c *Claim, m matched) []Problem {
	ws := words(c.Title)
	said := 0 // the claim's words the best paragraph holds
	if bi := slices.Index(m.scores, m.best); bi >= 0 && m.where[bi] >= 0 {
		said = r.reports.overlapWith(m.where[bi], words(c.Title+" "+withoutAttribution(c.Text)))
	}
	if (m.best >= invented && said >= 2) || len(ws) < 4 || len(r.reports.names) == 0 {
		msg := "no finding of the run matches it"
		if who := r.bestPlace(m); who != "" {
			msg += "; " + who + " says something like it, in no finding fluxwatch could tie it to"
		}
		return []Problem{{Kind: Unverifiable, Message: msg}}
	}
	if len(r.absent) > 0 {
		// The synthesis was written from a report RUN does not hold: what
		// no report of RUN says, that one may.
		return []Problem{{Kind: Unverifiable, Message: fmt.Sprintf(
			"no finding of the run matches it, and no agent's report says anything like it (the closest holds %.0f%% of its words), but the synthesis names %s, whose report RUN does not hold",
			100*m.best, strings.Join(r.absent, ", "))}}
	}
	return []Problem{{Kind: Invented, Message: fmt.Sprintf(
		"no finding of the run matches it, and no agent's report says anything like it (the closest holds %.0f%% of its words)", 100*m.best)}}
}

// fdNameRe finds a flux-drive agent's name in a synthesis: "fd-" and
// lower-case words joined by hyphens.
var fdNameRe = regexp.MustCompile(`(?:^|[^A-Za-z0-9_/<-])(fd-[a-z0-9]+(?:-[a-z0-9]+)*)\b`)

// absentAgents returns the agent names ("fd-…") the synthesis writes that
// no agent of the run fits (agentIndex.fit): reports the synthesis was
// written from and RUN does not hold. A name two agents fit is no one's
// absence.
func (r *run) absentAgents(src []byte) []string {
	var out []string
	for _, m := range fdNameRe.FindAllSubmatch(src, -1) {
		name := string(m[1])
		if slices.Contains(out, name) {
			continue
		}
		if _, n := r.agents.fit(name); n == 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// bestIndex returns the index of the agent whose report scored best, or
// -1 when none scored.
func bestIndex(m matched) int {
	bi := -1
	for i, s := range m.scores {
		if s > 0 && (bi < 0 || s > m.scores[bi]) {
			bi = i
		}
	}
	return bi
}

// bestPlace names the place of the agent's report that scored best
// ("fd-a.md:12"), or the agent.
func (r *run) bestPlace(m matched) string {
	bi := bestIndex(m)
	if bi < 0 {
		return ""
	}
	a := r.reports.names[bi]
	if p := m.where[bi]; p >= 0 && r.reports.lines[p] > 0 {
		if f := r.files[a]; f != "" {
			return fmt.Sprintf("%s:%d", f, r.reports.lines[p])
		}
	}
	return a
}

// bestAgent names the agent whose report scored best.
func (r *run) bestAgent(m matched) string {
	if bi := bestIndex(m); bi >= 0 {
		return r.reports.names[bi]
	}
	return ""
}

// severity compares a claim's severity with the agents': above every
// agent's is wrong (an improvement counts below P2), below every agent's is
// a note.
func (r *run) severity(c *Claim, m matched) (Problem, bool) {
	// A claim tied to findings only in other words is rated by them, not
	// by those a name from code ties it to: two findings about one
	// function may be rated apart.
	worded := slices.DeleteFunc(slices.Clone(m.weak), func(j int) bool { return slices.Contains(m.coded, j) })
	if c.Severity == "" || len(m.cands) == 0 && len(worded) == 0 {
		return Problem{}, false
	}
	hi, lo := 4, -1 // ranks: best and worst of the sources
	var srcs []string
	onlyImp := true
	// What it states in other words counts too: a checklist item "Add a
	// report template" matches the agent's improvement by its title and
	// its P0 finding by what the agent wrote about it. Not when it cites
	// IDs: the findings it cites settle what it states.
	rated := append(slices.Clone(m.cands), m.weak...)
	switch {
	case len(m.citers) > 0:
		rated = m.cands
	case len(m.cands) == 0:
		rated = worded
	}
	all := rated
	rated = r.related(c, m, rated)
	var aside []string // findings it cites or names that are about something else
	for _, j := range all {
		if f := r.cands[j].f; f != nil && !slices.Contains(rated, j) && r.ofNamed(m, j) && len(f.Sources) > 0 {
			aside = append(aside, fmt.Sprintf("%s (%s, %s)", idOr(f.Sources[0].ID, quote(f.Title)), f.Sources[0].Ref, f.Severity))
		}
	}
	for _, j := range rated {
		cd := &r.cands[j]
		if !r.ofNamed(m, j) {
			continue
		}
		if cd.imp != nil {
			srcs = append(srcs, fmt.Sprintf("%s offers it as an improvement", strings.Join(cd.imp.Agents, ", ")))
			continue
		}
		onlyImp = false
		for _, s := range cd.f.Sources {
			hi = min(hi, s.Severity.Rank())
			lo = max(lo, s.Severity.Rank())
			srcs = append(srcs, fmt.Sprintf("%s rates %s %s", s.Ref, idOr(s.ID, "it"), s.Severity))
		}
	}
	if len(srcs) > 4 {
		srcs = append(srcs[:4], "…")
	}
	rank := c.Severity.Rank()
	if rank < hi || onlyImp {
		// Raised only when nothing the claim may also state is rated as
		// high: a finding of that severity whose block holds much of its
		// words, or more agents than the findings it matched (it merges
		// findings the title rule did not tie to it).
		var impAgents []string
		if onlyImp {
			// An improvement is often the fix of its agent's own finding:
			// stated as that finding's severity, it is not raised if the
			// agent has such a finding the claim's words fit at all.
			for _, j := range m.cands {
				impAgents = append(impAgents, r.cands[j].agents...)
			}
		}
		for _, b := range m.blockScores {
			j, v := b.j, b.v
			cd := &r.cands[j]
			if cd.f == nil || cd.f.Severity.Rank() > rank || !r.ofNamed(m, j) || len(m.citers) > 0 && !onlyImp {
				// A finding it cites by ID settles what it states: another
				// finding whose block holds its words is not what it rates.
				continue
			}
			if v >= plausible || (v >= littleAll && slices.ContainsFunc(cd.agents, func(a string) bool { return slices.Contains(impAgents, a) })) {
				return Problem{}, false
			}
		}
		if c.Count > 0 && c.Count > len(r.agentsOf(m.cands)) {
			return Problem{}, false
		}
	}
	for _, a := range m.named {
		if !r.covers(m.cands, a) && (onlyImp || r.mayRate(a, c, rank)) {
			// It also says what an agent it names reported, unmatched:
			// too little is known of that to call the severity wrong.
			if rank < hi || onlyImp {
				return Problem{}, false
			}
		}
	}
	if !onlyImp && rank < hi && r.ratedAsHigh(rated, rank) {
		return Problem{}, false
	}
	switch {
	case onlyImp && rank <= 2:
		return Problem{Kind: SeverityRaised, Message: fmt.Sprintf("says %s; %s, and no agent rates it a finding", c.Severity, strings.Join(srcs, "; "))}, true
	case !onlyImp && rank < hi:
		msg := fmt.Sprintf("says %s; %s, and no agent rates it higher", c.Severity, strings.Join(srcs, "; "))
		if len(aside) > 0 {
			msg += fmt.Sprintf("; it also names %s, which %s about something else", strings.Join(aside, ", "), cmpStr(len(aside) == 1, "is", "are"))
		}
		return Problem{Kind: SeverityRaised, Message: msg}, true
	case !onlyImp && rank > lo && lo <= 1:
		return Problem{Kind: SeverityDropped, Message: fmt.Sprintf("says %s; %s, and no agent rates it lower", c.Severity, strings.Join(srcs, "; "))}, true
	}
	return Problem{}, false
}

// related returns those of the findings rated that are about what a
// claim says, when some are and some are not: a finding is about
// something else when its title holds no word of the claim's title and
// its block little of all the claim's words (littleAll), while another
// finding rated holds half of the title's words. A claim "Advancement has
// no driver (fd-ring (P1), fd-escalation (P0))" tied to fd-escalation's
// P0 on escalation triggers by its agent and severity, and to fd-ring's P1
// on advancement by its words, states fd-ring's P1: fd-escalation's P0
// does not make its P0 right.
func (r *run) related(c *Claim, m matched, rated []int) []int {
	tw := words(c.Title)
	if len(tw) < 2 {
		return rated
	}
	block := func(j int) float64 {
		for _, b := range m.blockScores {
			if b.j == j {
				return b.v
			}
		}
		return 0
	}
	about := func(j int) bool { return r.cands[j].shares(tw) > 0 || block(j) >= littleAll }
	if !slices.ContainsFunc(rated, func(j int) bool { return r.cands[j].f != nil && 2*r.cands[j].shares(tw) >= len(tw) }) {
		return rated
	}
	return slices.DeleteFunc(slices.Clone(rated), func(j int) bool { return r.cands[j].f != nil && !about(j) })
}

func cmpStr(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// ratedAsHigh reports whether the line an agent wrote a finding on (its
// heading, its index line) also writes a severity at least as high as
// rank: "### 1.1 Critical: UnifiedApp has no tmuxClient" over "Severity:
// Must Fix" gives the finding two severities, and the reader keeps one.
// A synthesis that takes the other has not raised it.
func (r *run) ratedAsHigh(cands []int, rank int) bool {
	for _, j := range cands {
		f := r.cands[j].f
		if f == nil {
			continue
		}
		for _, s := range f.Sources {
			if line := r.reportLine(s.Agent, refLine(s.Ref)); line != "" {
				for _, tok := range strings.Fields(line) {
					if sev, ok := parse.SeverityWord(tok); ok && sev.Rank() <= rank {
						return true
					}
				}
			}
		}
	}
	return false
}

// reportLine returns line n (from 1) of an agent's report, or "". The
// report's line starts are found once: a synthesis of many claims asks
// of many lines.
func (r *run) reportLine(agent string, n int) string {
	text := r.texts[agent]
	starts, ok := r.lineStarts[agent]
	if !ok {
		starts = []int{0}
		for i, b := range text {
			if b == '\n' {
				starts = append(starts, i+1)
			}
		}
		r.lineStarts[agent] = starts
	}
	if n < 1 || n > len(starts) {
		return ""
	}
	l := text[starts[n-1]:]
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l = l[:i]
	}
	return string(l)
}

// ofNamed reports whether candidate j may bear on a claim's severity: the
// claim names no agent, or j is from an agent it names. A claim that says
// who raised it ("(quality)") is rated against what they rated it, not
// against another agent's finding its words also fit.
func (r *run) ofNamed(m matched, j int) bool {
	if len(m.named) == 0 {
		return true
	}
	return slices.ContainsFunc(r.cands[j].agents, func(a string) bool { return slices.Contains(m.named, a) })
}

func idOr(id, alt string) string {
	if id == "" {
		return alt
	}
	return id
}

// agentsAndCount checks the agents a claim names and the count it claims
// against those that said it: the agents of the findings it states, those
// with a finding whose block holds much of its words, and those whose
// reports say it in their own words. An agent it names that did none of
// these, and whose report says far less of it than the report that says
// most, did not report it; a count above every agent that says anything
// like it is too high.
func (r *run) agentsAndCount(c *Claim, m matched) (Problem, bool) {
	support := map[string]string{} // agent → where it says it
	note := func(a, where string) {
		if _, ok := support[a]; !ok {
			support[a] = where
		}
	}
	// An agent whose findings can be read says a claim in its findings or
	// not at all; what its report says elsewhere, in passing, is not a
	// finding it reported.
	readable := func(a string) bool { _, ok := m.said[a]; return ok }
	// A claim that names no agent but cites IDs for a count ("| Safety
	// agents stay on Claude | FC-1, OD-5, SYS-1 | High (3 agents) |")
	// says who by its IDs: their agents are held to their findings, as
	// named agents are, and only the findings it cites make up its count
	// (another agent's finding its title matches, or its words fit, is
	// not cited; one merged with a cited finding is).
	citedCount := c.Count > 1 && len(m.named) == 0 && len(m.citers) > 0
	var offCited []string // the agents of cited findings about something else
	for _, j := range append(slices.Clone(m.cands), m.weak...) {
		cd := &r.cands[j]
		if cd.f != nil {
			for _, s := range cd.f.Sources {
				// A finding the claim states in other words, or whose title
				// alone matches it, may be merged from several agents':
				// each of them must say it.
				if (!slices.Contains(m.cands, j) || slices.Contains(m.titled, j)) && !slices.Contains(m.coded, j) && readable(s.Agent) && saysLittle(m.said[s.Agent], m.titleWords) {
					continue
				}
				if citedCount && slices.Contains(m.citers, s.Agent) && readable(s.Agent) && saysLittle(m.said[s.Agent], m.titleWords) {
					// An ID it cites for its count, of a finding about
					// something else: the ID says which finding, not
					// that its agent said this.
					if !slices.Contains(offCited, s.Agent) {
						offCited = append(offCited, s.Agent)
					}
					continue
				}
				if citedCount && !slices.Contains(m.cited, j) {
					continue
				}
				note(s.Agent, s.Ref)
			}
		} else {
			for _, a := range cd.imp.Agents {
				note(a, a+" (an improvement)")
			}
		}
	}
	for _, b := range m.blockScores {
		if cd := &r.cands[b.j]; b.v >= plausible && cd.f != nil {
			for _, s := range cd.f.Sources {
				if citedCount && !slices.Contains(m.cited, b.j) {
					continue
				}
				if !readable(s.Agent) || !saysLittle(m.said[s.Agent], m.titleWords) {
					note(s.Agent, s.Ref)
				}
			}
		}
	}
	for i, s := range m.scores {
		if a := r.reports.names[i]; s >= saySome && !readable(a) {
			note(a, a+" (in its own words)")
		}
	}
	var wrong []string
	for _, x := range m.mismatch {
		var who []string
		for _, e := range x.holders {
			if !slices.Contains(who, e.agent) {
				who = append(who, e.agent)
			}
		}
		wrong = append(wrong, fmt.Sprintf("gives %s to %s, but %s reported it", x.id, x.agent, strings.Join(who, ", ")))
	}
	for _, x := range m.unwritten {
		wrong = append(wrong, fmt.Sprintf("cites %s of %s, but %s never writes %s", x.id, x.agent, r.fileOf(x.agent), x.id))
	}
	grounded := len(m.cands) > 0 || len(m.weak) > 0 || m.best >= grounded
	for _, a := range m.named {
		if !grounded || mismatched(m, a) || c.restates > 0 {
			continue
		}
		if msg, ok := r.missesCode(c, m, a); ok {
			wrong = append(wrong, msg)
		} else if msg, ok := r.nearestOnly(c, m, a); ok {
			wrong = append(wrong, msg)
		} else if msg, ok := r.unreported(c, m, a, support); ok {
			wrong = append(wrong, msg)
		} else if msg, ok := r.neighbour(c, m, a); ok {
			wrong = append(wrong, msg)
		}
	}
	// A count that names no agent over a theme of a few words in a row of
	// IDs ("| Staged rollout | RES-2, DEC-4 | High (4 agents) |"): too few
	// words to tell a report that says it from one that does not.
	themeOnly := c.theme && len(m.named) == 0 && m.titleWords <= themeWords
	if c.Count > len(m.named) && grounded && !themeOnly && c.countLine == 0 {
		// More agents than it names (or it names none): the others must
		// say something like it somewhere.
		lenient := map[string]bool{}
		for _, a := range m.named {
			lenient[a] = true
		}
		for a := range support {
			lenient[a] = true
		}
		// A claim that names its agents and counts more ("Three review
		// agents (fd-a, fd-b)") named those it knew of: an agent it does
		// not name makes up the count only by a finding of its own that
		// holds its title about as well as the findings it is tied to,
		// three quarters of its weight, not by one that shares a few of
		// its words.
		titleNeed := mayAll
		if len(m.named) > 0 {
			titleNeed = strictTitle
		}
		for i, s := range m.scores {
			a := r.reports.names[i]
			if fs, ok := m.said[a]; (!ok || len(m.named) == 0 && !citedCount) && s >= maybeSay || ok && !citedCount && fs.title >= titleNeed && fs.all >= mayAll {
				lenient[a] = true
			}
		}
		if c.Count > len(lenient) {
			var others []string
			for _, a := range slices.Sorted(maps.Keys(lenient)) {
				if _, ok := support[a]; !ok && !slices.Contains(m.named, a) {
					others = append(others, a)
				}
			}
			offCited = slices.DeleteFunc(offCited, func(a string) bool { _, ok := support[a]; return ok || lenient[a] })
			switch {
			case len(offCited) > 0:
				wrong = append(wrong, fmt.Sprintf("claims %d agents; %s, and the findings it cites of %s say nothing like it: %d at most", c.Count, sayers(support), strings.Join(offCited, ", "), len(lenient)))
			case len(others) == 0 && citedCount:
				wrong = append(wrong, fmt.Sprintf("claims %d agents; %s, and it cites no finding of another agent", c.Count, sayers(support)))
			case len(others) == 0 && len(m.named) > 0:
				wrong = append(wrong, fmt.Sprintf("claims %d agents and names %d; %s, and no finding of another agent holds its title", c.Count, len(m.named), sayers(support)))
			case len(others) == 0:
				wrong = append(wrong, fmt.Sprintf("claims %d agents; %s, and no other agent's report says anything like it", c.Count, sayers(support)))
			default:
				who := "no finding says it"
				if len(support) > 0 {
					who = sayers(support)
				}
				wrong = append(wrong, fmt.Sprintf("claims %d agents; %s, and only the reports of %s say something like it: %d at most", c.Count, who, strings.Join(others, ", "), len(lenient)))
			}
		}
	}
	if c.Of > 0 && len(r.s.AgentsLaunched) > 0 && c.Of > len(r.s.AgentsLaunched) && c.countLine == 0 {
		wrong = append(wrong, fmt.Sprintf("counts against %d agents; the run launched %d", c.Of, len(r.s.AgentsLaunched)))
	}
	if len(wrong) == 0 {
		return Problem{}, false
	}
	return Problem{Kind: WrongCount, Message: strings.Join(wrong, "; ")}, true
}

// unreported reports whether an agent a claim names, which no finding it
// is tied to comes from (support), did not report it: its findings can be
// read and say little of it (saysLittle), or they cannot and its report
// says far less of it than the report that says most.
func (r *run) unreported(c *Claim, m matched, a string, support map[string]string) (string, bool) {
	if _, ok := support[a]; ok {
		return "", false
	}
	if fs, ok := m.said[a]; ok && !c.quotes {
		// Its findings can be read: they say it, or it did not report it.
		if saysLittle(fs, m.titleWords) {
			return fmt.Sprintf("names %s, none of whose findings says it (its closest, %s, holds %.0f%% of its words, against %s)",
				a, r.srcLabel(fs.src), 100*fs.all, r.bestSaid(m)), true
		}
		return "", false
	}
	i := slices.Index(r.reports.names, a)
	if i < 0 || m.scores[i] >= silent*m.best {
		return "", false // no report to read, or it says something like it
	}
	return fmt.Sprintf("names %s, which has no finding like it and whose report says nothing like it (%.0f%% of its words at most, against %.0f%% in %s)",
		a, 100*m.scores[i], 100*m.best, r.bestAgent(m)), true
}

// nearestOnly reports whether an agent a claim names is tied to it only
// by its nearest finding, the one the claim's words fit best among the
// agent's own because the agent is named (m.namedTitle, m.namedWeak),
// while that finding holds less than half of what the finding the claim
// is grounded on holds, of its title's weight and of all its words: the
// claim credits the agent for a neighbouring finding. The finding it is
// grounded on is the best of another agent's that the claim cites, or is
// tied to by the title rule, a file:line, a name from code, in other
// words, or as that agent's nearest. An agent the claim ties by no
// finding at all is judged by unreported.
func (r *run) nearestOnly(c *Claim, m matched, a string) (string, bool) {
	fs, ok := m.said[a]
	if !ok || c.quotes || slices.Contains(m.citers, a) {
		return "", false
	}
	var own, other []int // a's nearest ties; the claim's other ties
	for _, j := range append(slices.Clone(m.cands), m.weak...) {
		if slices.Contains(m.namedTitle, j) || slices.Contains(m.namedWeak, j) {
			if slices.Contains(r.cands[j].agents, a) {
				own = append(own, j)
				continue
			}
		}
		other = append(other, j)
	}
	if len(own) == 0 || r.covers(other, a) {
		return "", false
	}
	ground, gt, ga := "", 0.0, 0.0
	for _, b := range slices.Sorted(maps.Keys(m.said)) {
		bs := m.said[b]
		if b == a || !(slices.Contains(m.citers, b) || r.covers(m.cands, b) || r.covers(m.weak, b)) {
			continue
		}
		if bs.title+bs.all > gt+ga {
			ground, gt, ga = b, bs.title, bs.all
		}
	}
	if ground == "" || 2*fs.title >= gt || 3*fs.all >= ga {
		return "", false
	}
	return fmt.Sprintf("names %s, whose closest finding, %s, holds %.0f%% of its title and %.0f%% of its words, against %.0f%% and %.0f%% in %s: another defect",
		a, r.srcLabel(fs.src), 100*fs.title, 100*fs.all, 100*gt, 100*ga, r.srcLabel(m.said[ground].src)), true
}

// unwritten reports whether an agent's report, which fluxwatch read in
// full, never writes id as a whole token: an ID the synthesis made up
// for it. An ID written anywhere in the report (a finding the reader did
// not take for one, a question, a table) is not made up.
func (r *run) unwritten(agent, id string) bool {
	text, ok := r.texts[agent]
	if !ok || r.unread[agent] {
		return false
	}
	return !hasToken(string(text), id)
}

// adjacentID reports whether a claim's text writes id right after an
// agent's label: "fd-a Q5", "fd-a (Q5)", "fd-a: Q5", "**fd-a** (Q5, …".
// Only such an ID is given to that agent beyond doubt; one further on
// may be a model's version or the synthesis's own number ("fd-a says
// DeepSeek V3 …").
func adjacentID(text, label, id string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], label)
		if j < 0 {
			return false
		}
		rest := strings.TrimLeft(text[i+j+len(label):], "*_` ")
		rest = strings.TrimLeft(rest, "(:[ ")
		if strings.HasPrefix(rest, id) && (len(rest) == len(id) || !isIDByte(rest[len(id)])) {
			return true
		}
		i += j + len(label)
	}
}

// fileOf names an agent's report file, or the agent.
func (r *run) fileOf(agent string) string {
	if f := r.files[agent]; f != "" {
		return f
	}
	return agent
}

// srcLabel names a source: "A-3 (fd-a.md:12)", "fd-a's improvement
// A-IMP-1".
func (r *run) srcLabel(k int) string {
	s := r.srcs[k]
	switch {
	case s.ref == "":
		return s.agent + "'s improvement " + idOr(s.id, quote(s.title))
	case s.id != "":
		return s.id + " (" + s.ref + ")"
	}
	return s.ref
}

// bestSaid describes the finding that says most of a claim: "86% in
// A-3 (fd-a.md:12)".
func (r *run) bestSaid(m matched) string {
	bestA, best := "", -1.0
	for _, a := range slices.Sorted(maps.Keys(m.said)) {
		if fs := m.said[a]; fs.all > best {
			bestA, best = a, fs.all
		}
	}
	if bestA == "" {
		return "no finding of any agent"
	}
	return fmt.Sprintf("%.0f%% in %s", 100*best, r.srcLabel(m.said[bestA].src))
}

// missesCode reports whether a claim about a name from code that the
// titles of a few findings write (m.coded: "AgentNotFoundMsg silently
// dropped"), or about a file:line a finding it matched points at, names
// an agent whose report, read in full, never writes that name or file:
// whatever words its findings share with the claim, they are about
// something else. The message names the finding that writes it.
func (r *run) missesCode(c *Claim, m matched, agent string) (string, bool) {
	if (len(m.coded) == 0 && len(c.FileRefs) == 0) || slices.Contains(m.citers, agent) {
		return "", false
	}
	text, ok := r.texts[agent]
	if !ok || r.unread[agent] {
		return "", false
	}
	for _, j := range m.coded {
		if slices.Contains(r.cands[j].agents, agent) {
			return "", false
		}
	}
	var named []string
	for _, id := range codeNames(c.Title + " " + c.Text) {
		if js := r.codeOwners()[id]; len(js) == 0 || len(js) > maxCodeOwners {
			continue
		}
		if strings.Contains(string(text), id) {
			return "", false
		}
		named = append(named, id)
	}
	by := -1
	if len(m.coded) > 0 {
		by = m.coded[0]
	}
	// A file:line the claim writes that a finding it matched points at.
	for _, ref := range c.FileRefs {
		x := synth.ParseRef(ref)
		for _, j := range m.cands {
			if refsOverlap([]synth.Ref{x}, r.cands[j].refs) && slices.Contains(r.cands[j].agents, agent) {
				// A finding it matched, merged with the agent's own
				// (the computed synthesis gives it the agent), points
				// there: the agent reported it, in whatever words.
				return "", false
			}
		}
		for _, j := range m.cands {
			if refsOverlap([]synth.Ref{x}, r.cands[j].refs) && !slices.Contains(r.cands[j].agents, agent) {
				if strings.Contains(string(text), path.Base(x.Path)) {
					return "", false
				}
				named = append(named, path.Base(x.Path))
				if by < 0 {
					by = j
				}
				break
			}
		}
	}
	if len(named) == 0 {
		return "", false
	}
	where := r.cands[by].key()
	if f := r.cands[by].f; f != nil && len(f.Sources) > 0 {
		where = idOr(f.Sources[0].ID, "") + " (" + f.Sources[0].Ref + ")"
	}
	return fmt.Sprintf("names %s, whose report never writes %s, which the claim is about (%s writes it)",
		agent, named[0], strings.TrimSpace(where)), true
}

// neighbour reports whether an agent a claim names was credited for a
// neighbouring finding: another agent the claim names reported it beyond
// doubt (the claim cites its ID, or matched its finding, or that
// finding's title and block hold three quarters of the claim's title;
// for a claim that names one agent, an agent it does not name whose
// finding it matched or states in other words, holding three quarters
// of its title), while this one did not (no ID of its own cited, no
// finding of its own matched, none holding half of the claim's title),
// and the finding of its own that says most of the claim is another
// defect: the synthesis states it apart, on a line that does not state
// the other agent's; no finding of its own shares a quarter of the
// other's block; and its report never writes a word of the claim's
// title that the other agent's finding writes and at most two findings
// of the run write (the word that says what the claim is about:
// "hysteresis" in "No hysteresis in drift detection", credited to an
// agent whose finding is about drift between two registries). Each test
// alone is passed by agents a careful reader credits: a synthesis merges
// findings that share few words.
func (r *run) neighbour(c *Claim, m matched, a string) (string, bool) {
	fs, ok := m.said[a]
	if c.quotes {
		return "", false // a quote of the agent: weighed on its whole report
	}
	weak := slices.DeleteFunc(slices.Clone(m.weak), func(j int) bool { return slices.Contains(m.namedWeak, j) })
	if !ok || fs.title >= saySome || slices.Contains(m.citers, a) || r.covers(m.cands, a) || r.covers(weak, a) {
		return "", false
	}
	anchor, best := "", -1.0
	for _, b := range m.named {
		bs, ok := m.said[b]
		if b == a || !ok {
			continue
		}
		strict := slices.Contains(m.citers, b) || r.covers(m.cands, b) || bs.title >= strictTitle
		if strict && bs.title+bs.all > best {
			anchor, best = b, bs.title+bs.all
		}
	}
	if anchor == "" && len(m.named) == 1 {
		// The only agent it names: an agent it does not name whose
		// finding it states (matched, or in other words) beyond doubt.
		for _, b := range slices.Sorted(maps.Keys(m.said)) {
			bs := m.said[b]
			if b == a {
				continue
			}
			strict := (r.covers(m.cands, b) || r.covers(weak, b)) && bs.title >= strictTitle
			if strict && bs.title+bs.all > best {
				anchor, best = b, bs.title+bs.all
			}
		}
	}
	if anchor == "" {
		return "", false
	}
	ka, kb := fs.src, m.said[anchor].src
	ja, jb := r.srcs[ka].cand, r.srcs[kb].cand
	if ja == jb {
		return "", false
	}
	// No finding of its own about the claim (one holding a word of its
	// title) shares much with the other's: a finding that holds none of
	// it is about something else, whatever words two findings of one
	// review share.
	about := map[int]bool{}
	r.said.weighEach(words(c.Title), func(k int, v float64, _ int) {
		if v > 0 && r.srcs[k].agent == a {
			about[k] = true
		}
	})
	for k := range r.srcs {
		if about[k] && r.said.sharedShare(k, kb) >= apartShare {
			return "", false
		}
	}
	apart := 0
	for _, i := range r.statedBy[ja] {
		if o := &r.matches[i]; r.lines[i] != c.Line && !slices.Contains(o.cands, jb) && !slices.Contains(o.weak, jb) {
			apart = r.lines[i]
			break
		}
	}
	if apart == 0 {
		return "", false
	}
	owner := slices.Index(r.reports.names, a)
	if owner < 0 {
		return "", false
	}
	// The title less its asides ("(Michel-Levy chart missing)"): what
	// it is about, not the picture it is given.
	for _, w := range words(asideRe.ReplaceAllString(c.Title, " ")) {
		id, ok := r.said.vocab[w]
		if !ok || r.said.df[id] > rareFindings || !r.said.has(kb, id) || r.reports.ownerHas(owner, w) {
			continue
		}
		return fmt.Sprintf("names %s, whose closest finding, %s, is another defect the synthesis states apart (line %d), and whose report never writes %s, which %s writes",
			a, r.srcLabel(ka), apart, quote(asWritten(c.Title, w)), r.srcLabel(kb)), true
	}
	return "", false
}

// asideRe matches a parenthesised aside.
var asideRe = regexp.MustCompile(`\([^()]*\)`)

func mismatched(m matched, agent string) bool {
	for _, x := range m.mismatch {
		if x.agent == agent {
			return true
		}
	}
	return false
}

// sayers describes the agents that say a claim.
func sayers(support map[string]string) string {
	if len(support) == 0 {
		return "no agent says it"
	}
	var parts []string
	for _, a := range slices.Sorted(func(yield func(string) bool) {
		for a := range support {
			if !yield(a) {
				return
			}
		}
	}) {
		parts = append(parts, support[a])
	}
	n := len(support)
	verb := "say"
	if n == 1 {
		verb = "says"
	}
	return fmt.Sprintf("%d %s it (%s)", n, verb, strings.Join(parts, ", "))
}

// cited marks the findings the synthesis cites anywhere: by ID (an ID
// given to an agent counts for that agent's finding; an ID several
// findings share needs a word of the line to agree), or by an agent's name
// and a severity ("fd-a (P0)"; not an ID, "fd-a (P0-2)") that agent gave
// one finding only, or, of several, the one whose title holds most of the
// line's words and any other whose title holds a word of the line the
// first one's does not.
func (r *run) cited(src []byte, present []bool) {
	r.citedByID = make([]bool, len(r.cands))
	r.zero = r.zeroTallies(src)
	var heads []string // the agents the heading above names by label
	for l := range strings.SplitSeq(string(src), "\n") {
		if h := strings.TrimSpace(l); strings.HasPrefix(h, "#") {
			heads = nil
			if _, group := groupHeading(strings.TrimLeft(h, "# ")); !group {
				heads = r.headingLabels(l)
			}
		} else if as, _ := r.agentsIn(l); len(heads) > 0 && len(as) == 0 {
			// A paragraph under "### Perspective 1: Control Systems
			// (SRE + Cybernetics, Track A)" speaks of those agents.
			r.mentionsNamed(l, heads, nil, present)
		}
		if !strings.ContainsAny(l, "0123456789") {
			// No ID and no severity level: only its words can say a finding.
			r.mentions(l, nil, present)
			continue
		}
		_, atts := citations(l)
		atts = append(atts, labelAttributions(l)...)
		lw := words(l)
		for _, at := range atts {
			agent, resolved := "", false
			if at.label != "" {
				agent, resolved = r.agents.resolve(at.label)
			}
			for _, id := range at.ids {
				es := r.byID(id, agent)
				if resolved {
					for _, e := range es {
						if e.agent == agent {
							present[e.cand] = true
							r.citedByID[e.cand] = true
							trace(e.cand, "line %q cites %s of %s", l, id, agent)
						}
					}
					continue
				}
				for _, e := range es {
					if distinct(es) == 1 || r.cands[e.cand].shares(lw) > 0 {
						present[e.cand] = true
						r.citedByID[e.cand] = true
						trace(e.cand, "line %q cites %s", l, id)
					}
				}
			}
		}
		r.mentions(l, lw, present)
		for _, mi := range agentSevRe.FindAllStringSubmatchIndex(l, -1) {
			m := []string{l[mi[0]:mi[1]], l[mi[2]:mi[3]], l[mi[4]:mi[5]]}
			if mi[1]+1 < len(l) && l[mi[1]] == '-' && l[mi[1]+1] >= '0' && l[mi[1]+1] <= '9' {
				continue // an ID ("fd-a (P1-3)"), not a severity
			}
			agent, ok := r.agents.resolve(m[1])
			if !ok {
				continue
			}
			sev, _ := parse.SeverityWord(m[2])
			// The one finding the agent gave that severity, or of several
			// the one whose title holds most of the line's words.
			best, bestN, second := -1, 0, 0
			for _, j := range r.byAgentSev[agent+" "+string(sev)] {
				switch n := r.cands[j].sharesFolded(lw); {
				case best < 0 || n > bestN:
					best, bestN, second = j, n, bestN
				case n > second:
					second = n
				}
			}
			js := r.byAgentSev[agent+" "+string(sev)]
			if len(js) == 1 || bestN > second {
				present[best] = true
				trace(best, "line %q names %s with %s", l, agent, sev)
			}
			if len(js) > 1 && bestN > second {
				// The line's words the best one's title does not hold may
				// be another's: "Replace the README opening with a GIF
				// (fd-a P0)" states fd-a's P0 on the README and its P0 on
				// the missing GIF. The agents' names are not what the line
				// says.
				said := l
				_, toks := r.agentsIn(l)
				for _, tok := range toks {
					said = strings.ReplaceAll(said, tok, " ")
				}
				var rest []string
				for _, w := range words(said) {
					if !r.cands[best].folds[fold(w)] {
						rest = append(rest, w)
					}
				}
				for _, j := range js {
					if j != best && r.cands[j].sharesFolded(rest) > 0 {
						present[j] = true
						trace(j, "line %q names %s with %s and words of its title", l, agent, sev)
					}
				}
			}

		}
	}
}

// mentions marks the finding of an agent a line names that the line is
// about: the agent's finding whose titles hold most of the line's words
// (its attributions left out), at least three of them, or two and two in
// five, and more than any other of its findings.
func (r *run) mentions(l string, lw []string, present []bool) {
	if !strings.Contains(l, "-") {
		return
	}
	named, toks := r.agentsIn(l)
	if len(named) == 0 {
		return
	}
	r.mentionsNamed(l, named, toks, present)
}

// headingLabels returns the agents a heading names by label in a
// parenthesised list ("(SRE + Cybernetics, Track A)"): each part that
// resolves to an agent, when half of the parts at least do.
func (r *run) headingLabels(h string) []string {
	var out []string
	for _, m := range parenGroupRe.FindAllStringSubmatch(strings.ReplaceAll(h, "**", ""), 4) {
		parts := strings.FieldsFunc(m[1], func(c rune) bool { return c == '+' || c == ',' || c == '&' || c == '/' })
		var as []string
		for _, p := range parts {
			if a, ok := r.agents.resolve(strings.TrimSpace(p)); ok && !slices.Contains(as, a) {
				as = append(as, a)
			}
		}
		if len(as) > 0 && 2*len(as) >= len(parts) {
			out = append(out, as...)
		}
	}
	return out
}

// mentionsNamed marks the findings of the agents named that line l
// states by their words (mentions). toks are the names the line writes;
// nil for agents its section's heading names, of whom each part of the
// line speaks.
func (r *run) mentionsNamed(l string, named, toks []string, present []bool) {
	// A part of a line that names several agents is about the agents it
	// names itself: the part "Reviewed by: 7 agents (" of "Reviewed by:
	// 7 agents (fd-a, fd-b, …)" says nothing of fd-a's findings.
	origParts := append(lineParts(l), sentences(l)...)
	// The agents' names are not what the line says ("[fd-user-experience]
	// (fd-user-experience.md) — verdict: …" says nothing of its findings).
	for _, tok := range toks {
		l = strings.ReplaceAll(l, tok, " ")
	}
	parts := append(lineParts(l), sentences(l)...)
	partNames := func(int) []string { return named }
	if len(named) > 1 && len(parts) == len(origParts) && toks != nil {
		partNames = func(i int) []string {
			p := origParts[i]
			if k := strings.LastIndex(p, "("); k >= 0 && !strings.Contains(p[k:], ")") {
				// "Reviewed by: 7 agents (fd-a": fd-a opens a list
				// the next parts go on with; the part says nothing of it.
				p = p[:k]
			}
			as, _ := r.agentsIn(p)
			return as
		}
	}
	lw := words(withoutAttribution(l))
	// What an agent wrote about one of its findings holds most of the
	// line's words, or of a part's when it lists several ("no lifecycle
	// state machine; timeout behavior missing"): the line states that
	// finding, perhaps as the fix in place of the defect ("Compress the
	// injection to 4 lines (fd-perf)" for "Contract can be compressed").
	// Words are compared folded: a synthesis restates in its own words
	// ("irreversibility analysis missing" for "does not identify
	// irreversible steps").
	type fit struct {
		k            int
		best, second float64
	}
	fits := make([]fit, len(named))
	for pi, part := range append([]string{l}, parts...) {
		pw, of := lw, named
		if pi > 0 {
			pw, of = words(withoutAttribution(part)), partNames(pi-1)
		}
		if len(pw) < 2 || part == l && len(pw) < 3 || verdictRe.MatchString(part) {
			continue // too few words, or an agent's verdict and tally ("verdict: needs-changes (1 P0")
		}
		titled := make([]bool, len(named))
		for i, a := range named {
			if !slices.Contains(of, a) {
				continue
			}
			// The title's words: the finding of its agent whose titles
			// hold most of them.
			best, second, bestJ := 0, 0, -1
			for j := range r.cands {
				cd := &r.cands[j]
				if cd.f == nil || !slices.Contains(cd.agents, a) {
					continue
				}
				switch n := cd.sharesFolded(pw); {
				case n > best:
					best, second, bestJ = n, best, j
				case n > second:
					second = n
				}
			}
			if best > second && (best >= 3 || best >= 2 && 5*best >= 2*len(pw)) && !r.tallied0(bestJ, a) {
				present[bestJ], titled[i] = true, true
				trace(bestJ, "line %q names %s and holds its title's words", part, a)
			}
		}
		for i := range fits {
			fits[i] = fit{k: -1}
		}
		r.saidFold.weighEach(folded(pw), func(k int, v float64, _ int) {
			src := &r.srcs[k]
			i := slices.Index(named, src.agent)
			if i < 0 || src.sev == "" {
				return
			}
			switch f := &fits[i]; {
			case v > f.best:
				f.k, f.best, f.second = k, v, f.best
			case v > f.second:
				f.second = v
			}
		})
		for i, a := range named {
			// A part whose words a title holds states that finding, not
			// the one whose block also holds them.
			if f := fits[i]; slices.Contains(of, a) && f.k >= 0 && f.best >= mentioned && f.best >= 1.25*f.second && (part == l || !titled[i]) && !r.tallied0(r.srcs[f.k].cand, a) {
				present[r.srcs[f.k].cand] = true
				trace(r.srcs[f.k].cand, "line %q names %s and what it wrote of the finding holds the line's words", part, a)
			}
		}
	}
}

// zeroTallies returns the severities a synthesis's own tally table gives
// an agent none of ("agent\x00P0"): a row that names the agent, under a
// column headed by a severity level, whose cell is 0 ("| fd-perf | safe |
// 0 | 1 |" under "| Agent | Verdict | P0 | P1 |").
func (r *run) zeroTallies(src []byte) map[string]bool {
	var out map[string]bool
	var header []string
	for l := range strings.SplitSeq(string(src), "\n") {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "|") {
			header = nil
			continue
		}
		if isSeparatorRow(t) {
			continue
		}
		cs := cells(t)
		if header == nil {
			header = cs
			continue
		}
		// The agent is a cell that holds its hyphenated name alone
		// ("fd-perf", "**fd-perf**", "[fd-perf](fd-perf.md)"), not a
		// title that writes it, nor a word a label may shorten.
		var agent string
		for _, c := range cs {
			if i := strings.Index(c, "]("); strings.HasPrefix(c, "[") && i > 0 {
				c = c[1:i]
			}
			c = strings.Trim(c, "*` ")
			if !strings.Contains(c, "-") || !agentNameRe.MatchString(strings.ToLower(c)) {
				continue // a verdict ("safe") is not fd-safety
			}
			if a, ok := r.agents.resolve(c); ok {
				agent = a
				break
			}
		}
		if agent == "" {
			continue
		}
		for i, h := range header {
			if i < len(cs) && pLevelRe.MatchString(h) && len(strings.Fields(h)) == 1 && cs[i] == "0" {
				if out == nil {
					out = map[string]bool{}
				}
				out[agent+"\x00"+strings.ToUpper(strings.Trim(h, "*` "))] = true
			}
		}
	}
	return out
}

// tallied0 reports whether the synthesis's own tally gives agent a none
// of candidate j's severity: a line naming a does not state j by its
// words then (the synthesis says the agent has no such finding).
func (r *run) tallied0(j int, a string) bool {
	f := r.cands[j].f
	return f != nil && r.zero[a+"\x00"+string(f.Severity)]
}

// agentsIn returns the agents of the run a text names by their names
// (hyphenated words), once each, and the words that name them.
func (r *run) agentsIn(t string) (agents, toks []string) {
	for _, tok := range strings.FieldsFunc(t, func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '*' || r == '`' || r == ';' || r == ':' || r == '[' || r == ']'
	}) {
		tok = strings.Trim(tok, ".+")
		if strings.Contains(tok, "-") && agentNameRe.MatchString(strings.ToLower(tok)) {
			if a, ok := r.agents.resolve(tok); ok {
				toks = append(toks, tok)
				if !slices.Contains(agents, a) {
					agents = append(agents, a)
				}
			}
		}
	}
	return agents, toks
}

// verdictRe finds an agent's verdict in a part of a line.
var verdictRe = regexp.MustCompile(`(?i)\bverdict\b|\bneeds[-_ ](?:changes|attention|work)\b|\b(?:risky|safe|approved?|lgtm)\b`)

// lineParts splits a line that lists several things at its semicolons
// and table cell bars; nil when it lists one.
func lineParts(l string) []string {
	parts := strings.FieldsFunc(l, func(r rune) bool { return r == ';' || r == '|' || r == ',' })
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// sentences splits a line of several sentences at their ends ("fd-a
// wants the preprint before HN. Credentialing takes longer."): the first
// says what the agent said, the rest why, and its words are the
// sentence's, not the line's. Nil when the line is one sentence.
func sentences(l string) []string {
	var out []string
	for {
		i := strings.IndexAny(l, ".!?")
		for i >= 0 && !(i+2 < len(l) && l[i+1] == ' ' && (isUpper(l[i+2]) || l[i+2] == '*')) {
			j := strings.IndexAny(l[i+1:], ".!?")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			break
		}
		out = append(out, l[:i])
		l = l[i+2:]
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, l)
}

// agentsStatedRe finds where a synthesis says how many agents it was
// written from: "4 launched", "Reviewed by 7 agents", "Agents launched: 5".
var agentsStatedRe = regexp.MustCompile(`(?i)\b(\d{1,3})\s+(?:agents?\s+)?(?:launched|completed)\b|\breviewed by (\d{1,3}) (?:\w+ )?agents\b|\bagents\s+(?:launched|completed)\W{1,6}(\d{1,3})\b`)

// statedAgents returns how many agents a synthesis says it was written
// from: its largest "N/M" count (M), "4 launched", "Reviewed by 7
// agents", or the count its header states. 0 when it says none.
func (r *run) statedAgents(src []byte, claims []Claim) int {
	of := 0
	for i := range claims {
		of = max(of, claims[i].Of)
	}
	for _, m := range agentsStatedRe.FindAllStringSubmatch(string(src), 8) {
		of = max(of, number(m[1]+m[2]+m[3]))
	}
	return max(of, headerCount(src))
}

// sharedEnding resolves the names a synthesis writes that fit several
// agents of a directory of several runs, each the name followed by its
// run's ending ("fd-quality" beside fd-quality-billing and
// fd-quality-search): the ending that the most of them and of
// the agents it names (named) end with, two at least and more than any
// other ending, is its run's, and each such name is its agent of that
// ending.
func (r *run) sharedEnding(src []byte, names, named map[string]bool) []string {
	byEnding := map[string][]string{}
	for n := range names {
		for _, a := range r.s.AgentsCompleted {
			la := strings.ToLower(a)
			end, ok := strings.CutPrefix(la, n+"-")
			if !ok && !strings.HasPrefix(n, "fd-") {
				end, ok = strings.CutPrefix(la, "fd-"+n+"-")
			}
			if ok && end != "" {
				byEnding[end] = append(byEnding[end], a)
			}
		}
	}
	score := func(end string) int {
		k := len(byEnding[end])
		for a := range named {
			if strings.HasSuffix(strings.ToLower(a), "-"+end) {
				k++
			}
		}
		return k
	}
	var best []string // the endings of the highest score
	for _, end := range slices.Sorted(maps.Keys(byEnding)) {
		switch k := score(end); {
		case len(best) == 0 || k > score(best[0]):
			best = []string{end}
		case k == score(best[0]):
			best = append(best, end)
		}
	}
	if len(best) > 1 {
		// Runs of the same agents: the one whose topic, the words of
		// its ending, the synthesis writes ("Broadcast Confirmation
		// Flow Plan" for the -broadcast-plan reports).
		lower := strings.ToLower(string(src))
		best = slices.DeleteFunc(best, func(end string) bool {
			return slices.ContainsFunc(strings.Split(end, "-"), func(w string) bool { return !hasToken(lower, w) })
		})
	}
	if len(best) != 1 || score(best[0]) < 2 {
		return nil
	}
	return byEnding[best[0]]
}

// rosterItemRe finds an item of a roster: a list item that gives an
// agent's label and its status ("- Architecture: VALID (4 HIGH)",
// "- **fd-ops**: completed").
var rosterItemRe = regexp.MustCompile(`(?im)^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\**([A-Za-z][A-Za-z0-9 &/_-]{1,40}?)\**[ \t]*:[ \t]*\**(?:valid|invalid|completed?|failed|safe|risky|needs[-_ ](?:changes|attention)|clean|passed?)\b`)

// headerCountRe finds how many agents a synthesis's header says reviewed:
// "Plan review (3 agents)", "Reviewers: 8 review agents",
// "Agents: 7 domain reviewers", "Five agents reviewed the plan".
var headerCountRe = regexp.MustCompile(`(?i)\b(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:[a-z][\w-]*\s+){0,2}(?:agents|reviewers)\b`)

// headerCount returns the largest count of agents the header of a
// synthesis states (headerCountRe): the lines before its first "## "
// heading, its YAML front matter left out. 0 when it states none.
func headerCount(src []byte) int {
	r := &reader{text: string(src), block: -1}
	if _, ok := r.skipFrontMatter(); !ok {
		r.pos = 0
	}
	n := 0
	for r.pos <= len(r.text) {
		var l string
		l, r.pos = r.lineAt(r.pos)
		if strings.HasPrefix(strings.TrimSpace(l), "## ") {
			break
		}
		for _, m := range headerCountRe.FindAllStringSubmatch(l, 4) {
			n = max(n, number(m[1]))
		}
	}
	return n
}

// covered returns the agents a synthesis covers when the run directory
// holds more completed agents than it says it was written from (its
// largest "N/M" count: M, or "4 launched", "Reviewed by 7 agents"): the
// agents it names anywhere, by name or label, or by the one word of its
// name. A directory that keeps several runs' reports side by side otherwise
// makes every other run's blocker "missing". Nil when the synthesis
// covers the whole directory, or names no agent.
func (r *run) covered(src []byte, claims []Claim) map[string]bool {
	of := r.statedAgents(src, claims)
	if of == 0 || of >= len(r.s.AgentsCompleted) {
		return nil
	}
	named, unresolved := map[string]bool{}, map[string]bool{}
	for i := range claims {
		for _, l := range claims[i].Agents {
			if a, ok := r.agents.resolve(l); ok {
				named[a] = true
			} else {
				unresolved[strings.ToLower(l)] = true
			}
		}
	}
	for l := range strings.SplitSeq(string(src), "\n") {
		if !strings.Contains(l, "-") {
			continue
		}
		for _, tok := range strings.FieldsFunc(l, func(r rune) bool {
			return r == ' ' || r == ',' || r == '(' || r == ')' || r == '*' || r == '`' || r == ';' || r == ':' || r == '[' || r == ']' || r == '|'
		}) {
			if tok = strings.Trim(tok, ".+"); strings.Contains(tok, "-") && agentNameRe.MatchString(tok) {
				if a, ok := r.agents.resolve(tok); ok {
					named[a] = true
				} else {
					unresolved[strings.ToLower(tok)] = true
				}
			}
		}
	}
	for _, m := range rosterItemRe.FindAllStringSubmatch(string(src), 64) {
		if a, ok := r.agents.resolve(m[1]); ok {
			named[a] = true
		} else {
			unresolved[strings.ReplaceAll(strings.ToLower(strings.TrimSpace(m[1])), " ", "-")] = true
		}
	}
	for _, a := range r.sharedEnding(src, unresolved, named) {
		named[a] = true
	}
	// An agent named in one word ("oracle") is named by that word, in any
	// case, written whole ("**Oracle**: completed"; not "performance-oracle").
	lower := strings.ToLower(string(src))
	for _, a := range r.s.AgentsCompleted {
		if !strings.ContainsAny(a, "-_") && hasToken(lower, strings.ToLower(a)) {
			named[a] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	return named
}

// ownRun returns the agents of the synthesis's own run when RUN holds
// reports of several runs, and how it tells: the roster its front matter
// lists (agents_launched, agents, reviewers), else the agents covered
// names (it says it was written from fewer agents than RUN holds). Nil
// when it covers the whole directory, or names none of its agents.
func (r *run) ownRun(src []byte, claims []Claim) (map[string]bool, string) {
	keep := map[string]bool{}
	for _, n := range frontMatterRoster(src) {
		if a, ok := r.agents.resolve(n); ok {
			keep[a] = true
		}
	}
	if len(keep) > 0 && len(keep) < len(r.s.AgentsCompleted) {
		return keep, "the roster of its front matter"
	}
	if keep := r.covered(src, claims); keep != nil {
		return keep, "by its count, the agents it names"
	}
	return nil, ""
}

// untold says, when a synthesis states it was written from fewer agents
// than RUN holds but verify could not tell which (it names none of them),
// that it was judged against the whole directory; "" otherwise.
func (r *run) untold(src []byte, claims []Claim) string {
	if of := r.statedAgents(src, claims); of > 0 && of < len(r.s.AgentsCompleted) {
		return fmt.Sprintf("RUN holds %d completed agents; the synthesis says it was written from %d but names none of them: judged against the whole directory (pass --run to choose its reports)", len(r.s.AgentsCompleted), of)
	}
	return ""
}

// restrictRun returns the run s holds of the agents keep alone: their
// agents, findings (a finding merged across runs keeps the sources of
// keep, at the most severe of their severities) and improvements.
func restrictRun(s *synth.Synthesis, keep map[string]bool) *synth.Synthesis {
	out := *s
	out.Agents = slices.DeleteFunc(slices.Clone(s.Agents), func(a synth.AgentResult) bool { return !keep[a.Name] })
	out.AgentsCompleted = slices.DeleteFunc(slices.Clone(s.AgentsCompleted), func(a string) bool { return !keep[a] })
	out.Findings = nil
	for _, f := range s.Findings {
		if !slices.ContainsFunc(f.Agents, func(a string) bool { return keep[a] }) {
			continue
		}
		if slices.ContainsFunc(f.Agents, func(a string) bool { return !keep[a] }) {
			f.Agents = slices.DeleteFunc(slices.Clone(f.Agents), func(a string) bool { return !keep[a] })
			f.Sources = slices.DeleteFunc(slices.Clone(f.Sources), func(src synth.Source) bool { return !keep[src.Agent] })
			if len(f.Sources) > 0 {
				f.Severity = f.Sources[0].Severity
				for _, src := range f.Sources[1:] {
					if src.Severity.Rank() < f.Severity.Rank() {
						f.Severity = src.Severity
					}
				}
			}
			f.ConvergenceDisplay = fmt.Sprintf("%d/%d", len(f.Agents), len(out.AgentsCompleted))
		}
		out.Findings = append(out.Findings, f)
	}
	out.Improvements = nil
	for _, imp := range s.Improvements {
		if imp.Agents = slices.DeleteFunc(slices.Clone(imp.Agents), func(a string) bool { return !keep[a] }); len(imp.Agents) > 0 {
			out.Improvements = append(out.Improvements, imp)
		}
	}
	return &out
}

// restrictReports returns the report texts of the agents keep alone.
func restrictReports(texts map[string][]byte, keep map[string]bool) map[string][]byte {
	out := map[string][]byte{}
	for a, t := range texts {
		if keep[a] {
			out[a] = t
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}

// identRe finds a name from code in a title: camelCase, snake_case, a
// call, a type of three capitalised parts or more ("skipOnboarding",
// "parse_frontmatter", "navigateBack()", "AgentNotFoundMsg"; not a
// product's name such as "GitHub" or "DeepSeek").
var identRe = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:[A-Z][A-Za-z0-9]*)+\b|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[A-Za-z][A-Za-z0-9]*\(\)|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}\b`)

// maxCodeOwners is how many findings' titles may name an identifier for
// a claim that writes it to be tied to them all.
const maxCodeOwners = 3

// codeNames returns the names from code a text writes (identRe), of six
// letters or more.
func codeNames(s string) []string {
	var out []string
	for _, id := range identRe.FindAllString(s, -1) {
		id = strings.TrimSuffix(id, "()")
		if len(id) >= 6 && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// codeOwners maps each name from code a finding's title writes to the
// findings whose titles write it (built once).
func (r *run) codeOwners() map[string][]int {
	if r.owners != nil {
		return r.owners
	}
	r.owners = map[string][]int{}
	for j := range r.cands {
		cd := &r.cands[j]
		if cd.f == nil {
			continue
		}
		for _, t := range cd.raw {
			for _, id := range codeNames(t) {
				if !slices.Contains(r.owners[id], j) {
					r.owners[id] = append(r.owners[id], j)
				}
			}
		}
	}
	return r.owners
}

// identified marks the blockers whose title names a thing of the code
// that no other finding's title names, when the synthesis names it too:
// two defects rarely share an identifier, and a synthesis that folds a
// blocker into another item ("skipOnboarding flag is dead code") keeps it.
func (r *run) identified(src []byte, present []bool) {
	owners := r.codeOwners()
	if len(owners) == 0 {
		return
	}
	// The synthesis's words, case and all, once: looking each identifier
	// up in the whole text would cost identifiers × text.
	said := map[string]bool{}
	for w := range strings.FieldsFuncSeq(string(src), func(r rune) bool { return r > 0x7f || !isWordByte(byte(r)) }) {
		if _, ok := owners[w]; ok {
			said[w] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(said)) {
		js := owners[id]
		if len(js) != 1 || present[js[0]] || r.cands[js[0]].f.Severity.Rank() > 1 {
			continue
		}
		present[js[0]] = true
		trace(js[0], "the synthesis names %s, which only its title names", id)
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// debugClaim, when set (by tests), sees each claim's match and verdict.
var debugClaim func(r *run, c *Claim, m matched, ps []Problem)

// tracePresent, when set (by tests), hears why each finding counts as
// present in the synthesis.
var tracePresent func(cand int, why string)

func trace(j int, format string, args ...any) {
	if tracePresent != nil {
		tracePresent(j, fmt.Sprintf(format, args...))
	}
}

// agentSevRe finds an agent name given a severity: "fd-a (P0)", "fd-a P1:",
// "product-skeptic Critical" (a blocker's word, read by parse.SeverityWord).
var agentSevRe = regexp.MustCompile(`\b([A-Za-z][a-z0-9]*(?:-[a-z0-9]+)+)\*{0,2}\s*\(?\s*(P[0-3]|[Cc]ritical|CRITICAL|[Hh]igh|HIGH)\b`)

// restated reports whether some line of the synthesis restates one of a
// finding's titles (holdsTitle). A review of ad-hoc agents writes
// "ad-hoc agent" and "project" on every other line: a line holding them
// and one word of a blocker's title does not state it. Nor does a claim
// of one agent's finding (otherClaim), a line that is not a claim and
// names other agents only (otherAgents), or a field of a claim tied to
// other findings (otherField), state another blocker by its words.
func (r *run) restated(j int, lines *corpus) bool {
	at, ok := r.holdsTitle(j, lines, func(i int) bool {
		n := int(lines.lines[i])
		return r.otherClaim(n, j) || r.otherAgents(n, j) || r.otherField(n, j)
	})
	if ok {
		trace(j, "synthesis line %d holds its title's words", at)
	}
	return ok
}

// holdsTitle reports whether a paragraph of c that skip does not leave
// out holds one of finding j's titles, and the line it starts at: three
// of the title's words and three in ten, two of them (or all, when fewer
// are left) words the run's titles do not use across agents
// (topicWords).
func (r *run) holdsTitle(j int, c *corpus, skip func(i int) bool) (int32, bool) {
	cd := &r.cands[j]
	topic := r.topicWords()
	for _, t := range cd.raw {
		ws := words(t)
		var own []string
		for _, w := range ws {
			if !topic[w] && !slices.Contains(own, w) {
				own = append(own, w)
			}
		}
		need := min(2, len(own))
		found := false
		at := int32(0)
		c.each(ws, func(i int) bool {
			if skip(i) {
				return true
			}
			found = c.overlapWith(i, own) >= need
			at = c.lines[i]
			return !found
		})
		if found {
			return at, true
		}
	}
	return 0, false
}

// sectionStates reports whether a section of the synthesis that names
// one of finding j's agents (a heading and the lines under it, up to the
// next heading) holds its title by holdsTitle, its lines' words taken
// together. A theme's section quotes one finding of each agent it names
// ("Defer ad-hoc agent generation": "user-advocate (C-2): …") while its
// heading and the other agents' lines word that agent's other finding on
// the theme (a quality floor for generated agents, as another agent's
// "no quality gate for ad-hoc agents"): the section states it, though no
// line of it does alone.
func (r *run) sectionStates(j int) bool {
	if r.sections == nil {
		r.sections, r.sectionAgents = newCorpus(), nil
		r.sections.names = []string{"synthesis"}
		var ws []string
		var agents []string
		start := int32(0)
		flush := func() {
			if len(agents) > 0 && start > 0 {
				r.sections.addAt(0, ws, start)
				r.sectionAgents = append(r.sectionAgents, agents)
			}
			ws, agents = nil, nil
		}
		for n, l := range r.srcLines {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				flush()
				start = int32(n + 1)
			}
			for _, w := range words(l) {
				if !slices.Contains(ws, w) {
					ws = append(ws, w)
				}
			}
			as, _ := r.agentsIn(l)
			for _, a := range as {
				if !slices.Contains(agents, a) {
					agents = append(agents, a)
				}
			}
		}
		flush()
	}
	topic := r.topicWords()
	heads := func(i int) bool {
		// The heading words what the section is about: one of them, the
		// blocker's own (not the review's topic), compared folded.
		var own []string
		for _, w := range words(r.srcLines[r.sections.lines[i]-1]) {
			if !topic[w] {
				own = append(own, w)
			}
		}
		return r.cands[j].sharesFolded(own) > 0
	}
	at, ok := r.holdsTitle(j, r.sections, func(i int) bool {
		return !slices.ContainsFunc(r.sectionAgents[i], func(a string) bool { return slices.Contains(r.cands[j].agents, a) }) || !heads(i)
	})
	if ok {
		trace(j, "the section at synthesis line %d names its agent and holds its title's words", at)
	}
	return ok
}

// otherField reports whether line n of the synthesis is a field of a
// claim ("- Fix: …", "**Location**: …": a label of commonFields and a
// colon, list marker and bold aside) that is tied to findings other than
// j: the claim nearest above it in the same block (no blank line or
// heading between). A claim's fix speaks of that claim's findings ("Fix:
// retry each webhook delivery with backoff" under a claim of dropped
// webhooks does not state another finding's "Queue worker retries with
// no backoff").
func (r *run) otherField(n, j int) bool {
	if _, claim := r.claimAt[n]; claim || n < 1 || n > len(r.srcLines) {
		return false
	}
	m := fieldLabelRe.FindStringSubmatch(strings.TrimLeft(strings.TrimSpace(r.srcLines[n-1]), "-*+ "))
	if m == nil || !commonFields[strings.ToLower(strings.TrimSpace(m[1]))] {
		return false
	}
	for k := n - 1; k >= 1; k-- {
		if t := strings.TrimSpace(r.srcLines[k-1]); t == "" || strings.HasPrefix(t, "#") {
			return false
		}
		if i, ok := r.claimAt[k]; ok {
			return !slices.Contains(r.matches[i].cands, j) && !slices.Contains(r.matches[i].weak, j)
		}
	}
	return false
}

// otherAgents reports whether line n of the synthesis, not a claim,
// names agents of the run and none of finding j's: a plan's item, a row
// of a table of questions, a recommendation says what those agents said
// ("| Token budget | 5 entries per agent (performance-oracle) |" does not
// state spec-flow's "Compounding agent has no token budget"). A claim's
// line is otherClaim's to judge: a claim often names fewer agents than
// said it.
func (r *run) otherAgents(n, j int) bool {
	if _, claim := r.claimAt[n]; claim || n < 1 || n > len(r.srcLines) {
		return false
	}
	as, _ := r.agentsIn(r.srcLines[n-1])
	return len(as) > 0 && !slices.ContainsFunc(as, func(a string) bool { return slices.Contains(r.cands[j].agents, a) })
}

// otherClaim reports whether line n of the synthesis is a claim that
// says one agent said it and is tied to findings of one agent, not of
// finding j's: its words are about that agent's finding. "Report has no
// format template (1/5 agents)", tied to fd-ux's finding, does not state
// fd-perf's "Prompt template duplicated across agents" because both write
// "template". (A claim counting several agents is often tied to fewer
// than it names: its words may be the others'.)
func (r *run) otherClaim(n, j int) bool {
	i, ok := r.claimAt[n]
	if !ok {
		return false
	}
	m := &r.matches[i]
	// A claim says one agent said it by its count ("(1/5 agents)"), or,
	// counting none, by citing the IDs of one agent and naming no other
	// ("**fd-b B-2 [HIGH]**: …"); not an item of a who-said-what list,
	// which stands for its heading's theme, other agents' findings too.
	if c := &r.claims[i]; c.Count != 1 && (c.Count != 0 || c.quotes || len(c.Cites) == 0 || len(m.citers) != 1 ||
		slices.ContainsFunc(m.named, func(a string) bool { return a != m.citers[0] })) {
		return false
	}
	agents := map[string]bool{}
	for _, k := range append(slices.Clone(m.cands), m.weak...) {
		if slices.Contains(r.over[i], k) {
			continue
		}
		for _, a := range r.cands[k].agents {
			agents[a] = true
		}
	}
	for _, a := range m.named {
		agents[a] = true
	}
	return len(agents) == 1 && !slices.ContainsFunc(r.cands[j].agents, func(a string) bool { return agents[a] })
}

// topicWords returns the words of the run's titles that the findings of
// many agents use (a third of them, three at least): the topic of the
// review, not what one finding says.
func (r *run) topicWords() map[string]bool {
	if r.topic != nil {
		return r.topic
	}
	by := map[string][]string{} // word → the agents whose titles use it
	for j := range r.cands {
		cd := &r.cands[j]
		if cd.f == nil {
			continue
		}
		for _, w := range cd.titleWords() {
			for _, a := range cd.agents {
				if !slices.Contains(by[w], a) {
					by[w] = append(by[w], a)
				}
			}
		}
	}
	need := max(3, (len(r.s.Agents)+2)/3)
	r.topic = map[string]bool{}
	for w, as := range by {
		if len(as) >= need {
			r.topic[w] = true
		}
	}
	return r.topic
}

var debugRestate func(j, k int)

// restatedBy returns a finding of the same agent, as severe, that the
// synthesis states and of which finding j is a restatement by its agent:
// j stands inside that finding's block (a consequence listed in its
// description), or the two titles share two words and the block of one
// holds most of the other's title (a conclusion or a summary table that
// lists it again in other words). -1 when none.
func (r *run) restatedBy(j int, present []bool) int {
	cd := &r.cands[j]
	ok := func(k int) bool {
		ck := &r.cands[k]
		return k != j && present[k] && ck.f != nil && ck.f.Severity.Rank() <= cd.f.Severity.Rank() &&
			slices.ContainsFunc(cd.agents, func(a string) bool { return slices.Contains(ck.agents, a) })
	}
	// Nested: a line of j's inside the block of a finding of its agent.
	for _, sj := range r.srcs {
		if sj.cand != j || sj.ref == "" {
			continue
		}
		line := refLine(sj.ref)
		for _, sk := range r.srcs {
			if sk.agent == sj.agent && ok(sk.cand) && sk.span[0] < line && line < sk.span[1] {
				return sk.cand
			}
		}
	}
	tw := cd.titleWords()
	best, bestK := 0.0, -1
	r.blocks.weighEach(tw, func(k int, v float64, n int) {
		if ok(k) && v > best && n >= 2 && r.cands[k].shares(tw) >= 2 {
			best, bestK = v, k
		}
	})
	for k := range r.cands {
		if !ok(k) || k == bestK {
			continue
		}
		kw := r.cands[k].titleWords()
		if len(kw) < 2 || cd.shares(kw) < 2 {
			continue
		}
		r.blocks.weighEach(kw, func(i int, v float64, n int) {
			if i == j && v > best && n >= 2 {
				best, bestK = v, k
			}
		})
	}
	if best >= stated {
		return bestK
	}
	return -1
}

// fixedSections returns the sections ("agent\x00section") under which an
// agent filed one blocker and an improvement the synthesis cites by ID, or
// states on a line that names that agent: the fix of that finding, stated
// in place of the defect ("fd-ux (IMP-1): Make Phase 5 silent" for "Phase
// 5 adds processing with no consent gate", both under "Phase 5 —
// Compound"; "Simplify Phase 4 (fd-ux)" tied to fd-ux's "Collapse Phase 4
// into one prompt", filed under "Phase 4", for its one blocker under
// "Phase 4: Steps 4.1–4.4"). A blocker's section is the improvement's, or
// a part of it ("Phase 4: …" under "Phase 4"). An improvement tied to a
// claim by its words only is not enough: its words are the fix's, and a
// synthesis that wants the fix may never state the defect.
func (r *run) fixedSections() map[string]bool {
	type blocker struct{ agent, section string }
	var blockers []blocker
	for j := range r.cands {
		if f := r.cands[j].f; f != nil {
			for _, s := range f.Sources {
				if s.Section != "" && s.Severity.Rank() <= 1 {
					blockers = append(blockers, blocker{s.Agent, s.Section})
				}
			}
		}
	}
	named := make([]bool, len(r.cands)) // matched by a claim naming its agent
	for i := range r.matches {
		m := &r.matches[i]
		for _, k := range m.cands {
			if imp := r.cands[k].imp; imp != nil && slices.ContainsFunc(imp.Agents, func(a string) bool { return slices.Contains(m.named, a) }) {
				named[k] = true
			}
		}
	}
	out := map[string]bool{}
	for k := range r.cands {
		imp := r.cands[k].imp
		if imp == nil || imp.Section == "" || !r.citedByID[k] && !named[k] {
			continue
		}
		for _, a := range imp.Agents {
			var under []blocker
			for _, b := range blockers {
				if b.agent == a && sectionUnder(b.section, imp.Section) {
					under = append(under, b)
				}
			}
			if len(under) == 1 {
				out[a+"\x00"+under[0].section] = true
			}
		}
	}
	return out
}

// countedFixes marks the blockers a claim counts without naming them: a
// claim that names no agent and counts one agent more than the findings
// it is tied to come from ("Phase 4 is 115 lines (2/5 agents)", tied to
// fd-simplicity's finding filed under "Phase 4: Cross-AI Escalation")
// counts the one other agent that filed an improvement under that
// section (its part before a colon: "Phase 4") and one blocker there
// (fd-ux's "Collapse Phase 4 prompts into one decision" and its P1 on
// the prompts, under "Phase 4: Steps 4.1–4.4"): it merged that agent's
// fix in, and states its blocker. Nothing when two agents fit.
func (r *run) countedFixes(present []bool) {
	// fixes: an improvement's section (lower case) → per agent that filed
	// one there, its one blocker under that section (-1: none or several).
	var fixes map[string]map[string]int
	for i := range r.matches {
		m := &r.matches[i]
		c := &r.claims[i]
		if c.Count == 0 || len(m.named) > 0 || len(m.cands) == 0 {
			continue
		}
		agents := map[string]bool{}
		var sections []string
		for _, j := range m.cands {
			for _, a := range r.cands[j].agents {
				agents[a] = true
			}
			if f := r.cands[j].f; f != nil {
				for _, src := range f.Sources {
					sec, _, _ := strings.Cut(src.Section, ":")
					if sec = strings.ToLower(strings.TrimSpace(sec)); sec != "" && !slices.Contains(sections, sec) {
						sections = append(sections, sec)
					}
				}
			}
		}
		if c.Count != len(agents)+1 || len(sections) == 0 {
			continue
		}
		if fixes == nil {
			fixes = r.fixIndex()
		}
		found := -1
		for _, sec := range sections {
			for a, j := range fixes[sec] {
				if agents[a] || j < 0 || j == found {
					continue
				}
				if found >= 0 {
					found = -2 // two agents fit: nothing
					break
				}
				found = j
			}
			if found == -2 {
				break
			}
		}
		if found >= 0 {
			present[found] = true
			trace(found, "claim %d counts its agent for its fix", c.Line)
		}
	}
}

// fixIndex maps each improvement's section (lower case) to the agents
// that filed one there and, for each, its one blocker under that section
// (sectionUnder), or -1 when it has none or several.
func (r *run) fixIndex() map[string]map[string]int {
	type filed struct {
		j       int
		section string
	}
	blockers := map[string][]filed{} // agent → its blockers
	for j := range r.cands {
		if f := r.cands[j].f; f != nil && f.Severity.Rank() <= 1 {
			for _, src := range f.Sources {
				blockers[src.Agent] = append(blockers[src.Agent], filed{j, src.Section})
			}
		}
	}
	out := map[string]map[string]int{}
	for k := range r.cands {
		imp := r.cands[k].imp
		if imp == nil || strings.TrimSpace(imp.Section) == "" {
			continue
		}
		sec := strings.ToLower(strings.TrimSpace(imp.Section))
		for _, a := range imp.Agents {
			if out[sec] == nil {
				out[sec] = map[string]int{}
			}
			if _, done := out[sec][a]; done {
				continue
			}
			one := -1
			for _, b := range blockers[a] {
				if sectionUnder(b.section, imp.Section) {
					if one >= 0 && one != b.j {
						one = -1
						break
					}
					one = b.j
				}
			}
			out[sec][a] = one
		}
	}
	return out
}

// sectionUnder reports whether a finding filed under section s falls
// under section of: the same, or a part of it ("Phase 4: Steps 4.1–4.4"
// under "Phase 4").
func sectionUnder(s, of string) bool {
	s, of = strings.ToLower(strings.TrimSpace(s)), strings.ToLower(strings.TrimSpace(of))
	return s == of || strings.HasPrefix(s, of) && strings.HasPrefix(strings.TrimSpace(s[len(of):]), ":")
}

// proseOnly reports whether every agent of a finding wrote its report
// without a usable findings index (malformed or unreadable: read by SPEC
// 2.3, its findings of low confidence).
func (r *run) proseOnly(f *synth.Finding) bool {
	for _, a := range f.Agents {
		for _, ag := range r.s.Agents {
			if ag.Name == a && ag.Status != parse.StatusMalformed && ag.Status != parse.StatusUnreadable {
				return false
			}
		}
	}
	return true
}

// siblingsCited reports whether the synthesis cites, by ID, two other
// blockers of each agent of candidate j at least, and half of them, j
// having an ID of its own:
// a synthesis that cites that agent's findings by the IDs its report
// gives them ("(Queue-Health F3)") and never this one. Its report
// has no findings index, but the reader read this finding's ID from the
// same structure as theirs (a "## Finding 5: …" heading, a summary
// table's row): it is no line restating another, and dropping it is an
// error, not a note.
func (r *run) siblingsCited(j int) bool {
	f := r.cands[j].f
	if f == nil || len(f.Agents) == 0 {
		return false
	}
	for _, a := range f.Agents {
		own := false
		for _, src := range f.Sources {
			if src.Agent == a && src.ID != "" {
				own = true
			}
		}
		if !own {
			return false
		}
		bc := r.blockersCited()[a]
		n, of := bc[0], bc[1]
		if f.Severity.Rank() <= 1 {
			// j itself is one of them, and not cited.
			of--
		}
		if n < 2 || 2*n < of {
			return false
		}
	}
	return true
}

// blockersCited counts, per agent, the blockers the synthesis cites by
// ID and all its blockers, once (siblingsCited asks for each finding
// left out).
func (r *run) blockersCited() map[string][2]int {
	if r.blockerCites != nil {
		return r.blockerCites
	}
	r.blockerCites = map[string][2]int{}
	for k := range r.cands {
		if r.cands[k].f == nil || r.cands[k].f.Severity.Rank() > 1 {
			continue
		}
		for _, a := range r.cands[k].agents {
			v := r.blockerCites[a]
			v[1]++
			if r.citedByID[k] {
				v[0]++
			}
			r.blockerCites[a] = v
		}
	}
	return r.blockerCites
}

// refLine returns the line of a ref ("fd-a.md:12"), or 0.
func refLine(ref string) int {
	_, n, _ := strings.Cut(ref, ":")
	k, _ := strconv.Atoi(n)
	return k
}
