package bus

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/record"
)

// The bus's record and its constants live in package record, so that the
// pure packages can take entries without linking this package's I/O; these
// aliases keep their bus names.
const (
	Blocking = record.Blocking
	Notable  = record.Notable
	Unknown  = record.Unknown

	EntryFinding = record.EntryFinding
	EntryStall   = record.EntryStall
)

// Entry is one record of the peer-findings bus: [record.Entry].
type Entry = record.Entry

// DefaultMaxLine is the default longest bus line read (SPEC §3, --max-line).
const DefaultMaxLine = 1 << 20

// DecodeAll reads a whole bus stream: every complete line (bytes after the last
// newline are an incomplete record and are not parsed), normalised. Invalid
// lines and lines longer than maxLine (<= 0 means DefaultMaxLine) are skipped
// with a diagnostic; bytes after the last newline get an info diagnostic. The
// error is non-nil only when r fails.
//
// DecodeAll is the one-shot form of Decoder; memory beyond the returned
// entries is bounded by maxLine whatever the input.
func DecodeAll(r io.Reader, maxLine int) (entries []Entry, diags []parse.Diagnostic, err error) {
	d := NewDecoder(maxLine)
	err = d.Decode(r,
		func(e Entry) { entries = append(entries, e) },
		func(dg parse.Diagnostic) { diags = append(diags, dg) })
	if dg, ok := d.Incomplete(); ok && err == nil {
		diags = append(diags, dg)
	}
	return entries, diags, err
}

// Incomplete returns the info diagnostic about the bytes held after the
// last complete line: a record still being written (SPEC §3: never parsed,
// held until its newline arrives). ok is false when none are held. It is
// the same diagnostic however many bytes are held: a line that grows a byte
// at a time is one diagnostic for a watcher, not one per byte, and the
// reports do not change with each byte.
func (d *Decoder) Incomplete() (dg parse.Diagnostic, ok bool) {
	if d.heldLen == 0 {
		return parse.Diagnostic{}, false
	}
	return parse.Diagnostic{Line: d.line + 1, Level: parse.LevelInfo,
		Message: "no newline yet: an incomplete record, not read"}, true
}

// Decoder decodes a bus stream incrementally. Feed it bytes in any pieces:
// it decodes every line as soon as its newline arrives and holds the bytes of
// an incomplete line (at most maxLine of them) until the rest comes. A line
// longer than maxLine is counted and discarded as it streams past, then
// reported with a diagnostic: memory stays bounded whatever the input.
//
// A tailer keeps one Decoder per bus file and feeds it only the bytes
// appended since the last read (the file position to read from is
// Offset()+Held()); or it remembers Offset() and Line() and later starts a new
// decoder there with Resume. The cost of a feed is proportional to the bytes
// fed.
type Decoder struct {
	maxLine int
	offset  int64 // offset of the first byte of the line being assembled
	line    int   // complete lines consumed

	held    []byte // bytes of the incomplete line, unless over
	heldLen int64  // length of the incomplete line so far, discarded bytes included
	over    bool   // the incomplete line is longer than maxLine: its bytes are dropped

	// only, when set, is the one severity the caller wants (see Only).
	only string
	view lineView // scratch of the fast path
	raw  busLine  // scratch of decodeLine

	intern map[string]string
	recent [256]string // a cache in front of intern (str)
	// buf and refArena are fill's: the bytes of a line's own strings, and
	// the array its file refs slice is cut from.
	buf      []byte
	refArena []string
	names    map[string]error // parse.ValidName of agents seen
	lastTS   string           // the last timestamp read (str)
	// timeOf is the last timestamp parsed; time and timeErr are its parse.
	timeOf  string
	time    time.Time
	timeErr error
	// slow turns the hand-written fast path off (benchmarks compare the two).
	slow bool
}

// NewDecoder returns a decoder at the start of a stream. maxLine <= 0 means
// DefaultMaxLine.
func NewDecoder(maxLine int) *Decoder {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &Decoder{maxLine: maxLine, intern: map[string]string{}, names: map[string]error{}}
}

// Only makes the decoder skip, without decoding them, the lines that are
// certainly findings of a severity other than severity (Blocking or
// Notable; anything else, such as "", decodes every line again), so that a caller that keeps the
// findings of one severity pays little for the others. A line is certain
// when it has the canonical shape that fluxwatch and the shell helper write
// (see canonicalSeverity) with the other severity; every other line is
// decoded as usual, so no entry of the wanted severity is ever lost. A
// skipped line gives no diagnostic: it is not validated.
func (d *Decoder) Only(severity string) {
	d.only = ""
	if severity == Blocking || severity == Notable {
		d.only = severity
	}
}

// Resume positions the decoder at offset, the first byte of line line+1 (that
// is, line complete lines have been read before it), dropping any held bytes.
// The next byte fed is taken to be the byte at offset.
func (d *Decoder) Resume(offset int64, line int) {
	d.offset, d.line = offset, line
	d.held, d.heldLen, d.over = d.held[:0], 0, false
}

// Offset returns the offset just past the last complete line decoded: where a
// tailer resumes.
func (d *Decoder) Offset() int64 { return d.offset }

// Line returns the number of complete lines decoded (blank and skipped lines
// included), counted from the start of the stream.
func (d *Decoder) Line() int { return d.line }

// Held returns the number of bytes fed after Offset that do not yet form a
// complete line.
func (d *Decoder) Held() int64 { return d.heldLen }

// Feed decodes every line that p completes, in order, calling entry for each
// record and diag for each diagnostic (either may be nil). The bytes after the
// last newline of p are held for the next Feed.
func (d *Decoder) Feed(p []byte, entry func(Entry), diag func(parse.Diagnostic)) {
	if entry == nil {
		entry = func(Entry) {}
	}
	if diag == nil {
		diag = func(parse.Diagnostic) {}
	}
	d.feed(p, entry, diag)
}

func (d *Decoder) feed(p []byte, entry func(Entry), diag func(parse.Diagnostic)) {
	for len(p) > 0 {
		nl := bytes.IndexByte(p, '\n')
		if nl < 0 {
			d.hold(p)
			return
		}
		if d.heldLen > 0 {
			d.hold(p[:nl])
			d.endLine(d.held, d.heldLen, entry, diag)
			d.held, d.heldLen, d.over = d.held[:0], 0, false
			if cap(d.held) > 64<<10 {
				d.held = nil // do not pin a large buffer between long lines
			}
		} else {
			d.endLine(p[:nl], int64(nl), entry, diag)
		}
		p = p[nl+1:]
	}
}

// hold keeps b as part of the incomplete line, or only counts it once the
// line is longer than maxLine.
func (d *Decoder) hold(b []byte) {
	d.heldLen += int64(len(b))
	if d.over {
		return
	}
	if d.heldLen > int64(d.maxLine) {
		d.over, d.held = true, nil
		return
	}
	d.held = append(d.held, b...)
}

// endLine decodes one complete line of length n (newline excluded) whose
// bytes are b (unless the line is over the limit) and advances the position.
func (d *Decoder) endLine(b []byte, n int64, entry func(Entry), diag func(parse.Diagnostic)) {
	d.line++
	start := d.offset
	d.offset += n + 1
	if n > int64(d.maxLine) {
		diag(parse.Diagnostic{Line: d.line, Level: parse.LevelError,
			Message: fmt.Sprintf("line of %d bytes is longer than the %d-byte limit (--max-line): skipped", n, d.maxLine)})
		return
	}
	if start == 0 {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	}
	for len(b) > 0 && isLineSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return // a blank line: nothing to say
	}
	e, ok := d.decodeLine(b, d.line, diag)
	if !ok {
		return
	}
	e.Line, e.Offset = d.line, start
	entry(e)
}

// isLineSpace reports whether c is blank around a line: a space, a tab or the
// carriage return of a CRLF line end.
func isLineSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// Decode reads r to its end, feeding every byte to d (see Feed). Bytes after
// the last newline stay held. The error is non-nil only when r fails.
func (d *Decoder) Decode(r io.Reader, entry func(Entry), diag func(parse.Diagnostic)) error {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		d.Feed(buf[:n], entry, diag)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read bus: %w", err)
		}
	}
}

// busLine is every field any shape of bus line may carry (SPEC §3, and the
// "from" shape seen in real runs).
type busLine struct {
	Severity  string   `json:"severity"`
	Agent     string   `json:"agent"`
	From      string   `json:"from"`
	Category  string   `json:"category"`
	Summary   string   `json:"summary"`
	FileRefs  []string `json:"file_refs"`
	Timestamp string   `json:"timestamp"`
	TS        string   `json:"ts"`
	Kind      string   `json:"kind"`
	Message   string   `json:"message"`
	ID        string   `json:"id"`
	Type      string   `json:"type"`
	Title     string   `json:"title"`
	Note      string   `json:"note"`
	Priority  string   `json:"priority"`
	Model     string   `json:"model"`
	RunID     string   `json:"run_id"`
}

var noRefs = []string{}

// decodeLine decodes and normalises one non-blank line numbered n. ok is
// false when the line is skipped; diag has then been told why, unless Only
// skipped it.
func (d *Decoder) decodeLine(b []byte, n int, diag func(parse.Diagnostic)) (e Entry, ok bool) {
	if d.only != "" {
		if sev := canonicalSeverity(b); sev != "" && sev != d.only {
			return Entry{}, false
		}
	}
	raw := &d.raw // not a local: encoding/json would make it escape, one allocation a line
	if d.slow || !scan(b, &d.view) || !d.fill(&d.view, raw) {
		if dg, ok := decodeSlow(b, raw); !ok {
			dg.Line = n
			diag(dg)
			return Entry{}, false
		}
	}
	return d.normalise(raw, n, diag)
}

// normalise turns any shape of line into an Entry (SPEC §3).
func (d *Decoder) normalise(raw *busLine, n int, diag func(parse.Diagnostic)) (Entry, bool) {
	warn := func(level parse.Level, format string, a ...any) {
		diag(parse.Diagnostic{Line: n, Level: level, Message: fmt.Sprintf(format, a...)})
	}
	e := Entry{
		Agent:     raw.Agent,
		Category:  raw.Category,
		Summary:   raw.Summary,
		FileRefs:  raw.FileRefs,
		Timestamp: raw.Timestamp,
		ID:        raw.ID,
		Title:     raw.Title,
		Model:     raw.Model,
		RunID:     raw.RunID,
	}
	if e.Agent == "" {
		e.Agent = raw.From
	}
	if e.Timestamp == "" {
		e.Timestamp = raw.TS
	}
	if e.FileRefs == nil {
		e.FileRefs = noRefs
	}
	if raw.Kind != "" {
		switch kind := strings.ToLower(strings.TrimSpace(raw.Kind)); kind {
		case "", "finding":
		case EntryStall:
			e.Kind = EntryStall
		default:
			warn(parse.LevelWarning, "kind %q is neither a finding nor a stall: skipped", raw.Kind)
			return Entry{}, false
		}
	}
	if e.Summary == "" {
		switch {
		case raw.Title != "" && raw.Note != "":
			e.Summary = raw.Title + " — " + raw.Note
		case raw.Title != "":
			e.Summary = raw.Title
		case raw.Message != "":
			e.Summary = raw.Message
		default:
			e.Summary = raw.Note
		}
	}
	if e.Agent == "" && strings.TrimSpace(e.Summary) == "" {
		warn(parse.LevelWarning, "not a bus record (no agent and no summary): skipped")
		return Entry{}, false
	}
	if e.Agent == "" {
		warn(parse.LevelWarning, "record has no agent")
	} else if err := d.validName(e.Agent); err != nil {
		warn(parse.LevelError, "agent %q: %v: skipped", e.Agent, err)
		return Entry{}, false
	}
	if strings.TrimSpace(e.Summary) == "" {
		warn(parse.LevelWarning, "record has no summary")
	}

	sev := raw.Severity
	if sev != Blocking && sev != Notable {
		sev = strings.ToLower(strings.TrimSpace(sev))
	}
	if p, ok := priorityOf(sev); ok {
		e.Priority, sev = p, ""
	}
	if raw.Priority != "" {
		if p, ok := priorityOf(strings.TrimSpace(raw.Priority)); ok {
			e.Priority = p // the canonical form of a hand-written line, read back
		}
	}
	if e.Kind == EntryStall {
		e.Severity = sev
		if e.Severity == "" {
			e.Severity = "warn"
		}
	} else {
		e.Severity = findingSeverity(sev, raw, e.Priority, warn)
	}

	if e.Timestamp != "" {
		if e.Timestamp != d.timeOf {
			d.timeOf = e.Timestamp
			d.time, d.timeErr = time.Parse(time.RFC3339, e.Timestamp)
		}
		if d.timeErr != nil {
			warn(parse.LevelInfo, "timestamp %q is not RFC 3339: not used for ordering", e.Timestamp)
		} else {
			e.Time = d.time
		}
	}
	return e, true
}

// validName is parse.ValidName, remembered for the agents seen.
func (d *Decoder) validName(name string) error {
	if err, ok := d.names[name]; ok {
		return err
	}
	err := parse.ValidName(name)
	if len(d.names) < 4096 {
		d.names[name] = err
	}
	return err
}

// priorityOf returns the priority that s names when, in upper case, it is
// P0–P3. No rune outside ASCII upper-cases to 'P' or a digit, so only "p0"
// to "p3" and "P0" to "P3" do.
func priorityOf(s string) (parse.Severity, bool) {
	if len(s) != 2 || (s[0] != 'p' && s[0] != 'P') || s[1] < '0' || s[1] > '3' {
		return "", false
	}
	return parse.Severity("P" + s[1:]), true
}

// findingSeverity decides a finding's bus severity from the severity word
// (lower case, "" when it was a priority), the hand-written "type" and the
// priority.
func findingSeverity(sev string, raw *busLine, pri parse.Severity, warn func(parse.Level, string, ...any)) string {
	typ := strings.ToLower(strings.TrimSpace(raw.Type))
	switch {
	case typ == Blocking || typ == Notable:
		if (sev == Blocking || sev == Notable) && sev != typ {
			warn(parse.LevelWarning, "severity %q and type %q disagree: type used", raw.Severity, raw.Type)
		}
		return typ
	case typ != "":
		warn(parse.LevelWarning, "unknown type %q: severity kept as unknown", raw.Type)
		return Unknown
	case sev == Blocking || sev == Notable:
		return sev
	case sev == "" && pri != "":
		s := Notable
		if pri == parse.P0 {
			s = Blocking
		}
		warn(parse.LevelInfo, "priority %s without a type: read as %s", pri, s)
		return s
	case sev == "":
		warn(parse.LevelWarning, "record has no severity: kept as unknown")
		return Unknown
	default:
		warn(parse.LevelWarning, "unknown severity %q: kept as unknown", raw.Severity)
		return Unknown
	}
}
