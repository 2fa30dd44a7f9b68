package synth

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

func TestFinishTime(t *testing.T) {
	mod := t0.Add(48 * time.Hour) // copied or checked out two days after the run
	declared := func(s string) *parse.Report { return &parse.Report{Provenance: parse.Provenance{Finished: s}} }
	for _, tt := range []struct {
		name   string
		r      *parse.Report
		mod    time.Time
		want   time.Time
		src    TimeSource
		reason string
	}{
		{"none declared", declared(""), mod, mod, TimeFile, ""},
		{"no report", nil, mod, mod, TimeFile, ""},
		{"declared", declared("2026-11-20T10:42:00Z"), mod, t0.Add(42 * time.Minute), TimeDeclared, ""},
		{"declared with an offset", declared("2026-11-20T12:42:00+02:00"), mod, t0.Add(42 * time.Minute), TimeDeclared, ""},
		{"declared with a space", declared("2026-11-20 10:42:00.5Z"), mod, t0.Add(42*time.Minute + 500*time.Millisecond), TimeDeclared, ""},
		{"hand-built run, no file time", declared("2026-11-20T10:42:00Z"), time.Time{}, t0.Add(42 * time.Minute), TimeDeclared, ""},
		{"no zone", declared("2026-11-20T10:42:00"), mod, mod, TimeFile, "is not an RFC 3339 time"},
		{"not a time", declared("after lunch"), mod, mod, TimeFile, `finished: "after lunch" is not an RFC 3339 time`},
		{"after the file was written", declared("2026-11-23T10:42:00Z"), mod, mod, TimeFile, "more than an hour after the file was written"},
		{"within the hour of the file", declared("2026-11-22T10:30:00Z"), mod, mod.Add(30 * time.Minute), TimeDeclared, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, src, why := FinishTime(tt.r, tt.mod)
			if !got.Equal(tt.want) || src != tt.src || (tt.reason == "") != (why == "") || !strings.Contains(why, tt.reason) {
				t.Errorf("FinishTime = %v, %s, %q; want %v, %s, %q", got, src, why, tt.want, tt.src, tt.reason)
			}
		})
	}
}

// declaredRun is a run whose agents declare when they finished: fd-safety
// posts a blocking entry at t0+10m; fd-arch finished at t0+40m without a
// word of it (unacknowledged), fd-early at t0+5m (before it); fd-lax
// reports the same finding at t0+50m, after the entry (primed). Their file
// times are those of a checkout, mod + i seconds, days later.
func declaredRun(mod time.Time) *Run {
	agent := func(a Agent, finished, text string, i int) Agent {
		a.Report.Provenance.Finished = finished
		a.ModTime = mod.Add(time.Duration(i) * time.Second)
		a.Text = []byte(text)
		return a
	}
	return &Run{Newest: mod.Add(10 * time.Second), Agents: []Agent{
		agent(agentOf("fd-arch", parse.StatusValid, fnd(parse.P2, "AR-1", "Layout", "Module boundaries blur")), "2026-11-20T10:40:00Z", "layout only", 3),
		agent(agentOf("fd-early", parse.StatusValid), "2026-11-20T10:05:00Z", "done early", 1),
		agent(agentOf("fd-lax", parse.StatusValid, fnd(parse.P0, "LX-1", "Auth", "Session tokens stored in localStorage")), "2026-11-20T10:50:00Z", "tokens", 2),
		agent(agentOf("fd-safety", parse.StatusValid, fnd(parse.P0, "SAF-01", "Auth", "Session tokens stored in localStorage")), "2026-11-20T10:30:00Z", "mine", 4),
	}, Bus: []BusFile{{Name: "findings.jsonl", Entries: []bus.Entry{
		entry(bus.Blocking, "fd-safety", "Session tokens stored in localStorage", 10*time.Minute),
	}}}}
}

// TestDeclaredTimesWin: the finish times the agents declare decide the
// acknowledgement rule, the priming rule and the reviewed time, whatever
// the file times of the copy read: two checkouts with different file times
// give byte-identical reports, and findings.json says the times were
// declared. Without declared times the file times decide, and say so.
func TestDeclaredTimesWin(t *testing.T) {
	a := Synthesize(declaredRun(t0.Add(30*24*time.Hour)), Options{})
	b := Synthesize(declaredRun(t0.Add(90*24*time.Hour)), Options{})
	if ja, jb := must(RenderJSON(a)), must(RenderJSON(b)); !bytes.Equal(ja, jb) {
		t.Errorf("findings.json differs between two checkouts")
	}
	if ma, mb := RenderMarkdown(a), RenderMarkdown(b); !bytes.Equal(ma, mb) {
		t.Errorf("summary.md differs between two checkouts")
	}
	if a.TimeSource != TimeDeclared || a.Reviewed != "2026-11-20T10:50:00Z" {
		t.Errorf("time source %s, reviewed %s; want declared, 2026-11-20T10:50:00Z (the newest declared)", a.TimeSource, a.Reviewed)
	}
	for _, ag := range a.Agents {
		if ag.TimeSource == nil || *ag.TimeSource != TimeDeclared {
			t.Errorf("agent %s: time source %v, want declared", ag.Name, ag.TimeSource)
		}
	}
	var unacked []string
	for _, u := range a.Timeline.Unacknowledged {
		unacked = append(unacked, u.By...)
	}
	if want := []string{"fd-arch"}; !slices.Equal(unacked, want) {
		t.Errorf("unacknowledged by %v, want %v (fd-early finished before the entry)", unacked, want)
	}
	if len(a.Diagnostics) != 0 {
		t.Errorf("diagnostics %v: the entry is a month before the files, and plausible against the declared times", a.Diagnostics)
	}
	f := a.Findings[0]
	if f.Independent != 1 || len(f.Primed()) != 1 || f.Primed()[0].Agent != "fd-lax" {
		t.Errorf("%s: independent %d, primed %v; want fd-lax primed by the entry, fd-safety independent", f.Title, f.Independent, f.Primed())
	}

	// The same run with file times only: the checkout decides.
	undeclared := declaredRun(t0.Add(30 * 24 * time.Hour))
	for i := range undeclared.Agents {
		undeclared.Agents[i].Report.Provenance.Finished = ""
	}
	u := Synthesize(undeclared, Options{})
	if u.TimeSource != TimeFile || u.Reviewed != t0.Add(30*24*time.Hour+10*time.Second).Format(time.RFC3339) {
		t.Errorf("undeclared: time source %s, reviewed %s; want mtime, the newest input time", u.TimeSource, u.Reviewed)
	}
	if len(u.Diagnostics) == 0 {
		t.Errorf("undeclared: a blocking entry a month before every file time is implausible, and said")
	}
	// One agent declares, the others do not: mixed.
	undeclared.Agents[0].Report.Provenance.Finished = "2026-11-20T10:40:00Z"
	if m := Synthesize(undeclared, Options{}); m.TimeSource != TimeMixed || m.Reviewed != "2026-11-20T10:40:00Z" {
		t.Errorf("one declared: time source %s, reviewed %s; want mixed, the declared time", m.TimeSource, m.Reviewed)
	}
}

// TestAnchorOfDeclaredRun: bus timestamps are judged against the declared
// finish times (a week before the newest one is implausible, wherever the
// run was copied) and, above, against the .partial files too, which are
// still written; the warning quotes no file time of a run whose agents
// declare theirs.
func TestAnchorOfDeclaredRun(t *testing.T) {
	run := declaredRun(t0.Add(60 * 24 * time.Hour))
	partial := agentOf("fd-slow", parse.StatusPartial)
	partial.ModTime = t0.Add(60 * 24 * time.Hour)
	run.Agents = append(run.Agents, partial)
	past := entry(bus.Blocking, "fd-ghost", "From last month", 0)
	past.Time = t0.Add(-20 * 24 * time.Hour)
	past.Timestamp = past.Time.Format(time.RFC3339)
	run.Bus[0].Entries = append(run.Bus[0].Entries, past,
		entry(bus.Blocking, "fd-ghost", "From the far future", 400*24*time.Hour))
	s := Synthesize(run, Options{})
	var diags []string
	for _, d := range s.Diagnostics {
		diags = append(diags, d.Message)
	}
	want := []string{
		"timestamp 2026-10-31T10:00:00Z is more than a week before the newest report of the run (2026-11-20T10:50:00Z): implausible, the blocking entry counts as having no time (never reported unacknowledged)",
		"timestamp 2027-12-25T10:00:00Z is more than an hour after the newest report of the run: implausible, the blocking entry counts as having no time (never reported unacknowledged)",
	}
	if !slices.Equal(diags, want) {
		t.Errorf("diagnostics\n%q\nwant\n%q", diags, want)
	}
	if an := runAnchor(run); !an.hi.Equal(partial.ModTime) || !an.lo.Equal(t0.Add(50*time.Minute)) {
		t.Errorf("anchor %v..%v, want the .partial's time above and the newest declared below", an.lo, an.hi)
	}
}
