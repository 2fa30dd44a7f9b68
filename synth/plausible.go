package synth

import (
	"fmt"
	"math"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Bus timestamps come from the agents' clocks, and an agent can write any
// (SPEC §5.5 compares them with the reports' modification times; SPEC §10:
// the bus is untrusted). A timestamp far in the future exempted its
// blocking entry from acknowledgement (no report finished after it), one
// far in the past held every agent to acknowledge it. So a timestamp is
// judged against the newest file of the run's agents (reportsNewest: its
// reports and .partial files, which change while the agents work and post):
//   - more than maxSkew after it, it is implausible: agents post while they
//     work, and their files change with that work (an hour allows for a
//     long silence and for clocks set wrong);
//   - more than maxAge before it, it is implausible too: a review run does
//     not last a week. (No file time bounds an entry from below: this is
//     for a timestamp far in the past, 1970 or last month. A run directory
//     copied or checked out a week after it ran has file times that say
//     nothing of it either, and its entries count as having none.)
//
// The bus's own modification time is not the measure: a stream has none, and
// a run read from a stream is the same run as one read from a file.
//
// An implausible timestamp counts as none, for the acknowledgement rule (its
// blocking entry is checked for acknowledgement by every completed agent
// and never reported unacknowledged) and the priming rule (it may have been
// read by anyone) alike, and each blocking entry with one is a warning
// diagnostic naming its line. A run with no agent file time (a Run built by
// hand) judges no timestamp.
const (
	maxSkew = time.Hour
	maxAge  = 7 * 24 * time.Hour
)

// reportsNewest returns the newest modification time of the run's agent
// files, those of other runs aside: the measure of its bus timestamps.
func reportsNewest(run *Run) time.Time {
	var newest time.Time
	for _, a := range run.Agents {
		if a.Status != parse.StatusForeign && a.ModTime.After(newest) {
			newest = a.ModTime
		}
	}
	return newest
}

// clock judges the timestamps of bus entries against newest, and keeps
// what a later newest would change: the bounds of the times it judged.
type clock struct {
	newest time.Time
	// The times judged (seconds): the least and the greatest found
	// plausible, the least found in the future, the greatest in the past.
	minOK, maxOK, minFuture, maxPast int64
}

func newClock(newest time.Time) clock {
	return clock{newest: newest, minOK: math.MaxInt64, maxOK: math.MinInt64,
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
	case c.newest.IsZero():
		// Nothing to judge against: plausible, until there is.
	case at.After(c.newest.Add(maxSkew)):
		c.minFuture = min(c.minFuture, sec)
		return false, "more than an hour after"
	case at.Before(c.newest.Add(-maxAge)):
		c.maxPast = max(c.maxPast, sec)
		return false, "more than a week before"
	}
	c.minOK, c.maxOK = min(c.minOK, sec), max(c.maxOK, sec)
	return true, ""
}

// moves reports whether judging the times judged so far against newest
// instead would change a verdict. A second either side of the bounds is
// allowed for: nsec is not kept.
func (c *clock) moves(newest time.Time) bool {
	if newest.Equal(c.newest) {
		return false
	}
	if c.newest.IsZero() || newest.IsZero() {
		return c.minOK != math.MaxInt64 || c.minFuture != math.MaxInt64 || c.maxPast != math.MinInt64
	}
	hi, lo := newest.Add(maxSkew).Unix(), newest.Add(-maxAge).Unix()
	return c.minFuture <= hi+1 || c.maxPast >= lo-1 || c.minOK != math.MaxInt64 && (c.minOK <= lo+1 || c.maxOK >= hi-1)
}

// implausible is a blocking entry whose timestamp counts as none: where it
// is, its time and why.
type implausible struct {
	file string
	line int
	at   time.Time
	why  string
}

// diagnostics returns the warnings about the blocking entries with an
// implausible timestamp (the latest of them, and how many more), against
// newest.
func implausibleDiagnostics(b *bounded[implausible], newest time.Time) []Diagnostic {
	var out []Diagnostic
	for _, x := range b.snapshot() {
		out = append(out, Diagnostic{File: x.file, Line: x.line, Level: parse.LevelWarning,
			Message: fmt.Sprintf("timestamp %s is %s the newest report of the run (%s): implausible, the blocking entry counts as having no time (never reported unacknowledged)",
				x.at.UTC().Format(time.RFC3339), x.why, newest.UTC().Format(time.RFC3339))})
	}
	if n := b.total - len(out); n > 0 {
		out = append(out, Diagnostic{Level: parse.LevelWarning,
			Message: fmt.Sprintf("%s with implausible timestamps not listed (the latest %d are)", Plural(n, "more blocking bus entry", "more blocking bus entries"), len(out))})
	}
	return out
}
