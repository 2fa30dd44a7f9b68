// Package watcher owns the filesystem side of a run directory: it reads
// an output directory by the layout of SPEC §1 into a [synth.Run], once
// ([Scanner.Scan], [Synthesize], [SynthesizeFrom] with a bus stream) or
// live ([Watcher], `fluxwatch watch`, SPEC §8), and reads one named report
// as a run would ([ReadAgent], for check).
//
// It owns the layout rules (rundir.go: which file is whose, run scoping,
// superseded and foreign files, opening every file through an [os.Root],
// regular files only, up to [DefaultMaxFile]), the fsnotify watches and
// their polling fallback, debounce and rescans, the bus tails of a watch
// and the entries it holds, and the agents' clocks. One goroutine, Run's,
// owns a Watcher's state; events are hints that make it look again. A
// [Differ] turns updates into the events of `watch --events`.
//
// [OpenBus] answers "which files are this run's bus" for every reader of
// one (the MCP server; by path, [BusPaths], finding read and synth --bus's
// warning); [BusToWrite] is the file a writer appends to.
//
// It must never write the reports (package report does) or render them,
// nor decide what a report's bytes mean (package parse does) or decode a
// bus line (package bus does).
//
// The decisions taken where SPEC.md is silent are in docs/decisions.md.
package watcher
