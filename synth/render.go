package synth

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/parse"
)

// RenderJSON returns findings.json: s as indented JSON with a final newline
// (what a json.Encoder with SetIndent("", "  ") and no HTML escaping
// writes).
func RenderJSON(s *Synthesis) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// Every field of a Synthesis is a plain value: encoding cannot fail.
		panic("synth: encode findings.json: " + err.Error())
	}
	compact := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	// Indenting makes findings.json about 1.5 times its compact size (1.52
	// on a 1,000-agent run, just over a 3/2 estimate, which then cost a copy
	// of the whole rendering into a buffer twice as large). Room for twice
	// the size costs little: pages of it that are never written are never
	// touched, so they add nothing to the resident set.
	out := indentJSON(make([]byte, 0, 2*len(compact)+1), compact)
	return append(out, '\n')
}

// indentJSON appends src, compact JSON as encoding/json writes it, indented
// by two spaces exactly as json.Indent(dst, src, "", "  ") would, at a
// fraction of its cost (the live watcher renders findings.json after every
// bus append).
func indentJSON(dst, src []byte) []byte {
	depth := 0
	needIndent := false // after { or [: a newline unless it closes at once
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			newline()
		}
		switch c {
		case '"':
			// Copy the string through its closing quote: the first quote
			// that an even run of backslashes (often none) precedes.
			j := i + 1
			for {
				k := bytes.IndexByte(src[j:], '"')
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				n := 0
				for n < j-i-1 && src[j-1-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
				j++
			}
			end := min(j+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false // {} and [] stay on one line
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// SummaryEntries is how many of the latest timeline entries summary.md shows.
const SummaryEntries = 100

// summaryResults is how many of each timeline result summary.md lists.
const summaryResults = 20

// summaryDiagnostics is how many diagnostics per agent summary.md lists.
const summaryDiagnostics = 10

// RenderMarkdown returns summary.md (SPEC §6).
func RenderMarkdown(s *Synthesis) []byte {
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }

	w("# Review Summary\n\n")
	w("**Verdict:** %s (%d/%d agents completed, %d failed)\n\n", s.Verdict,
		len(s.AgentsCompleted), len(s.AgentsLaunched), len(s.AgentsFailed))
	var meta []string
	if s.Input != "" {
		meta = append(meta, "Input: "+code(s.Input))
	}
	if s.Run != nil {
		meta = append(meta, "Run: "+code(*s.Run))
	}
	if s.Reviewed != "" {
		meta = append(meta, "Reviewed: "+s.Reviewed)
	}
	meta = append(meta, fmt.Sprintf("Findings: %d (P0: %d, P1: %d, P2: %d, P3: %d)",
		s.Counts.Total(), s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3))
	if len(s.Improvements) > 0 {
		meta = append(meta, fmt.Sprintf("Improvements: %d", len(s.Improvements)))
	}
	for _, m := range meta {
		w("- %s\n", m)
	}
	if len(s.AgentsForeign) > 0 {
		w("- Foreign (other runs, not counted): %s\n", inline(strings.Join(s.AgentsForeign, ", ")))
	}
	if len(s.AgentsPartial) > 0 {
		w("- Still writing (not counted): %s\n", inline(strings.Join(s.AgentsPartial, ", ")))
	}

	w("\n## Key Findings\n")
	if len(s.Findings) == 0 {
		w("\nNo findings.\n")
	}
	for _, sev := range []parse.Severity{parse.P0, parse.P1, parse.P2, parse.P3} {
		first := true
		for _, f := range s.Findings {
			if f.Severity != sev {
				continue
			}
			if first {
				w("\n### %s\n\n", sev)
				first = false
			}
			w("- %s (%s agents: %s)", findingLabel(f), f.ConvergenceDisplay, inline(strings.Join(f.Agents, ", ")))
			if f.Section != "" {
				w(" — %s", inline(f.Section))
			}
			if len(f.FileRefs) > 0 {
				refs := make([]string, len(f.FileRefs))
				for i, r := range f.FileRefs {
					refs[i] = code(r)
				}
				w(" · %s", strings.Join(refs, ", "))
			}
			w(" · confidence %s", f.Confidence)
			if f.Evidence != nil && f.Evidence.Ungrounded {
				w(" · **ungrounded**")
			}
			if f.DiscoveredBy != nil {
				w(" · first on the bus: %s", inline(*f.DiscoveredBy))
			}
			w("\n")
		}
	}

	w("\n## Issues to Address\n\n")
	n := 0
	for _, f := range s.Findings {
		if f.Severity.Rank() > 1 {
			continue
		}
		n++
		w("- [ ] %s %s (%s agents)\n", f.Severity, findingLabel(f), f.ConvergenceDisplay)
	}
	if n == 0 {
		w("Nothing blocks: no P0 or P1 finding.\n")
	}

	if len(s.Improvements) > 0 {
		w("\n## Improvements\n\n")
		for _, im := range s.Improvements {
			label := inline(im.Title)
			if im.ID != "" {
				label = inline(im.ID) + ": " + label
			}
			w("- %s", label)
			if im.Section != "" {
				w(" — %s", inline(im.Section))
			}
			w(" (%s)\n", inline(strings.Join(im.Agents, ", ")))
		}
	}

	if len(s.Findings) > 0 {
		w("\n## Section Heat Map\n\n| Section | P0 | P1 | P2 | P3 | Total |\n|---|---:|---:|---:|---:|---:|\n")
		type heat struct {
			name string
			c    Counts
		}
		bySection := map[string]*heat{}
		for _, f := range s.Findings {
			k := parse.Normalize(f.Section)
			h := bySection[k]
			if h == nil {
				h = &heat{name: f.Section}
				bySection[k] = h
			}
			h.c.add(f.Severity)
		}
		// Hottest first: by P0, then P1, P2, P3 counts, then name.
		keys := sortedKeys(bySection)
		slices.SortStableFunc(keys, func(a, b string) int {
			x, y := bySection[a].c, bySection[b].c
			return cmp.Or(cmp.Compare(y.P0, x.P0), cmp.Compare(y.P1, x.P1), cmp.Compare(y.P2, x.P2), cmp.Compare(y.P3, x.P3))
		})
		for _, k := range keys {
			h := bySection[k]
			name := cell(h.name)
			if name == "" {
				name = "(none)"
			}
			w("| %s | %d | %d | %d | %d | %d |\n", name, h.c.P0, h.c.P1, h.c.P2, h.c.P3, h.c.Total())
		}
	}

	w("\n## Agent Reports\n\n")
	if len(s.Agents) == 0 {
		w("No agent reports found.\n")
	} else {
		w("| Agent | Status | Declared | Computed | P0 | P1 | P2 | P3 | Improvements | Diagnostics |\n")
		w("|---|---|---|---|---:|---:|---:|---:|---:|---:|\n")
		for _, a := range s.Agents {
			declared := "—"
			if a.DeclaredVerdict != nil {
				declared = string(*a.DeclaredVerdict)
			}
			w("| %s | %s | %s | %s | %d | %d | %d | %d | %d | %d |\n", cell(a.Name), a.Status, cell(declared),
				a.Verdict, a.Counts.P0, a.Counts.P1, a.Counts.P2, a.Counts.P3, a.Counts.Improvements, len(a.Diagnostics))
		}
		var notes []string
		for _, a := range s.Agents {
			file := "no file"
			if a.File != nil {
				file = *a.File
			}
			switch a.Status {
			case parse.StatusMalformed:
				notes = append(notes, fmt.Sprintf("Agent %s produced malformed index — using prose fallback.", inline(a.Name)))
			case parse.StatusError:
				notes = append(notes, fmt.Sprintf("Agent %s failed (%s).", inline(a.Name), inline(file)))
			case parse.StatusForeign:
				notes = append(notes, fmt.Sprintf("%s belongs to another run: listed, not counted.", code(file)))
			case parse.StatusPartial:
				notes = append(notes, fmt.Sprintf("Agent %s is still writing (%s): not counted.", inline(a.Name), code(file)))
			}
		}
		if len(notes) > 0 {
			w("\n")
			for _, n := range notes {
				w("- %s\n", n)
			}
		}
		envelopes := false
		for _, a := range s.Agents {
			if len(a.Envelope) == 0 {
				continue
			}
			if !envelopes {
				w("\n### Message envelopes\n\n")
				envelopes = true
			}
			w("- %s: %s\n", inline(a.Name), envelopeText(a.Envelope))
		}
		first := true
		for _, a := range s.Agents {
			if len(a.Diagnostics) == 0 {
				continue
			}
			if first {
				w("\n### Diagnostics\n")
				first = false
			}
			file := a.Name
			if a.File != nil {
				file = *a.File
			}
			w("\n%s:\n", code(file))
			for i, d := range a.Diagnostics {
				if i == summaryDiagnostics {
					w("- … and %d more (see findings.json)\n", len(a.Diagnostics)-i)
					break
				}
				d.File = file
				w("- %s\n", code(d.String()))
			}
		}
	}
	if len(s.Diagnostics) > 0 {
		w("\n### Directory\n\n")
		for i, d := range s.Diagnostics {
			if i == summaryDiagnostics {
				w("- … and %d more (see findings.json)\n", len(s.Diagnostics)-i)
				break
			}
			w("- %s\n", code(d.String()))
		}
	}

	conflicts := 0
	for _, f := range s.Findings {
		if f.SeverityConflict != nil {
			conflicts++
		}
	}
	if conflicts > 0 {
		w("\n## Conflicts\n\n")
		for _, f := range s.Findings {
			if f.SeverityConflict == nil {
				continue
			}
			var parts []string
			for _, a := range sortedKeys(f.SeverityConflict) {
				parts = append(parts, fmt.Sprintf("%s %s", inline(a), f.SeverityConflict[a]))
			}
			w("- %s: %s (kept %s)\n", findingLabel(f), strings.Join(parts, ", "), f.Severity)
		}
	}

	if tl := s.Timeline; tl != nil {
		w("\n## Findings Timeline\n\n")
		w("%d entries in %s (blocking %d, notable %d, unknown %d, stalls %d).",
			tl.Total, inline(strings.Join(tl.Files, ", ")), tl.PerSeverity.Blocking, tl.PerSeverity.Notable,
			tl.PerSeverity.Unknown, tl.PerSeverity.Stalls)
		entries := tl.Entries
		if len(entries) > SummaryEntries {
			entries = entries[len(entries)-SummaryEntries:]
		}
		if len(entries) < tl.Total {
			w(" The latest %d:", len(entries))
		}
		w("\n\n| # | Time | Agent | Severity | Category | Summary |\n|---:|---|---|---|---|---|\n")
		for _, e := range entries {
			sev := e.Severity
			if e.Kind != "" {
				sev = e.Kind
			}
			if e.Priority != "" {
				sev += " (" + string(e.Priority) + ")"
			}
			w("| %d | %s | %s | %s | %s | %s |\n", e.Seq, cell(e.Timestamp), cell(e.Agent), cell(sev), cell(e.Category), cell(e.Summary))
		}
		if tl.AdjustmentsTotal > 0 {
			w("\n**Adjustments** (%d):\n\n", tl.AdjustmentsTotal)
			for _, a := range latest(tl.Adjustments) {
				w("- %s adjusted after %s's finding (#%d: %s)\n", inline(a.Agent), inline(a.After), a.Seq, inline(a.Summary))
			}
		}
		if tl.UnacknowledgedTotal > 0 {
			w("\n**Unacknowledged blocking findings** (%d):\n\n", tl.UnacknowledgedTotal)
			for _, u := range latest(tl.Unacknowledged) {
				w("- #%d %s: %s — not acknowledged by %s\n", u.Seq, inline(u.Agent), inline(u.Summary), inline(strings.Join(u.By, ", ")))
			}
		}
		if tl.ContradictionsTotal > 0 {
			w("\n**Contradictions** (%d):\n\n", tl.ContradictionsTotal)
			for _, c := range latest(tl.Contradictions) {
				switch c.Reason {
				case "lower-severity":
					w("- #%d %s's blocking finding (%s): %s rates it %s\n", c.Seq, inline(c.Of), inline(c.Summary), inline(c.Agent), c.Severity)
				default:
					w("- #%d %s's blocking finding (%s): %s is safe on the same files\n", c.Seq, inline(c.Of), inline(c.Summary), inline(c.Agent))
				}
			}
		}
		if len(tl.Stalled) > 0 {
			w("\n**Stalled:** %s\n", inline(strings.Join(tl.Stalled, ", ")))
		}
	}

	if len(s.Specialists) > 0 || len(s.Design) > 0 {
		w("\n## Specialist Approaches\n")
		for _, sp := range s.Specialists {
			w("\n### %s (%s)\n\n", inline(sp.Name), code(sp.File))
			if len(sp.Approaches) == 0 {
				w("No approaches.\n")
			} else {
				w("| Approach | Description | Files | Pending refinement | Unanswered questions |\n|---|---|---|---|---|\n")
				for _, a := range sp.Approaches {
					w("| %s | %s | %s | %s | %s |\n", cell(a.ID), cell(a.Description), cell(strings.Join(a.RelevantFiles, ", ")),
						cell(a.PendingRefinement), cell(strings.Join(a.UnansweredQuestions, "; ")))
				}
				w("\n%d approaches, %d pending refinements, %d unanswered questions.\n",
					len(sp.Approaches), sp.PendingRefinements, sp.UnansweredQuestions)
			}
			for _, d := range sp.Diagnostics {
				d.File = sp.File
				w("- %s\n", code(d.String()))
			}
		}
		if len(s.Design) > 0 {
			w("\n### Designs\n\n")
			for _, d := range s.Design {
				w("- %s: %s\n", code(d.ScreenshotFileName), inline(d.Description))
			}
		}
	}

	renderEvidence(&b, s)
	return b.Bytes()
}

// summaryClaims is how many claims that did not verify summary.md lists.
const summaryClaims = 50

// renderEvidence writes the Evidence section of summary.md (SPEC §5.7): the
// tally, the ungrounded findings, and the claims that did not verify.
func renderEvidence(b *bytes.Buffer, s *Synthesis) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	w("\n## Evidence\n\n")
	ev := s.Evidence
	if ev == nil {
		if s.EvidenceNote != "" {
			w("Not checked: %s.\n", inline(s.EvidenceNote))
		} else {
			w("Not checked.\n")
		}
		return
	}
	repo := ""
	if ev.Repo != "" {
		repo = " against " + code(ev.Repo)
	}
	if ev.Claims == 0 {
		w("Checked%s: no finding cites a file:line.\n", repo)
		return
	}
	w("Checked %d claims%s: %d verified, %d moved, %d mismatch, %d missing file, %d out of range, %d skipped; "+
		"%d ungrounded P0/P1 findings.\n", ev.Claims, repo, ev.Verified, ev.Moved, ev.Mismatch, ev.MissingFile,
		ev.OutOfRange, ev.Skipped, ev.Ungrounded)
	if ev.MissingFile == ev.Claims {
		w("\nNone of the cited files exists there: is it the repository the agents reviewed? (`--repo DIR`)\n")
	}
	if ev.Ungrounded > 0 {
		w("\n**Ungrounded** (P0/P1 findings whose every claim failed):\n\n")
		for _, f := range s.Findings {
			if f.Evidence != nil && f.Evidence.Ungrounded {
				w("- %s %s (%s)\n", f.Severity, findingLabel(f), inline(strings.Join(f.Agents, ", ")))
			}
		}
	}
	var rows []string
	failed := 0
	for _, f := range s.Findings {
		if f.Evidence == nil {
			continue
		}
		label := inline(f.Title)
		if f.ID != "" {
			label = inline(f.ID)
		}
		for _, c := range f.Evidence.Claims {
			if c.Status == EvidenceVerified {
				continue
			}
			failed++
			if len(rows) == summaryClaims {
				continue
			}
			detail := c.Note
			if c.Found != "" {
				detail = "now at " + code(c.Found)
			}
			rows = append(rows, fmt.Sprintf("| %s %s | %s | %s | %s | %s |\n", f.Severity, cell(label), cell(c.Agent),
				strings.ReplaceAll(code(c.Claim.Ref()), "|", `\|`), c.Status, cell(detail)))
		}
	}
	if failed == 0 {
		w("\nEvery claim verified.\n")
		return
	}
	w("\n| Finding | Agent | Claim | Status | Detail |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		w("%s", r)
	}
	if failed > len(rows) {
		w("\n… and %d more claims that did not verify (see findings.json).\n", failed-len(rows))
	}
}

// envelopeOrder puts the keys of SPEC §2.2 first; the others follow sorted.
var envelopeOrder = []string{"message_id", "correlation_id", "message_type", "timestamp", "source_document", "reliability"}

// envelopeText renders an agent's message envelope on one line.
func envelopeText(env map[string]string) string {
	var parts []string
	for _, k := range envelopeOrder {
		if v, ok := env[k]; ok {
			parts = append(parts, k+" "+code(truncate(v, 200)))
		}
	}
	for _, k := range sortedKeys(env) {
		if !slices.Contains(envelopeOrder, k) {
			parts = append(parts, inline(k)+" "+code(truncate(env[k], 200)))
		}
	}
	return strings.Join(parts, ", ")
}

// truncate cuts s to at most n bytes at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	s = inline(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func latest[T any](l []T) []T {
	if len(l) > summaryResults {
		return l[len(l)-summaryResults:]
	}
	return l
}

func findingLabel(f Finding) string {
	if f.ID == "" {
		return "**" + inline(f.Title) + "**"
	}
	return "**" + inline(f.ID) + "** " + inline(f.Title)
}

// inline makes agent text safe on one Markdown line.
func inline(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cell makes agent text safe in a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(inline(s), "|", `\|`)
}

// code wraps s in a code span, with a fence longer than any backtick run in s.
func code(s string) string {
	s = inline(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
