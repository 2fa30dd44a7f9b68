// Package report writes the renderings of one synthesis to their targets
// (SPEC §6, §7): which rendering goes to which target, written how.
//
// [Write] renders findings.json and summary.md into the report directory and
// the --sarif, --rdjsonl, --junit and --html files (the page of package
// page); [GitHub] writes what GitHub
// Actions reads (annotations, $GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT). Every
// target is one of:
//
//   - "-": standard output, the writer the caller passes;
//   - a path, written by fsio.WriteFile: a regular (or missing) file is
//     replaced atomically and only when its content changed (findings.json
//     and summary.md are streamed to it by fsio.WriteFileFunc, never held
//     whole, findings.json unless Targets.KeepJSON asks for its bytes;
//     summary.md is written on a goroutine of its own beside findings.json),
//     a symbolic link
//     keeps being a link and its target is replaced, a device or FIFO (such
//     as /dev/stdout) is written in place, and a FIFO with no reader is
//     waited for only until the context ends;
//   - for the GitHub files, an append by fsio.AppendFile, by the same rules.
//
// A target inside the run directory (Targets.Run: summary.md and
// findings.json by default) is written under fsio.Within (SPEC §10): never
// through a symbolic link that leads out of the run, never over an input of
// the run (RefuseInput), a FIFO there never waited for.
//
// It owns the choice of renderings and the order of writing (findings.json
// first, so a watcher of it sees a change early). It must never choose the
// targets (cmd/fluxwatch does, from flags and environment), parse, or
// synthesise.
package report
