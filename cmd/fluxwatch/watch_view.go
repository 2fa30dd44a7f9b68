package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// liveView draws the terminal view of `watch`: each frame is written in one
// write, from the top left corner, every line cleared to its end and the
// screen below the frame cleared, so that nothing flickers (no full clear).
// It uses the alternate screen and restores the terminal on close.
type liveView struct {
	w     io.Writer
	color bool
	size  func() (cols, rows int)
	dir   string
	open  bool
	// recent are the latest events as text, newest last.
	recent []string
}

// Limits of the view's sections.
const (
	viewFindings = 8
	viewPeers    = 5
	viewRecent   = 5
)

// ANSI sequences.
const (
	csiHome       = "\x1b[H"
	csiClearLine  = "\x1b[K"
	csiClearBelow = "\x1b[J"
	csiAltOn      = "\x1b[?1049h\x1b[?25l" // alternate screen, cursor hidden
	csiAltOff     = "\x1b[?25h\x1b[?1049l"
	sgrReset      = "\x1b[0m"
	sgrBold       = "1"
	sgrDim        = "2"
	sgrRed        = "31"
	sgrGreen      = "32"
	sgrYellow     = "33"
	sgrCyan       = "36"
	sgrBoldRed    = "1;31"
)

// draw writes the frame of u; events are u's events.
func (v *liveView) draw(u *watcher.Update, events []watcher.Event) {
	for _, e := range events {
		v.recent = append(v.recent, e.Text())
	}
	if len(v.recent) > viewRecent {
		v.recent = v.recent[len(v.recent)-viewRecent:]
	}
	cols, rows := v.size()
	var b bytes.Buffer
	if !v.open {
		b.WriteString(csiAltOn)
		v.open = true
	}
	b.WriteString(csiHome)
	lines := v.frame(u, cols, rows-1)
	for i, l := range lines {
		b.WriteString(l)
		b.WriteString(csiClearLine)
		if i < len(lines)-1 {
			b.WriteString("\n")
		}
	}
	b.WriteString(csiClearBelow)
	v.w.Write(b.Bytes())
}

// close restores the terminal.
func (v *liveView) close() {
	if v.open {
		io.WriteString(v.w, csiAltOff)
		v.open = false
	}
}

func (v *liveView) paint(sgr, s string) string {
	if !v.color || sgr == "" || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + sgrReset
}

// fit pads or cuts s to width display cells (one per rune), cutting with
// "…".
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	n := utf8.RuneCountInString(s)
	if n <= width {
		return s + strings.Repeat(" ", width-n)
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// cut cuts s to at most width cells, without padding.
func cut(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	return strings.TrimRight(fit(s, width), " ")
}

// frame returns the lines of one frame, at most rows of at most cols cells.
func (v *liveView) frame(u *watcher.Update, cols, rows int) []string {
	cols = max(cols, 40)
	rows = max(rows, 6)
	s := u.Synthesis
	var head []string
	run := ""
	if s.Run != nil {
		run = " · run " + (*s.Run)[:min(8, len(*s.Run))]
	}
	state := "watching " + elapsed(u.Time.Sub(u.Started))
	switch {
	case u.Final:
		state = "final"
	case watcher.Converged(s):
		state += " · every agent finished"
	}
	head = append(head, v.paint(sgrBold, cut("fluxwatch · "+v.dir+run+" · "+state, cols)))
	running := 0
	for _, a := range s.Agents {
		if a.Status == parse.StatusPartial {
			running++
		}
	}
	verdict := strings.ToUpper(string(s.Verdict))
	status := fmt.Sprintf("  %d/%d completed · %d failed · %d running   %d findings: P0 %d · P1 %d · P2 %d · P3 %d",
		len(s.AgentsCompleted), len(s.AgentsLaunched), len(s.AgentsFailed), running,
		s.Counts.Total(), s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3)
	head = append(head, "Verdict: "+v.paint(verdictColor(s.Verdict), verdict)+cut(status, cols-9-len(verdict)))

	agents := v.agentLines(u, cols)
	findings := v.findingLines(s, cols)
	peers := v.peerLines(s, cols)
	var recent []string
	for i := len(v.recent) - 1; i >= 0; i-- { // newest first
		recent = append(recent, " "+cut(v.recent[i], cols-1))
	}

	// Fill the rows: the agents first, then findings, peers, recent events;
	// each section a title and its lines, a blank line before it.
	out := head
	left := rows - len(out)
	section := func(title string, items []string, more func(int) string) {
		if left < 3 || len(items) == 0 {
			return
		}
		out = append(out, "", v.paint(sgrBold, cut(title, cols)))
		left -= 2
		n := min(len(items), left)
		if n < len(items) && n > 1 && more != nil {
			n-- // room for "… and N more"
			out = append(out, items[:n]...)
			out = append(out, v.paint(sgrDim, more(len(items)-n)))
			left -= n + 1
			return
		}
		out = append(out, items[:n]...)
		left -= n
	}
	moreAgents := func(n int) string { return fmt.Sprintf(" … and %d more agents", n) }
	section(fmt.Sprintf("%-*s %-9s %3s %3s %3s %3s  %7s", agentWidth(cols), "AGENT", "STATUS", "P0", "P1", "P2", "P3", "ELAPSED"), agents, moreAgents)
	if len(findings) > 0 {
		section("TOP FINDINGS (by convergence)", findings, func(n int) string { return fmt.Sprintf(" … and %d more", n) })
	} else if left >= 3 {
		out = append(out, "", v.paint(sgrDim, "No findings yet."))
		left -= 2
	}
	total := 0
	if s.Timeline != nil {
		total = s.Timeline.Total
	}
	section(fmt.Sprintf("PEER FINDINGS (%d on the bus, newest first)", total), peers, nil)
	section("RECENT", recent, nil)
	return out
}

func agentWidth(cols int) int { return min(max(cols-40, 12), 28) }

func (v *liveView) agentLines(u *watcher.Update, cols int) []string {
	s := u.Synthesis
	aw := agentWidth(cols)
	var lines []string
	for _, a := range s.Agents {
		if a.Status == parse.StatusForeign {
			continue
		}
		clock := u.Agents[a.Name]
		label, color := string(a.Status), sgrGreen
		switch {
		case a.File == nil && a.Status == parse.StatusPartial:
			label, color = "waiting", sgrDim
		case a.Status == parse.StatusPartial && clock.Stalled:
			label, color = "stalled", sgrYellow
		case a.Status == parse.StatusPartial:
			label, color = "running", sgrCyan
		case a.Status == parse.StatusError:
			label, color = "failed", sgrRed
		case a.Status == parse.StatusMalformed:
			color = sgrYellow
		}
		// Elapsed since the watcher first saw the agent: "-" for one that
		// had finished before (first seen finished) or has no file.
		took := "-"
		switch {
		case clock.FirstSeen.IsZero():
		case clock.Done.IsZero():
			took = elapsed(u.Time.Sub(clock.FirstSeen))
		case clock.Done.After(clock.FirstSeen):
			took = elapsed(clock.Done.Sub(clock.FirstSeen))
		}
		c := a.Counts
		num := func(n int, sgr string) string {
			if n == 0 {
				return v.paint(sgrDim, "  ·")
			}
			return v.paint(sgr, fmt.Sprintf("%3d", n))
		}
		line := fit(a.Name, aw) + " " + v.paint(color, fit(label, 9)) + " " +
			num(c.P0, sgrBoldRed) + " " + num(c.P1, sgrYellow) + " " + num(c.P2, "") + " " + num(c.P3, "") +
			fmt.Sprintf("  %7s", took)
		// The columns take aw+35 cells; a note gets what is left.
		if note, room := agentNote(a), cols-aw-35-2; note != "" && room > 8 {
			line += "  " + v.paint(sgrDim, cut(note, room))
		}
		lines = append(lines, line)
	}
	return lines
}

// agentNote is a short remark on an agent: why it failed, that its counts
// are provisional.
func agentNote(a synth.AgentResult) string {
	switch a.Status {
	case parse.StatusPartial:
		if a.File != nil && a.Counts.Total() > 0 {
			return "provisional"
		}
	case parse.StatusError:
		for _, d := range a.Diagnostics {
			if d.Level == parse.LevelError {
				return d.Message
			}
		}
	case parse.StatusMalformed:
		return "prose fallback"
	}
	return ""
}

func (v *liveView) findingLines(s *synth.Synthesis, cols int) []string {
	var lines []string
	for _, f := range watcher.TopFindings(s, viewFindings) {
		agents := strings.Join(f.Agents, ", ")
		text := fit(f.ConvergenceDisplay, 6) + " " + f.Title
		if rest := cols - 5 - utf8.RuneCountInString(text); rest > 12 {
			text += " · " + cut(agents, rest-3)
		}
		lines = append(lines, " "+v.paint(severityColor(f.Severity), string(f.Severity))+"  "+cut(text, cols-5))
	}
	return lines
}

func (v *liveView) peerLines(s *synth.Synthesis, cols int) []string {
	if s.Timeline == nil {
		return nil
	}
	entries := s.Timeline.Entries
	entries = entries[max(0, len(entries)-viewPeers):]
	var lines []string
	for i := len(entries) - 1; i >= 0; i-- { // newest first
		e := entries[i]
		clock := "        "
		if t, err := time.Parse(time.RFC3339, e.Timestamp); err == nil {
			clock = t.Local().Format("15:04:05")
		}
		sev, color := e.Severity, ""
		switch {
		case e.Kind == bus.EntryStall:
			sev, color = "stall", sgrYellow
		case sev == bus.Blocking:
			color = sgrRed
		}
		head := fmt.Sprintf(" #%-4d %s %s ", e.Seq, clock, fit(e.Agent, 16))
		text := strings.Map(func(r rune) rune {
			if r < ' ' {
				return ' '
			}
			return r
		}, e.Summary)
		lines = append(lines, head+v.paint(color, fit(sev, 8))+" "+cut(text, cols-utf8.RuneCountInString(head)-9))
	}
	return lines
}

func verdictColor(v parse.Verdict) string {
	switch v {
	case parse.Risky, parse.Error:
		return sgrBoldRed
	case parse.NeedsChanges:
		return "1;33"
	case parse.Safe:
		return "1;32"
	}
	return sgrBold
}

func severityColor(s parse.Severity) string {
	switch s {
	case parse.P0:
		return sgrBoldRed
	case parse.P1:
		return sgrYellow
	}
	return ""
}

// elapsed formats d as 45s, 3m07s or 1h02m.
func elapsed(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
