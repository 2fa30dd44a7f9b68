package parse

import (
	"io"
	"time"
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
// three shapes of SPEC §3. Its JSON form is the canonical line.
type Entry struct {
	Severity  string   `json:"severity"`
	Agent     string   `json:"agent"`
	Category  string   `json:"category,omitempty"`
	Summary   string   `json:"summary"`
	FileRefs  []string `json:"file_refs"`
	Timestamp string   `json:"timestamp,omitempty"`
	// ID and Priority come from hand-written lines ("id":"SCM-01","severity":"P0").
	ID       string   `json:"id,omitempty"`
	Priority Severity `json:"priority,omitempty"`
	// Kind is EntryFinding or EntryStall.
	Kind string `json:"kind,omitempty"`

	// Time is Timestamp parsed (RFC 3339); zero when absent or unparseable.
	Time time.Time `json:"-"`
	// Line is the 1-based line number in the bus file; Offset the byte offset
	// of the line's first byte.
	Line   int   `json:"-"`
	Offset int64 `json:"-"`
}

// DefaultMaxLine is the default longest bus line read (SPEC §3, --max-line).
const DefaultMaxLine = 1 << 20

// ReadBus reads a whole bus stream: every complete line (bytes after the last
// newline are an incomplete record and are not parsed), normalised. Invalid
// lines and lines longer than maxLine (<= 0 means DefaultMaxLine) are skipped
// with a diagnostic. The error is non-nil only when r fails.
func ReadBus(r io.Reader, maxLine int) (entries []Entry, diags []Diagnostic, err error) {
	// Placeholder until the bus reader lands.
	return nil, nil, nil
}
