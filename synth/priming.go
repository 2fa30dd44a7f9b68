package synth

import (
	"math"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// This file is the priming rule (independent vs primed agreement) and the
// yield of each agent: what the timeline knows of the bus, applied to the
// merged findings when a synthesis is taken.

// firstMatch is the first bus entry of one agent that matched a finding:
// its number and time (sec and nsec; timed false for an entry without one).
type firstMatch struct {
	seq   int
	agent string
	timed bool
	sec   int64
	nsec  int
}

// sawMatch notes that entry seq of agent, at the time given, matched the
// finding at position p. Entries arrive in bus order, so the first one of
// each agent is kept.
func (t *timeline) sawMatch(p, seq int, agent string, timed bool, sec int64, nsec int) {
	if t.firstBy == nil {
		t.firstBy = make([][]firstMatch, len(t.findings))
		t.firstSeen = make([]bitset, len(t.findings))
		t.busAgents = map[string]int{}
	}
	// By agent number, not by comparing names: a large bus matches a
	// finding many times over.
	a, ok := t.busAgents[agent]
	if !ok {
		a = len(t.busAgents)
		t.busAgents[agent] = a
	}
	seen := t.firstSeen[p]
	if seen.has(a) {
		return
	}
	if a/64 >= len(seen) {
		seen = append(seen, make(bitset, a/64+1-len(seen))...)
	}
	seen.add(a)
	t.firstSeen[p] = seen
	t.touch(p)
	timed, _ = t.clock.judge(timed, sec, nsec) // an implausible time counts as none (plausible.go)
	t.firstBy[p] = append(t.firstBy[p], firstMatch{seq: seq, agent: agent, timed: timed, sec: sec, nsec: nsec})
}

// primedBy returns the entry that primed agent b's report of a finding, of
// the first matching entries of each agent ms (in bus order), b's report
// having finished at sec, nsec; nil when b is independent. The rule:
//   - the first matching entry in bus order whose agent is not b, and that
//     b could have read: posted before b's report finished (its time is
//     earlier than the report's modification time), or without a time
//     (it cannot be dated, so it counts as readable: independence is never
//     guessed);
//   - unless b posted a matching entry itself earlier in bus order: an agent
//     that posted first is independent.
func primedBy(ms []firstMatch, b string, sec int64, nsec int) *firstMatch {
	for i := range ms {
		m := &ms[i]
		if m.agent == b {
			return nil
		}
		if !m.timed || m.sec < sec || m.sec == sec && m.nsec < nsec {
			return m
		}
	}
	return nil
}

// annotate completes s, whose findings are t's, with what the bus says of
// them: who discovered each, which agents were primed and by what, and the
// yield of each completed agent.
func (t *timeline) annotate(s *Synthesis) {
	for p := range s.Findings {
		t.annotateFinding(&s.Findings[p], p)
	}
	t.provenance(s)
	s.Yield = t.yield(s)
}

// annotateFinding annotates f, the finding at position p, as the merge
// left it: who discovered it, which of its agents were primed and by what.
func (t *timeline) annotateFinding(f *Finding, p int) {
	if by := t.discoveredBy[p]; by != nil {
		f.setMore(func(m *findingMore) { m.discoveredBy = by })
	}
	if p >= len(t.firstBy) || len(t.firstBy[p]) == 0 {
		return
	}
	ms := t.firstBy[p]
	var primed []Priming
	for _, a := range f.Agents {
		i, ok := t.acks.index[a]
		if !ok {
			continue
		}
		ag := t.acks.agents[i]
		if m := primedBy(ms, a, ag.sec, ag.nsec); m != nil {
			primed = append(primed, Priming{Agent: a, By: m.agent, Seq: m.seq})
		}
	}
	if len(primed) > 0 {
		f.setMore(func(m *findingMore) { m.primed = primed })
		f.Independent = f.Convergence - len(primed)
	}
}

// touch notes that the annotation of the finding at position p may have
// changed (takeTouched).
func (t *timeline) touch(p int) {
	if t.touched == nil {
		t.touched = make(bitset, (len(t.findings)+63)/64)
	}
	t.touched.add(p)
}

// takeTouched returns the positions of the findings whose annotation may
// have changed since it was last called, in order, and forgets them; all
// is set when that is not known (the first call on a timeline: a new one,
// or one rebased).
func (t *timeline) takeTouched() (ps []int, all bool) {
	all, t.taken = !t.taken, true
	ps = t.touched.members()
	t.touched = nil
	return ps, all
}

// yield returns the yield of each completed agent of s (whose findings are
// annotated), by agent name.
func (t *timeline) yield(s *Synthesis) []AgentYield {
	tokens := map[string]int64{}
	for _, a := range s.Agents {
		if a.Status.Completed() && a.tokens > 0 {
			tokens[a.Name] = a.tokens
		}
	}
	out := make([]AgentYield, len(t.acks.agents))
	for i, ag := range t.acks.agents {
		y := &out[i]
		y.Agent, y.Adjusted, y.Contradicted = ag.a.Name, t.adjustedBy[i], t.contradictedOf[ag.a.Name]
		if n, ok := tokens[ag.a.Name]; ok {
			y.Tokens = &n
		}
	}
	for _, f := range s.Findings {
		primed := map[string]bool{}
		for _, p := range f.Primed() {
			primed[p.Agent] = true
		}
		for _, a := range f.Agents {
			i, ok := t.acks.index[a]
			if !ok {
				continue
			}
			y := &out[i]
			y.Reported++
			switch {
			case primed[a]:
				y.Primed++
			case f.Convergence == 1:
				y.Unique++
			default:
				y.Independent++
			}
		}
	}
	for i := range out {
		y := &out[i]
		if y.Tokens != nil {
			per := func(n int) float64 { return math.Round(float64(n)*1e6/float64(*y.Tokens)) / 1e3 }
			y.Per1kTokens = &YieldPer1k{Reported: per(y.Reported), Unique: per(y.Unique), Independent: per(y.Independent)}
		}
	}
	slices.SortFunc(out, func(a, b AgentYield) int { return strings.Compare(a.Agent, b.Agent) })
	return out
}

// sawProvenance notes the model and run id an entry of agent declares; the
// first of each in bus order is kept.
func (t *timeline) sawProvenance(agent, model, runID string) {
	if t.busProv == nil {
		t.busProv = map[string]*[2]string{}
	}
	p := t.busProv[agent]
	if p == nil {
		p = &[2]string{}
		t.busProv[agent] = p
	}
	if p[0] == "" {
		p[0] = model
	}
	if p[1] == "" {
		p[1] = runID
	}
}

// provenanceOf is what a report declares of itself, unknown fields nil.
func provenanceOf(p parse.Provenance) Provenance {
	known := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return Provenance{Model: known(p.Model), PromptHash: known(p.PromptHash), ToolVersion: known(p.ToolVersion),
		Commit: known(p.Commit), Repository: known(p.Repository), Started: known(p.Started), Finished: known(p.Finished), RunID: known(p.RunID)}
}

// provenance completes the agents' provenance of s with what their bus
// records declare (a report's own word first) and gives each finding the
// provenance of its agents. It does not modify the agents s shares.
func (t *timeline) provenance(s *Synthesis) {
	findingProvenance(s.Findings, t.agentProvenance(s))
}

// agentProvenance completes the agents' provenance of s with what their
// bus records declare, on a copy of them, and returns it by agent name
// (foreign agents left out).
func (t *timeline) agentProvenance(s *Synthesis) map[string]Provenance {
	s.Agents = slices.Clone(s.Agents)
	byName := map[string]Provenance{}
	for i := range s.Agents {
		a := &s.Agents[i]
		if bp := t.busProv[a.Name]; bp != nil {
			if a.Provenance.Model == nil && bp[0] != "" {
				m := bp[0]
				a.Provenance.Model = &m
			}
			if a.Provenance.RunID == nil && bp[1] != "" {
				r := bp[1]
				a.Provenance.RunID = &r
			}
		}
		if a.Status != parse.StatusForeign {
			byName[a.Name] = a.Provenance
		}
	}
	return byName
}

// findingProvenance gives each finding of fs the provenance of its agents,
// by name.
func findingProvenance(fs []Finding, byName map[string]Provenance) {
	// Every finding of an agent points at that agent's one AgentProvenance,
	// and a finding of one agent shares that agent's list: at 8,000 agents
	// a copy per finding and agent was 31 MB of the synthesis's peak.
	// A finding of one agent with nothing else behind its findingMore
	// shares the agent's findingMore too: most findings are that.
	type shared struct {
		ap   *AgentProvenance
		one  []*AgentProvenance
		more *findingMore
	}
	byAgent := map[string]*shared{}
	of := func(a string) *shared {
		x := byAgent[a]
		if x == nil {
			x = &shared{ap: &AgentProvenance{Agent: a, Provenance: byName[a]}}
			x.one = []*AgentProvenance{x.ap}
			x.more = &findingMore{provenance: x.one[:1:1]}
			byAgent[a] = x
		}
		return x
	}
	for i := range fs {
		f := &fs[i]
		if len(f.Agents) == 1 {
			x := of(f.Agents[0])
			if f.more == nil || f.more.onlyProvenance() {
				f.more = x.more
			} else {
				f.setMore(func(m *findingMore) { m.provenance = x.one[:1:1] })
			}
			continue
		}
		prov := make([]*AgentProvenance, len(f.Agents))
		for j, a := range f.Agents {
			prov[j] = of(a).ap
		}
		f.setMore(func(m *findingMore) { m.provenance = prov })
	}
}
