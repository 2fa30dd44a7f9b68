package synth

import (
	"fmt"
	"math"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Bus timestamps come from the agents' clocks, and an agent can write any
// (SPEC §5.5 compares them with when the reports finished; SPEC §10: the
// bus is untrusted). A timestamp far in the future exempted its blocking
// entry from acknowledgement (no report finished after it), one far in the
// past held every agent to acknowledge it. So a timestamp is judged
// against the run's agents (runAnchor):
//   - more than maxSkew after the newest of them, it is implausible:
//     agents post while they work. The newest is that of the finish times
//     (times.go: declared, else the file's) and of the .partial files,
//     which change while the agents work and post (an hour allows for a
//     long silence and for clocks set wrong);
//   - more than maxAge before the newest finish time the agents declare
//     (else, when none declares one, the newest of their file times), it
//     is implausible too: a review run does not last a week. (No file time
//     bounds an entry from below: this is for a timestamp far in the past,
//     1970 or last month. Declared times make the bound the same wherever
//     the run was copied to; file times of a run copied or checked out a
//     week after it ran say nothing of it, and its entries then count as
//     having none.)
//
// The bus's own modification time is not the measure: a stream has none, and
// a run read from a stream is the same run as one read from a file.
//
// An implausible timestamp counts as none, for the acknowledgement rule (its
// blocking entry is checked for acknowledgement by every completed agent
// and never reported unacknowledged) and the priming rule (it may have been
// read by anyone) alike, and each blocking entry with one is a warning
// diagnostic naming its line. A run with no agent time (a Run built by
// hand) judges no timestamp.
const (
	maxSkew = time.Hour
	maxAge  = 7 * 24 * time.Hour
)

// anchor is what a run's bus timestamps are judged against: an entry after
// hi+maxSkew or before lo-maxAge is implausible. A zero bound judges
// nothing. quiet says the diagnostics do not quote hi: it is a file's
// modification time (a .partial's) in a run whose agents declare their
// finish times, which is the same wherever it is copied but for that time.
type anchor struct {
	hi, lo time.Time
	quiet  bool
}

// runAnchor returns the anchor of run's bus timestamps: of its agents (not
// those of other runs), hi the newest finish time or .partial file time,
// lo the newest declared finish time, else the newest file time.
func runAnchor(run *Run) anchor {
	var an anchor
	var newestFile time.Time
	hiFile := false
	for i := range run.Agents {
		a := &run.Agents[i]
		if a.Status == parse.StatusForeign {
			continue
		}
		t, src := a.Finished()
		if a.Status == parse.StatusPartial {
			t, src = a.ModTime, TimeFile
		}
		if t.After(an.hi) {
			an.hi, hiFile = t, src == TimeFile
		}
		switch {
		case src == TimeDeclared && t.After(an.lo):
			an.lo = t
		case src == TimeFile && t.After(newestFile):
			newestFile = t
		}
	}
	an.quiet = hiFile && !an.lo.IsZero()
	if an.lo.IsZero() {
		an.lo = newestFile
	}
	return an
}

// clock judges the timestamps of bus entries against an anchor, and keeps
// what another anchor would change: the bounds of the times it judged.
type clock struct {
	at anchor
	// The times judged (seconds): the least and the greatest found
	// plausible, the least found in the future, the greatest in the past.
	minOK, maxOK, minFuture, maxPast int64
}

func newClock(at anchor) clock {
	return clock{at: at, minOK: math.MaxInt64, maxOK: math.MinInt64,
		minFuture: math.MaxInt64, maxPast: math.MinInt64}
}

// judge returns whether an entry time (sec and nsec; timed false for an
// entry without one) counts as its time, and when it does not, why.
func (c *clock) judge(timed bool, sec int64, nsec int) (bool, string) {
	if !timed {
		return false, ""
	}
	at := time.Unix(sec, int64(nsec))
	switch {
	case !c.at.hi.IsZero() && at.After(c.at.hi.Add(maxSkew)):
		c.minFuture = min(c.minFuture, sec)
		return false, "more than an hour after"
	case !c.at.lo.IsZero() && at.Before(c.at.lo.Add(-maxAge)):
		c.maxPast = max(c.maxPast, sec)
		return false, "more than a week before"
	}
	c.minOK, c.maxOK = min(c.minOK, sec), max(c.maxOK, sec)
	return true, ""
}

// moves reports whether judging the times judged so far against at
// instead would change a verdict. A second either side of the bounds is
// allowed for: nsec is not kept.
func (c *clock) moves(at anchor) bool {
	if at.hi.Equal(c.at.hi) && at.lo.Equal(c.at.lo) {
		return false
	}
	judged := c.minOK != math.MaxInt64 || c.minFuture != math.MaxInt64 || c.maxPast != math.MinInt64
	if c.at.hi.IsZero() != at.hi.IsZero() || c.at.lo.IsZero() != at.lo.IsZero() {
		return judged
	}
	if !at.hi.Equal(c.at.hi) && !at.hi.IsZero() {
		hi := at.hi.Add(maxSkew).Unix()
		if c.minFuture <= hi+1 || c.minOK != math.MaxInt64 && c.maxOK >= hi-1 {
			return true
		}
	}
	if !at.lo.Equal(c.at.lo) && !at.lo.IsZero() {
		lo := at.lo.Add(-maxAge).Unix()
		if c.maxPast >= lo-1 || c.minOK != math.MaxInt64 && c.minOK <= lo+1 {
			return true
		}
	}
	return false
}

// implausible is a blocking entry whose timestamp counts as none: where it
// is, its time and why.
type implausible struct {
	file string
	line int
	at   time.Time
	why  string
}

// implausibleDiagnostics returns the warnings about the blocking entries
// with an implausible timestamp (the latest of them, and how many more),
// against at.
func implausibleDiagnostics(b *bounded[implausible], at anchor) []Diagnostic {
	var out []Diagnostic
	for _, x := range b.snapshot() {
		ref := " the newest report of the run"
		switch {
		case x.why == "more than a week before":
			ref += " (" + at.lo.UTC().Format(time.RFC3339) + ")"
		case !at.quiet:
			ref += " (" + at.hi.UTC().Format(time.RFC3339) + ")"
		}
		out = append(out, Diagnostic{File: x.file, Line: x.line, Level: parse.LevelWarning,
			Message: fmt.Sprintf("timestamp %s is %s%s: implausible, the blocking entry counts as having no time (never reported unacknowledged)",
				x.at.UTC().Format(time.RFC3339), x.why, ref)})
	}
	if n := b.total - len(out); n > 0 {
		out = append(out, Diagnostic{Level: parse.LevelWarning,
			Message: fmt.Sprintf("%s with implausible timestamps not listed (the latest %d are)", Plural(n, "more blocking bus entry", "more blocking bus entries"), len(out))})
	}
	return out
}
