package synth

import "github.com/fluxwatch/fluxwatch/parse"

// This file holds what every report says of an agent whose report could not
// be fully read (status unreadable, SPEC §2.3 "never silently safe"): the
// words, and which diagnostics are the reasons. The gate's rule is Gate's.

// UnreadNote is what every report says of a synthesis with n unreadable
// agents (SPEC §2.3 "never silently safe"): "1 report could not be fully
// read"; "" when n is 0. The verdict stays the one computed from what was
// read; this note goes beside it wherever it is shown.
func UnreadNote(n int) string {
	if n == 0 {
		return ""
	}
	return Plural(n, "report") + " could not be fully read"
}

// VerdictText is the verdict of s as people read it: the verdict, and when
// a completed agent could not be fully read, the note that says so
// ("safe — 1 report could not be fully read"), so that a run fluxwatch
// could not read is never shown as a plain "safe".
func VerdictText(s *Synthesis) string {
	if note := UnreadNote(len(s.AgentsUnreadable)); note != "" {
		return string(s.Verdict) + " — " + note
	}
	return string(s.Verdict)
}

// UnreadReasons returns the diagnostics that say why agent a could not be
// fully read: its error diagnostics (the reader gives one for each line it
// could not account for). It is nil unless a is unreadable.
func (a AgentResult) UnreadReasons() []Diagnostic {
	if a.Status != parse.StatusUnreadable {
		return nil
	}
	n := 0
	for _, d := range a.Diagnostics {
		if d.Level == parse.LevelError {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Diagnostic, 0, n) // a large report may have one a line
	for _, d := range a.Diagnostics {
		if d.Level == parse.LevelError {
			out = append(out, d)
		}
	}
	return out
}
