// Package watcher owns the filesystem side of fluxwatch: it reads an output
// directory by the layout of SPEC §1 into a [synth.Run], once or live.
//
// It is the one reader of a run directory for every command: synth and mcp
// ([Synthesize]), watch ([Watcher]), and check ([Scan] for a directory,
// [ReadAgent] for a named file). rundir.go holds the layout rules: names are
// classified by parse.ClassifyName; the directory is opened as an [os.Root]
// and every file inside it through that root (a symbolic link out of it is
// refused by the kernel, with a diagnostic), without blocking, regular
// files only (anything else is a diagnostic naming the file and what it
// is), and read up to [DefaultMaxFile]. With [ScanOptions.RequireRun], a
// directory that holds nothing of a run is refused ([ErrNoRun]).
//
// It must never write the reports (package report does) or render them,
// nor decide what a report's bytes mean (package parse does).
//
// [Scanner.Scan] is the one-shot read behind `fluxwatch synth`: it lists the
// directory (and its findings/ and design/ subdirectories), parses the files in
// parallel with a bound, and assembles them in a fixed order. A Scanner
// remembers each file's parse by path, size, modification time and identity,
// so a later Scan re-parses only the files that changed; the live watcher
// builds on that.
//
// [Watcher.Run] is `fluxwatch watch` (SPEC §8). One goroutine, Run's, owns
// all the state: the fsnotify watches, the debounce, the bus tails and their
// entries, the agents' clocks, the [synth.Live] synthesis. Events are hints:
// each one makes the watcher look at the filesystem again (a Scan, which
// stats every file, or a bus poll, which stats the bus and reads what was
// appended). After every change it calls its handler with an [Update]; a
// [Differ] turns updates into the events of `watch --events`.
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
//   - Modification times are coarse: a file read less than 2 s after it was
//     last modified is read again by the next Scan even when its size and time
//     did not change, and parsed again only when its content did (a hash
//     decides).
//   - "A file that fails to parse keeps its last good parse until it parses
//     again" (§8) applies to a report or .partial that turned empty and to a
//     YAML file whose reader fails: a file caught mid-write. While watching, the
//     last good parse is shown with a warning; when the file stays unchanged
//     and broken for 2 s ([DefaultKeepGood]) its failure shows, as in `synth`,
//     so that a file left broken is reported and the watcher's findings.json
//     ends equal to synth's. A report that parses into fewer findings is not a
//     failure: it is read as it is.
//   - A file that cannot be read (no permission, an I/O error) is a failed
//     agent with a diagnostic while watching, final update included
//     ([ScanOptions.Unreadable]), and read again at every Scan; one-shot
//     commands exit 2 on it.
//   - Reports and YAML files are read 50 ms after the last event about them
//     (the debounce), and at least every 500 ms while events keep coming; bus
//     appends are read at once. A bus file that appears, or is a symbolic link,
//     is read only after a Scan has found it inside the directory.
//   - The bus tail's own diagnostics (read again from the start) go to
//     Update.Diagnostics, not into the synthesis, so that the watcher's
//     findings.json stays equal to synth's; the decoder's (invalid lines) go
//     into the synthesis as synth's do.
//   - The final update (Ctrl-C, SIGTERM, --until-complete) is a one-shot
//     synthesis: not watching, no last good parse kept. Under
//     --until-complete with a stall timeout, a stalled agent is handed to
//     synth as failed (in run(), the watcher's judgement), so that a hung
//     agent cannot keep the run from completing (SPEC §10); it is partial
//     again once its .partial changes.
//   - A directory the event source refuses (inotify watches used up, which
//     another process of the user can do) is polled every DefaultPoll
//     while it cannot be watched, and added again at each
//     poll: a new report is seen without an event, --rescan 0 or not. No
//     event source at all (inotify instances used up) polls everything.
//   - The watcher holds only the bus entries its synth.Live has not read:
//     after each update they are dropped (a long read hands them over every
//     16,384), so that memory does not grow with the bus. With entries in
//     both bus files nothing is dropped, and a file whose entries were
//     dropped is read again from its start (its entries are not reported as
//     appended again); the final update of a run whose entries were dropped
//     reads the bus again, as Synthesize does.
package watcher
