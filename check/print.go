package check

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// WriteText prints each report's diagnostics (unless quiet), its claims
// (with evidence) and its summary line, then the other files' the same way.
// Every line is inert (inert.Line): the diagnostics and claims quote what
// the agents wrote, and a report's name is the run's.
func (res *Result) WriteText(w io.Writer, quiet bool) error {
	for _, r := range res.Reports {
		writeReport(w, r, quiet)
	}
	return writeOthers(w, res.Others, quiet)
}

// WriteJSON prints the reports as one JSON array on stdout (agent text as
// written, escaped by inert.EscapeJSON) and the other files' lines on
// stderr, so that stdout stays exactly the array.
func (res *Result) WriteJSON(stdout, stderr io.Writer, quiet bool) error {
	reports := res.Reports
	if reports == nil {
		reports = []Report{}
	}
	b, err := json.MarshalIndent(reports, "", "  ")
	if err != nil {
		return err
	}
	if _, err := stdout.Write(append(inert.EscapeJSON(b), '\n')); err != nil {
		return err
	}
	return writeOthers(stderr, res.Others, quiet)
}

// Strict is check --strict's judgement: true when every report is valid
// (SPEC §2.5), else false with one line per report that is not on w. A
// check of no report at all is not valid either.
func (res *Result) Strict(w io.Writer) bool {
	if len(res.Reports) == 0 {
		fmt.Fprintln(w, "fluxwatch: check --strict: no agent report to check")
		return false
	}
	valid := true
	for _, r := range res.Reports {
		if r.Status == parse.StatusValid {
			continue
		}
		valid = false
		why := "the diagnostics above say where it departs from the Findings Index format"
		switch r.Status {
		case parse.StatusError:
			why = "it is an error report (no findings)"
		case parse.StatusForeign:
			why = "it belongs to another run"
		case parse.StatusPartial:
			why = "it is still being written (name the .partial itself to check it)"
		}
		fmt.Fprintln(w, inert.Line(fmt.Sprintf("fluxwatch: check --strict: %s is %s, not valid: %s", r.File, r.Status, why)))
	}
	return valid
}

func writeReport(w io.Writer, r Report, quiet bool) {
	if !quiet {
		for _, d := range r.Diagnostics {
			d.Path = r.File
			fmt.Fprintln(w, inert.Line(d.String()))
		}
	}
	counts := map[parse.Severity]int{}
	for _, f := range r.Findings {
		counts[f.Severity]++
	}
	declared := "none"
	if r.DeclaredVerdict != nil {
		declared = *r.DeclaredVerdict
	}
	ev := r.Evidence
	if ev != nil && !quiet {
		writeClaims(w, r)
	}
	// An unreadable report's verdict is that of what was read: never a
	// plain "safe" (SPEC §2.3); its error lines above say why.
	unread := ""
	if r.Status == parse.StatusUnreadable {
		unread = " — could not be fully read"
	}
	resolved := ""
	if len(r.Resolved) > 0 {
		resolved = fmt.Sprintf(", %d resolved", len(r.Resolved))
	}
	fmt.Fprintln(w, inert.Line(fmt.Sprintf("%s: %s, %s (P0 %d, P1 %d, P2 %d, P3 %d)%s, %s, declared %s, verdict %s%s",
		r.File, r.Status, synth.Plural(len(r.Findings), "finding"), counts[parse.P0], counts[parse.P1], counts[parse.P2], counts[parse.P3],
		resolved, synth.Plural(len(r.Improvements), "improvement"), declared, r.Verdict, unread)))
	if ev != nil {
		t := ev.tally
		fmt.Fprintln(w, inert.Line(fmt.Sprintf("%s: evidence against %s: %s (%d verified, %d moved, %d mismatch, %d missing file, %d out of range, %d skipped), %d ungrounded",
			r.File, ev.Repo, synth.Plural(t.Claims, "claim"), t.Verified, t.Moved, t.Mismatch, t.MissingFile, t.OutOfRange, t.Skipped, t.Ungrounded)))
	}
}

// writeClaims prints one line per claim of r, in the order of the report
// (path:line: status: claim), and one per ungrounded finding.
func writeClaims(w io.Writer, r Report) {
	type out struct {
		line int
		text string
	}
	var lines []out
	for _, c := range r.Evidence.Claims {
		text := fmt.Sprintf("%s:%d: %s: %s", r.File, c.Line, c.Status, c.Ref())
		switch {
		case c.Found != "":
			text += " → " + c.Found
		case c.Note != "":
			text += " (" + c.Note + ")"
		}
		lines = append(lines, out{c.Line, text})
	}
	for _, i := range r.Evidence.Ungrounded {
		f := r.Findings[i]
		label := f.Title
		if f.ID != "" {
			label = f.ID + " " + f.Title
		}
		lines = append(lines, out{f.Line, fmt.Sprintf("%s:%d: ungrounded: %s %s: every claim failed", r.File, f.Line, f.Severity, label)})
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].line < lines[j].line })
	for _, l := range lines {
		fmt.Fprintln(w, inert.Line(l.text))
	}
}

// writeOthers prints the diagnostics of files that are not agent reports
// and one summary line each, every line inert: they quote what the files
// hold.
func writeOthers(w io.Writer, files []Other, quiet bool) error {
	for _, o := range files {
		if !quiet {
			for _, d := range o.Diagnostics {
				if d.Path == "" {
					d.Path = o.Path
				}
				fmt.Fprintln(w, inert.Line(d.String()))
			}
		}
		if _, err := fmt.Fprintln(w, inert.Line(o.Path+": "+o.Summary)); err != nil {
			return err
		}
	}
	return nil
}
