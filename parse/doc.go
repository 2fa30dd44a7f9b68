// Package parse reads what review agents write: agent reports (SPEC §2),
// specialist findings and manifests (§4.1), and the names of files in an
// output directory (§1). The peer-findings bus (§3) is bus/'s: its format,
// its file and its readers and writers live there. It also holds the types
// that carry evidence claims from synth to a verifier and back (§5.7:
// EvidenceClaim, ClaimResult and the Evidence statuses), so that package
// evidence, which reads the repository, needs no import of synth.
//
// It is pure: bytes in, typed records and positioned diagnostics out. It never
// touches the filesystem or the clock, so every parser can be fuzzed.
//
// # Agent reports
//
// ReadReport looks for a Findings Index in this order: under an index heading
// (# to ####, any case, bold or not, singular or plural, with a qualifier such
// as "Final" or a suffix such as "(Machine-Parseable)"); a legacy YAML
// front-matter index (issues:, improvements:, verdict:); a headless run of
// pipe-form index lines; then the general reader of §2.3 (general.go, with
// restate.go and jsonbody.go); and only when that finds nothing, an index
// inside a fenced code block (an example otherwise). The first usable index
// counts.
//
// # The general reader
//
// The general reader reads a report with no index as a careful reviewer
// does (SPEC §2.3; docs/reports.md lists its rules with examples). It builds
// a tree of the report's headings, items and bold lead-ins, reads each
// one's own label (rule 1) and the severity fields of its block (rule 2),
// then decides which headings are severity groups (rule 3) and reads tables
// (rule 4). Decisions where the specification is silent, taken from real
// reports:
//
//   - Sections are classed by their headings: a summary or a list of
//     recommendations restates the body's findings (a finding there is the
//     body's finding it names, by ID, a cited ID, a table number or the title
//     rule; one that names none adds nothing when its section names some,
//     unless it is worse than all that was read), a plan (a roadmap, phases,
//     weeks, a checklist) gives none. A report that labels nothing in its
//     body reads its summaries and recommendations as its body.
//   - A label needs to be one: a bare P-level needs a separator, a bold
//     severity word a colon or a dash, a bracketed severity in an item must
//     end its title and be written as a label; an ID must be set apart from
//     the title; a recurring bold label is a field; three levels or more are
//     a scale; an improvement word makes an improvement.
//   - Findings whose own IDs differ are never merged, whatever their titles.
//   - A report that is a JSON value is read as one (a review tool's output
//     saved as the report).
//   - The declared verdict is the report's overall verdict (overallVerdict):
//     in its summary or final section, before its first section, or labelled
//     overall or final; a heading that recurs heads a section about one
//     topic.
//
// Decisions where the specification is silent, taken from real reports:
//
//   - Index lines with no severity of their own (a table whose severity column
//     says "Blind Spot", "1. **[Q1] Title**") take the severity of the prose
//     section that opens with their ID ("### Q1: …" with "**Severity:** High"),
//     or of the severity group they stand in ("**Critical (Must Fix):**"); an
//     entry with neither is skipped with a warning. Such an index is still an
//     index: the report is a variant, not malformed.
//   - In the severity slot, MUST-FIX and NEEDS-ATTENTION read as P1 (like
//     NEEDS-CHANGES) and INFORMATIONAL as P3 (like INFO). A "-" in the ID column
//     means "no ID".
//   - Agents nest fenced code blocks (a ```markdown example inside a ```
//     block). Inside a fence, a fence line with an info string opens a nested
//     block and a bare one closes the innermost; CommonMark would close the
//     outer block early and hide the rest of the report.
//   - A report that is only the Oracle CLI's banner, or whose first lines say
//     "Oracle failed (exit N)" or "Agent failed to produce findings", with no
//     index and no findings, is an error stub.
//   - The completion sentinel is <!-- flux-drive:complete -->; other
//     "<!-- x:complete -->" markers also count, with an info diagnostic.
//   - The general reader counts the same finding listed twice once: same ID,
//     the same normalised title, or titles equal by the fuzzy title rule of
//     §5.2 when the two stand in different sections (§2.3's "a detail section
//     and a summary list that restates it"). Two findings side by side in one
//     section stay two, however alike their titles. Up to 1,000 listings
//     every pair is compared, so the rule holds exactly; a larger report
//     (no real one is) compares a listing only with the kept ones sharing
//     one of its keywords, a keyword held by more than 8 of them counting as
//     a stop word, so that a 16 MiB report parses in linear time.
//   - Bold lead-ins and list items whose text is only group words
//     ("**P0 defects:**") and legends or tallies ("P0: 3, P1: 2") are not
//     findings.
//   - Evidence claims (§2.4) also take the wordy references agents write on
//     an Evidence line ("`a.sh` lines 74-81", "a.md line 28", "CLAUDE.md
//     L49-54", "a.go#L12-L14"); an Evidence label with nothing after it
//     introduces list items or bold lead-ins that start with a reference, each
//     with the fenced block after it. Only a fenced block is an excerpt (quoted
//     text on the line is often a paraphrase); the fence's own indent is
//     removed from its lines and an excerpt is cut at 64 KiB. Every claim is
//     also one of the finding's file_refs. References in any field of an index
//     line or any cell of an index table row are file_refs.
//   - A finding described by a bold lead-in paragraph ("**P0-1: Title**
//     (Section)") keeps the list under it as its description, up to the next
//     bold lead-in, heading or rule; a description that is a list item ends at
//     the next top-level item.
//
// Callers cap the input: fluxwatch reads at most 16 MiB of a report and treats
// a file holding NUL bytes as not a report.
package parse
