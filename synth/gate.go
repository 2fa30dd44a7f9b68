package synth

import (
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Gate is the operator's gate (SPEC §7): when synth and watch exit 1. Its
// Judge is the one place a gate is decided: the exit status of synth and
// of watch --until-complete, the banner of the HTML page and whatever else
// shows the gate ask it, and nothing restates its rules.
//
// The zero Gate is no gate (--fail-on none, the default): nothing trips.
type Gate struct {
	// FailOn is the verdict at or above which the gate trips (--fail-on):
	// parse.NeedsChanges or parse.Risky; "" for none.
	FailOn parse.Verdict
	// FailOnNew is the severity at or above which a finding new since the
	// baseline, not suppressed, trips the gate (--fail-on-new); "" for none.
	FailOnNew parse.Severity
	// MinIndependent lets FailOn count only the findings that at least
	// this many agents reported independently (--min-independent; 0: all).
	MinIndependent int
	// AllowUnreadable lets the gate pass a run with unreadable agents
	// (--allow-unreadable); without it they trip a gate that is set.
	AllowUnreadable bool
}

// Set reports whether g is a gate at all: --fail-on or --fail-on-new is
// set. A gate that is not set never trips, whatever the run.
func (g Gate) Set() bool { return g.FailOn != "" || g.FailOnNew != "" }

// Decision is what a Gate decided of a synthesis.
type Decision struct {
	// Tripped is whether the gate trips (exit 1).
	Tripped bool
	// Verdict is the verdict FailOn was applied to: the synthesis's, or
	// with MinIndependent that of the findings enough agents reported
	// independently.
	Verdict parse.Verdict
	// ByVerdict is set when the verdict trips the gate: FailOn reached,
	// or an error verdict, which trips any gate that is set.
	ByVerdict bool
	// New are the findings that trip FailOnNew.
	New []Finding
	// Unreadable are the unreadable agents that trip the gate: every one
	// of Synthesis.AgentsUnreadable, unless the gate is not set or allows
	// them.
	Unreadable []string
}

// Judge decides g on s (SPEC §7, §2.3 "never silently safe"): a gate that
// is set trips on a verdict at or above FailOn, on an error verdict, on a
// new finding at or above FailOnNew, and on any completed agent that could
// not be fully read unless AllowUnreadable.
func (g Gate) Judge(s *Synthesis) Decision {
	d := Decision{Verdict: gateVerdict(s, g.MinIndependent)}
	if !g.Set() {
		return d
	}
	switch {
	case s.Verdict == parse.Error:
		d.ByVerdict = true // a review that did not happen never passes
	case g.FailOn != "":
		d.ByVerdict = verdictRank(d.Verdict) >= verdictRank(g.FailOn)
	}
	if g.FailOnNew != "" {
		d.New = NewAtOrAbove(s, g.FailOnNew)
	}
	if !g.AllowUnreadable {
		d.Unreadable = s.AgentsUnreadable
	}
	d.Tripped = d.ByVerdict || len(d.New) > 0 || len(d.Unreadable) > 0
	return d
}

// verdictRank orders the verdicts a gate compares: safe below
// needs-changes below risky; pending and anything else lowest.
func verdictRank(v parse.Verdict) int {
	switch v {
	case parse.Safe:
		return 1
	case parse.NeedsChanges:
		return 2
	case parse.Risky:
		return 3
	}
	return 0
}

// gateVerdict is the verdict a gate's FailOn applies when it asks for at
// least minIndependent independent agents: the verdict of the findings,
// not suppressed, that that many agents reported independently. The
// verdict of s itself never changes; an error or pending verdict, or
// minIndependent <= 0, is s.Verdict.
func gateVerdict(s *Synthesis, minIndependent int) parse.Verdict {
	if minIndependent <= 0 || s.Verdict == parse.Error || s.Verdict == parse.Pending {
		return s.Verdict
	}
	var sevs []parse.Severity
	for _, f := range s.Findings {
		if f.Independent >= minIndependent && f.Suppressed == nil {
			sevs = append(sevs, f.Severity)
		}
	}
	return parse.VerdictOf(sevs...)
}

// String is g as the flags that set it ("--fail-on needs-changes
// --allow-unreadable"); "--fail-on none" for no gate.
func (g Gate) String() string {
	if !g.Set() {
		return "--fail-on none"
	}
	var parts []string
	if g.FailOn != "" {
		parts = append(parts, "--fail-on "+string(g.FailOn))
	}
	if g.MinIndependent > 0 {
		parts = append(parts, "--min-independent "+strconv.Itoa(g.MinIndependent))
	}
	if g.FailOnNew != "" {
		parts = append(parts, "--fail-on-new "+string(g.FailOnNew))
	}
	if g.AllowUnreadable {
		parts = append(parts, "--allow-unreadable")
	}
	return strings.Join(parts, " ")
}

// Reasons says in words why d tripped, one short phrase a reason, most
// important first; nil when it did not.
func (d Decision) Reasons() []string {
	if !d.Tripped {
		return nil
	}
	var out []string
	if d.ByVerdict {
		out = append(out, "verdict "+string(d.Verdict))
	}
	if n := len(d.New); n > 0 {
		out = append(out, Plural(n, "new finding"))
	}
	if n := len(d.Unreadable); n > 0 {
		out = append(out, UnreadNote(n))
	}
	return out
}
