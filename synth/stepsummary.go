package synth

import (
	"bytes"
	"fmt"
)

// StepSummaryLimit is the default cap of the summary appended to GitHub's
// $GITHUB_STEP_SUMMARY (SPEC §6): GitHub drops a step summary over 1 MiB
// whole, so the summary stays under 1,000,000 bytes, its note included.
const StepSummaryLimit = 1000 * 1000

// minStepSummary is the least cap CapSummary honours: room for the note
// and a heading.
const minStepSummary = 1024

// CapSummary returns summary (summary.md) as it may be appended to a job
// summary of at most limit bytes (<= 0: StepSummaryLimit; a limit under
// 1 KiB is taken as 1 KiB): whole when it fits; otherwise cut after the last
// whole line that fits with a note, a code block left open closed, and a
// note that says how much was kept and where the full report is: full, a
// Markdown phrase ("`review/summary.md`, kept with the artifacts of [this
// run](…)"). The cut summary is never longer than limit unless the note
// alone is.
func CapSummary(summary []byte, limit int, full string) []byte {
	if limit <= 0 {
		limit = StepSummaryLimit
	}
	limit = max(limit, minStepSummary)
	if len(summary) <= limit {
		return summary
	}
	note := func(kept int) string {
		return fmt.Sprintf("\n\n---\n\n**The summary is cut here**: %d of its %d bytes fit in a job summary "+
			"(GitHub drops one over 1 MiB). The full report is %s.\n", kept, len(summary), full)
	}
	// The longest note: the kept count as long as the whole's, a fence.
	room := limit - len(note(len(summary))) - len("```\n")
	if room < 0 {
		room = 0
	}
	cut := summary[:room]
	if i := bytes.LastIndexByte(cut, '\n'); i >= 0 {
		cut = cut[:i+1]
	} else {
		cut = cut[:0]
	}
	out := make([]byte, 0, limit)
	out = append(out, cut...)
	if openFence(cut) {
		out = append(out, "```\n"...)
	}
	out = bytes.TrimRight(out, "\n")
	return append(out, note(len(cut))...)
}

// openFence reports whether md ends inside a fenced code block: an odd
// number of lines open with ```.
func openFence(md []byte) bool {
	open := false
	for line := range bytes.Lines(md) {
		if bytes.HasPrefix(bytes.TrimLeft(line, " "), []byte("```")) {
			open = !open
		}
	}
	return open
}
