package synth

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// ProtocolVersion is the synthesis_protocol_version of findings.json.
const ProtocolVersion = "1.0"

// Synthesis is the result of one synthesis: the data of findings.json (SPEC
// §6). Every list is sorted; nothing depends on map order or on the clock.
type Synthesis struct {
	ProtocolVersion string    `json:"synthesis_protocol_version"`
	Generator       Generator `json:"generator"`
	// Reviewed is when the run was reviewed, in RFC 3339 (UTC):
	// SOURCE_DATE_EPOCH, else the newest finish time an agent of the run
	// declares (times.go), else the newest input modification time; ""
	// when there was no input at all.
	Reviewed string `json:"reviewed"`
	// TimeSource says where the finish times of the completed agents came
	// from (times.go): declared (every one declares finished:), mtime (none
	// does: file times, which a copy or checkout changes) or mixed.
	TimeSource TimeSource `json:"time_source"`
	Input      string     `json:"input"`
	// Run is the selected run; null for an unscoped directory.
	Run *string `json:"run"`
	// Runs are Run.Runs: the runs the agent files' names name. Not in
	// findings.json (a diagnostic says when there are several).
	Runs    []string      `json:"-"`
	Verdict parse.Verdict `json:"verdict"`
	// Counts are the merged findings per severity.
	Counts Counts        `json:"counts"`
	Agents []AgentResult `json:"agents"`

	AgentsLaunched  []string `json:"agents_launched"`
	AgentsCompleted []string `json:"agents_completed"`
	AgentsFailed    []string `json:"agents_failed"`
	AgentsForeign   []string `json:"agents_foreign"`
	AgentsPartial   []string `json:"agents_partial"`
	// AgentsUnreadable are the completed agents whose reports could not be
	// fully read (status unreadable, SPEC §2.3 "never silently safe"): the
	// verdict counts what was read of them, and every gate trips on them
	// unless the operator allows them (Gate.AllowUnreadable).
	AgentsUnreadable []string `json:"agents_unreadable"`
	// Ignored are the files named as agent files that are no agent's
	// (Run.Ignored: README.md, task.md, agents: ignore), sorted; absent
	// when there are none.
	Ignored []string `json:"ignored,omitempty"`

	Findings     []Finding     `json:"findings"`
	Improvements []Improvement `json:"improvements"`
	// Timeline is null when there is no bus or it is empty.
	Timeline    *Timeline      `json:"timeline"`
	Specialists []Specialist   `json:"specialists"`
	Design      []parse.Design `json:"design"`
	// Evidence is null when evidence was not checked; EvidenceNote then says
	// why (summary.md only).
	Evidence     *EvidenceTally `json:"evidence"`
	EvidenceNote string         `json:"-"`
	Diagnostics  []Diagnostic   `json:"diagnostics"`
	// Baseline is the comparison with Options.Baseline; absent without one.
	Baseline *BaselineReport `json:"baseline,omitempty"`
	// Suppressions sums up Options.Suppressions; absent without any.
	Suppressions *SuppressionReport `json:"suppressions,omitempty"`
	// Yield is what each completed agent added, by agent name.
	Yield []AgentYield `json:"yield"`
}

// AgentYield is what one completed agent added to the synthesis, so that an
// orchestrator can drop agents that add nothing.
type AgentYield struct {
	Agent string `json:"agent"`
	// Reported counts the merged findings it reported: Unique, those no
	// other agent reported, Independent, those it shares with another agent
	// and reported independently, and Primed, those it reported after a
	// peer's matching bus entry (Finding.Primed; a primed finding is never
	// counted unique), add up to it.
	Reported    int `json:"reported"`
	Unique      int `json:"unique"`
	Independent int `json:"independent_agreements"`
	Primed      int `json:"primed_repeats"`
	// Adjusted counts its adjustments after peers' blocking entries;
	// Contradicted the peers' reports that contradict its blocking entries
	// (SPEC §5.5, the totals of Timeline's lists).
	Adjusted     int `json:"adjusted"`
	Contradicted int `json:"contradicted"`
	// Tokens is the token use its report states; null when it states none.
	// Per1kTokens is then null too.
	Tokens      *int64      `json:"tokens"`
	Per1kTokens *YieldPer1k `json:"per_1k_tokens"`
}

// YieldPer1k is an agent's yield per 1,000 tokens, rounded to 3 decimals.
type YieldPer1k struct {
	Reported    float64 `json:"reported"`
	Unique      float64 `json:"unique"`
	Independent float64 `json:"independent_agreements"`
}

// Counts are numbers of findings per severity.
type Counts struct {
	P0 int `json:"P0"`
	P1 int `json:"P1"`
	P2 int `json:"P2"`
	P3 int `json:"P3"`
}

// Add counts one finding of severity s (P3 for anything below P2).
func (c *Counts) Add(s parse.Severity) {
	switch s {
	case parse.P0:
		c.P0++
	case parse.P1:
		c.P1++
	case parse.P2:
		c.P2++
	default:
		c.P3++
	}
}

// Total is the sum of the counts.
func (c Counts) Total() int { return c.P0 + c.P1 + c.P2 + c.P3 }

// AgentResult is one agent in findings.json.
type AgentResult struct {
	Name string `json:"name"`
	// File is null for an expected agent that wrote no file.
	File   *string      `json:"file"`
	Run    string       `json:"run,omitempty"`
	Status parse.Status `json:"status"`
	// DeclaredVerdict is what the agent wrote; Verdict what its findings say.
	DeclaredVerdict *parse.Verdict `json:"declared_verdict"`
	Verdict         parse.Verdict  `json:"verdict"`
	Counts          AgentCounts    `json:"counts"`
	// Complete reports whether the completion sentinel was found.
	Complete bool `json:"complete"`
	// TimeSource says where the time the report finished came from:
	// declared (its finished:) or mtime (its file's); null without a file.
	TimeSource *TimeSource `json:"time_source"`
	// Envelope is the message envelope of the report's YAML front matter
	// (message_id, correlation_id, timestamp, …); null when it has none.
	Envelope map[string]string `json:"envelope"`
	// Provenance is what is known of how the report was made.
	Provenance  Provenance   `json:"provenance"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	// tokens is the token use its report or the run manifest states (0:
	// unstated), for the yield.
	tokens int64
	// FinishedAt is when the report finished (Agent.Finished: its
	// declared finished:, else its file's modification time) or, while
	// watching, when the .partial last grew; zero without a file.
	// findings.json leaves it out (time_source says where it came from);
	// the HTML page's timeline plots it.
	FinishedAt time.Time `json:"-"`
}

// AgentCounts are an agent's findings per severity and its improvements.
type AgentCounts struct {
	Counts
	Improvements int `json:"improvements"`
}

// Diagnostic is a positioned message in findings.json.
type Diagnostic struct {
	File    string      `json:"file,omitempty"`
	Line    int         `json:"line,omitempty"`
	Level   parse.Level `json:"level"`
	Message string      `json:"message"`
}

func diagnostic(d parse.Diagnostic) Diagnostic {
	return Diagnostic{File: d.Path, Line: d.Line, Level: d.Level, Message: d.Message}
}

// String formats d as "file:line: level: message".
func (d Diagnostic) String() string {
	return parse.Diagnostic{Path: d.File, Line: d.Line, Level: d.Level, Message: d.Message}.String()
}

// Finding is one merged finding (SPEC §5.2, §6).
type Finding struct {
	// ID is the representative source's own ID ("" when that source has none).
	ID string `json:"id"`
	// Key is the representative's normalised section:title; it is unique
	// among the findings of a synthesis.
	Key string `json:"key"`
	// Fingerprint hashes the key and the first file path (no line): stable
	// across runs and line shifts.
	Fingerprint string         `json:"fingerprint"`
	Severity    parse.Severity `json:"severity"`
	Section     string         `json:"section"`
	Title       string         `json:"title"`
	Agents      []string       `json:"agents"`
	Sources     []Source       `json:"sources"`
	// Convergence is the number of distinct agents reporting the finding;
	// ConvergenceDisplay is "N/M" with M the completed agents.
	Convergence        int      `json:"convergence"`
	ConvergenceDisplay string   `json:"convergence_display"`
	Confidence         string   `json:"confidence"`
	FileRefs           []string `json:"file_refs"`
	// The members severity_conflict, co_located_with, cross_references and
	// discovered_by of findings.json come here, and primed, provenance,
	// evidence, baseline and suppressed after independent: few findings
	// have any but the provenance, which the findings of one agent share,
	// so they are behind one pointer (more) and read with the methods of
	// their names. A 16 MiB report is 200k merged findings of one source
	// each: 128 bytes less in each was 26 MB less of synth's peak heap.

	// Independent counts the agents that reported the finding before any
	// peer's matching bus entry could have reached them; Primed names the
	// others, each with the entry that primed it (see the priming rule in
	// the package documentation). Independent + len(Primed) = Convergence.
	Independent int `json:"independent"`

	// more holds what few findings have; nil when the finding has none of
	// it. Findings share it (those copied from one another, those of one
	// agent with nothing but its provenance): it is replaced, never changed
	// (setMore).
	more *findingMore
	// srcs are the sources of a finding whose Sources are not made yet
	// (fillSources): a synthesis makes them last, once the timeline's
	// index of the sources is garbage. It points at the finding's group in
	// dedup's list (8 bytes, not a slice's 24, in each of 200k findings).
	srcs *[]*src
}

// findingMore is what few merged findings have (see Finding).
type findingMore struct {
	severityConflict map[string]parse.Severity
	coLocatedWith    []CoLocation
	crossReferences  []CrossReference
	discoveredBy     *string
	primed           []Priming
	provenance       []*AgentProvenance
	evidence         *FindingEvidence
	baseline         *FindingBaseline
	suppressed       *Suppressed
}

// SeverityConflict maps agent to severity when the sources disagree; nil
// otherwise (null in findings.json).
func (f *Finding) SeverityConflict() map[string]parse.Severity {
	return f.m().severityConflict
}

// CoLocatedWith are the other findings citing one of its file:line points
// (findings.json's co_located_with).
func (f *Finding) CoLocatedWith() []CoLocation {
	return f.m().coLocatedWith
}

// CrossReferences are the locations its sources point at, when they point
// at more than one (findings.json's cross_references).
func (f *Finding) CrossReferences() []CrossReference {
	return f.m().crossReferences
}

// DiscoveredBy is the agent whose bus entry first matched the finding; nil
// when none did.
func (f *Finding) DiscoveredBy() *string {
	return f.m().discoveredBy
}

// Primed names the agents whose agreement is not independent, each with
// the bus entry that primed it (see Independent).
func (f *Finding) Primed() []Priming {
	return f.m().primed
}

// Provenance is that of each agent in Agents, in that order. The findings
// of one synthesis share one AgentProvenance per agent: they are not to be
// modified through a finding.
func (f *Finding) Provenance() []*AgentProvenance {
	return f.m().provenance
}

// Evidence is the finding's evidence; nil when evidence was not checked.
func (f *Finding) Evidence() *FindingEvidence {
	return f.m().evidence
}

// Baseline compares the finding with Options.Baseline; nil without one
// (absent from findings.json).
func (f *Finding) Baseline() *FindingBaseline {
	return f.m().baseline
}

// Suppressed is set when a suppression accepts the finding; nil otherwise
// (absent from findings.json).
func (f *Finding) Suppressed() *Suppressed {
	return f.m().suppressed
}

// noMore is what a finding without findingMore has: nothing. It is never
// changed (setMore copies).
var noMore findingMore

// m returns what f has of findingMore.
func (f *Finding) m() *findingMore {
	if f.more == nil {
		return &noMore
	}
	return f.more
}

// onlyProvenance reports whether m holds nothing but a provenance.
func (m *findingMore) onlyProvenance() bool {
	c := *m
	c.provenance = nil
	return reflect.ValueOf(c).IsZero()
}

// setMore changes what f has of findingMore through set, on a copy: a
// finding copied from f (Live.Synthesis) keeps what it had.
func (f *Finding) setMore(set func(*findingMore)) {
	var m findingMore
	if f.more != nil {
		m = *f.more
	}
	set(&m)
	f.more = &m
}

// Provenance is what is known of how an agent's report was made: from its
// front matter, else the run manifest, else (model and run_id) its bus
// records. A null field is unknown: nothing is guessed.
type Provenance struct {
	Model       *string `json:"model"`
	PromptHash  *string `json:"prompt_hash"`
	ToolVersion *string `json:"tool_version"`
	Commit      *string `json:"commit"`
	Repository  *string `json:"repository"`
	Started     *string `json:"started"`
	Finished    *string `json:"finished"`
	RunID       *string `json:"run_id"`
}

// AgentProvenance is the provenance of one agent of a finding.
type AgentProvenance struct {
	Agent string `json:"agent"`
	Provenance
}

// Priming: Agent reported a finding after By's matching bus entry Seq was
// on the bus, so its agreement is not independent.
type Priming struct {
	Agent string `json:"agent"`
	By    string `json:"by"`
	Seq   int    `json:"seq"`
}

// Source is one agent's finding inside a merged finding.
type Source struct {
	Agent    string         `json:"agent"`
	ID       string         `json:"id"`
	Severity parse.Severity `json:"severity"`
	// Ref is where the agent wrote it: "file:line" of its report.
	Ref        string   `json:"ref"`
	Confidence string   `json:"confidence"`
	Section    string   `json:"section"`
	Title      string   `json:"title"`
	FileRefs   []string `json:"file_refs"`
}

// CoLocation is another finding at the same file:line (a different issue).
type CoLocation struct {
	Key string `json:"key"`
	ID  string `json:"id"`
	Ref string `json:"ref"`
}

// CrossReference is one of the locations sources of the same key point at,
// when they point at more than one.
type CrossReference struct {
	Ref    string   `json:"ref"`
	Agents []string `json:"agents"`
}

// FindingEvidence is the evidence of one finding (SPEC §5.7).
type FindingEvidence struct {
	Claims []parse.ClaimResult `json:"claims"`
	// Ungrounded is set on a P0/P1 whose every claim failed.
	Ungrounded bool `json:"ungrounded"`
}

// EvidenceTally counts claim results over the run.
type EvidenceTally struct {
	// Repo is the repository the claims were checked against.
	Repo        string `json:"repo"`
	Claims      int    `json:"claims"`
	Verified    int    `json:"verified"`
	Moved       int    `json:"moved"`
	Mismatch    int    `json:"mismatch"`
	MissingFile int    `json:"missing_file"`
	OutOfRange  int    `json:"out_of_range"`
	Skipped     int    `json:"skipped"`
	// Ungrounded counts the P0/P1 findings whose every claim failed.
	Ungrounded int `json:"ungrounded"`
}

// Add counts one claim result of the given status; a status it does not know
// counts as skipped.
func (t *EvidenceTally) Add(status string) {
	t.Claims++
	switch status {
	case parse.EvidenceVerified:
		t.Verified++
	case parse.EvidenceMoved:
		t.Moved++
	case parse.EvidenceMismatch:
		t.Mismatch++
	case parse.EvidenceMissingFile:
		t.MissingFile++
	case parse.EvidenceOutOfRange:
		t.OutOfRange++
	default:
		t.Skipped++
	}
}

// Improvement is an improvement (an IMP row): it never moves the verdict.
// Equal keys merge.
type Improvement struct {
	ID      string   `json:"id"`
	Key     string   `json:"key"`
	Section string   `json:"section"`
	Title   string   `json:"title"`
	Agents  []string `json:"agents"`
}

// Timeline is the bus, read (SPEC §5.5). Totals are over the whole bus; the
// lists carry the latest Options.MaxEntries items each.
type Timeline struct {
	Files []string `json:"files"`
	// Total counts every entry; Entries are the latest ones, in file order.
	Total          int             `json:"total_entries"`
	PerSeverity    SeverityTally   `json:"per_severity"`
	PerAgent       []AgentTally    `json:"per_agent"`
	Entries        []TimelineEntry `json:"entries"`
	EntriesOmitted int             `json:"entries_omitted"`

	Adjustments         []Adjustment     `json:"adjustments"`
	AdjustmentsTotal    int              `json:"adjustments_total"`
	Unacknowledged      []Unacknowledged `json:"unacknowledged"`
	UnacknowledgedTotal int              `json:"unacknowledged_total"`
	Contradictions      []Contradiction  `json:"contradictions"`
	ContradictionsTotal int              `json:"contradictions_total"`
	Stalls              []Stall          `json:"stalls"`
	StallsTotal         int              `json:"stalls_total"`
	// Stalled lists every agent with a stall event.
	Stalled []string `json:"stalled"`
}

// SeverityTally counts bus entries per bus severity.
type SeverityTally struct {
	Blocking int `json:"blocking"`
	Notable  int `json:"notable"`
	Unknown  int `json:"unknown"`
	Stalls   int `json:"stalls"`
}

// AgentTally counts one agent's bus entries.
type AgentTally struct {
	Agent string `json:"agent"`
	SeverityTally
}

// TimelineEntry is one bus entry. Seq numbers entries from 1 over the bus
// files in reading order.
type TimelineEntry struct {
	Seq       int            `json:"seq"`
	File      string         `json:"file"`
	Line      int            `json:"line"`
	Timestamp string         `json:"timestamp,omitempty"`
	Agent     string         `json:"agent"`
	Kind      string         `json:"kind,omitempty"`
	Severity  string         `json:"severity"`
	Priority  parse.Severity `json:"priority,omitempty"`
	ID        string         `json:"id,omitempty"`
	Category  string         `json:"category,omitempty"`
	Summary   string         `json:"summary"`
	FileRefs  []string       `json:"file_refs"`
	// Finding is the key of the first merged finding the entry matches.
	Finding string `json:"finding,omitempty"`
}

// Adjustment: Agent acknowledged After's blocking entry Seq in a report
// finished after it ("Agent adjusted after After's finding").
type Adjustment struct {
	Seq     int    `json:"seq"`
	Agent   string `json:"agent"`
	After   string `json:"after"`
	Summary string `json:"summary"`
}

// Unacknowledged is a blocking entry that completed agents finished after
// without acknowledging it.
type Unacknowledged struct {
	Seq     int      `json:"seq"`
	Agent   string   `json:"agent"`
	Summary string   `json:"summary"`
	By      []string `json:"by"`
}

// Contradiction: Agent's report disagrees with blocking entry Seq of Of.
type Contradiction struct {
	Seq      int            `json:"seq"`
	Of       string         `json:"of"`
	Agent    string         `json:"agent"`
	Summary  string         `json:"summary"`
	Finding  string         `json:"finding,omitempty"`
	Severity parse.Severity `json:"severity,omitempty"`
	// Reason is "lower-severity" (a matching P2/P3 finding) or
	// "safe-verdict" (a safe verdict on overlapping files).
	Reason string `json:"reason"`
}

// Stall is a stall event of the bus.
type Stall struct {
	Seq       int    `json:"seq"`
	Agent     string `json:"agent"`
	Timestamp string `json:"timestamp,omitempty"`
	Message   string `json:"message"`
}

// Specialist summarises one specialist findings file (SPEC §5.6).
type Specialist struct {
	Name       string     `json:"name"`
	File       string     `json:"file"`
	Notes      string     `json:"notes"`
	Approaches []Approach `json:"approaches"`
	// PendingRefinements and UnansweredQuestions count over the approaches.
	PendingRefinements  int          `json:"pending_refinements"`
	UnansweredQuestions int          `json:"unanswered_questions"`
	Diagnostics         []Diagnostic `json:"diagnostics"`
}

// Approach is one approach of a specialist.
type Approach struct {
	ID                  string   `json:"id"`
	Number              int      `json:"number"`
	Variant             string   `json:"variant,omitempty"`
	Description         string   `json:"description"`
	RelevantFiles       []string `json:"relevant_files"`
	PendingRefinement   string   `json:"pending_refinement,omitempty"`
	UnansweredQuestions []string `json:"unanswered_questions"`
}

// MarshalJSON encodes f as findings.json has it: encoding/json does not
// see the members behind f.more.
func (f Finding) MarshalJSON() ([]byte, error) {
	var enc jsonEncoder
	return appendFinding(nil, &f, 0, &enc), nil
}

// UnmarshalJSON decodes a finding of findings.json, the members behind
// f.more included.
func (f *Finding) UnmarshalJSON(data []byte) error {
	type fields Finding // without the methods
	var x struct {
		*fields
		SeverityConflict map[string]parse.Severity `json:"severity_conflict"`
		CoLocatedWith    []CoLocation              `json:"co_located_with"`
		CrossReferences  []CrossReference          `json:"cross_references"`
		DiscoveredBy     *string                   `json:"discovered_by"`
		Primed           []Priming                 `json:"primed"`
		Provenance       []*AgentProvenance        `json:"provenance"`
		Evidence         *FindingEvidence          `json:"evidence"`
		Baseline         *FindingBaseline          `json:"baseline"`
		Suppressed       *Suppressed               `json:"suppressed"`
	}
	x.fields = (*fields)(f)
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	m := findingMore{x.SeverityConflict, x.CoLocatedWith, x.CrossReferences, x.DiscoveredBy, x.Primed,
		x.Provenance, x.Evidence, x.Baseline, x.Suppressed}
	f.more = nil
	if !reflect.ValueOf(m).IsZero() {
		f.more = &m
	}
	return nil
}
