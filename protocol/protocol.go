package protocol

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Options are what the contract names: the agent, how it runs fluxwatch,
// where its report goes, and the bus it shares (none: the report contract
// alone).
type Options struct {
	// Agent is the agent's name (required; parse.ValidName).
	Agent string
	// Command is how the agent runs fluxwatch (default "fluxwatch").
	Command string
	// Dir is the run directory of the report ("": named in words).
	Dir string
	// Run is the run id: the report is AGENT.RUN.md and opens with its
	// run-uuid comment.
	Run string
	// Bus is the bus file or URL the agents share ("": none).
	Bus string
}

// Text returns the contract for o.Agent: the Review Agent Protocol and,
// with a bus, the Peer Findings Protocol, every name in a command
// shell-quoted. The error says which option is wrong: an agent name that
// is not one, a run that is not a run id, a line break or NUL in the bus or
// directory, or a bus URL holding credentials (the prompt would show them).
func Text(o Options) (string, error) {
	switch {
	case bus.IsURL(o.Bus) && strings.Contains(strings.SplitN(o.Bus, "/", 4)[2], "@"):
		return "", fmt.Errorf("--bus holds credentials, which the prompt would show: pass them to agents in NATS_CREDS")
	case o.Agent == "":
		return "", fmt.Errorf("--agent is required")
	case strings.ContainsAny(o.Bus, "\x00\n\r"):
		return "", fmt.Errorf("--bus holds a line break or NUL")
	case strings.ContainsAny(o.Dir, "\x00\n\r"):
		return "", fmt.Errorf("--dir holds a line break or NUL")
	case o.Run != "" && !parse.IsRun(o.Run):
		return "", fmt.Errorf("--run %q is not a run id ([0-9a-fA-F-]{8,})", o.Run)
	}
	if err := parse.ValidName(o.Agent); err != nil {
		return "", fmt.Errorf("--agent %q: %v", o.Agent, err)
	}
	if o.Command == "" {
		o.Command = "fluxwatch"
	}
	cmd := shellQuote(o.Command)
	text := contractText(cmd, o.Agent, o.Dir, o.Run)
	if o.Bus != "" {
		text += "\n" + protocolText(cmd, shellQuote(o.Bus), o.Agent, shellQuote(o.Agent))
	}
	return text, nil
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

// protocolText is the Peer Findings Protocol for agent, a subsection of
// the Review Agent Protocol, with the command, the
// bus path and the agent's name in commands (agentArg) already shell-quoted.
func protocolText(cmd, busPath, agent, agentArg string) string {
	r := strings.NewReplacer("CMD", cmd, "BUS", busPath, "--agent AGENT", "--agent "+agentArg, "AGENT", agent)
	return r.Replace(`### Peer Findings Protocol

You are one of several review agents working on the same task at the same time. While
you work, you share urgent findings with the other agents through a shared
peer-findings bus, and before you finish you read theirs.

#### When to share a finding
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

#### How to share a finding
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

#### Before your final report: read and acknowledge
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
`)
}

// contractText is the report contract for agent (SPEC §2.1, §2.5): where
// the report goes, its front matter, the Findings Index with an example
// that check --strict reads as valid, the verdict rule, the error stub and
// the check to run before finishing. cmd is shell-quoted already; dir and
// run may be empty.
func contractText(cmd, agent, dir, run string) string {
	base := agent + ".md"
	if run != "" {
		base = agent + "." + run + ".md"
	}
	where := "in the run directory you were given, as " + base
	report := base
	if dir != "" {
		report = filepath.Join(dir, base)
		where = "to " + report
	}
	uuid := ""
	if run != "" {
		uuid = "    <!-- run-uuid: " + run + " -->\n"
	}
	r := strings.NewReplacer("CMD", cmd, "AGENT", agent, "WHERE", where,
		"PARTIAL", shellQuote(report+".partial"), "REPORT", shellQuote(report), "UUID", uuid)
	return r.Replace(`## Review Agent Protocol

You are agent AGENT, a review agent. Your review ends as one Markdown report in the
exact format below: a program reads it, counts your findings beside other agents', and
gates the change on them.

### Where to write your report
Write your report WHERE. Write it first as that name with .partial added, and rename
it when it is complete: the rename tells the watcher that you are done.

    PARTIAL  ->  REPORT

### The format of your report
UUID    ---
    model: claude-sonnet-4
    started: 2026-11-20T10:00:00Z
    finished: 2026-11-20T10:42:00Z
    ---
    ### Findings Index
    - P1 | SEC-001 | "Authentication" | Session tokens are stored in localStorage
    - P2 | SEC-002 | "API Design" | The login endpoint has no rate limiting
    Verdict: needs-changes

    ## Summary
    Two findings: tokens readable by any script, and a login open to guessing.

    ## Issues Found
    ### SEC-001: Session tokens are stored in localStorage
    src/auth/session.ts:42 writes the token where any script on the page can read it.

    ### SEC-002: The login endpoint has no rate limiting
    src/api/login.ts:17-30 accepts unlimited attempts per account.

    ## Improvements
    - Move token handling into one module.

    <!-- flux-drive:complete -->

- Front matter first, between --- lines: say what you know, leave out what you do
  not (never guess). finished: is the UTC time you finish, as
  date -u +%Y-%m-%dT%H:%M:%SZ prints it; it decides the timeline, so always write it.
  Other fields: model, started, prompt_hash, tool_version, commit, repository, and
  tokens (your total token use).
- Then, as the first line after the front matter, exactly ### Findings Index.
- One line per finding: - SEVERITY | ID | "Section" | Title
  - SEVERITY is P0 (must not ship: security hole, data loss, outage), P1 (must fix
    before merging), P2 (should fix) or P3 (minor).
  - ID is 2 or 3 capital letters, a dash and 3 digits (SEC-001), unique in your report.
  - Section is the area, in double quotes; Title is one line.
- The last line of the index is the verdict, computed from your severities:
  Verdict: risky when any finding is P0; else Verdict: needs-changes when any is P1;
  else Verdict: safe. With no findings the index is the heading and Verdict: safe.
- Improvements (suggestions that are not defects) go under ## Improvements, never in
  the index.
- After the index: ## Summary, ## Issues Found (a ### section per finding, starting
  with its ID, citing path:line or path:start-end), ## Improvements, and the last
  line <!-- flux-drive:complete -->.
- If you cannot complete the review, write the error stub instead (front matter
  first, as above):

    ### Findings Index
    Verdict: error

    Agent failed to produce findings after retry. Error: what went wrong, in one line.

### Before you finish: check your report
Run this on your .partial, fix what it reports, and run it again until it passes;
then rename the file:

    CMD check --strict PARTIAL

Exit status 0 means your report reads as valid. Exit status 1 means it does not: each
line before the last says where (path:line) and what to fix.
`)
}
