// Package watcher owns the filesystem side of fluxwatch: it reads an output
// directory by the layout of SPEC §1 into a [synth.Run].
//
// [Scanner.Scan] is the one-shot read behind `fluxwatch synth`: it lists the
// directory (and its findings/ and design/ subdirectories), parses the files in
// parallel with a bound, and assembles them in a fixed order. A Scanner
// remembers each file's parse by path, size, modification time and identity,
// so a later Scan re-parses only the files that changed; the live watcher
// builds on that.
//
// Decisions where SPEC.md is silent:
//   - When one agent has several files in the selected run, a finished report
//     wins over an abort marker, which wins over a .partial; then a run-scoped
//     name over an unscoped one, then the newer file. The others are listed as
//     directory diagnostics ("superseded").
//   - --strict-run excludes unscoped files only when a run is selected.
//   - Without --run, the run-uuid comments of unscoped files do not take part
//     in choosing the run; they only make a file foreign when they name another
//     run than the selected one.
//   - A file that vanishes between listing and reading is skipped (the watcher
//     sees the next event); any other read error fails the scan, naming the
//     file. A report or YAML file over the size cap, an empty report and a
//     non-regular file are diagnostics, not errors.
package watcher
