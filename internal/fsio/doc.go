// Package fsio holds the filesystem rules that every reader and writer of
// fluxwatch follows, each in one place:
//
//   - [Open] and [OpenIn] open a file for reading without ever blocking: the
//     open is non-blocking (a FIFO with no writer does not wait), then fstat
//     decides, and anything but a regular file is refused with an error
//     wrapping [ErrNotRegular] that names the path and what it is ("a FIFO").
//   - [ReadAll] and [ReadFile] read at most a cap, into a slice sized from the
//     file's size, and fail with [ErrTooLarge] past it.
//   - [WriteFile] writes an output target (SPEC §7): a regular file (or a
//     missing one) is replaced atomically — temporary file in the same
//     directory, fsync, rename, directory sync — and only when its content
//     changed; a symbolic link keeps being a link and its target is replaced;
//     a device or FIFO (or a path under /dev or /proc, such as /dev/stdout) is
//     written in place, never renamed over, and a FIFO with no reader waits
//     only until the context ends. [WriteFileFunc] is the same for content
//     streamed by a function, compared with the file's as it is written.
//   - [Within] marks a context so that those writes keep a path inside a
//     directory that strangers write too (a run directory, SPEC §10) inside
//     it: links are followed only while they stay in it, a file the caller
//     names an input is never replaced, and the rename goes through an
//     [os.Root], so a link swapped in meanwhile cannot lead it out.
//     [CheckWithin] makes the same checks without writing.
//   - [AppendFile] appends to a target such as $GITHUB_STEP_SUMMARY by the
//     same rules: never blocking on the open, a FIFO or device written in
//     place until the context ends, a directory refused by name.
//   - [OpenDirIn] opens a directory inside an [os.Root] for listing, without
//     blocking, and refuses anything else by name. [OpenRoot] and
//     [OpenRootIn] open a directory as an [os.Root] the same way (os.OpenRoot
//     alone waits on a FIFO), without a check first that a swap could outrun.
//   - [ContextReader] stops a long read between two reads when its context
//     ends (a signal, an abandoned call).
//   - [WriteFileIn] replaces a regular file inside an [os.Root] the same
//     atomic way, every step resolved inside the root; [LockIn] is [Lock]
//     for a lock file inside a root.
//   - [RemoveTemps] removes the temporary files of atomic writes still in
//     flight: main calls it when a signal ends the process early, so that no
//     partial output is left behind.
//   - [Lock] takes the exclusive advisory lock of a lock file (flock(2) on
//     Unix, LockFileEx on Windows).
//
// Confinement to a directory uses [os.Root] ([OpenIn]): the kernel resolves
// every path inside the root, so there is no check-then-open race.
//
// It must never parse, decide the layout of a run directory or print: it is
// the bottom of the house, used by bus/, watcher/, plan/, evidence/ and
// cmd/fluxwatch alike.
package fsio
