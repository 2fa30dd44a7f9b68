package record

import (
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Bus severities (SPEC §3). Unknown is kept, with a diagnostic, for a line whose
// severity is none of the known ones.
const (
	Blocking = "blocking"
	Notable  = "notable"
	Unknown  = "unknown"
)

// Entry kinds: a finding shared on the bus, or an agent event such as a stall.
const (
	EntryFinding = ""
	EntryStall   = "stall"
)

// Entry is one record of the peer-findings bus, normalised from any of the
// shapes of SPEC §3. Its JSON form is the canonical line.
type Entry struct {
	Severity  string   `json:"severity"`
	Agent     string   `json:"agent"`
	Category  string   `json:"category,omitempty"`
	Summary   string   `json:"summary"`
	FileRefs  []string `json:"file_refs"`
	Timestamp string   `json:"timestamp,omitempty"`
	// ID and Priority come from hand-written lines ("id":"SCM-01","severity":"P0").
	ID       string         `json:"id,omitempty"`
	Priority parse.Severity `json:"priority,omitempty"`
	// Kind is EntryFinding or EntryStall.
	Kind string `json:"kind,omitempty"`
	// Model and RunID are what the posting agent declares of itself: the
	// model it runs on and its run; "" when the line does not say.
	Model string `json:"model,omitempty"`
	RunID string `json:"run_id,omitempty"`

	// Title is the "title" of a hand-written line (Summary holds the title and
	// the note); "" for the other shapes. Kept for matching against findings.
	Title string `json:"-"`
	// Time is Timestamp parsed (RFC 3339); zero when absent or unparseable.
	Time time.Time `json:"-"`
	// Line is the 1-based line number in the bus file; Offset the byte offset
	// of the line's first byte.
	Line   int   `json:"-"`
	Offset int64 `json:"-"`
}
