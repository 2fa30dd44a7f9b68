// Package check is the use case behind `fluxwatch check`: agent reports,
// bus files, specialist and manifest files, or whole run directories, read
// as synth reads them and judged one by one, with their diagnostics, the
// evidence of their findings (SPEC §5.7) and the strict judgement an agent
// runs on its report before finishing (SPEC §2.5).
//
// [Paths] reads; a [Result] prints itself as text or JSON and says, with
// [Result.Strict], whether every report is valid. What a file named alone
// is comes from parse.NamedFile (the run's rule, parse.ClassifyName, with
// its fallback), what a directory holds from watcher.Scan, and the
// "ungrounded P0/P1" rule from synth.Ungrounded: none is restated here.
//
// It owns the check's output (every line inert: reports quote agents). It
// must never decide an exit code or read flags: cmd/fluxwatch does.
package check
