package page

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Geometry of the timeline plot, in SVG user units. The plot is drawn at
// plotWidth and scrolls sideways inside its frame on narrow screens (the
// body never does).
const (
	plotWidth  = 960
	labelWidth = 170 // agent names, right-aligned before plotLeft
	plotLeft   = 180
	plotRight  = 940
	rowHeight  = 22
	convHeight = 64 // the convergence band above the agent rows
	axisHeight = 26
	// plotRows agents are drawn in the open plot; the others in a folded
	// one below it.
	plotRows = 40
)

// plot is the timeline plot: one row per agent, its bus posts, the time its
// .partial last grew or its report finished, and above them the number of
// findings that had reached their final convergence, over time.
type plot struct {
	// Empty is set when no input carries a time: nothing to draw.
	Empty bool
	// Span says what the x axis covers ("2026-11-20 09:00 – 10:12 UTC").
	Span string
	// Main holds the convergence band and the first plotRows agents; More
	// the others (nil when there are none).
	Main, More *plotPart
	// Untimed counts the bus posts carried without a usable timestamp.
	Untimed int
	// Shown and Total count the bus posts the synthesis carries (the
	// latest ones) and those on the whole bus.
	Shown, Total int
	// Converged counts the findings placed on the convergence band.
	Converged int
}

// plotPart is one SVG of the plot.
type plotPart struct {
	Height int
	Conv   *convBand
	Rows   []plotRow
	AxisY  int
	Ticks  []tick
	Grid   []tick
	// Top is where the rows start; GridY0 and GridY1 span the grid lines.
	Top            int
	GridY0, GridY1 int
}

type tick struct {
	X     int
	Label string
}

// convBand is the cumulative count of findings at their final convergence.
type convBand struct {
	Y0, Y1 int    // top and baseline
	Path   string // the step line
	Area   string // the same, closed on the baseline
	Marks  []mark // one per moment at which findings converged
	Max    int
}

type plotRow struct {
	Agent  string
	Status string
	Y      int // the row's centre line
	LabelY int
	// X0 and X1 span the agent's activity: from its first post (or its
	// report) to its report.
	X0, X1 int
	Posts  []mark
	End    *mark
	Title  string
}

// mark is one symbol of the plot with its tooltip.
type mark struct {
	X, Y  int
	Class string
	Title string
	// Shape is "dot", "square", "diamond", "cross" or "tick".
	Shape string
	// N is a count shown beside a convergence mark.
	N int
}

// parseTime reads a bus timestamp (RFC 3339, with or without a zone; a zone-less
// one is UTC).
func parseTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// convergedAt is when finding f reached its final convergence: when the last
// report of its agents finished. ok is false when none of them has a time.
func convergedAt(f *synth.Finding, times map[string]time.Time) (at time.Time, by string, ok bool) {
	for _, a := range f.Agents {
		t, has := times[a]
		if !has {
			continue
		}
		if !ok || t.After(at) || (t.Equal(at) && a > by) {
			at, by, ok = t, a, true
		}
	}
	return at, by, ok
}

// agentTimes maps each agent of the run with a file to when its report
// finished (declared, else its file's modification time).
func agentTimes(s *synth.Synthesis) map[string]time.Time {
	m := map[string]time.Time{}
	for _, a := range s.Agents {
		if a.Status == parse.StatusForeign || a.FinishedAt.IsZero() {
			continue
		}
		if t, ok := m[a.Name]; !ok || a.FinishedAt.After(t) {
			m[a.Name] = a.FinishedAt
		}
	}
	return m
}

// plotRowAgents are the rows of the plot: the agents of the run (not foreign
// ones) and the agents that only posted on the bus, sorted by name.
func plotRowAgents(s *synth.Synthesis) []rowAgent {
	seen := map[string]int{}
	var rows []rowAgent
	for _, a := range s.Agents {
		if a.Status == parse.StatusForeign {
			continue
		}
		if i, ok := seen[a.Name]; ok {
			if a.FinishedAt.After(rows[i].modTime) {
				rows[i].modTime, rows[i].status = a.FinishedAt, a.Status
			}
			continue
		}
		seen[a.Name] = len(rows)
		rows = append(rows, rowAgent{name: a.Name, status: a.Status, modTime: a.FinishedAt})
	}
	if tl := s.Timeline; tl != nil {
		for _, p := range tl.PerAgent {
			if _, ok := seen[p.Agent]; !ok {
				seen[p.Agent] = len(rows)
				rows = append(rows, rowAgent{name: p.Agent, busOnly: true})
			}
		}
	}
	slices.SortFunc(rows, func(a, b rowAgent) int { return cmp.Compare(a.name, b.name) })
	return rows
}

type rowAgent struct {
	name    string
	status  parse.Status
	modTime time.Time
	busOnly bool
}

// newPlot lays the plot out. conv are the final-convergence moments of the
// findings, sorted.
func newPlot(s *synth.Synthesis, conv []convMoment) plot {
	rows := plotRowAgents(s)
	type post struct {
		at    time.Time
		entry synth.TimelineEntry
	}
	posts := map[string][]post{}
	var p plot
	var lo, hi time.Time
	see := func(t time.Time) {
		if lo.IsZero() || t.Before(lo) {
			lo = t
		}
		if hi.IsZero() || t.After(hi) {
			hi = t
		}
	}
	if tl := s.Timeline; tl != nil {
		p.Total, p.Shown = tl.Total, len(tl.Entries)
		for _, e := range tl.Entries {
			t, ok := parseTime(e.Timestamp)
			if !ok {
				p.Untimed++
				continue
			}
			see(t)
			posts[e.Agent] = append(posts[e.Agent], post{t, e})
		}
		drawn := map[int]bool{}
		for _, e := range tl.Entries {
			drawn[e.Seq] = true
		}
		for _, st := range tl.Stalls {
			if drawn[st.Seq] {
				continue
			}
			if t, ok := parseTime(st.Timestamp); ok {
				see(t)
				posts[st.Agent] = append(posts[st.Agent], post{t, synth.TimelineEntry{Seq: st.Seq, Agent: st.Agent, Kind: "stall", Summary: st.Message}})
			}
		}
	}
	for _, r := range rows {
		if !r.modTime.IsZero() {
			see(r.modTime)
		}
	}
	if lo.IsZero() {
		p.Empty = true
		return p
	}
	if !hi.After(lo) {
		lo, hi = lo.Add(-30*time.Second), hi.Add(30*time.Second)
	}
	span := hi.Sub(lo)
	// A margin so that marks at the ends are not cut.
	lo, hi = lo.Add(-span/40), hi.Add(span/40)
	x := func(t time.Time) int {
		return plotLeft + int(float64(plotRight-plotLeft)*float64(t.Sub(lo))/float64(hi.Sub(lo))+0.5)
	}
	p.Span = spanText(lo, hi)
	ticks := axisTicks(lo, hi, x)

	build := func(rs []rowAgent, band bool) *plotPart {
		part := &plotPart{Ticks: ticks}
		y := 8
		if band {
			part.Conv = newConvBand(conv, x, y, y+convHeight-18)
			y += convHeight
		}
		part.Top = y
		part.GridY0 = 4
		for _, r := range rs {
			row := plotRow{Agent: r.name, Status: string(r.status), Y: y + rowHeight/2, LabelY: y + rowHeight/2 + 4}
			if r.busOnly {
				row.Status = "bus only"
			}
			ps := posts[r.name]
			slices.SortStableFunc(ps, func(a, b post) int { return a.at.Compare(b.at) })
			first, last := time.Time{}, time.Time{}
			blocking := 0
			for _, q := range ps {
				if first.IsZero() {
					first = q.at
				}
				last = q.at
				m := mark{X: x(q.at), Y: row.Y, Shape: "dot", Class: "post " + q.entry.Severity}
				label := q.entry.Severity
				if q.entry.Kind == "stall" {
					m.Shape, m.Class, label = "tick", "stall", "stall"
				}
				if q.entry.Severity == "blocking" {
					blocking++
				}
				m.Title = fmt.Sprintf("%s · #%d %s: %s", clock(q.at), q.entry.Seq, label, q.entry.Summary)
				row.Posts = append(row.Posts, m)
			}
			if !r.modTime.IsZero() {
				end := &mark{X: x(r.modTime), Y: row.Y}
				switch {
				case r.status.Completed():
					end.Shape, end.Class = "diamond", "done"
					end.Title = fmt.Sprintf("%s · report finished (%s)", clock(r.modTime), r.status)
				case r.status == parse.StatusPartial:
					end.Shape, end.Class = "square", "partial"
					end.Title = fmt.Sprintf("%s · still writing: .partial last grew", clock(r.modTime))
				default:
					end.Shape, end.Class = "cross", "failed"
					end.Title = fmt.Sprintf("%s · failed (%s)", clock(r.modTime), r.status)
				}
				row.End = end
				if first.IsZero() || r.modTime.Before(first) {
					first = r.modTime
				}
				if r.modTime.After(last) {
					last = r.modTime
				}
			}
			if !first.IsZero() {
				row.X0, row.X1 = x(first), x(last)
			}
			row.Title = rowTitle(r, len(ps), blocking)
			part.Rows = append(part.Rows, row)
			y += rowHeight
		}
		part.GridY1 = y
		part.AxisY = y + 16
		part.Height = y + axisHeight
		for _, t := range ticks {
			part.Grid = append(part.Grid, t)
		}
		return part
	}
	head, tail := rows, []rowAgent(nil)
	if len(rows) > plotRows {
		head, tail = rows[:plotRows], rows[plotRows:]
	}
	p.Main = build(head, true)
	if len(tail) > 0 {
		p.More = build(tail, false)
	}
	p.Converged = len(conv)
	return p
}

func rowTitle(r rowAgent, posts, blocking int) string {
	s := r.name + ": "
	if r.busOnly {
		s += "posted on the bus, no report"
	} else {
		s += string(r.status)
	}
	if posts > 0 {
		s += fmt.Sprintf(", %s shown (%d blocking)", plural(posts, "bus post"), blocking)
	}
	switch {
	case r.modTime.IsZero():
	case r.status == parse.StatusPartial:
		s += ", last written " + clock(r.modTime)
	default:
		s += ", finished " + clock(r.modTime)
	}
	return s
}

// convMoment is when some findings reached their final convergence.
type convMoment struct {
	at       time.Time
	by       string // the agent whose report completed them
	findings int
	worst    parse.Severity
}

func newConvBand(ms []convMoment, x func(time.Time) int, top, base int) *convBand {
	b := &convBand{Y0: top, Y1: base}
	total := 0
	for _, m := range ms {
		total += m.findings
	}
	b.Max = total
	if total == 0 {
		return b
	}
	y := func(n int) int { return base - (base-top)*n/total }
	path := "M" + strconv.Itoa(plotLeft) + " " + strconv.Itoa(base)
	n := 0
	for _, m := range ms {
		n += m.findings
		mx := x(m.at)
		path += " H" + strconv.Itoa(mx) + " V" + strconv.Itoa(y(n))
		b.Marks = append(b.Marks, mark{X: mx, Y: y(n), Shape: "dot", Class: "conv " + string(m.worst), N: n,
			Title: fmt.Sprintf("%s · %s's report: %s reached final convergence (%d in all)", clock(m.at), m.by, plural(m.findings, "finding"), n)})
	}
	path += " H" + strconv.Itoa(plotRight)
	b.Path = path
	b.Area = path + " V" + strconv.Itoa(base) + " Z"
	return b
}

// plural counts n of word: "1 moment", "2 moments".
func plural(n int, word string) string {
	return strconv.Itoa(n) + " " + noun(n, word)
}

// noun is word, or its plural (an s added) unless n is 1.
func noun(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// clock formats t for the plot: the time of day, UTC.
func clock(t time.Time) string { return t.UTC().Format("15:04:05") }

func spanText(lo, hi time.Time) string {
	lo, hi = lo.UTC(), hi.UTC()
	if lo.Format("2006-01-02") == hi.Format("2006-01-02") {
		return lo.Format("2006-01-02 15:04") + " – " + hi.Format("15:04") + " UTC"
	}
	return lo.Format("2006-01-02 15:04") + " – " + hi.Format("2006-01-02 15:04") + " UTC"
}

// axisTicks puts about six labelled ticks on round times between lo and hi.
func axisTicks(lo, hi time.Time, x func(time.Time) int) []tick {
	steps := []time.Duration{time.Second, 5 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour,
		48 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 365 * 24 * time.Hour}
	span := hi.Sub(lo)
	step := steps[len(steps)-1]
	for _, s := range steps {
		if span/s <= 6 {
			step = s
			break
		}
	}
	layout := "15:04"
	switch {
	case step < time.Minute:
		layout = "15:04:05"
	case step >= 24*time.Hour:
		layout = "2006-01-02"
	}
	var ts []tick
	for t := lo.UTC().Truncate(step); !t.After(hi); t = t.Add(step) {
		if t.Before(lo) {
			continue
		}
		ts = append(ts, tick{X: x(t), Label: t.Format(layout)})
	}
	return ts
}
