package page

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

//go:embed page.html.tmpl page.css live.js
var assets embed.FS

// Options say how to render the page.
type Options struct {
	// Gate is the operator's gate; the banner shows it and whether it
	// trips (Gate.Judge decides), and why. The zero Gate is no gate.
	Gate synth.Gate
	// Live adds the script that keeps the page current from the event
	// stream of a [Server]. Without it the page holds no script at all.
	Live bool
	// Input and Repo are the names the page gives the run directory and
	// the repository the evidence was checked against. A page is read
	// away from where it was made (a CI artifact), so the caller names
	// them from the repository, not the working directory: the run
	// directory relative to the repository top, the repository by its
	// directory's name (see report.PageNames). Empty: the synthesis's
	// input and evidence repository as given.
	Input, Repo string
}

// How much of a large run the page shows unfolded. The rest is on the page,
// folded behind a summary row (agents, plot rows, bus posts), or in a
// compact table (findings past maxFullFindings).
const (
	openAgents      = 40
	openFindings    = 30
	maxFullFindings = 100
	maxTailFindings = 2000 // compact rows; the rest only in findings.json
	openEntries     = 20
	maxResults      = 20 // unacknowledged entries, contradictions, adjustments
	maxDiagnostics  = 5  // per agent
	maxNames        = 8  // agent names listed before "and N more"
)

var (
	pageTemplate = template.Must(template.New("page.html.tmpl").Funcs(template.FuncMap{
		"inc":    func(i int) int { return i + 1 },
		"plural": plural,
		"noun":   noun,
	}).ParseFS(assets, "page.html.tmpl"))
	css        = mustRead("page.css")
	liveScript = mustRead("live.js")
	// scriptHash allows the live script, and nothing else, to run.
	scriptHash = func() string {
		sum := sha256.Sum256([]byte(liveScript))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}()
)

// ScriptHash returns the Content-Security-Policy source that allows the live
// page's one script, and nothing else, to run ("'sha256-…'"): the live page
// server sends it in its header.
func ScriptHash() string { return scriptHash }

func mustRead(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Render returns the page of s: one self-contained HTML document (inline CSS
// and SVG; with opts.Live, one inline script). It reads no file and no
// clock: the same synthesis and options give the same bytes. Agent-written
// text goes through html/template, which escapes it for where it lands, and
// the page through inert.TextBytes, which shows the control characters and
// bidirectional overrides html/template leaves (see the package doc). The
// error is a template failure (a bug).
func Render(s *synth.Synthesis, opts Options) ([]byte, error) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, newView(s, opts)); err != nil {
		return nil, fmt.Errorf("render page: %w", err)
	}
	return inert.TextBytes(b.Bytes()), nil
}

// view is what the template shows.
type view struct {
	S      *synth.Synthesis
	Live   bool
	CSP    string
	CSS    template.CSS
	Script template.JS
	Title  string
	// Input and Repo name the run directory and the evidence's repository
	// (Options).
	Input, Repo string
	Verdict     string
	Headline    string
	// Unread says that reports could not be fully read, and which; ""
	// when every report was read.
	Unread string
	Counts []chip
	Gate   string
	GateOK bool
	Run    string

	Agents, AgentsMore []agentRow
	AgentsFailed       int

	Findings            []findingRow
	FindingsFolded      []findingRow
	FindingsTail        []findingRow
	FindingsTailSummary string
	// FindingsLeft counts the findings past the compact table, with their
	// severities.
	FindingsLeft        int
	FindingsLeftSummary string

	Improvements int
	Plot         plot

	Entries, EntriesMore []entryRow
	Results              []result
	Evidence             *synth.EvidenceTally
	Diagnostics          []synth.Diagnostic
}

type chip struct {
	Sev string
	N   int
}

type agentRow struct {
	synth.AgentResult
	Declared string
	Written  string
	// Diags are the first maxDiagnostics diagnostics (the reasons an
	// unreadable report could not be fully read first), DiagsMore the
	// number left out. Unread is set for an unreadable agent: its
	// diagnostics show unfolded.
	Diags     []synth.Diagnostic
	DiagsMore int
	Unread    bool
}

type findingRow struct {
	N          int
	Anchor     string
	Sev        string
	ID         string
	Title      string
	Section    string
	Conv       string
	ConvPct    int
	Names      string
	Confidence string
	Refs       []refRow
	Ungrounded bool
	Discovered string
	Converged  string
	Conflict   string
	Sources    int
	// Open unfolds the finding: a P0 among the first ones shown.
	Open bool
}

type refRow struct {
	Ref    string
	Status string
	Found  string
	Note   string
}

// result is one line about the acknowledgement rule: an unacknowledged
// blocking entry, a contradiction or an adjustment, or how many more.
type result struct {
	Bad  bool
	Text string
}

type entryRow struct {
	synth.TimelineEntry
	Time string
}

func newView(s *synth.Synthesis, opts Options) *view {
	v := &view{
		S:       s,
		Live:    opts.Live,
		CSS:     template.CSS(css),
		Verdict: string(s.Verdict),
		Counts: []chip{{"P0", s.Counts.P0}, {"P1", s.Counts.P1},
			{"P2", s.Counts.P2}, {"P3", s.Counts.P3}},
		Improvements: len(s.Improvements),
		Evidence:     s.Evidence,
		Diagnostics:  s.Diagnostics,
	}
	v.CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
	if opts.Live {
		v.Script = template.JS(liveScript)
		v.CSP += "; script-src " + scriptHash + "; connect-src 'self'"
	}
	if s.Run != nil {
		v.Run = *s.Run
	}
	v.Input, v.Repo = opts.Input, opts.Repo
	if v.Input == "" {
		v.Input = s.Input
	}
	if v.Repo == "" && s.Evidence != nil {
		v.Repo = s.Evidence.Repo
	}
	v.Title = "fluxwatch · " + synth.VerdictText(s) + " · " + v.Input
	v.Headline = fmt.Sprintf("%d/%d agents completed, %d failed · %s", len(s.AgentsCompleted),
		len(s.AgentsLaunched), len(s.AgentsFailed), plural(s.Counts.Total(), "finding"))
	if note := synth.UnreadNote(len(s.AgentsUnreadable)); note != "" {
		v.Unread = note + ": " + names(s.AgentsUnreadable) + " — the verdict counts what was read and may be too low"
	}
	switch d := opts.Gate.Judge(s); {
	case !opts.Gate.Set():
		v.Gate, v.GateOK = "no gate (--fail-on none)", true
	case d.Tripped:
		v.Gate = "gate " + opts.Gate.String() + ": tripped (" + strings.Join(d.Reasons(), ", ") + ")"
	default:
		v.Gate, v.GateOK = "gate "+opts.Gate.String()+": passes", true
	}

	for i, a := range s.Agents {
		r := agentRow{AgentResult: a, Diags: a.Diagnostics}
		if a.Status == parse.StatusUnreadable {
			r.Unread = true
			r.Diags = append(a.UnreadReasons(), slices.DeleteFunc(slices.Clone(a.Diagnostics), func(d synth.Diagnostic) bool {
				return d.Level == parse.LevelError
			})...)
		}
		if len(r.Diags) > maxDiagnostics {
			r.Diags, r.DiagsMore = r.Diags[:maxDiagnostics], len(r.Diags)-maxDiagnostics
		}
		if a.DeclaredVerdict != nil {
			r.Declared = string(*a.DeclaredVerdict)
		}
		if !a.FinishedAt.IsZero() {
			r.Written = a.FinishedAt.UTC().Format(time.RFC3339)
		}
		if i < openAgents {
			v.Agents = append(v.Agents, r)
		} else {
			v.AgentsMore = append(v.AgentsMore, r)
		}
	}

	times := agentTimes(s)
	moments := map[time.Time]*convMoment{}
	for i := range s.Findings {
		f := &s.Findings[i]
		r := findingRow{N: i + 1, Anchor: "f" + strconv.Itoa(i+1), Sev: string(f.Severity), ID: f.ID,
			Title: f.Title, Section: f.Section, Conv: convText(f), Confidence: f.Confidence,
			Sources: len(f.Sources)}
		if m := len(s.AgentsCompleted); m > 0 {
			r.ConvPct = min(100, f.Convergence*100/m)
		}
		if at, by, ok := convergedAt(f, times); ok {
			r.Converged = clock(at) + " UTC, with " + by + "'s report"
			m := moments[at]
			if m == nil {
				m = &convMoment{at: at, by: by, worst: f.Severity}
				moments[at] = m
			}
			m.findings++
			if f.Severity.Rank() < m.worst.Rank() {
				m.worst = f.Severity
			}
			if by > m.by {
				m.by = by
			}
		}
		if i >= maxFullFindings+maxTailFindings {
			v.FindingsLeft++
			continue
		}
		if i >= maxFullFindings {
			if len(f.FileRefs) > 0 {
				r.Refs = []refRow{{Ref: f.FileRefs[0]}}
			}
			v.FindingsTail = append(v.FindingsTail, r)
			continue
		}
		r.Names = names(f.Agents)
		if f.DiscoveredBy() != nil {
			r.Discovered = *f.DiscoveredBy()
		}
		if len(f.SeverityConflict()) > 0 {
			agents := slices.Sorted(maps.Keys(f.SeverityConflict()))
			parts := make([]string, len(agents))
			for j, a := range agents {
				parts[j] = a + " " + string(f.SeverityConflict()[a])
			}
			r.Conflict = names(parts)
		}
		r.Refs = refs(f)
		r.Ungrounded = f.Evidence() != nil && f.Evidence().Ungrounded
		if i < openFindings {
			r.Open = f.Severity == parse.P0 && i < 3
			v.Findings = append(v.Findings, r)
		} else {
			v.FindingsFolded = append(v.FindingsFolded, r)
		}
	}
	if n := len(v.FindingsTail); n > 0 {
		v.FindingsTailSummary = fmt.Sprintf("%s more, in short (%s)", plural(n, "finding"),
			severities(s.Findings[maxFullFindings:maxFullFindings+n]))
	}
	if v.FindingsLeft > 0 {
		v.FindingsLeftSummary = fmt.Sprintf("%s (%s)", plural(v.FindingsLeft, "more finding"),
			severities(s.Findings[maxFullFindings+maxTailFindings:]))
	}

	conv := make([]convMoment, 0, len(moments))
	for _, m := range moments {
		conv = append(conv, *m)
	}
	slices.SortFunc(conv, func(a, b convMoment) int { return a.at.Compare(b.at) })
	v.Plot = newPlot(s, conv)

	if tl := s.Timeline; tl != nil {
		v.Results = results(tl)
		// The latest posts first.
		for i := len(tl.Entries) - 1; i >= 0; i-- {
			e := entryRow{TimelineEntry: tl.Entries[i]}
			if t, ok := parseTime(e.Timestamp); ok {
				e.Time = t.Format("15:04:05")
			}
			if len(v.Entries) < openEntries {
				v.Entries = append(v.Entries, e)
			} else {
				v.EntriesMore = append(v.EntriesMore, e)
			}
		}
	}
	for _, a := range s.Agents {
		if a.Status == parse.StatusError {
			v.AgentsFailed++
		}
	}
	return v
}

// names lists the first maxNames agents (or items), then how many more.
func names(agents []string) string {
	if len(agents) <= maxNames {
		return strings.Join(agents, ", ")
	}
	return strings.Join(agents[:maxNames], ", ") + fmt.Sprintf(" and %d more", len(agents)-maxNames)
}

// refs are the cited lines of f with their evidence status: the checked
// claims when evidence was checked, else the file refs.
func refs(f *synth.Finding) []refRow {
	if f.Evidence() == nil || len(f.Evidence().Claims) == 0 {
		rs := make([]refRow, len(f.FileRefs))
		for i, r := range f.FileRefs {
			rs[i] = refRow{Ref: r}
		}
		return rs
	}
	seen := map[string]bool{}
	var rs []refRow
	for _, c := range f.Evidence().Claims {
		ref := c.Path
		if c.Start > 0 {
			ref += ":" + strconv.Itoa(c.Start)
			if c.End > c.Start {
				ref += "-" + strconv.Itoa(c.End)
			}
		}
		k := ref + "\x00" + c.Status
		if seen[k] {
			continue
		}
		seen[k] = true
		rs = append(rs, refRow{Ref: ref, Status: c.Status, Found: c.Found, Note: c.Note})
	}
	slices.SortStableFunc(rs, func(a, b refRow) int { return cmp.Compare(a.Ref, b.Ref) })
	return rs
}

// severities counts fs per severity: "P0 1, P1 3, P2 0, P3 2".
func severities(fs []synth.Finding) string {
	var c synth.Counts
	for _, f := range fs {
		c.Add(f.Severity)
	}
	return fmt.Sprintf("P0 %d, P1 %d, P2 %d, P3 %d", c.P0, c.P1, c.P2, c.P3)
}

// results are the lines about the acknowledgement rule (SPEC §5.5): the
// latest maxResults unacknowledged entries, contradictions and adjustments
// each, and how many more of each the synthesis counted.
func results(tl *synth.Timeline) []result {
	var rs []result
	more := func(shown, total int, what string) {
		if total > shown {
			rs = append(rs, result{Bad: true, Text: fmt.Sprintf("… and %d more %s (findings.json lists the latest %d)", total-shown, what, len(tl.Entries))})
		}
	}
	n := 0
	for i := len(tl.Unacknowledged) - 1; i >= 0 && n < maxResults; i, n = i-1, n+1 {
		u := tl.Unacknowledged[i]
		rs = append(rs, result{Bad: true, Text: fmt.Sprintf("#%d %s’s blocking finding “%s” was not acknowledged by %s", u.Seq, u.Agent, u.Summary, names(u.By))})
	}
	more(n, tl.UnacknowledgedTotal, "unacknowledged blocking findings")
	n = 0
	for i := len(tl.Contradictions) - 1; i >= 0 && n < maxResults; i, n = i-1, n+1 {
		c := tl.Contradictions[i]
		rs = append(rs, result{Bad: true, Text: fmt.Sprintf("%s contradicts #%d by %s (%s): “%s”", c.Agent, c.Seq, c.Of, c.Reason, c.Summary)})
	}
	more(n, tl.ContradictionsTotal, "contradictions")
	n = 0
	for i := len(tl.Adjustments) - 1; i >= 0 && n < maxResults; i, n = i-1, n+1 {
		a := tl.Adjustments[i]
		rs = append(rs, result{Text: fmt.Sprintf("%s adjusted after %s’s finding #%d: “%s”", a.Agent, a.After, a.Seq, a.Summary)})
	}
	more(n, tl.AdjustmentsTotal, "adjustments")
	return rs
}

// convText is a finding's convergence, split when a peer's bus entry primed
// some of its agents: "3/5 (2 independent)".
func convText(f *synth.Finding) string {
	if len(f.Primed()) == 0 {
		return f.ConvergenceDisplay
	}
	return f.ConvergenceDisplay + " (" + strconv.Itoa(f.Independent) + " independent)"
}
