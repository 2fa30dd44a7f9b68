// Package mcpserver is fluxwatch's Model Context Protocol server (SPEC
// §7), on the official Go SDK: two read-only tools, fetch_peer_findings
// (a run's bus as a JSON array of canonical findings) and get_synthesis (a
// summary, pages of findings, or the whole findings.json). [Serve] runs it
// on a stream of lines (`fluxwatch mcp` passes standard input and output);
// [NewServer] gives the *mcp.Server for any other transport. The name is
// not "mcp", which is the SDK's package.
//
// It owns the tool handlers and their schemas, the confinement of every
// output_dir and baseline to [Config.Root] (an os.Root: the kernel
// resolves each path inside it), the deadline of each call, the shared
// synthesis (callers asking at once for one run share one; at most two
// are made at once, each within synth's memory budget), and the filter on
// its input that answers a line that is not a JSON-RPC message with a
// JSON-RPC error instead of letting the SDK end the session.
//
// It must never write a file, nor print anywhere but its output and
// [Config.Log]; it reads a run's files through package watcher and its
// bus through package bus, and never opens a network bus itself (the
// caller opens [Config.Stream] with its credentials).
package mcpserver
