// Package synth turns what the agents of one run wrote into one
// deterministic synthesis (SPEC §5) and renders it for people and machines
// (§6).
//
// It owns the rules of §5: who completed and who failed, the merging of
// findings and their convergence, confidence, the verdict, the timeline of
// the bus, evidence status, baselines, suppressions, priming and yield. A
// [Run] (agents with their parsed reports, bus records, specialist files)
// goes in; [Synthesize] (or [SynthesizeStream], the bus streamed) returns a
// [Synthesis], the data of findings.json; [Live] is the same synthesis kept
// current while agents write, and must give byte for byte what Synthesize
// gives (TestLiveAgainstReference). The renderers ([RenderJSON],
// [RenderMarkdown], [RenderSARIF], [RenderRDJSONL], [RenderJUnit],
// [RenderAnnotations]) turn it into bytes; [Gate] decides exit status.
// Agent text enters Markdown only through escape.go ([MarkdownCode] and
// mdText), and the plain-text outputs put it on one line with
// inert.Collapse.
//
// It must never read a file, the clock or the environment, nor link code
// that does (TestPureLinksNoIO: bus records come as package record's): the
// same Run and Options always give byte-identical outputs, and every list
// that comes from a map is sorted. It must never write its renderings
// (package report does) nor decide what a report's bytes mean (package
// parse does).
//
// The decisions taken where SPEC.md is silent are in docs/decisions.md.
package synth
