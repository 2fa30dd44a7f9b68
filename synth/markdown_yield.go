package synth

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// mdPriming returns how a finding's convergence splits when a peer's bus
// entry primed some of its agents: "; 2 independent, 1 after fd-safety
// posted" (the agents that posted each priming entry, in the order of their
// first priming entry); "" when every agent was independent.
func mdPriming(f Finding) string {
	if len(f.Primed()) == 0 {
		return ""
	}
	var order []string
	n := map[string]int{}
	seq := map[string]int{}
	for _, p := range f.Primed() {
		if _, ok := n[p.By]; !ok {
			order = append(order, p.By)
			seq[p.By] = p.Seq
		}
		n[p.By]++
		seq[p.By] = min(seq[p.By], p.Seq)
	}
	slices.SortFunc(order, func(a, b string) int { return cmp.Or(cmp.Compare(seq[a], seq[b]), strings.Compare(a, b)) })
	parts := []string{strconv.Itoa(f.Independent) + " independent"}
	for _, by := range order {
		parts = append(parts, fmt.Sprintf("%d after %s posted", n[by], mdText(by)))
	}
	return "; " + strings.Join(parts, ", ")
}

// mdYield writes the yield of each completed agent: what it added.
func mdYield(w *mdWriter, s *Synthesis) {
	if len(s.Yield) == 0 {
		return
	}
	w.f("\n## Agent Yield\n\n")
	w.f("Reported = unique + independent + primed. Primed: reported after a peer's matching bus entry.\n\n")
	w.f("| Agent | Reported | Unique | Independent | Primed | Adjusted | Contradicted | Tokens | Unique per 1k | Independent per 1k |\n")
	w.f("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, y := range s.Yield {
		tokens, unique, ind := "unknown", "—", "—"
		if y.Tokens != nil {
			tokens = strconv.FormatInt(*y.Tokens, 10)
			unique = strconv.FormatFloat(y.Per1kTokens.Unique, 'f', 3, 64)
			ind = strconv.FormatFloat(y.Per1kTokens.Independent, 'f', 3, 64)
		}
		w.f("| %s | %d | %d | %d | %d | %d | %d | %s | %s | %s |\n", mdText(y.Agent), y.Reported, y.Unique,
			y.Independent, y.Primed, y.Adjusted, y.Contradicted, tokens, unique, ind)
	}
}
