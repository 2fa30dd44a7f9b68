// Package plan is the specialist-findings store behind `fluxwatch plan`
// (SPEC §4.2) and the feature-directory discovery behind `fluxwatch
// discover` (§4.3).
//
// A plan root holds findings/{specialist}.yaml (SPEC §4.1) and
// design/manifest.yaml. [Store] reads and changes them: each change takes
// an exclusive flock on findings/{specialist}.yaml.lock, reads the file,
// refuses to go on if it is malformed (never overwritten), and replaces it
// atomically, so concurrent writers never lose each other's approaches.
// Every file is opened through an [os.Root] of the plan root: a link out of
// it is refused (ErrUnsafePath), a FIFO refused without blocking.
// Discovery (Discover, DiscoverDir, Create, FindOrCreate) finds the feature
// directory of a task by tiers; tier 3 is created under a lock, after a
// second look, so that agents started at once agree on one directory.
// [GitTop] is the one answer to "which repository" (no git process).
//
// [Command] is `fluxwatch plan` whole (its flags, its JSON envelope, its
// exit codes as *ExitError); [WriteDiscover] and [Choose] are what
// discover prints and asks.
//
// It owns the plan root's files, specialist names and the envelope of the
// command line. It must never read a run directory or the clock
// (Options.Now gives time), and writes only to the writers it is given.
//
// The discovery tiers and the other decisions in full are in
// docs/decisions.md.
package plan
