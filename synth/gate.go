package synth

import (
	"fmt"
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

	// What Explain says: the gate, and of the synthesis what the reasons
	// name.
	gate     Gate
	s        *Synthesis
	counting []Finding // the findings the verdict of FailOn counts, most severe first
}

// Judge decides g on s (SPEC §7, §2.3 "never silently safe"): a gate that
// is set trips on a verdict at or above FailOn, on an error verdict, on a
// new finding at or above FailOnNew, and on any completed agent that could
// not be fully read unless AllowUnreadable.
func (g Gate) Judge(s *Synthesis) Decision {
	d := Decision{Verdict: gateVerdict(s, g.MinIndependent), gate: g, s: s}
	if !g.Set() {
		return d
	}
	switch {
	case s.Verdict == parse.Error:
		d.ByVerdict = true // a review that did not happen never passes
	case g.FailOn != "":
		d.ByVerdict = d.Verdict.Rank() >= g.FailOn.Rank()
	}
	if g.FailOnNew != "" {
		d.New = NewAtOrAbove(s, g.FailOnNew)
	}
	if !g.AllowUnreadable {
		d.Unreadable = s.AgentsUnreadable
	}
	d.Tripped = d.ByVerdict || len(d.New) > 0 || len(d.Unreadable) > 0
	if d.ByVerdict && s.Verdict != parse.Error {
		d.counting = countingFindings(s, g.MinIndependent)
	}
	return d
}

// countingFindings are the findings of s that the verdict of a gate with
// minIndependent counts (see gateVerdict): not suppressed, reported
// independently by at least minIndependent agents; in the order of s.
func countingFindings(s *Synthesis, minIndependent int) []Finding {
	var out []Finding
	for _, f := range s.Findings {
		if f.Suppressed() == nil && (minIndependent <= 0 || f.Independent >= minIndependent) {
			out = append(out, f)
		}
	}
	return out
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
		if f.Independent >= minIndependent && f.Suppressed() == nil {
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

// ExplainTop is how many findings a line of Explain names: the most severe
// first, then how many more there are.
const ExplainTop = 3

// Explain says on lines for standard error what d decided (SPEC §7): when
// it tripped, one line per reason, most important first — the verdict with
// the top findings behind it (severity, ID, title, agents, file:line), the
// findings new since the baseline, the reports that could not be fully
// read; and whether or not it tripped, a warning for what no gate caught:
// an error verdict (nothing was reviewed) and unreadable reports when no
// gate is set. Nil when there is nothing to say. Each line is one line of
// text, without the program's name; agent text in it is as written (the
// caller neutralises it for a terminal).
//
// Explain is the one account of a gate's decision: the exit status is
// Tripped, and what a person reads of it is this.
func (d Decision) Explain() []string {
	s, g := d.s, d.gate
	if s == nil {
		return nil
	}
	var out []string
	switch {
	case d.ByVerdict && s.Verdict == parse.Error:
		out = append(out, fmt.Sprintf("gate %s tripped: verdict error: %s", g, nothingReviewed(s)))
	case d.ByVerdict:
		// The findings at the level FailOn names (P0 for risky, P1 and P0
		// for needs-changes) make the verdict that tripped it.
		level := parse.P1
		if g.FailOn == parse.Risky {
			level = parse.P0
		}
		var top []Finding
		for _, f := range d.counting {
			if AtLeast(f.Severity, level) {
				top = append(top, f)
			}
		}
		counted := ""
		if g.MinIndependent > 0 {
			counted = fmt.Sprintf(" reported independently by at least %s", Plural(g.MinIndependent, "agent"))
		}
		out = append(out, fmt.Sprintf("gate %s tripped: verdict %s from %s at %s or above%s: %s",
			verdictFlags(g), d.Verdict, Plural(len(top), "finding"), level, counted, findingList(top)))
	case s.Verdict == parse.Error:
		out = append(out, fmt.Sprintf("warning: verdict error: %s; no gate is set (--fail-on none), so nothing trips on it", nothingReviewed(s)))
	}
	if n := len(d.New); n > 0 {
		since := "the baseline"
		if s.Baseline != nil && s.Baseline.Path != "" {
			since += " " + s.Baseline.Path
		}
		out = append(out, fmt.Sprintf("gate --fail-on-new %s tripped: %s since %s: %s",
			g.FailOnNew, Plural(n, "new finding"), since, findingList(d.New)))
	}
	if n := len(s.AgentsUnreadable); n > 0 {
		what := UnreadNote(n) + " (" + strings.Join(UnreadFiles(s, 5), ", ") + ")"
		switch {
		case len(d.Unreadable) > 0:
			out = append(out, fmt.Sprintf("gate %s tripped: %s; --allow-unreadable lets the gate pass %s", g, what, Noun(n, "it", "them")))
		case !g.Set() && !g.AllowUnreadable:
			out = append(out, fmt.Sprintf("warning: %s: the verdict counts what was read and may be too low; "+
				"no gate is set (--fail-on none), so nothing trips on %s", what, Noun(n, "it", "them")))
		}
	}
	return out
}

// verdictFlags is the part of g that gates the verdict: "--fail-on risky",
// with "--min-independent N" when set.
func verdictFlags(g Gate) string {
	out := "--fail-on " + string(g.FailOn)
	if g.MinIndependent > 0 {
		out += " --min-independent " + strconv.Itoa(g.MinIndependent)
	}
	return out
}

// nothingReviewed says why the verdict of s is error: no agent completed,
// of how many launched, and which failed (the first five).
func nothingReviewed(s *Synthesis) string {
	n := len(s.AgentsLaunched)
	if n == 0 {
		return "no agent report was found, so nothing was reviewed"
	}
	line := fmt.Sprintf("none of %s completed, so nothing was reviewed", Plural(n, "agent"))
	if f := len(s.AgentsFailed); f > 0 {
		line += fmt.Sprintf(" (%d failed: %s)", f, strings.Join(firstOf(s.AgentsFailed, 5), ", "))
	}
	return line
}

// findingList names the first ExplainTop of fs on one line — "P0 SEC-001
// Session tokens in localStorage (fd-safety, fd-arch; web/auth.ts:12)" —
// separated by "; ", then how many more.
func findingList(fs []Finding) string {
	var parts []string
	for i, f := range fs {
		if i == ExplainTop {
			parts = append(parts, fmt.Sprintf("and %d more (see summary.md)", len(fs)-i))
			break
		}
		parts = append(parts, findingLine(f))
	}
	return strings.Join(parts, "; ")
}

// findingLine is f on one line of text: severity, ID, title, then its
// agents (the first three, and how many more) and where it is: its first
// file:line reference, else where its first source wrote it in its report.
func findingLine(f Finding) string {
	label := string(f.Severity)
	if f.ID != "" {
		label += " " + f.ID
	}
	label += " " + f.Title + " (" + strings.Join(firstOf(f.Agents, 3), ", ")
	switch {
	case len(f.FileRefs) > 0:
		label += "; " + f.FileRefs[0]
	case len(f.Sources) > 0 && f.Sources[0].Ref != "":
		label += "; " + f.Sources[0].Ref
	}
	return label + ")"
}

// UnreadFiles names the reports of s that could not be fully read: their
// files in the run directory, the first max of them, then how many more
// (the reports list them all).
func UnreadFiles(s *Synthesis, max int) []string {
	var files []string
	n := 0
	for _, a := range s.Agents {
		if a.Status != parse.StatusUnreadable || a.File == nil {
			continue
		}
		if n++; n <= max {
			files = append(files, *a.File)
		}
	}
	if n > max {
		files = append(files, fmt.Sprintf("and %d more", n-max))
	}
	return files
}

// firstOf returns the first n of list, and "and N more" when there are
// more.
func firstOf(list []string, n int) []string {
	if len(list) <= n {
		return list
	}
	return append(list[:n:n], fmt.Sprintf("and %d more", len(list)-n))
}
