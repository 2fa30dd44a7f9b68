package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// get_synthesis answers what a caller can use: a summary of the run by
// default, a page of its findings (filtered by severity, agent, new since a
// baseline), or the whole findings.json when it is small enough to send.
// The result is sent once, as the structured content; the text content is
// the same facts as lines a model reads at a glance, not the document again.

// synthesisArgs are get_synthesis's arguments.
type synthesisArgs struct {
	OutputDir string   `json:"output_dir"`
	View      string   `json:"view,omitempty"`
	Top       *int     `json:"top,omitempty"`
	Severity  []string `json:"severity,omitempty"`
	Agent     string   `json:"agent,omitempty"`
	Baseline  string   `json:"baseline,omitempty"`
	NewOnly   bool     `json:"new_only,omitempty"`
	Offset    int      `json:"offset,omitempty"`
	Limit     *int     `json:"limit,omitempty"`
	Detail    string   `json:"detail,omitempty"`
}

// The views and the bounds of get_synthesis.
const (
	viewSummary  = "summary"
	viewFindings = "findings"
	viewFull     = "full"

	defaultTop   = 10
	maxTop       = 100
	defaultLimit = 20
	maxLimit     = 200
	// maxAgentsListed is how many agents a summary lists one by one.
	maxAgentsListed = 200
)

// maxFullDocument is the largest findings.json the full view sends: one
// JSON-RPC message holds it, and the client holds it whole. A variable for
// the tests.
var maxFullDocument = 8 << 20

// synthesisSummary is the structured result of the summary and findings
// views.
type synthesisSummary struct {
	Verdict  parse.Verdict `json:"verdict"`
	Reviewed string        `json:"reviewed"`
	Run      *string       `json:"run"`
	// Counts are the merged findings of the run per severity.
	Counts synth.Counts  `json:"counts"`
	Agents agentsSummary `json:"agents"`
	// FindingsTotal counts every merged finding; Matched those that pass
	// the filters, which Findings are taken from (the top ones in the
	// summary view, a page in the findings view).
	FindingsTotal int   `json:"findings_total"`
	Matched       int   `json:"matched"`
	Offset        int   `json:"offset"`
	NextOffset    *int  `json:"next_offset"`
	Findings      []any `json:"findings"`
	// Baseline sums up the comparison with the baseline argument.
	Baseline *baselineSummary `json:"baseline,omitempty"`
}

type agentsSummary struct {
	Launched  int      `json:"launched"`
	Completed int      `json:"completed"`
	Failed    []string `json:"failed"`
	Partial   []string `json:"partial"`
	Foreign   []string `json:"foreign"`
	// Unreadable are the completed agents whose reports could not be
	// fully read (SPEC §2.3): the verdict counts what was read of them and
	// may be too low.
	Unreadable []string `json:"unreadable"`
	// List is each agent in brief, at most maxAgentsListed of them;
	// Omitted counts the others.
	List    []agentBrief `json:"list"`
	Omitted int          `json:"omitted"`
}

type agentBrief struct {
	Name     string        `json:"name"`
	Status   parse.Status  `json:"status"`
	Verdict  parse.Verdict `json:"verdict"`
	Findings synth.Counts  `json:"findings"`
}

// findingBrief is a merged finding with what a reader acts on; detail
// "full" gives the finding of findings.json instead.
type findingBrief struct {
	ID          string         `json:"id"`
	Severity    parse.Severity `json:"severity"`
	Section     string         `json:"section"`
	Title       string         `json:"title"`
	Agents      []string       `json:"agents"`
	Convergence string         `json:"convergence"`
	Confidence  string         `json:"confidence"`
	FileRefs    []string       `json:"file_refs"`
	Baseline    string         `json:"baseline,omitempty"`
	Suppressed  bool           `json:"suppressed,omitempty"`
}

type baselineSummary struct {
	Path      string `json:"path"`
	New       int    `json:"new"`
	Unchanged int    `json:"unchanged"`
	Absent    int    `json:"absent"`
}

// check returns the arguments with their defaults, or an error that says
// which argument is wrong.
func (a synthesisArgs) check() (synthesisArgs, error) {
	switch a.View {
	case "":
		a.View = viewSummary
	case viewSummary, viewFindings, viewFull:
	default:
		return a, fmt.Errorf("view %q: want summary, findings or full", a.View)
	}
	if a.Top == nil {
		a.Top = new(defaultTop)
	} else if *a.Top < 0 || *a.Top > maxTop {
		return a, fmt.Errorf("top %d: want 0 to %d", *a.Top, maxTop)
	}
	if a.Limit == nil {
		a.Limit = new(defaultLimit)
	} else if *a.Limit < 1 || *a.Limit > maxLimit {
		return a, fmt.Errorf("limit %d: want 1 to %d", *a.Limit, maxLimit)
	}
	if a.Offset < 0 {
		return a, fmt.Errorf("offset %d: want 0 or more", a.Offset)
	}
	for _, s := range a.Severity {
		if !slices.Contains([]string{"P0", "P1", "P2", "P3"}, s) {
			return a, fmt.Errorf("severity %q: want P0, P1, P2 or P3", s)
		}
	}
	switch a.Detail {
	case "":
		a.Detail = "brief"
	case "brief", "full":
	default:
		return a, fmt.Errorf("detail %q: want brief or full", a.Detail)
	}
	if a.NewOnly && a.Baseline == "" {
		return a, errors.New("new_only needs a baseline: an earlier findings.json or run directory under the root")
	}
	if a.View == viewFull && (len(a.Severity) > 0 || a.Agent != "" || a.NewOnly) {
		return a, errors.New("view full is the whole findings.json: filter with view findings")
	}
	return a, nil
}

// keep reports whether f passes the filters of a.
func (a synthesisArgs) keep(f *synth.Finding) bool {
	if len(a.Severity) > 0 && !slices.Contains(a.Severity, string(f.Severity)) {
		return false
	}
	if a.Agent != "" && !slices.Contains(f.Agents, a.Agent) {
		return false
	}
	if a.NewOnly && (f.Baseline() == nil || f.Baseline().State != synth.BaselineNew) {
		return false
	}
	return true
}

// synthesisView returns the structured result of a for s, and its text.
// The full view's document is findings.json itself.
func synthesisView(s *synth.Synthesis, a synthesisArgs) (any, string, error) {
	if a.View == viewFull {
		// Measured before it is made: findings.json of 1,000 agents is
		// some 50 MB, and marshalled whole only to be refused it was
		// several times that on top of the synthesis.
		if n, over := compactSize(s, maxFullDocument); over {
			return nil, "", fmt.Errorf("findings.json of %s is more than %d bytes, the most the full view sends: "+
				"call view summary, or view findings with offset and limit", s.Input, n)
		}
		data, err := json.Marshal(s) // compact: the SDK sends it so
		if err != nil {
			return nil, "", err
		}
		if len(data) > maxFullDocument {
			return nil, "", fmt.Errorf("findings.json of %s is %d bytes, more than the %d the full view sends: "+
				"call view summary, or view findings with offset and limit", s.Input, len(data), maxFullDocument)
		}
		return json.RawMessage(data), fmt.Sprintf("%s\nThe structured content is the whole findings.json (%d findings, %d bytes).",
			headline(s), len(s.Findings), len(data)), nil
	}
	out := synthesisSummary{
		Verdict: s.Verdict, Reviewed: s.Reviewed, Run: s.Run, Counts: s.Counts,
		FindingsTotal: len(s.Findings), Findings: []any{}, Offset: a.Offset,
		Agents: agentsSummary{
			Launched: len(s.AgentsLaunched), Completed: len(s.AgentsCompleted),
			Failed: s.AgentsFailed, Partial: s.AgentsPartial, Foreign: s.AgentsForeign,
			Unreadable: s.AgentsUnreadable, List: []agentBrief{},
		},
	}
	for _, ag := range s.Agents {
		if len(out.Agents.List) == maxAgentsListed {
			out.Agents.Omitted++
			continue
		}
		out.Agents.List = append(out.Agents.List, agentBrief{ag.Name, ag.Status, ag.Verdict, ag.Counts.Counts})
	}
	if b := s.Baseline; b != nil {
		out.Baseline = &baselineSummary{Path: b.Path, New: b.New, Unchanged: b.Unchanged, Absent: len(b.Absent)}
	}
	var matched []*synth.Finding
	for i := range s.Findings {
		if a.keep(&s.Findings[i]) {
			matched = append(matched, &s.Findings[i])
		}
	}
	out.Matched = len(matched)
	from, n := 0, *a.Top
	if a.View == viewFindings {
		from, n = min(a.Offset, len(matched)), *a.Limit
	}
	page := matched[from:min(from+n, len(matched))]
	if a.View == viewFindings && from+len(page) < len(matched) {
		out.NextOffset = new(from + len(page))
	}
	for _, f := range page {
		if a.Detail == "full" {
			out.Findings = append(out.Findings, f)
		} else {
			out.Findings = append(out.Findings, brief(f))
		}
	}
	return out, summaryText(s, a, out, page), nil
}

func brief(f *synth.Finding) findingBrief {
	b := findingBrief{ID: f.ID, Severity: f.Severity, Section: f.Section, Title: f.Title, Agents: f.Agents,
		Convergence: f.ConvergenceDisplay, Confidence: f.Confidence, FileRefs: f.FileRefs, Suppressed: f.Suppressed() != nil}
	if f.Baseline() != nil {
		b.Baseline = string(f.Baseline().State)
	}
	return b
}

// headline is the verdict line of s.
func headline(s *synth.Synthesis) string {
	line := fmt.Sprintf("Verdict: %s. Agents: %d of %d completed", s.Verdict, len(s.AgentsCompleted), len(s.AgentsLaunched))
	if len(s.AgentsFailed) > 0 {
		line += fmt.Sprintf(", %d failed (%s)", len(s.AgentsFailed), strings.Join(firstOf(s.AgentsFailed, 10), ", "))
	}
	if len(s.AgentsPartial) > 0 {
		line += fmt.Sprintf(", %d still writing", len(s.AgentsPartial))
	}
	if n := len(s.AgentsUnreadable); n > 0 {
		line += fmt.Sprintf(", %s (%s): the verdict counts what was read and may be too low",
			synth.UnreadNote(n), strings.Join(firstOf(s.AgentsUnreadable, 10), ", "))
	}
	return line + fmt.Sprintf(". Findings: %d (P0 %d, P1 %d, P2 %d, P3 %d).",
		len(s.Findings), s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3)
}

func firstOf(l []string, n int) []string {
	if len(l) > n {
		return append(slices.Clone(l[:n]), "…")
	}
	return l
}

// summaryText is the text content of the summary and findings views: the
// headline, then a line per finding given.
func summaryText(s *synth.Synthesis, a synthesisArgs, out synthesisSummary, page []*synth.Finding) string {
	var b strings.Builder
	b.WriteString(headline(s))
	b.WriteByte('\n')
	if out.Baseline != nil {
		fmt.Fprintf(&b, "Against the baseline %s: %d new, %d unchanged, %d absent.\n", out.Baseline.Path,
			out.Baseline.New, out.Baseline.Unchanged, out.Baseline.Absent)
	}
	what := "Top findings"
	if a.View == viewFindings {
		what = "Findings"
	}
	if len(page) == 0 {
		fmt.Fprintf(&b, "%s: none of the %d that match.\n", what, out.Matched)
	} else {
		fmt.Fprintf(&b, "%s %d-%d of the %d that match:\n", what, out.Offset+1, out.Offset+len(page), out.Matched)
	}
	for i, f := range page {
		fmt.Fprintf(&b, "%d. [%s] %s %s (%s agents: %s)", out.Offset+i+1, f.Severity, orDash(f.ID), inert.Line(f.Title),
			f.ConvergenceDisplay, strings.Join(firstOf(f.Agents, 5), ", "))
		if len(f.FileRefs) > 0 {
			fmt.Fprintf(&b, " at %s", strings.Join(firstOf(f.FileRefs, 3), ", "))
		}
		if f.Baseline() != nil {
			fmt.Fprintf(&b, " [%s]", f.Baseline().State)
		}
		b.WriteByte('\n')
	}
	if out.NextOffset != nil {
		fmt.Fprintf(&b, "More: call again with offset %d.\n", *out.NextOffset)
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// compactSize counts the bytes of s as the full view sends it (what
// json.Marshal makes of findings.json: no whitespace between tokens, and
// <, >, &, U+2028 and U+2029 escaped), streaming findings.json
// (synth.WriteJSON) rather than holding it, and stops once the count passes
// limit: then over is true and n is limit.
func compactSize(s *synth.Synthesis, limit int) (n int, over bool) {
	c := compactCounter{limit: limit}
	if err := synth.WriteJSON(&c, s); errors.Is(err, errOverLimit) {
		return limit, true
	}
	return c.n, false
}

var errOverLimit = errors.New("over the limit")

// compactCounter counts what json.Marshal makes of the JSON written to it,
// and fails once the count passes limit.
type compactCounter struct {
	n, limit      int
	inStr, escape bool
	prev          [2]byte // the two bytes before, for U+2028 and U+2029
	seen          int     // bytes written to it (for the tests)
}

func (c *compactCounter) Write(p []byte) (int, error) {
	c.seen += len(p)
	for _, b := range p {
		switch {
		case c.escape:
			c.escape = false
		case c.inStr && b == '\\':
			c.escape = true
		case b == '"':
			c.inStr = !c.inStr
		case c.inStr && (b == '<' || b == '>' || b == '&'):
			c.n += len(`\u003c`) - 1
		case c.inStr && (b == 0xa8 || b == 0xa9) && c.prev == [2]byte{0xe2, 0x80}:
			c.n += len(`\u2028`) - 3 // with its three bytes counted
		case !c.inStr && (b == ' ' || b == '\n' || b == '\t' || b == '\r'):
			continue
		}
		c.prev = [2]byte{c.prev[1], b}
		c.n++
	}
	if c.n > c.limit {
		return 0, errOverLimit
	}
	return len(p), nil
}
