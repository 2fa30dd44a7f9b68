// Package evidence checks what review agents cite against the repository
// they reviewed (SPEC §5.7): for each evidence claim (a cited range of a
// file and, when the agent pasted one, the excerpt it says is there) and
// each file:line reference, whether the file exists and the excerpt is at
// those lines: verified, moved, mismatch, missing-file, out-of-range or
// skipped.
//
// A [Verifier] reads the repository through an [io/fs.FS]; [Open] confines
// it to a directory with [os.Root] ("..", absolute paths and symlinks out
// of it are refused before anything is opened), [New] takes any fs.FS. It
// implements synth.Verifier without importing synth: the claims and
// results are package parse's (TestImportsFollowTheFlow). It holds no
// state between calls, is safe for concurrent use, reads each file at most
// once per [Verifier.Check] with a bounded number of goroutines, and holds
// only the files in flight.
//
// It owns the comparison (white space normalised, elisions) and what a
// mismatch note may quote: only files git tracks, never a line that looks
// like a credential (SPEC §10). It must never read the run directory or
// watch anything (package watcher does), never block on a FIFO or device,
// and never quote an untracked file.
//
// The statuses, the comparison and the quoting rules in full are in
// docs/decisions.md; docs/commands.md is the user's account.
package evidence
