package synth

import (
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
)

// Run is everything one synthesis reads: the agents of an output directory,
// the bus, the specialist files. The watcher builds it from the filesystem;
// tests build it by hand.
type Run struct {
	// Input names what was reviewed: the output directory as the user gave it.
	Input string
	// ID is the selected run (SPEC §1), "" for an unscoped directory.
	ID string
	// Runs are the runs the agent files' names name ({agent}.{RUN}.md,
	// lower-cased, sorted): the runs a selection picks from. More than
	// one, with no run selected, is a directory whose run was picked by
	// file times (SPEC §10). A run-uuid comment makes a file foreign; it
	// never names a run to pick.
	Runs []string
	// Agents are every agent file of the directory, foreign and partial ones
	// included. Within the selected run (Status other than foreign) an agent
	// name appears at most once.
	Agents []Agent
	// Bus holds the bus files in reading order (findings.jsonl, then
	// peer-findings.jsonl).
	Bus []BusFile
	// Specialists are the findings/*.yaml files, Design design/manifest.yaml.
	Specialists []SpecialistFile
	Design      *DesignFile
	// Manifest is the run manifest (parse.ManifestFile); nil without one.
	Manifest *parse.RunManifest
	// Ignored are the files (relative to the output directory) named as
	// agent files that are no agent's (parse.AgentFilter): README.md,
	// task.md, or what agents: ignore names. Listed, never counted.
	Ignored []string
	// Diagnostics are about the directory rather than one file: ignored
	// symlinks, superseded files, unreadable entries.
	Diagnostics []parse.Diagnostic
	// Newest is the newest modification time of the inputs: the default
	// "reviewed" time.
	Newest time.Time
}

// Agent is one agent file.
type Agent struct {
	Name string
	// File is the file's path relative to the output directory.
	File string
	// Run is the run its file name names, "" for an unscoped name.
	Run    string
	Status parse.Status
	// ModTime is the file's modification time: when the report finished.
	ModTime time.Time
	// Report is the parsed file; nil when there is nothing to parse (an
	// .abort marker, an unreadable file).
	Report *parse.Report
	// Text is the report's raw text, for the acknowledgement rule of §5.5.
	// Only completed agents need it.
	Text []byte
	// Diagnostics are about the file as a whole (why it is foreign, why it
	// failed); the report's own are in Report.Diagnostics.
	Diagnostics []parse.Diagnostic
}

// BusFile is one bus file and its entries, in file order.
type BusFile struct {
	Name    string
	Entries []record.Entry
	// Dropped is the number of entries of the file before Entries: entries
	// a [Live] read in an earlier Update and that its caller no longer holds
	// (a watcher keeps only what it has not handed over, so that its memory
	// does not grow with the bus). A Live reads them again only when the bus
	// must be read from the start (see Live); then Dropped must be 0. 0 for
	// Synthesize.
	Dropped     int
	Diagnostics []parse.Diagnostic
}

// SpecialistFile is one findings/{specialist}.yaml file.
type SpecialistFile struct {
	Name string
	File string
	// Specialist is nil when the file could not be decoded.
	Specialist  *parse.Specialist
	Diagnostics []parse.Diagnostic
}

// DesignFile is design/manifest.yaml.
type DesignFile struct {
	File        string
	Manifest    *parse.DesignManifest
	Diagnostics []parse.Diagnostic
}

// Dedup selects how findings merge (SPEC §5.2, --dedup).
type Dedup int

// Dedup modes: fuzzy (the default) merges by key, the title rule and shared
// file:line refs; exact merges equal keys only.
const (
	DedupFuzzy Dedup = iota
	DedupExact
)

// Generator names the program that wrote a synthesis.
type Generator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Options steer a synthesis.
type Options struct {
	// Expect lists agents that were launched whether or not a file of theirs
	// exists (--expect). An expected agent without a file has failed.
	Expect []string
	Dedup  Dedup
	// Watching makes a run with no completed agent pending rather than error.
	Watching  bool
	Generator Generator
	// Reviewed overrides Run.Newest (SOURCE_DATE_EPOCH).
	Reviewed time.Time
	// MaxEntries bounds the lists of timeline entries and results carried in
	// findings.json (default 500; summary.md shows at most 100).
	MaxEntries int
	// Evidence checks evidence claims (SPEC §5.7). Nil: not checked, and the
	// reports say so.
	Evidence Verifier
	// EvidenceRepo names the repository Evidence checks against, as the
	// reports show it.
	EvidenceRepo string
	// EvidenceNote says why evidence was not checked when Evidence is nil
	// ("--no-evidence", "not inside a git work tree"); summary.md shows it
	// escaped like agent text (a code span in it is kept).
	EvidenceNote string
	// Baseline is an earlier synthesis to compare the findings with
	// (--baseline): each finding is then new or unchanged, and the report
	// lists the absent ones.
	Baseline *Baseline
	// Suppressions accept findings (.fluxwatch.yaml): a suppressed finding
	// is kept and marked, and does not move the verdict.
	Suppressions []Suppression
	// Today is the date that suppressions expire against (the caller's
	// clock, or SOURCE_DATE_EPOCH); zero: no entry expires.
	Today time.Time
	// Workers bounds the goroutines that match bus entries to findings
	// ahead of the timeline: 0 means GOMAXPROCS, 1 matches each entry in
	// turn. The synthesis is the same whatever it is.
	Workers int
}

// DefaultMaxEntries is the default of Options.MaxEntries.
const DefaultMaxEntries = 500

// Verifier checks evidence claims against a repository (SPEC §5.7). Verify is
// called once per synthesis with every claim of every merged finding (see
// [ClaimsOf]), and returns one result per claim, in the same order. The
// claim and result types are package parse's: package evidence implements
// Verifier without importing synth.
type Verifier interface {
	Verify(claims []parse.EvidenceClaim) []parse.ClaimResult
}
