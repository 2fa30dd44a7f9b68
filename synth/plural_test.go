package synth

import (
	"fmt"
	"testing"
)

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n      int
		noun   string
		plural []string
		want   string
	}{
		{0, "finding", nil, "0 findings"},
		{1, "finding", nil, "1 finding"},
		{2, "finding", nil, "2 findings"},
		{0, "entry", []string{"entries"}, "0 entries"},
		{1, "entry", []string{"entries"}, "1 entry"},
		{2, "entry", []string{"entries"}, "2 entries"},
	} {
		if got := Plural(c.n, c.noun, c.plural...); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}

// The summary lines of summary.md agree in number at 0, 1 and 2.
func TestSummaryPlurals(t *testing.T) {
	for n, want := range map[int]string{
		0: "(0/0 agents completed, 0 failed)",
		1: "(1/1 agent completed, 0 failed)",
		2: "(2/2 agents completed, 0 failed)",
	} {
		var run Run
		for i := range n {
			run.Agents = append(run.Agents, agentOf("fd-"+string(rune('a'+i)), "valid"))
		}
		wantAll(t, fmt.Sprintf("%d agents: summary.md", n), string(RenderMarkdown(Synthesize(&run, Options{}))), want)
	}
}
