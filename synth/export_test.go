package synth

// IndentJSON is indentJSON, for the tests of package synth_test.
func IndentJSON(dst, src []byte) []byte { return indentJSON(dst, src, 0) }

// DedupGroups merges the findings of run's completed agents as Synthesize
// does (SPEC §5.2) and returns the number of sources and of merged groups.
func DedupGroups(run *Run, mode Dedup) (sources, groups int) {
	var s Synthesis
	srcs := sourcesOf(accountAgents(&s, run, Options{}))
	return len(srcs), len(dedup(nodesOf(srcs), mode))
}
