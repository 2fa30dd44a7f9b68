// Package finding is the use case behind `fluxwatch finding`: an agent
// writes one peer finding to its run's bus, and reads the bus back as
// JSON, once or following it (SPEC §3).
//
// A [Target] names the bus: a file, a run directory, or a backend opened
// on demand (a URL bus; the caller knows which schemes are linked). Which
// files of a run directory are its bus is watcher's answer (watcher.BusPaths,
// watcher.BusToWrite), never restated here. Errors the caller caused (an
// invalid record, a bus that cannot be named, opened or reached) are
// *InputError; others are the system's.
//
// It owns the output of finding read (a JSON array, or NDJSON when
// following, each record as written with its control characters escaped).
// It must never parse flags or choose exit codes: cmd/fluxwatch does.
package finding
