// Package runjob is what the commands that read a run directory do between
// their flags and their exit status: synth once, watch live, and the pieces
// check, verify, config and mcp share (which run, which directory, the
// configuration).
//
// It owns: choosing the run directory and the run (SPEC §1, §4.3); reading
// .fluxwatch.yaml and merging it with the flags (a flag always wins; a
// configuration in the run directory is never read, SPEC §10); the evidence
// verifier and the baseline; the --bus read instead of the run's bus files
// (opened by internal/busflag's Schemes); the report targets, checked before
// anything is read (at most one thing on standard output, no two targets one
// file, no target an input of the run) and written in their order (files,
// GitHub files, then standard output); the gate's decision and its account
// on stderr; and watch's loop: the reports written at each change, its
// events or lines on a queue a slow reader cannot hold up, the final reports
// and event.
//
// A command fills Options from its flags (flags stay in cmd: this package
// knows no flag set) and calls Synth or Watch, or Load and a Job's methods.
// Errors are *Error, carrying the exit status SPEC §7 gives them, with a
// one-line message that names the command and the file.
//
// It must never parse a report, merge findings or render a synthesis: those
// are parse's, synth's, page's and report's. Everything it reads from the
// run directory is untrusted input.
package runjob
