// Package config reads .fluxwatch.yaml, the checked-in configuration of
// fluxwatch: the gate, the output paths, the baseline, the suppressions of
// accepted findings, the evidence repository and the agents to expect
// (docs/baselines.md shows the file).
//
// [Find] looks for the file from a directory up to the top of its git work
// tree, never inside the run directory: agents write that, so a file there
// is passed over and named for a warning (SPEC §10). [Load] and [Parse]
// read it strictly: an unknown key, a value of the wrong kind, a YAML
// alias or a suppression without a reason is an error that names the file
// and line. Relative paths are relative to the file's directory
// ([Config.Resolve]) and must stay inside its repository ([Config.Local],
// links followed).
//
// It owns the file's keys and their checks. It must never read the run
// directory, the clock or the environment, nor merge the file with
// command-line flags (internal/runjob does).
package config
