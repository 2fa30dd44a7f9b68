// Package verify is the grounding gate behind `fluxwatch verify`: it checks
// a synthesis written by someone else (an LLM synthesis agent, a person)
// against the synthesis fluxwatch computes from the same run.
//
// It is pure. [Claims] reads the claims a synthesis Markdown makes — findings
// with a severity, convergence counts ("3/5 agents", "(2 agents)", "flagged
// by fd-a, fd-b") — each with its line; [Check] matches them to the run's
// findings and returns a [Result] of positioned [Problem]s. Renderers
// ([Result.Text], [Result.JSON], [Result.SARIF]) turn it into bytes.
//
// What a synthesis may claim, and how each claim is judged:
//   - A claim matches a run finding by the title rule of SPEC §5.2
//     (parse.Title, against the finding's title and every source's title), or
//     by a shared file:line (same base name, overlapping lines) together with
//     a shared title keyword. Several matches: the one sharing most keywords,
//     then the first in the run's order.
//   - severity-raised: the claim's severity is higher than every agent gave
//     the finding, or it restates an improvement (an IMP row) as P0–P2.
//   - severity-dropped: the claim's severity is lower than every agent gave
//     the finding.
//   - wrong-count: a claimed convergence N is below the number of agents
//     that reported the finding, or above the number of agents that said it
//     in any words (those of every finding the claim matches, and those
//     whose report restates it, as in the last rule: the run may keep apart
//     what a synthesis merges); a claimed M ("N/M") differs from the
//     completed agents; or the claim names an agent of the run that said no
//     such thing.
//     Names resolve to run agents exactly, or as the unique agent whose
//     hyphenated name holds NAME as whole words ("quality" →
//     "fd-v2-quality").
//   - missing-blocker: a P0/P1 finding of the run that no claim matches and
//     whose title no line of the synthesis restates (its keywords, as in the
//     next rule).
//   - invented / unverifiable: a claim that matches no finding is
//     unverifiable when some paragraph of an agent's report holds its
//     keywords (at least three, or all when it has fewer, and at least half;
//     plurals folded):
//     the agent said it without a severity fluxwatch could read. Otherwise it
//     is invented.
//
// unverifiable is a note; every other kind is an ungrounded claim and trips
// the gate ([Result.Ungrounded]).
//
// What counts as a claim: a heading, list item or table row that carries a
// severity (its own marker — P0–P3 bare, or a severity word of SPEC §2.2 in
// brackets, bold, parentheses, capitals or before a colon; an ID with a
// severity prefix such as P1-3 — or that of the severity group heading it
// stands under: "## P0 Findings", "### Critical (P0)", "## High Priority"),
// or a convergence count. A list item under a finding heading is that
// finding's detail, not a claim, unless it carries a marker of its own.
// Sections about improvements, verdicts, the individual agent reports or the
// bus timeline, and fenced code blocks, are not read; nor are tables with a
// Verdict or Status column. A table's Agents column (plural) attributes; an
// Agent column (one per row, as in a timeline) does not.
package verify
