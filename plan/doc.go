// Package plan is the specialist-findings store behind `fluxwatch plan` (SPEC
// §4.2) and the feature-directory discovery behind `fluxwatch discover` (§4.3).
//
// A plan root holds findings/{specialist}.yaml (one file per specialist, in the
// form of SPEC §4.1) and design/manifest.yaml. Store reads and changes those
// files: every change takes an exclusive flock on findings/{specialist}.yaml.lock,
// reads the file, refuses to go on if it is malformed (it is never overwritten),
// applies the change and replaces the file atomically (a temporary file in the
// same directory, fsync, rename). Concurrent writers therefore never lose each
// other's approaches, and a reader never sees a half-written file.
//
// Every file of the plan root is opened through an [os.Root] of it: a
// symbolic link anywhere in a plan path (the specialist file, the lock file,
// a findings/ or design/ directory) that leads outside the root is refused
// (ErrUnsafePath), for reads and writes alike; a FIFO or other non-regular
// file is refused without blocking. Writes and locks go through
// internal/fsio (WriteFileIn, LockIn).
//
// Specialist names are names, not file names: "ok.yaml" is refused with a
// suggestion to use "ok" (its file is findings/ok.yaml), rather than stored
// as findings/ok.yaml.yaml or silently renamed.
//
// [GitTop] finds the top of the git work tree holding a directory (a .git
// entry, never above $GIT_CEILING_DIRECTORIES), without running git: the one
// answer to "which repository" for the plan root and for the evidence of
// `synth`, `watch` and `check`.
//
// Errors returned by Store and by the discovery functions are *Error values
// with a Type from the list of Err* constants, a message and a suggestion:
// the error envelope of the command line.
//
// Discovery (Discover, DiscoverDir, Create, FindOrCreate) finds the feature
// directory a task belongs to: tier 1 an explicit directory, tier 2 a
// recently modified MANIFEST.yaml under a root scored against the task, tier
// 3 a new directory. Time comes from Options.Now, so tests control it.
//
// Tier 3 is made under a lock (FindOrCreate: ROOT/.fluxwatch-discover.lock),
// and only when a second look under it still finds nothing: agents started
// at once for one task each run `discover --create`, and must agree on one
// directory (SPEC §10). Discovery without --create takes no lock: it only
// reads, and a directory half made (no MANIFEST.yaml yet) is not a
// candidate; the manifest is written atomically.
package plan
