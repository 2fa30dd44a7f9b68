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
// The commands are:
//
//	synth [DIR]        synthesise a run once: summary.md, findings.json, the verdict gate
//	watch [DIR]        keep the synthesis current while agents write (live view, --events)
//	check PATH…        parse agent reports, bus and YAML files and print diagnostics
//	finding write|read append to or read the peer-findings bus, safely beside other writers
//	bus serve|relay    run a NATS JetStream hub (-tags hub), or mirror a file bus and a stream
//	protocol           print the Peer Findings Protocol section for an agent's prompt
//	mcp                serve fetch_peer_findings and get_synthesis over MCP on stdio
//	plan …             manage specialist findings (write-finding, write-approach, refine, …)
//	discover           find or create the feature directory
//	schema             print the JSON Schema of findings.json
//	config             print the effective configuration (.fluxwatch.yaml)
//	verify SYNTH RUN   check a synthesis written by someone else against the run (exit 1: ungrounded)
//	demo [DIR]         write an example run (--agents: a large one; --live: agents at work)
//	version            print the version (the Makefile's stamp, else the build info)
//	completion SHELL   print a completion script for bash, zsh, fish or powershell
//	man DIR            write man pages for fluxwatch and every command
//	help [COMMAND]     the commands, or one command's usage, flags and examples
//
// --bus (finding, protocol, mcp) names a bus file or a JetStream stream,
// nats://HOST:PORT/RUN ($FLUXWATCH_BUS); see docs/multi-machine.md.
//
// Run "fluxwatch help COMMAND" (or "fluxwatch COMMAND --help") for a
// command's flags and examples, on stdout. A mistyped command or flag is a
// usage error that suggests the nearest one. -q prints nothing but errors;
// -v and --log-level write structured logs (log/slog, text or JSON) on
// stderr. The command tree is spf13/cobra's (root.go): each command is a
// cobra.Command built by its cmd_NAME.go with its flags, help text and
// work; cobra parses the flags and writes completion and man pages. Without DIR, synth
// and watch use $FLUX_OUTPUT_DIR or a recent feature directory (discover's
// tiers 1–2), else the current directory; synth refuses (exit 2) a current
// directory that holds nothing of a run, watch starts on it and waits.
//
// synth and watch read .fluxwatch.yaml (the working directory or above, up to
// the git top; --config FILE): the gate, the outputs, the baseline, the
// suppressions of accepted findings, the evidence repository and the agents
// to expect. A flag given overrides the file. A .fluxwatch.yaml inside the
// run directory is never read (agents write it; a warning names it), and no
// path of the file may lead outside its repository. --baseline compares with an
// earlier findings.json (or run directory); --fail-on-new SEVERITY trips the
// gate on new, unsuppressed findings only.
//
// Exit codes: 0 ok; 1 the --fail-on or --fail-on-new gate tripped (an error
// verdict trips any gate, and so does a report that could not be fully read
// unless --allow-unreadable); 2 a usage or input error, with a one-line message naming the file;
// 3 an internal error (and discover's ambiguous match); 130 after SIGINT and
// 143 after SIGTERM (128 + the signal's number).
//
// Signals: SIGINT or SIGTERM ends every command within 1 s, whatever it is
// doing. The command is told first (its context ends: watch writes its final
// reports, finding read --follow and mcp stop, a wait on a lock or a FIFO
// ends); one that has not returned 750 ms later is not waited for, and a
// second signal (not the first one's echo within 100 ms, as GNU timeout
// sends it) ends the process at once. Either way the temporary files of
// report writes still in flight are removed, so no partial output is left,
// and the exit status is 130 or 143 — also when the command returned by
// itself because of the signal. A command that had finished before the
// signal keeps its own status.
//
// In the live view of watch, when stdin is a terminal too, q quits (as Ctrl-C
// does) and ? shows the keys; stdin that is not a terminal is never read.
//
// Colour is used only on a terminal and never when NO_COLOR is set.
//
// The package is wiring: flags, calling the packages that do the work,
// choosing output targets and exit codes. Each command is in cmd_NAME.go
// (with the files of its own, as check_inputs.go for check, format.go for
// synth's --format and mcp_stdio.go for mcp). A command calls no other
// command's helpers; what several share is in a file of its own: main.go
// (env, errors and exit codes), root.go (the command tree), cli.go (global
// options, help, "did you mean", a flag's input file), report_flags.go (the
// output flags and targets of synth and watch, and what they do before
// reading a run),
// ci_flags.go (.fluxwatch.yaml, --baseline, --fail-on-new), bus_flags.go
// (the flags that name and open a bus), envelope.go (the JSON of plan and
// discover) and version.go.
package main
