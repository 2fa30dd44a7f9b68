package parse

// Severity is a finding's priority, P0 (most severe) to P3.
type Severity string

// Severities, most severe first.
const (
	P0 Severity = "P0"
	P1 Severity = "P1"
	P2 Severity = "P2"
	P3 Severity = "P3"
)

// Rank orders severities: P0 is 0, P3 is 3, anything else 4.
func (s Severity) Rank() int {
	switch s {
	case P0:
		return 0
	case P1:
		return 1
	case P2:
		return 2
	case P3:
		return 3
	}
	return 4
}

// Verdict is a report's or a run's overall judgement (SPEC §5.4).
type Verdict string

// Verdicts. Pending is used only while watching, before any agent completes.
const (
	Safe         Verdict = "safe"
	NeedsChanges Verdict = "needs-changes"
	Risky        Verdict = "risky"
	Error        Verdict = "error"
	Pending      Verdict = "pending"
)

// VerdictOf computes the verdict implied by a set of severities: any P0 is
// risky, else any P1 is needs-changes, else safe.
func VerdictOf(sevs ...Severity) Verdict {
	v := Safe
	for _, s := range sevs {
		switch s {
		case P0:
			return Risky
		case P1:
			v = NeedsChanges
		}
	}
	return v
}

// Rank orders the verdicts that judge findings: safe 1, needs-changes 2,
// risky 3; pending, error and anything else 0.
func (v Verdict) Rank() int {
	switch v {
	case Safe:
		return 1
	case NeedsChanges:
		return 2
	case Risky:
		return 3
	}
	return 0
}

// Status is an agent report's status (SPEC §2.5).
type Status string

// Statuses of an agent report.
const (
	StatusValid     Status = "valid"
	StatusVariant   Status = "variant"
	StatusMalformed Status = "malformed"
	// StatusUnreadable is a report read by the general reader (SPEC §2.3)
	// that names severities, or states P0/P1 counts or a verdict, that its
	// findings do not account for: never silently safe, so every gate trips
	// on it unless the operator allows unreadable reports.
	StatusUnreadable Status = "unreadable"
	StatusError      Status = "error"
	StatusPartial    Status = "partial"
	StatusForeign    Status = "foreign"
)

// Completed reports whether an agent with status s counts as completed (M):
// valid, variant, malformed and unreadable reports do.
func (s Status) Completed() bool {
	return s == StatusValid || s == StatusVariant || s == StatusMalformed || s == StatusUnreadable
}

// Confidence of a finding as parsed: high from an index, low from prose.
const (
	ConfidenceHigh = "high"
	ConfidenceLow  = "low"
)

// Finding is one finding of an agent report.
type Finding struct {
	Severity   Severity `json:"severity"`
	ID         string   `json:"id"`
	Section    string   `json:"section"`
	Title      string   `json:"title"`
	Line       int      `json:"line"`
	Confidence string   `json:"confidence"`
	FileRefs   []string `json:"file_refs"`
	// Description is the prose block linked to the finding (§2.4), if any.
	Description string `json:"-"`
	// Evidence holds the evidence claims of the finding (§2.4, §5.7).
	Evidence []Claim `json:"-"`
	// resolved: the report marks it struck through, resolved or fixed
	// (while it is read; Report.Resolved holds such findings).
	resolved bool
}

// Improvement is an IMP row or improvement item: it never moves the verdict.
type Improvement struct {
	ID      string `json:"id"`
	Section string `json:"section"`
	Title   string `json:"title"`
	Line    int    `json:"line"`
}

// Claim is an evidence claim: a cited range of a file and, when the agent pasted
// one, the excerpt it says is there.
type Claim struct {
	Path    string `json:"path"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Excerpt string `json:"excerpt,omitempty"`
	// Line is where the claim is written in the report.
	Line int `json:"line"`
}

// Report is a parsed agent report.
type Report struct {
	Status Status `json:"status"`
	// DeclaredVerdict is the agent's own verdict, normalised to one of the
	// Verdict values when it maps to one; "" when the agent wrote none.
	DeclaredVerdict Verdict `json:"declared_verdict"`
	// DeclaredVerdictText is the verdict as the agent wrote it.
	DeclaredVerdictText string `json:"-"`
	// RunUUID is the run named by a <!-- run-uuid: X --> first line, if any.
	RunUUID string `json:"-"`
	// Complete reports whether a completion sentinel was found.
	Complete     bool          `json:"-"`
	Findings     []Finding     `json:"findings"`
	Improvements []Improvement `json:"improvements"`
	// Resolved are the findings the report itself marks struck through,
	// resolved or fixed (SPEC §2.3): recorded, never counted.
	Resolved []Finding `json:"resolved,omitempty"`
	// Envelope is the message envelope of YAML front matter (message_id,
	// correlation_id, timestamp, …), if the report has one.
	Envelope map[string]string `json:"-"`
	// Provenance is what its front matter declares of how it was made.
	Provenance  Provenance   `json:"-"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Verdict returns the verdict computed from the report's findings (SPEC §2.2:
// the verdict that counts). An error report's verdict is Error.
func (r *Report) Verdict() Verdict {
	if r.Status == StatusError {
		return Error
	}
	// The worst of each finding's verdict is VerdictOf of them all,
	// without a slice of every severity (6 MB at 200,000 findings, at
	// each call).
	v := Safe
	for i := range r.Findings {
		if w := VerdictOf(r.Findings[i].Severity); w.Rank() > v.Rank() {
			v = w
		}
	}
	return v
}

// Counts returns the number of findings per severity.
func (r *Report) Counts() map[Severity]int {
	c := map[Severity]int{}
	for _, f := range r.Findings {
		c[f.Severity]++
	}
	return c
}
