package synth

import (
	"math"
	"slices"
	"strings"
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
	}
	for _, m := range t.firstBy[p] {
		if m.agent == agent {
			return
		}
	}
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
	for i, by := range t.discoveredBy {
		if by != nil {
			s.Findings[i].DiscoveredBy = by
		}
	}
	for p, ms := range t.firstBy {
		if len(ms) == 0 {
			continue
		}
		f := &s.Findings[p]
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
			f.Primed, f.Independent = primed, f.Convergence-len(primed)
		}
	}
	s.Yield = t.yield(s)
}

// yield returns the yield of each completed agent of s (whose findings are
// annotated), by agent name.
func (t *timeline) yield(s *Synthesis) []AgentYield {
	out := make([]AgentYield, len(t.acks.agents))
	for i, ag := range t.acks.agents {
		y := &out[i]
		y.Agent, y.Adjusted, y.Contradicted = ag.a.Name, t.adjustedBy[i], t.contradictedOf[ag.a.Name]
		if ag.a.Report != nil && ag.a.Report.Provenance.Tokens > 0 {
			n := ag.a.Report.Provenance.Tokens
			y.Tokens = &n
		}
	}
	for _, f := range s.Findings {
		primed := map[string]bool{}
		for _, p := range f.Primed {
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
