package synth

import (
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// This file is the one rule for when an agent's report finished (SPEC
// §5.5): the acknowledgement and adjustment rules, the priming rule
// (independent agreement, --min-independent), the anchor of bus
// timestamps (plausible.go), the "reviewed" time and the run a directory
// of several runs falls back to all take it from here.
//
// A file's modification time says when a report finished only where the
// agent wrote it: git checkout, actions/download-artifact, cp and unzip set
// it to "now", and the synthesis of one run then changed with how it was
// copied. So a time the report declares wins: its front matter's finished:
// (end_time, finished_at), which fluxwatch protocol asks agents to write.
// The file time is the fallback, and findings.json says which was used,
// per agent and for the run (time_source).

// TimeSource says where a finish time came from.
type TimeSource string

// Time sources: the report's declared finished:, its file's modification
// time; for a run, mixed when its completed agents use both.
const (
	TimeDeclared TimeSource = "declared"
	TimeFile     TimeSource = "mtime"
	TimeMixed    TimeSource = "mixed"
)

// FinishTime returns when a report finished and where the time comes from:
// the finished: its front matter declares (RFC 3339, with a time zone),
// unless that cannot be read or is more than an hour after the file was
// last written (mod; a report cannot finish after it was written: an
// hour allows for the agent's clock), else mod. report may be nil (an
// abort marker), mod zero (a Run built by hand). The third result says
// why a declared time was not used ("" when it was, or none was
// declared).
func FinishTime(report *parse.Report, mod time.Time) (time.Time, TimeSource, string) {
	if report == nil || report.Provenance.Finished == "" {
		return mod, TimeFile, ""
	}
	declared, ok := parseFinished(report.Provenance.Finished)
	switch {
	case !ok:
		return mod, TimeFile, "finished: " + quoteShort(report.Provenance.Finished) + " is not an RFC 3339 time with a zone (2026-11-20T10:42:00Z): the file's modification time is used"
	case !mod.IsZero() && declared.After(mod.Add(maxSkew)):
		return mod, TimeFile, "finished: " + report.Provenance.Finished + " is more than an hour after the file was written: implausible, the file's modification time is used"
	}
	return declared, TimeDeclared, ""
}

// parseFinished reads a declared finish time: RFC 3339 (fractions of a
// second allowed), or with a space for the T as YAML timestamps allow.
func parseFinished(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// quoteShort quotes s for a diagnostic, cut to 60 bytes.
func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return `"` + strings.ReplaceAll(s, `"`, `'`) + `"`
}

// Finished returns when a's report finished and where the time comes from
// (FinishTime).
func (a *Agent) Finished() (time.Time, TimeSource) {
	t, src, _ := FinishTime(a.Report, a.ModTime)
	return t, src
}

// runTimes are the times of a run that do not come from its bus: the time
// source of its completed agents, the newest declared finish time of its
// agents, and its reviewed time.
type runTimes struct {
	source   TimeSource
	declared time.Time // the newest declared finish time; zero when none
}

// timesOf returns the time source of the completed agents (declared when
// every one declares, mtime when none does or there is none, mixed
// otherwise) and the newest finish time that an agent of run (of the
// selected run, not partial) declares.
func timesOf(run *Run, completed []*Agent) runTimes {
	var rt runTimes
	n := 0
	for _, a := range completed {
		if _, src := a.Finished(); src == TimeDeclared {
			n++
		}
	}
	switch {
	case n > 0 && n == len(completed):
		rt.source = TimeDeclared
	case n > 0:
		rt.source = TimeMixed
	default:
		rt.source = TimeFile
	}
	for i := range run.Agents {
		a := &run.Agents[i]
		if a.Status == parse.StatusForeign || a.Status == parse.StatusPartial {
			continue
		}
		if t, src := a.Finished(); src == TimeDeclared && t.After(rt.declared) {
			rt.declared = t
		}
	}
	return rt
}
