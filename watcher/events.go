package watcher

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// EventsVersion is the version of the event stream (the hello record's
// "version").
const EventsVersion = 1

// Event types (SPEC §8).
const (
	EventHello          = "hello"
	EventAgentStarted   = "agent_started"
	EventAgentCompleted = "agent_completed"
	EventAgentFailed    = "agent_failed"
	EventFindingAdded   = "finding_added"
	// EventConvergenceChanged: a known finding is now reported by more or
	// fewer agents (its N of N/M; a change of M alone is no event).
	EventConvergenceChanged = "convergence_changed"
	EventPeerFinding        = "peer_finding"
	EventVerdictChanged     = "verdict_changed"
	EventConverged          = "converged"
	EventStalled            = "stalled"
	EventDiagnostic         = "diagnostic"
	// EventFinal is the last record of the stream: the final verdict, the
	// exit status and the gate's reasons (Final).
	EventFinal = "final"
)

// Event is one change of a watched run, as one NDJSON record of `watch
// --events`. Type says which fields are set; the others are omitted.
type Event struct {
	Type string `json:"type"`
	// Time is when the watcher saw the change (RFC 3339, UTC, milliseconds).
	Time string `json:"time"`

	// hello
	Version     int    `json:"version,omitempty"`
	Tool        string `json:"tool,omitempty"`
	ToolVersion string `json:"tool_version,omitempty"`
	Dir         string `json:"dir,omitempty"`
	BusEntries  *int   `json:"bus_entries,omitempty"`

	// The agent, and the file (in the output directory) of an agent, a bus
	// entry or a diagnostic.
	Agent string `json:"agent,omitempty"`
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	// Seq numbers a peer finding in the timeline.
	Seq int `json:"seq,omitempty"`

	// agent_started, agent_completed, agent_failed
	Status parse.Status `json:"status,omitempty"`

	// verdict_changed: From and Verdict; agent_completed, converged: Verdict.
	From    parse.Verdict `json:"from,omitempty"`
	Verdict parse.Verdict `json:"verdict,omitempty"`

	// finding_added: P0..P3; peer_finding: blocking, notable or unknown
	// (Priority a hand-written line's P0..P3).
	Severity string         `json:"severity,omitempty"`
	Priority parse.Severity `json:"priority,omitempty"`

	// finding_added
	Key     string `json:"key,omitempty"`
	ID      string `json:"id,omitempty"`
	Section string `json:"section,omitempty"`
	Title   string `json:"title,omitempty"`

	// peer_finding
	Category  string   `json:"category,omitempty"`
	Summary   string   `json:"summary,omitempty"`
	FileRefs  []string `json:"file_refs,omitempty"`
	Timestamp string   `json:"timestamp,omitempty"`

	// finding_added, convergence_changed (FromConvergence: the N before)
	Agents             []string `json:"agents,omitempty"`
	Convergence        int      `json:"convergence,omitempty"`
	ConvergenceDisplay string   `json:"convergence_display,omitempty"`
	FromConvergence    int      `json:"from_convergence,omitempty"`

	// agent_completed (the agent's findings), verdict_changed and converged
	// (the run's)
	Counts *synth.Counts `json:"counts,omitempty"`

	// converged (Unreadable only when a report could not be fully read)
	Launched   *int `json:"agents_launched,omitempty"`
	Completed  *int `json:"agents_completed,omitempty"`
	Failed     *int `json:"agents_failed,omitempty"`
	Unreadable *int `json:"agents_unreadable,omitempty"`
	Findings   *int `json:"findings,omitempty"`

	// agent_failed: why it failed; agent_completed with status unreadable:
	// why the report could not be fully read (its first reason, at Line).
	Reason string `json:"reason,omitempty"`

	// stalled: Source is "timeout" (the .partial did not change for the
	// stall timeout) or "bus" (a stall event on the bus, Message its text).
	Source      string  `json:"source,omitempty"`
	IdleSeconds float64 `json:"idle_seconds,omitempty"`

	// diagnostic
	Level   parse.Level `json:"level,omitempty"`
	Message string      `json:"message,omitempty"`

	// final: the exit status of watch (absent when a signal ended it: the
	// status is then the signal's), Interrupted when one did, and one
	// reason per line of the gate's account (synth.Decision.Explain), or
	// the error that ends the watch with status 2.
	ExitStatus  *int     `json:"exit_status,omitempty"`
	Interrupted bool     `json:"interrupted,omitempty"`
	Reasons     []string `json:"reasons,omitempty"`
}

// Hello is the first record of the event stream.
func Hello(at time.Time, toolVersion, dir string, busEntries int) Event {
	return Event{Type: EventHello, Time: stamp(at), Version: EventsVersion, Tool: "fluxwatch",
		ToolVersion: toolVersion, Dir: dir, BusEntries: &busEntries}
}

// Diagnostic is a diagnostic event at a time, of no file: one the command
// itself has to say among the events.
func Diagnostic(at time.Time, level parse.Level, msg string) Event {
	return Event{Type: EventDiagnostic, Time: stamp(at), Level: level, Message: msg}
}

// Final is the last record of the stream: the final synthesis's verdict and
// counts, the exit status of watch (status; ignored when interrupted, as
// a signal's status is the process's) and the reasons for it.
func Final(at time.Time, s *synth.Synthesis, status int, interrupted bool, reasons []string) Event {
	ev := Event{Type: EventFinal, Time: stamp(at), Verdict: s.Verdict, Interrupted: interrupted, Reasons: reasons}
	launched, completed, failed, findings := len(s.AgentsLaunched), len(s.AgentsCompleted), len(s.AgentsFailed), s.Counts.Total()
	ev.Launched, ev.Completed, ev.Failed, ev.Findings = &launched, &completed, &failed, &findings
	if n := len(s.AgentsUnreadable); n > 0 {
		ev.Unreadable = &n
	}
	if !interrupted {
		ev.ExitStatus = &status
	}
	return ev
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// Differ turns successive updates into events: what changed since the
// previous update. The first update is compared with an empty run, so its
// events describe the run as the watcher found it (peer findings excepted:
// only entries appended afterwards are events).
//
// A Differ keeps a digest of the previous update, not the update: the
// verdict, the agents, and per source of a finding a 128-bit hash of its
// agent and key with its finding's convergence. Keeping the previous
// synthesis and each source's key as a string held 26 MB beside the
// 122 MB synthesis of a 16 MiB strict index (heap profile, inuse_space).
type Differ struct {
	updated bool          // an update with a synthesis was seen
	verdict parse.Verdict // of the previous update
	agents  map[string]synth.AgentResult
	sources map[sourceDigest]int // the sources of the findings known → their convergence
	seed    [2]maphash.Seed
	// seen is each finding of the previous update by its sources (their
	// first, how many) and its convergence: when the findings of an update
	// are those, the finding events and sources are those of the previous
	// one (sameFindings).
	seen      []seenFinding
	diags     map[synth.Diagnostic]int
	converged bool
}

// sourceDigest stands for a source of a finding: its agent and key (SPEC
// §5.1), hashed twice with two seeds of the process. Two sources whose
// digests are equal have the same agent and key but with a chance of about
// n²/2¹²⁹ among n sources.
type sourceDigest [2]uint64

// NewDiffer returns a Differ that has seen nothing.
func NewDiffer() *Differ {
	return &Differ{agents: map[string]synth.AgentResult{}, sources: map[sourceDigest]int{}, diags: map[synth.Diagnostic]int{},
		seed: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
}

// digest returns the digest of a source: its agent and key.
func (d *Differ) digest(src *synth.Source) sourceDigest {
	key := parse.Key(src.Section, src.Title)
	var x sourceDigest
	for i, seed := range d.seed {
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString(src.Agent)
		h.WriteByte(0)
		h.WriteString(key)
		x[i] = h.Sum64()
	}
	return x
}

// Diff returns the events of u, in a fixed order: the watcher's
// diagnostics, agents started, completed and failed, findings added, peer
// findings and their convergence changes, peer findings and bus stalls, timeout stalls, new diagnostics of the synthesis,
// the verdict change, convergence.
func (d *Differ) Diff(u *Update) []Event {
	var out []Event
	d.Each(u, func(e Event) { out = append(out, e) })
	return out
}

// Each calls yield with each event of u, in Diff's order, as it is made,
// so that a caller printing them holds no list of them: the first update
// of a 16 MiB strict index has 201,618 finding_added events, 114 MB as a
// list (heap profile of watch, inuse_space). yield must not call d.
func (d *Differ) Each(u *Update, yield func(Event)) {
	now := stamp(u.Time)
	add := func(e Event) {
		e.Time = now
		yield(e)
	}
	for _, dg := range u.Diagnostics {
		add(Event{Type: EventDiagnostic, File: dg.Path, Line: dg.Line, Level: dg.Level, Message: dg.Message})
	}
	s := u.Synthesis
	if u.Heartbeat || s == nil {
		for _, st := range u.Stalled {
			add(stallEvent(st))
		}
		return
	}

	// Agents, by name.
	agents := map[string]synth.AgentResult{}
	for _, a := range s.Agents {
		if a.Status == parse.StatusForeign {
			continue
		}
		agents[a.Name] = a
	}
	for _, name := range slices.Sorted(maps.Keys(agents)) {
		a := agents[name]
		old, had := d.agents[name]
		file := ""
		if a.File != nil {
			file = *a.File
		}
		if a.File != nil && (!had || old.File == nil) {
			add(Event{Type: EventAgentStarted, Agent: name, File: file, Status: a.Status})
		}
		// A report rewritten so that it reads, or no longer reads, in full
		// completes again: its status is news.
		unread := a.Status == parse.StatusUnreadable
		switch {
		case a.Status.Completed() && (!had || !old.Status.Completed() || unread != (old.Status == parse.StatusUnreadable)):
			counts := a.Counts.Counts
			e := Event{Type: EventAgentCompleted, Agent: name, File: file, Status: a.Status, Verdict: a.Verdict, Counts: &counts}
			if r := a.UnreadReasons(); len(r) > 0 {
				e.Line, e.Reason = r[0].Line, r[0].Message
			}
			add(e)
		case a.Status == parse.StatusError && (!had || old.Status != parse.StatusError):
			add(Event{Type: EventAgentFailed, Agent: name, File: file, Status: a.Status, Reason: failReason(a)})
		}
	}
	d.agents = agents

	// Findings added, or whose convergence changed.
	if !d.sameFindings(s.Findings) {
		d.findings(s.Findings, add)
	}

	for _, e := range u.Appended {
		if e.Kind == bus.EntryStall {
			add(Event{Type: EventStalled, Agent: e.Agent, File: e.File, Line: e.Line, Source: "bus", Message: e.Summary,
				Timestamp: e.Timestamp})
			continue
		}
		add(Event{Type: EventPeerFinding, Seq: e.Seq, File: e.File, Line: e.Line, Agent: e.Agent, Severity: e.Severity,
			Priority: e.Priority, ID: e.ID, Category: e.Category, Summary: e.Summary, FileRefs: e.FileRefs, Timestamp: e.Timestamp})
	}
	for _, st := range u.Stalled {
		add(stallEvent(st))
	}

	// Diagnostics of the synthesis that are new (each counted, so that the
	// same message on a new line or a second time is an event again).
	diags := map[synth.Diagnostic]int{}
	for _, dg := range s.Diagnostics {
		diags[dg]++
		if diags[dg] > d.diags[dg] {
			add(Event{Type: EventDiagnostic, File: dg.File, Line: dg.Line, Level: dg.Level, Message: dg.Message})
		}
	}
	d.diags = diags

	from := parse.Pending
	if d.updated {
		from = d.verdict
	}
	if s.Verdict != from {
		counts := s.Counts
		add(Event{Type: EventVerdictChanged, From: from, Verdict: s.Verdict, Counts: &counts})
	}
	conv := Converged(s)
	if conv && !d.converged {
		counts := s.Counts
		launched, completed, failed, findings := len(s.AgentsLaunched), len(s.AgentsCompleted), len(s.AgentsFailed), len(s.Findings)
		e := Event{Type: EventConverged, Verdict: s.Verdict, Counts: &counts, Launched: &launched, Completed: &completed,
			Failed: &failed, Findings: &findings}
		if n := len(s.AgentsUnreadable); n > 0 {
			e.Unreadable = &n
		}
		add(e)
	}
	d.converged = conv
	d.updated, d.verdict = true, s.Verdict
}

// Converged reports whether every agent launched so far has finished
// (completed or failed) and at least one was launched.
func Converged(s *synth.Synthesis) bool {
	return len(s.AgentsLaunched) > 0 && len(s.AgentsPartial) == 0
}

func stallEvent(st Stall) Event {
	return Event{Type: EventStalled, Agent: st.Agent, File: st.File, Source: "timeout", IdleSeconds: st.Idle.Round(time.Millisecond).Seconds()}
}

// failReason is the first error diagnostic of a failed agent, else its
// status.
func failReason(a synth.AgentResult) string {
	for _, d := range a.Diagnostics {
		if d.Level == parse.LevelError {
			return d.Message
		}
	}
	return "error report"
}

// Text is e as one line for people: "HH:MM:SS type details" in local time.
// Every text of the run in it (names, titles, summaries, messages) is
// inert.Line: on one line, its control characters and bidirectional
// overrides shown as visible stand-ins.
func (e Event) Text() string {
	t, err := time.Parse(time.RFC3339Nano, e.Time)
	clock := e.Time
	if err == nil {
		clock = t.Local().Format("15:04:05")
	}
	l := inert.Line
	list := func(xs []string) string { return l(strings.Join(xs, ", ")) }
	var b strings.Builder
	b.WriteString(l(clock) + " ")
	switch e.Type {
	case EventHello:
		fmt.Fprintf(&b, "watching %s", l(e.Dir))
	case EventAgentStarted:
		fmt.Fprintf(&b, "started   %s (%s)", l(e.Agent), l(e.File))
	case EventAgentCompleted:
		fmt.Fprintf(&b, "completed %s: %s, %s (%s)", l(e.Agent), e.Status, e.Verdict, countsText(e.Counts))
		if e.Status == parse.StatusUnreadable {
			b.WriteString(" — could not be fully read")
			if e.Line > 0 {
				fmt.Fprintf(&b, ": line %d", e.Line)
			}
			if e.Reason != "" {
				fmt.Fprintf(&b, ": %s", l(e.Reason))
			}
		}
	case EventAgentFailed:
		fmt.Fprintf(&b, "failed    %s: %s", l(e.Agent), l(e.Reason))
	case EventFindingAdded:
		fmt.Fprintf(&b, "finding   %s %s %q in %s (%s)", e.Severity, e.ConvergenceDisplay, l(e.Title), l(e.Section),
			list(e.Agents))
	case EventConvergenceChanged:
		fmt.Fprintf(&b, "converge  %s %q: %d → %s agents (%s)", e.Severity, l(e.Title), e.FromConvergence,
			e.ConvergenceDisplay, list(e.Agents))
	case EventPeerFinding:
		fmt.Fprintf(&b, "peer      #%d %s %s", e.Seq, l(e.Agent), l(e.Severity))
		if e.Category != "" {
			fmt.Fprintf(&b, " [%s]", l(e.Category))
		}
		fmt.Fprintf(&b, " %s", l(e.Summary))
		if len(e.FileRefs) > 0 {
			fmt.Fprintf(&b, " (%s)", list(e.FileRefs))
		}
	case EventVerdictChanged:
		fmt.Fprintf(&b, "verdict   %s → %s (%s)", e.From, e.Verdict, countsText(e.Counts))
	case EventConverged:
		verdict := string(e.Verdict)
		if n := deref(e.Unreadable); n > 0 {
			verdict += " — " + synth.UnreadNote(n)
		}
		fmt.Fprintf(&b, "converged %s: %d/%d %s completed, %d failed, %s", verdict, deref(e.Completed),
			deref(e.Launched), synth.Noun(deref(e.Launched), "agent"), deref(e.Failed), synth.Plural(deref(e.Findings), "finding"))
	case EventStalled:
		if e.Source == "bus" {
			fmt.Fprintf(&b, "stalled   %s (bus: %s)", l(e.Agent), l(e.Message))
		} else {
			fmt.Fprintf(&b, "stalled   %s: %s unchanged for %s", l(e.Agent), l(e.File),
				time.Duration(e.IdleSeconds*float64(time.Second)).Round(time.Second))
		}
	case EventDiagnostic:
		fmt.Fprintf(&b, "%s", parse.Diagnostic{Path: l(e.File), Line: e.Line, Level: e.Level, Message: l(e.Message)})
	default:
		b.WriteString(l(e.Type))
	}
	return b.String()
}

func countsText(c *synth.Counts) string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf("P0 %d, P1 %d, P2 %d, P3 %d", c.P0, c.P1, c.P2, c.P3)
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// TopFindings returns up to n findings by convergence (most agents first),
// then severity, then key.
func TopFindings(s *synth.Synthesis, n int) []synth.Finding {
	fs := slices.Clone(s.Findings)
	slices.SortStableFunc(fs, func(a, b synth.Finding) int {
		return cmp.Or(cmp.Compare(b.Convergence, a.Convergence), cmp.Compare(a.Severity.Rank(), b.Severity.Rank()),
			cmp.Compare(a.Key, b.Key))
	})
	return fs[:min(n, len(fs))]
}

// seenFinding is what sameFindings compares of a finding.
type seenFinding struct {
	first       *synth.Source
	n           int
	convergence int
}

func seenOf(f *synth.Finding) seenFinding {
	x := seenFinding{n: len(f.Sources), convergence: f.Convergence}
	if len(f.Sources) > 0 {
		x.first = &f.Sources[0]
	}
	return x
}

// sameFindings reports whether fs are the findings of the previous update,
// each with the same sources (the same ones, not a copy: a synthesis's
// sources are not modified once made) and convergence. A bus append
// changes none of them: at 8,000 agents, taking the keys of their 400k
// sources again cost ~0.5 s of every append.
func (d *Differ) sameFindings(fs []synth.Finding) bool {
	if !d.updated || len(fs) != len(d.seen) {
		return false
	}
	for i := range fs {
		if seenOf(&fs[i]) != d.seen[i] || fs[i].Sources == nil {
			return false
		}
	}
	return true
}

// findings adds the events of the findings fs: those none of whose
// sources was part of a finding before are added; a known finding whose
// number of agents differs from that of the finding its sources were part
// of (the largest, when they were split) changed convergence.
func (d *Differ) findings(fs []synth.Finding, add func(Event)) {
	sources := make(map[sourceDigest]int, len(d.sources))
	d.seen = d.seen[:0]
	for _, f := range fs {
		d.seen = append(d.seen, seenOf(&f))
		before := 0
		for i := range f.Sources {
			k := d.digest(&f.Sources[i])
			sources[k] = f.Convergence
			before = max(before, d.sources[k])
		}
		switch {
		case before == 0:
			add(Event{Type: EventFindingAdded, Key: f.Key, ID: f.ID, Severity: string(f.Severity), Section: f.Section,
				Title: f.Title, Agents: f.Agents, Convergence: f.Convergence, ConvergenceDisplay: f.ConvergenceDisplay})
		case before != f.Convergence:
			add(Event{Type: EventConvergenceChanged, Key: f.Key, ID: f.ID, Severity: string(f.Severity), Title: f.Title,
				Agents: f.Agents, FromConvergence: before, Convergence: f.Convergence, ConvergenceDisplay: f.ConvergenceDisplay})
		}
	}
	d.sources = sources
}
