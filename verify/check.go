package verify

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Kind is the kind of a problem with a synthesis.
type Kind string

// The kinds of problem, in the order the report lists them. Unverifiable is
// a note; the others are ungrounded claims.
const (
	Invented        Kind = "invented"
	SeverityRaised  Kind = "severity-raised"
	SeverityDropped Kind = "severity-dropped"
	MissingBlocker  Kind = "missing-blocker"
	WrongCount      Kind = "wrong-count"
	Unverifiable    Kind = "unverifiable"
)

// Kinds lists every kind, in report order.
var Kinds = []Kind{Invented, SeverityRaised, SeverityDropped, MissingBlocker, WrongCount, Unverifiable}

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
	// Reports are the completed agents' report texts by agent name: a claim
	// that matches no finding but that a report states is unverifiable, not
	// invented. Nil: every such claim is invented.
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
}

// Ungrounded reports whether any problem other than unverifiable was found:
// the gate trips.
func (r *Result) Ungrounded() bool {
	for _, p := range r.Problems {
		if p.Kind != Unverifiable {
			return true
		}
	}
	return false
}

// candidate is one run finding or improvement with its prepared titles.
type candidate struct {
	f      *synth.Finding     // nil for an improvement
	imp    *synth.Improvement // nil for a finding
	titles []parse.Title
	kws    map[string]bool
	refs   []synth.Ref
}

func (c *candidate) key() string {
	if c.f != nil {
		return c.f.Key
	}
	return c.imp.Key
}

// Check verifies a synthesis against the run (see the package documentation
// for the rules). It is pure and deterministic.
func Check(in Input) *Result {
	r := &Result{Claims: Claims(in.Synthesis), Tally: map[Kind]int{}}
	for _, k := range Kinds {
		r.Tally[k] = 0
	}
	if in.Run == nil {
		in.Run = &synth.Synthesis{}
	}
	cands := candidates(in.Run)
	agents := in.Run.AgentsCompleted
	matched := make([]bool, len(cands))
	reports := paragraphsOf(in.Reports)
	for i := range r.Claims {
		c := &r.Claims[i]
		j := match(c, cands)
		var ps []Problem
		switch {
		case j < 0:
			kind, msg := Invented, "no finding of the run matches it, and no agent's report states it"
			by := supportedBy(keywordsOf(c.Title), reports)
			if by == "" {
				by = supportedBy(keywordsOf(attributionRe.ReplaceAllString(c.Text, " ")), reports)
			}
			if by != "" {
				kind, msg = Unverifiable, "no finding of the run matches it; "+by+"'s report states it without a severity fluxwatch could read"
			}
			ps = append(ps, Problem{Kind: kind, Message: msg})
		default:
			matched[j] = true
			ps = append(ps, judge(c, cands[j], agents, supporters(c, cands, reports))...)
		}
		if len(ps) == 0 {
			r.Grounded++
		}
		for _, p := range ps {
			p.Line, p.Claim = c.Line, c.Title
			if j >= 0 {
				p.Finding = cands[j].key()
			}
			r.Problems = append(r.Problems, p)
		}
	}
	lines := synthesisLines(in.Synthesis)
	for j, cd := range cands {
		f := cd.f
		if matched[j] || f == nil || f.Severity.Rank() > 1 {
			continue
		}
		if restated(cd, lines) {
			continue
		}
		r.Problems = append(r.Problems, Problem{
			Kind:    MissingBlocker,
			Message: fmt.Sprintf("the run's %s %s (%s agents: %s) does not appear", f.Severity, label(f), f.ConvergenceDisplay, strings.Join(f.Agents, ", ")),
			Finding: f.Key,
		})
	}
	sort.SliceStable(r.Problems, func(a, b int) bool {
		pa, pb := r.Problems[a], r.Problems[b]
		if pa.Line != pb.Line {
			return pa.Line < pb.Line
		}
		return kindRank(pa.Kind) < kindRank(pb.Kind)
	})
	for _, p := range r.Problems {
		r.Tally[p.Kind]++
	}
	return r
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

// candidates prepares the run's findings, then its improvements.
func candidates(s *synth.Synthesis) []candidate {
	var cs []candidate
	for i := range s.Findings {
		f := &s.Findings[i]
		c := candidate{f: f, kws: map[string]bool{}}
		c.add(f.Title)
		for _, src := range f.Sources {
			c.add(src.Title)
		}
		for _, r := range f.FileRefs {
			c.refs = append(c.refs, synth.ParseRef(r))
		}
		cs = append(cs, c)
	}
	for i := range s.Improvements {
		imp := &s.Improvements[i]
		c := candidate{imp: imp, kws: map[string]bool{}}
		c.add(imp.Title)
		cs = append(cs, c)
	}
	return cs
}

func (c *candidate) add(title string) {
	t := parse.NewTitle(title)
	for i := range c.titles {
		if c.titles[i].Norm() == t.Norm() {
			return
		}
	}
	c.titles = append(c.titles, t)
	for _, k := range t.Keywords() {
		c.kws[k] = true
	}
}

// match returns the index of the candidate a claim matches, or -1.
func match(c *Claim, cands []candidate) int {
	ct := parse.NewTitle(c.Title)
	var refs []synth.Ref
	for _, r := range c.FileRefs {
		refs = append(refs, synth.ParseRef(r))
	}
	best, bestShared, bestTitle := -1, -1, false
	for j := range cands {
		cd := &cands[j]
		shared := 0
		for _, k := range ct.Keywords() {
			if cd.kws[k] {
				shared++
			}
		}
		byTitle := false
		for i := range cd.titles {
			if ct.Matches(&cd.titles[i]) {
				byTitle = true
				break
			}
		}
		if !byTitle && (shared == 0 || !refsOverlap(refs, cd.refs)) {
			continue
		}
		// A title match beats a file-ref match; then more shared keywords;
		// then a finding over an improvement (findings come first).
		if best < 0 || (byTitle && !bestTitle) || (byTitle == bestTitle && shared > bestShared) {
			best, bestShared, bestTitle = j, shared, byTitle
		}
	}
	return best
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

// supporters are the agents that said what a claim says: those of every
// finding it matches (the run may keep apart, as two findings, what one
// synthesis line merges) and those whose report has a paragraph restating
// its title. A count is wrong only beyond them.
func supporters(c *Claim, cands []candidate, reports *corpus) map[string]bool {
	set := map[string]bool{}
	ct := parse.NewTitle(c.Title)
	for j := range cands {
		cd := &cands[j]
		if cd.f == nil {
			continue
		}
		for i := range cd.titles {
			if ct.Matches(&cd.titles[i]) {
				for _, a := range cd.f.Agents {
					set[a] = true
				}
				break
			}
		}
	}
	reports.each(ct.Keywords(), func(i int) bool {
		set[reports.owner(i)] = true
		return true
	})
	return set
}

// judge checks a matched claim's severity and counts; support are the
// agents that said it (see supporters).
func judge(c *Claim, cd candidate, completed []string, support map[string]bool) []Problem {
	var ps []Problem
	if cd.imp != nil {
		if c.Severity != "" && c.Severity.Rank() <= 2 {
			ps = append(ps, Problem{Kind: SeverityRaised, Message: fmt.Sprintf(
				"states %s, but the run has it only as an improvement of %s", c.Severity, strings.Join(cd.imp.Agents, ", "))})
		}
		return ps
	}
	f := cd.f
	if c.Severity != "" {
		hi, lo := f.Severity, f.Severity
		for _, s := range f.Sources {
			if s.Severity.Rank() > lo.Rank() {
				lo = s.Severity
			}
		}
		switch {
		case c.Severity.Rank() < hi.Rank():
			ps = append(ps, Problem{Kind: SeverityRaised, Message: fmt.Sprintf(
				"states %s, but no agent rated it above %s (%s)", c.Severity, hi, sourceSeverities(f))})
		case c.Severity.Rank() > lo.Rank():
			ps = append(ps, Problem{Kind: SeverityDropped, Message: fmt.Sprintf(
				"states %s, but every agent rated it %s or higher (%s)", c.Severity, lo, sourceSeverities(f))})
		}
	}
	for _, a := range f.Agents {
		support[a] = true
	}
	var wrong []string
	switch {
	case c.Count > len(support):
		wrong = append(wrong, fmt.Sprintf("claims %d agents, the run has %d (%s)", c.Count, f.Convergence, strings.Join(f.Agents, ", ")))
		if len(support) > f.Convergence {
			wrong[0] += fmt.Sprintf("; at most %d agents say it in any words (%s)", len(support), strings.Join(slices.Sorted(maps.Keys(support)), ", "))
		}
	case c.Count > 0 && c.Count < f.Convergence:
		wrong = append(wrong, fmt.Sprintf("claims %d agents, the run has %d (%s)", c.Count, f.Convergence, strings.Join(f.Agents, ", ")))
	}
	if c.Of > 0 && c.Of != len(completed) {
		wrong = append(wrong, fmt.Sprintf("counts against %d agents, the run completed %d", c.Of, len(completed)))
	}
	for _, name := range c.Agents {
		a, ok := resolve(name, completed)
		if ok && !support[a] {
			wrong = append(wrong, fmt.Sprintf("names %s, which did not report it", a))
		}
	}
	if len(wrong) > 0 {
		ps = append(ps, Problem{Kind: WrongCount, Message: strings.Join(wrong, "; ")})
	}
	return ps
}

func sourceSeverities(f *synth.Finding) string {
	parts := make([]string, 0, len(f.Sources))
	for _, s := range f.Sources {
		parts = append(parts, s.Agent+" "+string(s.Severity))
	}
	return strings.Join(parts, ", ")
}

// resolve maps a name a synthesis uses to a run agent: the same name, or the
// only agent whose hyphenated name holds it as whole words ("quality" →
// "fd-v2-quality", "code-simplicity" → "code-simplicity-reviewer").
func resolve(name string, agents []string) (string, bool) {
	found := ""
	for _, a := range agents {
		if a == name {
			return a, true
		}
		if strings.Contains("-"+a+"-", "-"+name+"-") {
			if found != "" {
				return "", false
			}
			found = a
		}
	}
	return found, found != ""
}

// attributionRe matches a parenthesised attribution or count ("(2/3
// agents: architecture, quality)"): agent names are not what a claim says.
var attributionRe = regexp.MustCompile(`\([^()]*\bagents?\b[^()]*\)`)

// keywordsOf returns the keywords of a title.
func keywordsOf(title string) []string {
	t := parse.NewTitle(title)
	return t.Keywords()
}

// paragraph is the keyword set of one paragraph of a report.
type paragraph map[string]bool

// paragraphsOf splits each report into paragraphs (blank-line separated;
// each list item and table row on its own), agents sorted by name.
func paragraphsOf(reports map[string][]byte) *corpus {
	c := newCorpus()
	for _, n := range slices.Sorted(maps.Keys(reports)) {
		c.names = append(c.names, n)
		for _, p := range paragraphs(reports[n]) {
			c.add(len(c.names)-1, p)
		}
	}
	return c
}

func paragraphs(src []byte) []paragraph {
	var out []paragraph
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, wordSet(strings.Join(cur, " ")))
			cur = cur[:0]
		}
	}
	for l := range strings.SplitSeq(string(src), "\n") {
		t := strings.TrimSpace(l)
		if _, item := listItem(t); item || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#") {
			flush()
			out = append(out, wordSet(t))
			continue
		}
		if t == "" {
			flush()
			continue
		}
		cur = append(cur, t)
	}
	flush()
	return out
}

func wordSet(s string) paragraph {
	p := paragraph{}
	for w := range strings.FieldsSeq(parse.Normalize(s)) {
		p[stem(w)] = true
	}
	return p
}

// stem folds a plural into its singular, crudely ("conditions" →
// "condition", "categories" → "category"), for the restatement rule only:
// matching claims to findings is the title rule's alone.
func stem(w string) string {
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// holds reports whether a paragraph restates keywords: at least three of
// them (all, when there are fewer) and at least half, plurals folded.
func (p paragraph) holds(kws []string) bool {
	if len(kws) == 0 {
		return false
	}
	n := 0
	for _, k := range kws {
		if p[stem(k)] {
			n++
		}
	}
	return n >= holdsNeed(len(kws))
}

// holdsNeed is how many of n keywords a paragraph must hold (holds).
func holdsNeed(n int) int { return max(min(3, n), (n+1)/2) }

// corpus is a set of paragraphs (of the agents' reports, or the lines of
// the synthesis) indexed by word, to find those that restate keywords
// without trying each one: a paragraph that holds need of n keywords holds
// at least one of any n-need+1 of them, so only the paragraphs holding one
// of the n-need+1 rarest are tried. Trying every paragraph for every claim
// made a synthesis of 1,000 claims against a 4.7 MB report take 80 s.
type corpus struct {
	paras  []paragraph
	owners []int              // owners[i]: whose paragraph i is, an index into names
	names  []string           // the agents, sorted
	posts  map[string][]int32 // word → the paragraphs holding it, ascending
	seen   []uint32           // seen[i] == gen: paragraph i was tried in this search
	gen    uint32
}

func newCorpus() *corpus { return &corpus{posts: map[string][]int32{}} }

func (c *corpus) add(owner int, p paragraph) {
	i := int32(len(c.paras))
	c.paras = append(c.paras, p)
	c.owners = append(c.owners, owner)
	for w := range p {
		c.posts[w] = append(c.posts[w], i)
	}
}

func (c *corpus) owner(i int) string { return c.names[c.owners[i]] }

// each calls f with every paragraph (its index) that holds kws, until f
// returns false.
func (c *corpus) each(kws []string, f func(i int) bool) {
	if len(kws) == 0 {
		return
	}
	type word struct {
		n     int // how many of kws it stands for
		posts []int32
	}
	byStem := map[string]*word{}
	var words []*word
	for _, k := range kws {
		s := stem(k)
		w := byStem[s]
		if w == nil {
			w = &word{posts: c.posts[s]}
			byStem[s] = w
			words = append(words, w)
		}
		w.n++
	}
	slices.SortStableFunc(words, func(a, b *word) int { return len(a.posts) - len(b.posts) })
	if len(c.seen) < len(c.paras) {
		c.seen = make([]uint32, len(c.paras))
		c.gen = 0
	}
	if c.gen++; c.gen == 0 {
		clear(c.seen)
		c.gen = 1
	}
	cover := len(kws) - holdsNeed(len(kws)) + 1
	for _, w := range words {
		if cover <= 0 {
			break
		}
		cover -= w.n
		for _, i := range w.posts {
			if c.seen[i] == c.gen {
				continue
			}
			c.seen[i] = c.gen
			if c.paras[i].holds(kws) && !f(int(i)) {
				return
			}
		}
	}
}

// any reports whether some paragraph holds kws.
func (c *corpus) any(kws []string) bool {
	found := false
	c.each(kws, func(int) bool {
		found = true
		return false
	})
	return found
}

// supportedBy returns the first agent (by name) a paragraph of whose report
// restates kws, or "".
func supportedBy(kws []string, reports *corpus) string {
	first := -1
	reports.each(kws, func(i int) bool {
		if o := reports.owners[i]; first < 0 || o < first {
			first = o
		}
		return first > 0
	})
	if first < 0 {
		return ""
	}
	return reports.names[first]
}

// synthesisLines returns the keyword sets of a synthesis's lines.
func synthesisLines(src []byte) *corpus {
	c := newCorpus()
	for l := range strings.SplitSeq(string(src), "\n") {
		if strings.TrimSpace(l) != "" {
			c.add(0, wordSet(l))
		}
	}
	return c
}

// restated reports whether some line of the synthesis restates one of a
// finding's titles.
func restated(cd candidate, lines *corpus) bool {
	for i := range cd.titles {
		if lines.any(cd.titles[i].Keywords()) {
			return true
		}
	}
	return false
}
