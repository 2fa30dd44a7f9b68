// Package fsio holds the filesystem rules that every reader and writer of
// fluxwatch follows, each in one place: open for reading without ever
// blocking, regular files only ([Open], [OpenIn], [ErrNotRegular]); read
// up to a cap ([ReadFile], [ErrTooLarge]); replace an output target
// atomically and only when its content changed, a link kept a link, a
// device or FIFO written in place ([WriteFile], [WriteFileFunc],
// [WriteFileIn]); append to a target such as $GITHUB_STEP_SUMMARY
// ([AppendFile]); keep writes inside a directory strangers write to
// ([Within], [CheckWithin]); open directories and roots without waiting on
// a FIFO ([OpenDirIn], [OpenRoot]); stop a read when its context ends
// ([ContextReader]); take an exclusive lock ([Lock], [LockIn]); and remove
// the temporary files of writes in flight when a signal ends the process
// ([RemoveTemps]).
//
// Confinement uses [os.Root]: the kernel resolves every path inside the
// root, so there is no check-then-open race.
//
// It must never parse, decide the layout of a run directory or print: it
// is the bottom of the house, used by bus, watcher, plan, evidence, report,
// config and cmd/fluxwatch, and never by the pure packages (parse, record,
// synth, verify, page: TestPureLinksNoIO).
//
// Each rule in full is in docs/decisions.md.
package fsio
