package synth

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// TestCapSummary: a summary that fits is appended whole; one over the
// limit is cut after a whole line, under the limit with its note, which
// says how much was kept and where the full report is; a code block cut
// open is closed.
func TestCapSummary(t *testing.T) {
	var agents []Agent
	for i := range 400 {
		agents = append(agents, agentOf(fmt.Sprintf("fd-%03d", i), parse.StatusValid,
			fnd(parse.P1, fmt.Sprintf("A-%03d", i), "Section", fmt.Sprintf("Finding number %d of a large run", i))))
	}
	md := RenderMarkdown(Synthesize(&Run{Agents: agents}, Options{}))
	const full = "`review/summary.md`, kept with the artifacts of [this run](https://github.invalid/o/r/actions/runs/9)"
	fenced := []byte("# Review Summary\n\n" + strings.Repeat("line\n", 100) + "```\n" + strings.Repeat("code line\n", 400) + "```\n")
	for _, tt := range []struct {
		name    string
		md      []byte
		limit   int
		whole   bool
		fenceIn bool
	}{
		{"fits", md, len(md), true, false},
		{"default limit, fits", md, 0, true, false},
		{"over, half", md, len(md) / 2, false, false},
		{"over, small", md, 3000, false, false},
		{"limit under the least", md, 10, false, false},
		{"cut in a code block", fenced, 2000, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := CapSummary(tt.md, tt.limit, full)
			if tt.whole {
				if !bytes.Equal(got, tt.md) {
					t.Errorf("a summary that fits changed: %d bytes, want %d", len(got), len(tt.md))
				}
				return
			}
			limit := max(tt.limit, minStepSummary)
			if len(got) > limit {
				t.Errorf("%d bytes, over the limit %d", len(got), limit)
			}
			kept, _, ok := bytes.Cut(got, []byte("\n\n---\n\n**The summary is cut here**: "))
			if !ok || !strings.HasSuffix(string(got), "The full report is "+full+".\n") {
				t.Fatalf("no note, or it does not say where the full report is:\n%s", got)
			}
			if !bytes.HasPrefix(tt.md, bytes.TrimSuffix(kept, []byte("```"))) {
				t.Errorf("the kept part is not the start of the summary:\n%s", kept)
			}
			if openFence(append(kept, '\n')) {
				t.Errorf("a code block is left open:\n%s", kept)
			}
			if tt.fenceIn != bytes.HasSuffix(kept, []byte("```")) {
				t.Errorf("closing fence added %v, want %v", !tt.fenceIn, tt.fenceIn)
			}
			if !strings.Contains(string(got), fmt.Sprintf("of its %d bytes fit", len(tt.md))) {
				t.Errorf("the note does not give the whole's size %d:\n%s", len(tt.md), got[len(kept):])
			}
		})
	}
}
