// Package parse reads what review agents write: agent reports (SPEC §2),
// specialist findings and manifests (§4.1), run manifests, and the names
// of the files in an output directory (§1). It also holds the types that
// carry evidence claims from synth to a verifier and back (§5.7:
// EvidenceClaim, ClaimResult and the Evidence statuses), so that package
// evidence needs no import of synth, and the one positioned [Diagnostic].
//
// It owns the grammar of a report: the Findings Index and its tolerated
// variants, the general reader of §2.3 for a report with none, the
// severity vocabulary ([SeverityValue], [GroupHeading]), the title rule of
// §5.2 ([Title], [TitlesMatch]) and the declared verdict. [ReadReport]
// never fails: every deviation is a diagnostic with its line.
//
// It is pure: bytes in, typed records and positioned diagnostics out. It
// must never touch the filesystem, the clock or the network (so every
// parser can be fuzzed), decode a bus line (package bus does) or decide
// which file of a directory is read (package watcher does). Callers cap
// the input: fluxwatch reads at most 16 MiB of a report and treats a file
// holding NUL bytes as not a report.
//
// The order in which a report is read and the decisions taken where
// SPEC.md is silent are in docs/decisions.md; docs/reports.md gives the
// rules with examples.
package parse
