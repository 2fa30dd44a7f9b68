package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

const protocolUsage = `Usage: fluxwatch protocol --bus PATH|URL --agent NAME [--command PATH]

Prints the "Peer Findings Protocol" section to paste into the prompt of agent
NAME: when to share a finding, the exact command to write one to the bus at
PATH (or nats://HOST:PORT/RUN; default $FLUXWATCH_BUS), and how to read and
acknowledge the other agents' findings. A URL holding credentials is
refused: the prompt would show them; give agents NATS_CREDS instead.
`

func protocolCmd(e *env) *cobra.Command {
	cmd := newCommand("protocol", "print the Peer Findings Protocol section for an agent prompt", protocolUsage)
	flags := cmd.Flags()
	var busPath, agent, command string
	flags.StringVar(&busPath, "bus", "", "the bus file the agents share, or nats://HOST:PORT/RUN (default $FLUXWATCH_BUS)")
	flags.StringVar(&agent, "agent", "", "the name of the agent the prompt is for (required)")
	flags.StringVar(&command, "command", "fluxwatch", "how the agent runs fluxwatch (a path, when it is not on PATH)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return runProtocol(e, flags, busPath, agent, command) }
	return cmd
}

func runProtocol(e *env, flags *flag.FlagSet, busPath, agent, command string) error {
	if flags.NArg() > 0 {
		return usageErrorf("protocol: unexpected argument %q", flags.Arg(0))
	}
	b := busFlags{path: busPath}
	b.resolve(e)
	busPath = b.path
	switch {
	case busPath == "":
		return usageErrorf("protocol: --bus is required")
	case b.remote() && strings.Contains(strings.SplitN(busPath, "/", 4)[2], "@"):
		return usageErrorf("protocol: --bus holds credentials, which the prompt would show: pass them to agents in NATS_CREDS")
	case agent == "":
		return usageErrorf("protocol: --agent is required")
	case strings.ContainsAny(busPath, "\x00\n\r"):
		return usageErrorf("protocol: --bus holds a line break or NUL")
	}
	if err := parse.ValidName(agent); err != nil {
		return usageErrorf("protocol: --agent %q: %v", agent, err)
	}
	fmt.Fprint(e.stdout, protocolText(shellQuote(command), shellQuote(busPath), agent, shellQuote(agent)))
	return nil
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:@%+=,-]+$`)

// shellQuote quotes s for a POSIX shell: as is when every byte is safe,
// otherwise in single quotes with each ' written as '\”.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// protocolText is the Peer Findings Protocol for agent, with the command, the
// bus path and the agent's name in commands (agentArg) already shell-quoted.
func protocolText(cmd, busPath, agent, agentArg string) string {
	r := strings.NewReplacer("CMD", cmd, "BUS", busPath, "--agent AGENT", "--agent "+agentArg, "AGENT", agent)
	return r.Replace(`## Peer Findings Protocol

You are agent AGENT, one of several review agents working on the same task at the same
time. While you work, you share urgent findings with the other agents through a shared
peer-findings bus, and before you finish you read theirs.

### When to share a finding
Share a finding as soon as you are confident of it, and keep working; do not wait for
your final report.
- **blocking**: it contradicts or invalidates an analysis other agents are likely
  making (for example: the code under review is never called; the auth middleware is
  not mounted, so every endpoint is public; the design relies on an API that does not
  exist). Every other agent must take it into account.
- **notable**: it may change other agents' conclusions (a shared assumption that is
  wrong, a risk that cuts across areas, an important file others may miss).
- Everything else (local issues, style, nits, findings that matter only to your own
  area) goes in your report, not on the bus.
- If you find nothing blocking or notable, write nothing to the bus. Never write "no
  findings", progress notes, greetings or questions.

### How to share a finding
Run this command, one finding per command, with your own severity, category, summary
and file references:

    CMD finding write --bus BUS --agent AGENT \
      --severity blocking --category auth \
      --summary 'What is wrong, where, and why it matters to the other agents.' \
      --file-ref src/auth/middleware.go:42

- --severity is blocking or notable.
- --category is a short kebab-case topic: auth, data-loss, api-contract, concurrency, ...
- --summary is one or two sentences that stand on their own. Put it in single quotes.
  If it contains a single quote, pass - and give the text on standard input instead:

    CMD finding write --bus BUS --agent AGENT \
      --severity notable --category auth --summary - <<'END_OF_FINDING'
    The token's scope is never checked before the refresh.
    END_OF_FINDING

- --file-ref PATH:LINE or PATH:START-END, repeated for each place; give at least one
  when the finding is about code.
- Exit status 0 means the finding is recorded. Exit status 2 means it was refused and
  nothing was written: the message says why; fix the command and run it again.
- Never edit the bus file yourself; always use the command.

### Before your final report: read and acknowledge
Read every peer finding:

    CMD finding read --bus BUS

It prints a JSON array ([] when there is none). Each element has severity
("blocking" or "notable"), agent, category, summary, file_refs and timestamp, and
sometimes id and priority. Skip your own entries ("agent": "AGENT"). An entry with
"kind": "stall" only says that an agent stalled: it is not a finding.
- You MUST acknowledge every blocking finding of another agent in your report. Name the
  agent and its id or one of its file_refs, and say whether you confirm it, dispute it
  (with your evidence), or how it changed your own findings. For example:
  > Peer finding acknowledged: fd-architecture (blocking, src/auth/middleware.go:42,
  > "auth middleware is never mounted"). Confirmed; it raises my SEC-002 to P0.
- You SHOULD consider every notable finding: mention it where it bears on your
  findings, or dismiss it in one line when it does not apply.
- When you adopt another agent's finding, cite that agent; do not present it as
  your own.

### Declare how your report was made
Begin your report with YAML front matter saying what you know, and leave out what
you do not (never guess; unknown is shown as unknown):

    ---
    model: claude-sonnet-4
    prompt_hash: sha256:9f2c...
    tool_version: claude-code 2.1.0
    commit: 0a1b2c3
    repository: https://github.com/acme/shop.git
    started: 2026-11-20T10:00:00Z
    finished: 2026-11-20T10:42:00Z
    tokens: 48200
    ---

tokens is the total token use of your review (or a usage: mapping with total_tokens,
or input_tokens and output_tokens). When you write to the bus, you may add
--model and --run-id to say the same of each finding.
`)
}
