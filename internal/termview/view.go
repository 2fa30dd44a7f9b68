// Package termview draws the live terminal view of `fluxwatch watch` (SPEC
// §8): agents with status and counts, the verdict, the top findings by
// convergence, the latest peer findings and recent events, redrawn in place
// from one watcher.Update at a time.
//
// It owns the terminal's side of the view — escape sequences, the alternate
// screen, fitting text to the columns in display cells (CJK and emoji take
// two), the terminal mode while it reads keys (Keys: q quits, ? shows the
// keys) — and the test of whether an output is a terminal it may draw on. It never reads the run directory, never decides
// what the synthesis holds and never writes anything but frames to its
// writer. Every text it did not write (agent names, titles, bus summaries,
// diagnostics, the directory's name) is drawn through inert.Line, so that
// the only escape sequences in a frame are its own.
package termview

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/mattn/go-runewidth"
)

// View draws the terminal view of `watch`: each frame is written in one
// write, from the top left corner, every line cleared to its end and the
// screen below the frame cleared, so that nothing flickers (no full clear).
// It uses the alternate screen and restores the terminal on Close. Its
// methods may be called from several goroutines (the watcher's, the key
// reader's).
type View struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
	size  func() (cols, rows int)
	dir   string
	open  bool
	// closed: Close was called; nothing is drawn any more.
	closed bool
	// help shows the keys instead of the tables.
	help bool
	// last is the update drawn last, redrawn when help is toggled.
	last *watcher.Update
	// recent are the latest events as text, newest last.
	recent []string
}

// Options say how a View draws.
type Options struct {
	// Color allows ANSI colours.
	Color bool
	// Dir is the run directory named in the header.
	Dir string
	// Size returns the terminal's columns and rows; nil means 80×24.
	Size func() (cols, rows int)
}

// New returns a View that draws on w, which should be a terminal (see
// IsTerminal and Capable).
func New(w io.Writer, o Options) *View {
	size := o.Size
	if size == nil {
		size = func() (int, int) { return 80, 24 }
	}
	return &View{w: w, color: o.Color, dir: o.Dir, size: size}
}

// Limits of the view's sections.
const (
	viewFindings = 8
	viewPeers    = 5
	viewRecent   = Recent
)

// Recent is how many of the latest events the view shows: of the events
// of a change, Draw needs only the last Recent.
const Recent = 5

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

// Draw writes the frame of u; events are the events of u, newest last.
func (v *View) Draw(u *watcher.Update, events []watcher.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return
	}
	v.last = u
	for _, e := range events {
		v.recent = append(v.recent, e.Text())
	}
	if len(v.recent) > viewRecent {
		v.recent = v.recent[len(v.recent)-viewRecent:]
	}
	v.draw()
}

// ToggleHelp shows the keys, or hides them, and redraws the last frame.
func (v *View) ToggleHelp() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.help = !v.help
	if v.last != nil && !v.closed {
		v.draw()
	}
}

// draw writes the frame of v.last; v.mu is held.
func (v *View) draw() {
	u := v.last
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
			// CR LF, not LF alone: while Keys holds the terminal in raw
			// mode, a line feed no longer returns the cursor.
			b.WriteString("\r\n")
		}
	}
	b.WriteString(csiClearBelow)
	v.w.Write(b.Bytes())
}

// Close restores the terminal (leaves the alternate screen); later calls
// draw nothing. It may be called more than once.
func (v *View) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.closed = true
	v.leave()
}

// leave leaves the alternate screen when the view is on it; v.mu is held.
func (v *View) leave() {
	if v.open {
		io.WriteString(v.w, csiAltOff)
		v.open = false
	}
}

// Suspend leaves the alternate screen, as Close does, but the view goes on:
// the next Draw, or Resume, comes back to it. Keys calls it on Ctrl-Z. A nil
// View does nothing.
func (v *View) Suspend() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.leave()
}

// Resume redraws the last frame, on the alternate screen again, after
// Suspend. A nil View does nothing.
func (v *View) Resume() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.last != nil && !v.closed {
		v.draw()
	}
}

func (v *View) paint(sgr, s string) string {
	if !v.color || sgr == "" || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + sgrReset
}

// cellWidth measures text in terminal cells: CJK and emoji take two,
// combining marks none, an emoji sequence joined by ZWJ one glyph. The
// condition is fixed (not taken from the locale, as runewidth's default is)
// so that frames are the same everywhere: East Asian ambiguous characters
// count as one cell.
var cellWidth = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// width returns the display width of s in cells.
func width(s string) int { return cellWidth.StringWidth(s) }

// fit pads or cuts s to exactly w display cells, cutting with "…" (a wide
// character that does not fit whole is left out and padded for).
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if n := width(s); n <= w {
		return s + strings.Repeat(" ", w-n)
	}
	t := cellWidth.Truncate(s, w, "…")
	return t + strings.Repeat(" ", max(0, w-width(t)))
}

// cut cuts s to at most w cells, without padding.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	return cellWidth.Truncate(s, w, "…")
}

// frame returns the lines of one frame, at most rows of at most cols cells.
func (v *View) frame(u *watcher.Update, cols, rows int) []string {
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
	head = append(head, v.paint(sgrBold, cut("fluxwatch · "+inert.Line(v.dir)+run+" · "+state, cols)))
	running := 0
	var reported, provisional synth.Counts
	for _, a := range s.Agents {
		switch {
		case a.Status == parse.StatusPartial:
			running++
			addCounts(&provisional, a.Counts.Counts)
		case a.Status.Completed():
			addCounts(&reported, a.Counts.Counts)
		}
	}
	verdict := strings.ToUpper(string(s.Verdict))
	// The header counts merged findings; the table's rows are what each
	// agent reported (a finding two agents share counts in both rows), so
	// the header says how many reports it merged and how many more are
	// provisional, matching the table's "reported" row and ~ cells.
	status := fmt.Sprintf("  %d/%d completed · %d failed · %d running",
		len(s.AgentsCompleted), len(s.AgentsLaunched), len(s.AgentsFailed), running)
	// A report that could not be fully read is said beside the verdict:
	// never a plain SAFE (SPEC §2.3).
	unread := ""
	if note := synth.UnreadNote(len(s.AgentsUnreadable)); note != "" {
		unread = cut(" — "+note, cols-9-len(verdict))
	}
	head = append(head, "Verdict: "+v.paint(verdictColor(s.Verdict), verdict)+v.paint(sgrYellow, unread)+
		cut(status, cols-9-len(verdict)-width(unread)))
	found := fmt.Sprintf("Findings: %d (P0 %d · P1 %d · P2 %d · P3 %d)",
		s.Counts.Total(), s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3)
	if reported.Total() != s.Counts.Total() {
		found += fmt.Sprintf(", merged from %d reported", reported.Total())
	}
	if provisional.Total() > 0 {
		found += fmt.Sprintf(" · ~%d provisional", provisional.Total())
	}
	head = append(head, cut(found, cols))
	if v.help {
		return append(head, helpLines(cols)...)
	}

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
	// section adds a title and as many items as fit; hidden counts items
	// left out before (the top findings are a cut of all findings), and
	// whatever is left out shows as "… and N more" when more is given.
	section := func(title string, items []string, hidden int, more func(int) string) {
		if left < 3 || len(items) == 0 {
			return
		}
		out = append(out, "", v.paint(sgrBold, cut(title, cols)))
		left -= 2
		n := min(len(items), left)
		if more != nil && (n < len(items) || hidden > 0) {
			if n == left {
				n-- // room for "… and N more"
			}
			if n > 0 {
				out = append(out, items[:n]...)
				out = append(out, v.paint(sgrDim, cut(more(len(items)-n+hidden), cols)))
				left -= n + 1
				return
			}
			n = min(len(items), left)
		}
		out = append(out, items[:n]...)
		left -= n
	}
	moreAgents := func(n int) string { return fmt.Sprintf(" … and %d more %s", n, synth.Noun(n, "agent")) }
	section(fmt.Sprintf("%-*s %-10s %3s %3s %3s %3s  %7s  %5s", agentWidth(cols), "AGENT", "STATUS", "P0", "P1", "P2", "P3", "ELAPSED", "ACK"), agents, 0, moreAgents)
	if len(findings) > 0 {
		section("TOP FINDINGS (by convergence)", findings, len(s.Findings)-len(findings), func(n int) string { return fmt.Sprintf(" … and %d more", n) })
	} else if left >= 3 {
		out = append(out, "", v.paint(sgrDim, "No findings yet."))
		left -= 2
	}
	total := 0
	if s.Timeline != nil {
		total = s.Timeline.Total
	}
	section(fmt.Sprintf("PEER FINDINGS (%d on the bus, newest first)", total), peers, 0, nil)
	section("RECENT", recent, 0, nil)
	return out
}

// helpLines are the keys, shown by "?".
func helpLines(cols int) []string {
	lines := []string{"", "KEYS",
		" q        quit: write the final reports and exit (as Ctrl-C does)",
		" ?        show or hide these keys",
		"", "COLUMNS",
		" P0–P3    findings each agent reported; ~N: provisional (the agent is still writing)",
		" ACK      blocking peer findings the agent acknowledged / those it finished after",
		"", "Press ? to return."}
	for i := range lines {
		lines[i] = cut(lines[i], cols)
	}
	return lines
}

func agentWidth(cols int) int { return min(max(cols-48, 12), 28) }

func (v *View) agentLines(u *watcher.Update, cols int) []string {
	s := u.Synthesis
	aw := agentWidth(cols)
	acks := acknowledgements(s)
	var lines []string
	var reported synth.Counts
	for _, a := range s.Agents {
		if a.Status == parse.StatusForeign {
			continue
		}
		if a.Status.Completed() {
			addCounts(&reported, a.Counts.Counts)
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
		case a.Status == parse.StatusUnreadable:
			color = sgrRed
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
		// A running agent's counts are provisional: marked with "~".
		mark := ""
		if a.Status == parse.StatusPartial {
			mark = "~"
		}
		ack, ackColor := "-", sgrDim
		if k := acks[a.Name]; k.acked+k.missed > 0 {
			ack = fmt.Sprintf("%d/%d", k.acked, k.acked+k.missed)
			ackColor = sgrGreen
			if k.missed > 0 {
				ackColor = sgrRed
			}
		}
		line := fit(inert.Line(a.Name), aw) + " " + v.paint(color, fit(label, 10)) + " " + v.counts(a.Counts.Counts, mark) +
			fmt.Sprintf("  %7s  ", took) + v.paint(ackColor, fmt.Sprintf("%5s", ack))
		// The columns take aw+43 cells; a note gets what is left.
		if note, room := inert.Line(agentNote(a)), cols-aw-43-2; note != "" && room > 8 {
			noteColor := sgrDim
			if a.Status == parse.StatusUnreadable {
				noteColor = sgrYellow
			}
			line += "  " + v.paint(noteColor, cut(note, room))
		}
		lines = append(lines, line)
	}
	if len(lines) > 1 {
		lines = append(lines, v.paint(sgrDim, fit("reported (completed)", aw+12))+v.counts(reported, ""))
	}
	return lines
}

// counts formats four severity counts in the agent table's columns; mark
// prefixes every non-zero count ("~" for provisional ones).
func (v *View) counts(c synth.Counts, mark string) string {
	num := func(n int, sgr string) string {
		if n == 0 {
			return v.paint(sgrDim, "  ·")
		}
		return v.paint(sgr, fmt.Sprintf("%3s", mark+fmt.Sprint(n)))
	}
	return num(c.P0, sgrBoldRed) + " " + num(c.P1, sgrYellow) + " " + num(c.P2, "") + " " + num(c.P3, "")
}

func addCounts(dst *synth.Counts, c synth.Counts) {
	dst.P0 += c.P0
	dst.P1 += c.P1
	dst.P2 += c.P2
	dst.P3 += c.P3
}

// ackTally counts the blocking peer findings an agent acknowledged in its
// report and those it finished after without acknowledging (SPEC §5.5).
type ackTally struct{ acked, missed int }

// acknowledgements tallies, per agent, the timeline's adjustments and
// unacknowledged entries. They are the latest Options.MaxEntries of each:
// on a bus with more, the tally covers those.
func acknowledgements(s *synth.Synthesis) map[string]ackTally {
	acks := map[string]ackTally{}
	if s.Timeline == nil {
		return acks
	}
	for _, a := range s.Timeline.Adjustments {
		k := acks[a.Agent]
		k.acked++
		acks[a.Agent] = k
	}
	for _, u := range s.Timeline.Unacknowledged {
		for _, b := range u.By {
			k := acks[b]
			k.missed++
			acks[b] = k
		}
	}
	return acks
}

// agentNote is a short remark on an agent: why it failed, that its counts
// are provisional, that its report could not be fully read and why.
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
	case parse.StatusUnreadable:
		// The status says it; the note says where and why, as far as
		// the row goes.
		if r := a.UnreadReasons(); len(r) > 0 {
			if r[0].Line > 0 {
				return fmt.Sprintf("line %d: %s", r[0].Line, r[0].Message)
			}
			return r[0].Message
		}
		return "could not be fully read"
	}
	return ""
}

func (v *View) findingLines(s *synth.Synthesis, cols int) []string {
	var lines []string
	for _, f := range watcher.TopFindings(s, viewFindings) {
		agents := inert.Line(strings.Join(f.Agents, ", "))
		conv := fit(f.ConvergenceDisplay, 6)
		if len(f.Primed()) > 0 { // the split only when a peer primed someone
			conv = f.ConvergenceDisplay + " (" + strconv.Itoa(f.Independent) + " ind.)"
		}
		text := conv + " " + inert.Line(f.Title)
		if rest := cols - 5 - width(text); rest > 12 {
			text += " · " + cut(agents, rest-3)
		}
		lines = append(lines, " "+v.paint(severityColor(f.Severity), string(f.Severity))+"  "+cut(text, cols-5))
	}
	return lines
}

func (v *View) peerLines(s *synth.Synthesis, cols int) []string {
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
		head := fmt.Sprintf(" #%-4d %s %s ", e.Seq, clock, fit(inert.Line(e.Agent), 16))
		text := inert.Line(e.Summary)
		lines = append(lines, head+v.paint(color, fit(sev, 8))+" "+cut(text, cols-width(head)-9))
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
