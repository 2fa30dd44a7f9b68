// Package synth turns what the agents of one run wrote into one deterministic
// synthesis (SPEC §5) and renders it for people and machines (§6).
//
// It is pure. A [Run] (agents with their parsed reports, bus entries,
// specialist files) goes in; [Synthesize] returns a [Synthesis], the data of
// findings.json; renderers ([RenderJSON], [RenderMarkdown], [RenderSARIF],
// [RenderRDJSONL], [RenderJUnit], [RenderAnnotations]) turn it into bytes. Nothing
// here reads files, the clock or the environment, so the same Run and Options
// always give byte-identical outputs; every list that comes from a map is
// sorted.
//
// # Two implementations of one synthesis
//
// [Synthesize] is the reference, written for clarity: every step once, in
// order, over the whole run (the agents, the merged findings, their evidence,
// the verdict, then the whole bus through a new timeline), nothing kept from
// an earlier call. `fluxwatch synth` uses it, through [SynthesizeStream],
// which is the same steps with the bus streamed through the timeline as it is
// decoded instead of held.
//
// [Live] is the incremental implementation that `fluxwatch watch` keeps
// while agents write (its final update, once they are done, is a
// Synthesize): it remembers the merged findings and the timeline between
// updates, reads only the bus entries appended since, and merges again only
// when the completed agents changed. It must give exactly what Synthesize
// gives; TestLiveAgainstReference feeds random runs through it in random
// event orders and compares findings.json byte for byte after every step.
// Both share the steps themselves (accountAgents, dedup, findingsOf,
// summarize, the timeline), so each rule of SPEC §5 is written once.
//
// Agent-written text never becomes live markup (STYLE §15): every renderer
// of Markdown puts it through one escaping rule (mdText in escape.go, or a
// code span), so that raw HTML, links, autolinks, '|' and line breaks in a
// title or summary show as literal text in summary.md and the GitHub step
// summary. findings.json keeps the text as the agents wrote it.
//
// Decisions where SPEC.md is silent:
//   - A normalised title that is empty (a title with no ASCII letter or digit)
//     keeps its lower-cased text in the key, so that two different non-ASCII
//     titles never collide.
//   - The merge rule of §5.2 (merge.go): titles match when they share at
//     least two keyword stems weighing 3/5 of the lighter title; a keyword
//     an agent repeats in its own titles weighs 1/n, one held by more than
//     64 distinct titles nothing. Only findings of different agents merge
//     by it. Same section, or a shared file:line or a
//     cited ID, and matching titles merge; other sections need three shared
//     keywords weighing 3/4. TestConvergenceLabels measures it against
//     hand-labelled clusters of corpus runs (testdata/convergence.txt).
//   - Two file references are "the same file:line" when their paths are equal
//     and their first lines are equal; a reference without a line never counts
//     as a shared file:line. "Overlap" (the contradiction rule of §5.5) means the
//     same path and intersecting line ranges, a reference without a line
//     covering the whole file.
//   - A run with no completed agent has the verdict error (pending while
//     watching), also when no agent was observed at all: an empty directory
//     never passes a gate.
//   - While watching, an expected agent without a file has not failed yet: it
//     is launched and listed as partial (running), with no file, its verdict
//     pending.
//   - A bus timestamp more than an hour after the newest agent file of the
//     run, or more than a week before it, is implausible (plausible.go):
//     it counts as none for the acknowledgement and priming rules, and each
//     blocking entry with one is a warning. Live makes its report side
//     again when a newer agent file would judge a timestamp differently.
//   - Timeline results (adjustments, unacknowledged entries, contradictions,
//     stalls) are kept in full as totals; the lists carry the latest
//     [Options.MaxEntries] of each, like the entries themselves.
//   - Evidence (§5.7): the claims of a finding ([ClaimsOf]) are its evidence
//     claims and its file:line references, except references that an
//     evidence claim with an excerpt overlaps (the excerpt says more about
//     those lines). A P0/P1 is ungrounded when it has claims and every one
//     failed (mismatch, missing-file, out-of-range); a claim the verifier
//     skipped (binary or oversized file) neither grounds nor fails it.
//     Evidence never moves the verdict. When it was not checked,
//     findings.json has "evidence": null and summary.md says why
//     ([Options.EvidenceNote]).
//   - An agent's message envelope (every top-level scalar of YAML front
//     matter holding message_id, correlation_id, message_type or
//     source_document) is "envelope" on the agent in findings.json and a line
//     under "Message envelopes" in summary.md, the keys of SPEC §2.2 first.
//   - Baseline (--baseline, [Options.Baseline]): each finding is new or
//     unchanged against the findings of an earlier findings.json, and the
//     baseline findings nothing matched are absent (listed in findings.json
//     and summary.md, never SARIF results: code scanning would show them as
//     open alerts). The matching rule is written once, on compareBaseline in
//     baseline.go: fingerprint, then a shared source key, then the title rule
//     of §5.2 in the same section or on the same file, one-to-one. The
//     fingerprint (§6) hashes the representative's key and first file path;
//     the two later passes hold a finding whose representative changed with
//     the set of agents, whose file refs were lost in a re-formatted report,
//     or whose title was re-worded.
//   - Suppressions ([Options.Suppressions], .fluxwatch.yaml): a suppressed
//     finding stays in every report, marked with its reason; it does not
//     count toward the verdict (so no --fail-on gate trips on it) nor toward
//     --fail-on-new, and it is left off Issues to Address. The counts still
//     include it. An entry expires after its expires day, against
//     [Options.Today] (never when Today is zero); expired and unused entries
//     are warnings in the diagnostics of findings.json and in summary.md.
//   - Independent vs primed agreement (priming.go): an agent B reporting a
//     finding is primed by entry E when E is the first bus entry, in bus
//     order (the files in reading order, then line order), that matches the
//     finding (the matching of §5.5), was posted by another agent, and that
//     B could have read: E's timestamp is strictly earlier than B's report
//     modification time, or E has no timestamp (an entry that cannot be
//     dated counts as readable, so independence is never overstated). B is
//     independent when no such entry exists or when B posted a matching
//     entry itself earlier in bus order. The rule uses the report's
//     modification time, not when B began: an agent that finished after the
//     entry could have read it. Convergence and the verdict are unchanged;
//     findings.json carries "independent" and "primed" (each agent with the
//     agent and number of the entry that primed it).
//   - Agent yield: per completed agent, the merged findings it reported,
//     split into unique (no other agent's report; never a primed one),
//     independent agreements and primed repeats; its adjustments after
//     peers' blocking entries and the contradictions of its own blocking
//     entries (the totals, not the listed ones); and, when its front matter
//     states token use (tokens, total_tokens, usage.total_tokens or
//     usage.input_tokens + output_tokens) or the run manifest does, the
//     findings per 1,000 tokens.
//   - Never silently safe (SPEC §2.3): an unreadable agent is completed and
//     what was read of it counts, so the verdict is computed as for a
//     malformed one; findings.json names it in agents_unreadable, and
//     every rendering for people writes the verdict with the note
//     [UnreadNote] ("safe — 1 report could not be fully read", after any
//     verdict: what was not read may be worse). SARIF, rdjsonl, JUnit and
//     the annotations carry it as an error at the report's first line not
//     accounted for. The gate is [Gate.Judge], the one place where any gate
//     is decided: a gate that is set trips on an unreadable agent unless
//     AllowUnreadable; no gate trips on nothing.
//   - Provenance: a report's front matter, then the run manifest
//     (parse.ManifestFile: the agent's entry, then the run's), then for
//     model and run_id the first of the agent's bus records that says.
package synth
