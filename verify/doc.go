// Package verify is the grounding gate behind `fluxwatch verify`: it checks
// a synthesis written by someone else (an LLM synthesis agent, a person)
// against the synthesis fluxwatch computes from the same run, and against
// what the agents' reports say in their own words.
//
// It is pure. [Claims] reads the claims a synthesis Markdown makes, each
// with its line; [Check] ties them to the run's findings and returns a
// [Result] of positioned [Problem]s. Renderers ([Result.Text],
// [Result.JSON], [Result.SARIF]) turn it into bytes. docs/verify.md is the
// user's account of the same rules.
//
// # What a claim is
//
// A claim is a statement the synthesis makes about a finding: a table row,
// a bullet, a numbered item, a bold lead-in or a heading that states a
// finding — with a severity of its own ("P1", "[HIGH]", an ID such as
// P1-3 or NEW-P0), or the severity of the group it stands under, or a
// convergence count, or an attribution to an agent or an agent's finding
// ID; a heading with none of these is one when the paragraph under it opens
// with a count ("Two agents converged …") and no table or list of who said
// what follows. Everything else is context:
//   - group headings ("### P1 — Should Fix (14 deduplicated)", "## Critical
//     Findings (P0)") give the claims under them their severity. They are
//     read by parse.GroupHeading, SPEC 2.3's rule 3 as the general reader
//     reads a report's (one rule, in parse), once the words only a
//     synthesis adds are left out (Deduplicated, Remaining, Key, a count
//     before a note); a P-level the heading writes is its group's. Severity
//     markers are read by parse.SeverityValue, the one vocabulary. A
//     heading over a list is a label of that list, not a claim;
//   - tallies ("P0 Blockers: 1", "Findings: 8 (P0: 1, …)"), front matter,
//     verdict tables, sections of improvements, recommendations, actions,
//     files, costs and praise, and code blocks;
//   - the fields of a finding ("**Location**:", "**Fix**:"); an
//     attribution field ("**Sources:** fd-a (P0), fd-b (Concern 1)",
//     "*(fd-a: A-1, A-2 | 2/4 agents)*") gives the claim above it its
//     agents, IDs and count, and its prose is the claim's body.
//
// # Tying a claim to findings
//
// The synthesis is read for everything it gives, in this order:
//   - cited IDs ("ST-04", "fd-safety SEC-7", "P1-ACQ-01" → ACQ-01,
//     "ARCH-01/3/6", a table's ID column, a column headed by an agent): a
//     cited ID that exists settles the match (a table cell of agent names
//     alone names the row's agents, whatever its header). An ID at the
//     start of a claim may be the synthesis's own numbering (P1-2 is also
//     an ID of several agents): it counts only when the title agrees with
//     the finding, or the agent the claim names holds it;
//   - an agent named with a severity ("fd-a (P0)"): that agent's finding of
//     that severity the claim's words fit;
//   - the title rule of SPEC §5.2 (parse.Title.Matches): the findings whose
//     titles match the claim's and share most keywords with it;
//   - a shared file:line (same base name, overlapping lines) and a word;
//   - for an agent the claim names that none of these is from, that
//     agent's finding whose title holds at least half of the claim's
//     title's words;
//   - a name from code the claim writes (AgentNotFoundMsg, parse_config,
//     navigateBack()) that the titles of at most three findings write:
//     those findings, for who said it, never for its severity.
//
// Findings are looked up by their titles' keywords: a claim's title is
// tried by the title rule only on findings sharing a keyword with it (one
// sharing none matches only if every word is misspelt), which keeps 2,000
// claims against 2,000 findings under a second.
//
// Beyond those, a claim may state a finding in other words: the finding
// whose block (what its agent wrote about it: the lines its source points
// at and the paragraph, item or section that opens with its ID) holds at
// least 60% of the claim's words, weighted, and clearly more than any
// other finding's. Such a match counts for presence and for who said it,
// and, for a claim tied to nothing else, for its severity: a claim stated
// above every severity of the findings it states only in other words is
// raised (findings it cites or matches by title leave those aside).
//
// # Who reported a claim
//
// An agent whose report was read (not unreadable) reported a claim when a
// finding or improvement of its own says it: the claim matched it, or its
// title and block hold a sixth of the weight of the claim's title words or
// a quarter of all its words (and a word of the title at least). What
// the report says elsewhere — its summary, a sentence in another
// finding's text — is a mention, not a finding it reported: an LLM
// synthesis credits agents for mentions, and a careful reader does not.
// Only an agent with no finding read, or an unreadable report, is judged
// by its prose (the word rules below). A claim that names its agents and
// counts more is held to the same: an unnamed agent makes up its count
// only by a finding that holds a quarter of the claim's title and of all
// its words.
//
// Agent names resolve to the run's completed agents by the first of these
// rules that one agent fits (two fitting agents: no resolution, no
// guess): the name (any case); its words less "fd" and version words;
// its words in order, each equal, a plural or an abbreviation of four
// letters or more ("fd-arch" → fd-architecture, "vision-gap" →
// fd-ux-vision-delivery-gap, "Cache Coherence" →
// fd-cache-coherence-invalidation); the prefix of its finding IDs ("ACQ"
// → the agent whose IDs are ACQ-01 …); the words of its report's first
// heading.
//
// # Word rules
//
// What a report says "in any words" is weighed, not matched: texts are
// split into words at every non-alphanumeric character (stop words, words
// under three letters and checklist verbs dropped, plurals, -ed, -ing
// and a final e folded: "surfaced" is "surface"); a word weighs ln(1 +
// agents/agents using it), so words every report uses count little; an
// agent's score for a claim is the share of
// the claim's weight its best paragraph holds (at least two of the
// claim's words, when it has three or more).
//
// # Outcomes
//
// A claim is grounded, wrong or unverifiable. Wrong, and tripping the
// gate ([Result.Ungrounded]):
//   - severity-raised: the claim's severity is above every severity the
//     agents gave the findings it states (an improvement counts below P2;
//     when the claim names its agents, their findings and improvements),
//     and no finding of that severity has a block holding 40% of its words
//     (25% for a finding of the improvement's own agent: an improvement is
//     often the fix of its agent's finding), and it does not count more
//     agents than the findings it matched come from. A claim that cites
//     IDs is rated against the findings it cites and matched, never
//     against one it states only in other words: the cited ID settles it.
//     Nor is it raised when the line its agent wrote the finding on writes
//     a severity as high ("### 1.1 Critical: …" over "Severity: Must
//     Fix"): the report gave it two, the reader kept one;
//   - wrong-count: it gives an agent an ID another agent reported, or an ID
//     right after the agent's name that no finding has and its report,
//     read in full, never writes ("user-advocate Q5"); or it
//     names an agent that did not report it (above; an agent judged by
//     its prose: whose report holds under 15% of what the report that
//     says most of it holds); or it counts more agents than it names and
//     more than every agent whose report holds 20% of its words or one of
//     whose findings holds a quarter of its title's weight and of all its
//     words; a count "N/M" with M above the agents launched is wrong too.
//     A claim tied to no finding that a report says something like is
//     held to its count all the same, by the reports that say it;
//   - invented: it matches no finding, and no report's best paragraph
//     holds a quarter of its words, two of them at least (claims of three
//     words or fewer are never called invented).
//
// Notes, listed but never failing the gate:
//   - unverifiable: it matches no finding, but a report says something like
//     it (or it says too little to tell); or a blocker read from prose only
//     that the synthesis does not state (below);
//   - severity-dropped: its severity is below every agent's, and they rated
//     it a blocker.
//
// missing-blocker: a P0/P1 finding of an agent's findings index that the
// synthesis neither
// cites by ID (anywhere, tallies and skipped sections included; an ID
// several findings share needs a word of the line to agree), nor names by
// its agent, or the agent's label in any case, and a severity that agent
// gave one finding only or, of several, the one whose title holds more of
// the line's words than the others' ("(Launch-wedge P0)"), nor states: no
// claim matches it; no line that names its agent (the names left out of
// its words), nor a part of such a line between semicolons or cell bars,
// holds most of a line's words of its title (three, or two and two in
// five, more than for any other of that agent's findings), or words its
// block holds 60% of, 1.25 times its other findings' blocks (a fix stated
// in place of the defect); the parts are split at semicolons, commas and
// cell bars, a part giving a verdict or a tally states nothing, and words
// are compared folded to their first seven letters (only here: the line
// names the agent, so a fold cannot reach another agent's finding); no
// line holds three of its title's words and three in ten; the synthesis
// does not name an identifier of the code (camelCase, snake_case, a call,
// a type name) that its title holds and no other finding's title does; its
// agent does not restate it in a finding, as severe, that the synthesis
// states (it stands in that finding's block, or the titles share two
// words and a block holds 60% of the other title). A blocker whose title
// has a single word is not reported: more likely a misread line than a
// finding; nor is one whose title opens with a mark that it is resolved
// ("FIXED — …", the marks of a resolved table row): a re-review's prior
// finding. A blocker read from prose only (no findings index: SPEC 2.3,
// confidence low) is an unverifiable note, not a missing blocker: the
// general reader takes a prioritised fix list or a label over a list for
// a finding as readily as the finding.
//
// A directory may keep several runs' reports: when the synthesis says it
// was written from fewer agents than the run's completed ones (its largest
// "N/M" count, "4 launched", "Reviewed by 7 agents"), only the blockers of
// the agents it names anywhere can be missing from it.
//
// A table row marked resolved (Resolved, Fixed, Fully addressed, ✅)
// lists a prior finding the run no longer holds: context, not a claim.
//
// Measured on 28 hand-labelled syntheses (testdata/corpus-labels.jsonl,
// TestLabelledSyntheses; docs/verify.md gives the figures): it finds two
// in three errors on the syntheses it was tuned on, two in five on those
// held out (every raised severity among them), with false flags under a
// twentieth of the errors.
//
// What it cannot see: a paraphrase that shares few words with what an
// agent wrote (a missing blocker that was in fact stated, an agent that in
// fact said it), an agent credited for a neighbouring finding that shares
// the claim's words (verify reads words, not which defect they describe),
// a merge of two different defects under one title, and a severity the
// reader of a prose report could not read (parse's rules).
package verify
