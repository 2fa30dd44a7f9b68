package synth

import (
	"reflect"
	"slices"
)

// What a change of the completed agents leaves of the merge.
//
// The merge (SPEC §5.2, merge.go) is not incremental: it weighs each word
// by how many of the run's nodes hold it (log2((N+n)/n), N the nodes) and
// gives no weight to a word more than commonTitles nodes hold; an ID cited
// counts when one node of the run carries it, an identifier when at most
// rareIdents do; and pairs join best first, refused when their groups
// share an agent. One more finding changes N, so every weight, every score
// and the order in which pairs join: a merge of the new agent's findings
// against the groups made before would not be the full merge, and no
// bound on what it changes is cheaper than merging again.
//
// The merge reads nothing of an agent but its findings (its name and
// file with each: newSrc). A change of the completed agents that leaves
// those the same leaves the merge the same: an agent that completes (or
// fails, or is removed) without a finding, a report written again with the
// same findings (prose, its verdict, its front matter; a file touched).
// Then the merged findings are those of the last merge but for their
// convergence_display (N/M, M the completed agents: the one field of a
// merged finding that reads M), and the Live keeps them instead of merging
// again (sameMerge, Live.keepMerge).

// sameMerge reports whether the merge of the completed agents now reads
// what the merge of was read: the same agents with findings, in the same
// order, each with the same name, file and findings (the same report, or
// findings equal value for value). Agents without a finding are passed
// over: they give the merge nothing.
func sameMerge(was, now []*Agent) bool {
	i, j := 0, 0
	for {
		for i < len(was) && findingsIn(was[i]) == 0 {
			i++
		}
		for j < len(now) && findingsIn(now[j]) == 0 {
			j++
		}
		if i == len(was) || j == len(now) {
			return i == len(was) && j == len(now)
		}
		a, b := was[i], now[j]
		if a.Name != b.Name || a.File != b.File ||
			a.Report != b.Report && !reflect.DeepEqual(a.Report.Findings, b.Report.Findings) {
			return false
		}
		i++
		j++
	}
}

// findingsIn returns how many findings the merge reads of a.
func findingsIn(a *Agent) int {
	if a.Report == nil {
		return 0
	}
	return len(a.Report.Findings)
}

// keepMerge makes the Live's findings those of its last merge for m
// completed agents: the findings as the merge left them (plain), each
// with the convergence_display of m, on a copy (the findings handed out
// are never written again). The nodes, the findings' Sources and their
// order stay as they were.
func (l *Live) keepMerge(m int) {
	fs := slices.Clone(l.findings)
	var sh shares
	for i := range fs {
		fs[i].more, fs[i].Independent = l.plain[i].more, l.plain[i].independent
		fs[i].ConvergenceDisplay = sh.convergence(fs[i].Convergence, m)
	}
	l.findings = fs
}

// adoptIndex gives m the index of old when both match the same nodes (the
// merge kept): the keyword blocks and the file:line index depend on the
// nodes alone and are only read once made, and making them again was the
// largest part of making the timeline again (matcher.index, a map entry
// per source's file:line: about 1 s at 8,000 agents × 50 findings).
func (m *matcher) adoptIndex(old *matcher) {
	if m.indexed || old == nil || !old.indexed || len(m.nodes) == 0 || len(m.nodes) != len(old.nodes) ||
		&m.nodes[0] != &old.nodes[0] {
		return
	}
	m.blocks, m.byPoint, m.indexed = old.blocks, old.byPoint, true
	m.stamp = make([]int, len(m.nodes))
}
