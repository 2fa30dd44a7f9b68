package synth

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

func entry(sev, agent, summary string, at time.Duration, refs ...string) bus.Entry {
	e := bus.Entry{Severity: sev, Agent: agent, Summary: summary, FileRefs: refs}
	if at >= 0 {
		e.Time = t0.Add(at)
		e.Timestamp = e.Time.Format(time.RFC3339)
	}
	return e
}

func timelineRun() *Run {
	finished := func(a Agent, at time.Duration, text string) Agent {
		a.ModTime = t0.Add(at)
		a.Text = []byte(text)
		return a
	}
	agents := []Agent{
		finished(agentOf("fd-safety", parse.StatusValid,
			fnd(parse.P0, "SAF-01", "Auth", "Session tokens stored in localStorage", "src/auth.ts:30")), time.Hour, "### Findings Index\n"),
		// Names fd-safety: acknowledged, adjusted.
		finished(agentOf("fd-arch", parse.StatusValid,
			fnd(parse.P2, "AR-007", "Layout", "Module boundaries blur", "src/app.ts:1")), time.Hour, "Per fd-safety's peer finding we re-checked auth."),
		// Holds a matching P3 finding: acknowledged, and a contradiction.
		finished(agentOf("fd-lax", parse.StatusValid,
			fnd(parse.P3, "LX-1", "Auth", "Session token stored in local storage")), time.Hour, "nothing to see"),
		// Safe, overlapping file refs, never names it: unacknowledged and a contradiction.
		finished(agentOf("fd-perf", parse.StatusValid,
			fnd(parse.P2, "PF-1", "Perf", "Hot loop in token refresh", "src/auth.ts:28-35")), time.Hour, "perf only"),
		// Finished before the entry was written: not asked to acknowledge it.
		finished(agentOf("fd-early", parse.StatusValid), 5*time.Minute, "done early"),
		// Names the entry's id.
		finished(agentOf("fd-ids", parse.StatusValid), time.Hour, "We agree with SAF-01."),
	}
	bus := []BusFile{
		{Name: "findings.jsonl", Entries: []bus.Entry{
			entry(bus.Notable, "fd-arch", "Module boundaries blur", 2*time.Minute),
			func() bus.Entry {
				e := entry(bus.Blocking, "fd-safety", "Session tokens stored in localStorage", 10*time.Minute, "src/auth.ts:30")
				e.ID = "SAF-01"
				return e
			}(),
			{Kind: bus.EntryStall, Severity: "warn", Agent: "fd-slow", Summary: "no output for 5m", Timestamp: "2026-11-20T10:20:00+02:00"},
		}},
		{Name: "peer-findings.jsonl", Entries: []bus.Entry{
			// No timestamp: checked for acknowledgement, never unacknowledged.
			entry(bus.Blocking, "fd-ghost", "Unrelated blocking thing nobody mentions", -1),
			entry(bus.Notable, "fd-perf", "Session tokens stored in localStorage", 20*time.Minute),
		}},
	}
	return &Run{Agents: agents, Bus: bus}
}

func TestTimeline(t *testing.T) {
	s := Synthesize(timelineRun(), Options{})
	tl := s.Timeline
	if tl == nil {
		t.Fatal("no timeline")
	}
	if tl.Total != 5 || tl.PerSeverity != (SeverityTally{Blocking: 2, Notable: 2, Stalls: 1}) {
		t.Errorf("totals = %d %+v", tl.Total, tl.PerSeverity)
	}
	if !slices.Equal(tl.Files, []string{"findings.jsonl", "peer-findings.jsonl"}) {
		t.Errorf("files = %q", tl.Files)
	}
	var adjusted []string
	for _, a := range tl.Adjustments {
		if a.Seq == 2 {
			adjusted = append(adjusted, a.Agent)
		}
	}
	if want := []string{"fd-arch", "fd-ids", "fd-lax"}; !slices.Equal(adjusted, want) {
		t.Errorf("adjusted after entry 2 = %q, want %q", adjusted, want)
	}
	if len(tl.Unacknowledged) != 1 || tl.Unacknowledged[0].Seq != 2 || !slices.Equal(tl.Unacknowledged[0].By, []string{"fd-perf"}) {
		t.Errorf("unacknowledged = %+v, want entry 2 by fd-perf only", tl.Unacknowledged)
	}
	if tl.UnacknowledgedTotal != 1 {
		t.Errorf("the untimed entry was reported unacknowledged: %+v", tl.Unacknowledged)
	}
	want := []Contradiction{
		{Seq: 2, Of: "fd-safety", Agent: "fd-lax", Summary: "Session tokens stored in localStorage",
			Finding: "auth:session tokens stored in localstorage", Severity: parse.P3, Reason: "lower-severity"},
		{Seq: 2, Of: "fd-safety", Agent: "fd-perf", Summary: "Session tokens stored in localStorage", Reason: "safe-verdict"},
	}
	if !slices.Equal(tl.Contradictions, want) {
		t.Errorf("contradictions = %+v\nwant %+v", tl.Contradictions, want)
	}
	if !slices.Equal(tl.Stalled, []string{"fd-slow"}) || len(tl.Stalls) != 1 || tl.Stalls[0].Seq != 3 {
		t.Errorf("stalls = %+v %q", tl.Stalls, tl.Stalled)
	}
	auth := findingByID(s, "SAF-01")
	if auth == nil || auth.DiscoveredBy() == nil || *auth.DiscoveredBy() != "fd-safety" {
		t.Errorf("discovered_by of SAF-01 = %v, want fd-safety (the first entry matching it)", auth)
	}
	arch := findingByID(s, "AR-007")
	if arch == nil || arch.DiscoveredBy() == nil || *arch.DiscoveredBy() != "fd-arch" {
		t.Errorf("discovered_by of AR-007 wrong")
	}
	if tl.Entries[1].Finding != "auth:session tokens stored in localstorage" {
		t.Errorf("entry 2 matched %q", tl.Entries[1].Finding)
	}
}

func TestTimelineBounded(t *testing.T) {
	run := timelineRun()
	var many []bus.Entry
	for i := range 1234 {
		many = append(many, entry(bus.Notable, "fd-x", "note", time.Duration(i)*time.Second))
	}
	run.Bus = []BusFile{{Name: "findings.jsonl", Entries: many}}
	tl := Synthesize(run, Options{MaxEntries: 100}).Timeline
	if len(tl.Entries) != 100 || tl.EntriesOmitted != 1134 || tl.Entries[0].Seq != 1135 || tl.Entries[99].Seq != 1234 {
		t.Errorf("entries: %d kept, %d omitted, first %d", len(tl.Entries), tl.EntriesOmitted, tl.Entries[0].Seq)
	}
	md := string(RenderMarkdown(Synthesize(run, Options{})))
	if got := countLines(md, "| 1"); got > SummaryEntries {
		t.Errorf("summary.md shows %d entries, want at most %d", got, SummaryEntries)
	}
}

func countLines(s, prefix string) int {
	n := 0
	for _, l := range splitLines(s) {
		if len(l) >= len(prefix) && l[:len(prefix)] == prefix {
			n++
		}
	}
	return n
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

func TestNoBusNoTimeline(t *testing.T) {
	run := timelineRun()
	run.Bus = []BusFile{{Name: "findings.jsonl"}}
	if s := Synthesize(run, Options{}); s.Timeline != nil {
		t.Errorf("an empty bus gave a timeline")
	}
}

func TestSpecialists(t *testing.T) {
	run := &Run{Agents: []Agent{agentOf("a", parse.StatusValid)}, Specialists: []SpecialistFile{{
		Name: "frontend", File: "findings/frontend.yaml",
		Specialist: &parse.Specialist{Name: "frontend", Notes: "n", Approaches: []parse.Approach{
			{Number: 2, Description: "standalone", PendingRefinement: "make it smaller", Questions: []string{"q1", "q2"}, AddressedQuestions: []string{"q1"}},
			{Number: 1, Variant: "B", IsVariant: true, Description: "variant b"},
			{Number: 1, Variant: "A", IsVariant: true, Description: "variant a", Questions: []string{"why?"}},
		}},
	}}}
	sp := Synthesize(run, Options{}).Specialists
	if len(sp) != 1 {
		t.Fatalf("specialists = %+v", sp)
	}
	var ids []string
	for _, a := range sp[0].Approaches {
		ids = append(ids, a.ID)
	}
	if !slices.Equal(ids, []string{"1_A", "1_B", "2"}) {
		t.Errorf("approach ids = %q", ids)
	}
	if sp[0].PendingRefinements != 1 || sp[0].UnansweredQuestions != 2 || !slices.Equal(sp[0].Approaches[2].UnansweredQuestions, []string{"q2"}) {
		t.Errorf("specialist = %+v", sp[0])
	}
}

// TestImplausibleTimestamps: a blocking entry stamped far in the future was
// exempt from acknowledgement (no report finished after it), one stamped far
// in the past held every agent to it. Judged against the run's newest
// report (plausible.go), both count as having no time: checked for
// acknowledgement, never reported unacknowledged, each a warning naming
// its line. A plausible one is judged as before.
func TestImplausibleTimestamps(t *testing.T) {
	ack := func(a Agent, text string) Agent {
		a.Text = []byte(text)
		return a
	}
	stamped := func(line int, summary string, at time.Time) bus.Entry {
		return bus.Entry{Severity: bus.Blocking, Agent: "fd-ghost", Summary: summary, Line: line,
			Time: at, Timestamp: at.Format(time.RFC3339)}
	}
	run := &Run{Newest: t0.Add(2 * time.Hour), Agents: []Agent{ // the reports finished at t0+1h
		ack(agentOf("fd-a", parse.StatusValid), "nothing"),
		ack(agentOf("fd-b", parse.StatusValid), "Fixed after fd-ghost's finding."),
	}, Bus: []BusFile{{Name: "findings.jsonl", Entries: []bus.Entry{
		stamped(1, "From the future", time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)),
		stamped(2, "From the past", t0.Add(-10*24*time.Hour)),
		stamped(3, "On time", t0.Add(10*time.Minute)),
		stamped(4, "Just ahead", t0.Add(time.Hour+50*time.Minute)), // within the hour allowed
	}}}}
	s := Synthesize(run, Options{})
	tl := s.Timeline
	var unacked []string
	for _, u := range tl.Unacknowledged {
		unacked = append(unacked, u.Summary+" by "+strings.Join(u.By, ","))
	}
	if want := []string{"On time by fd-a"}; !slices.Equal(unacked, want) {
		t.Errorf("unacknowledged %q, want %q", unacked, want)
	}
	var adjusted []string
	for _, a := range tl.Adjustments {
		adjusted = append(adjusted, a.Summary+" by "+a.Agent)
	}
	if want := []string{"From the future by fd-b", "From the past by fd-b", "On time by fd-b"}; !slices.Equal(adjusted, want) {
		t.Errorf("adjustments %q, want %q: an implausible entry is still checked for acknowledgement", adjusted, want)
	}
	var diags []string
	for _, d := range s.Diagnostics {
		diags = append(diags, d.String())
	}
	want := []string{
		"findings.jsonl:1: warning: timestamp 2099-01-01T00:00:00Z is more than an hour after the newest report of the run (2026-11-20T11:00:00Z): implausible, the blocking entry counts as having no time (never reported unacknowledged)",
		"findings.jsonl:2: warning: timestamp 2026-11-10T10:00:00Z is more than a week before the newest report of the run (2026-11-20T11:00:00Z): implausible, the blocking entry counts as having no time (never reported unacknowledged)",
	}
	if !slices.Equal(diags, want) {
		t.Errorf("diagnostics\n%q\nwant\n%q", diags, want)
	}
}
