// Command fluxwatch sits beside parallel AI review agents. Each agent writes a
// report into one output directory and shares urgent findings on a JSONL bus;
// fluxwatch parses the reports, tails the bus and keeps one deterministic
// synthesis current: a verdict, deduplicated findings with convergence, a
// timeline of peer findings, and reports for people and machines.
//
// Usage:
//
//	fluxwatch [-q] [-v | --log-level LEVEL] [--log-format text|json] COMMAND [flags] [args]
//
// The commands: synth, watch, check, finding, bus, protocol, mcp, plan,
// discover, schema, config, verify, demo, version, completion, man, help.
// "fluxwatch help COMMAND" prints a command's flags and examples;
// docs/cli.md and docs/commands.md are the manual.
//
// Exit codes: 0 ok; 1 a gate tripped (--fail-on, --fail-on-new; an error
// verdict, or a report not fully read without --allow-unreadable, trips
// any gate; verify: an ungrounded synthesis); 2 a usage or input error,
// with a one-line message naming the file; 3 an internal error (and
// discover's ambiguous match); 130 after SIGINT and 143 after SIGTERM. A
// signal ends every command within 1 s.
//
// The package is adapters: each command's flags, filled into the options
// of the library call that does its work, and the error it returns mapped
// to the exit code. synth, watch, verify and config are one call each to
// internal/runjob (the run and its configuration, the report targets, the
// gate, watch's loop); check is check's, finding finding's, mcp
// mcpserver's; the flags that name a bus are internal/busflag's, the
// signals internal/interrupt's. main.go and exit.go map errors to exit
// codes, root.go and cli.go hold the command tree; docs/architecture.md
// says where each change goes. It must never decide what a report says,
// merge findings or render a synthesis: those are parse's, synth's,
// page's and report's.
package main
