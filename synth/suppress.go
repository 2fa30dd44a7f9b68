package synth

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Suppression is one entry of the suppressions list of .fluxwatch.yaml: an
// accepted finding. It names a fingerprint, or a Match rule; a suppressed
// finding stays in the synthesis, marked, and no longer moves the verdict or
// trips a gate.
type Suppression struct {
	// File and Line say where the entry is written ("file:line" in reports).
	File string
	Line int
	// Fingerprint matches a finding whose fingerprint, or whose matched
	// baseline finding's fingerprint, is this one.
	Fingerprint string
	Match       SuppressionMatch
	// Reason is why the finding is accepted (required: see ValidSuppression).
	Reason string
	// Expires is the last day (YYYY-MM-DD) the entry suppresses; "" never
	// expires.
	Expires string
}

// SuppressionMatch selects findings by what they say. Every field set must
// hold.
type SuppressionMatch struct {
	// Title is a Go regular expression, matched case-insensitively against
	// the title of the finding or of any of its sources.
	Title string
	// File is a path pattern (path.Match syntax, or DIR/** for everything
	// under DIR) matched against the paths of the finding's file refs.
	File string
	// Severity is the finding's severity, P0 to P3.
	Severity parse.Severity
}

// By is where the entry is written: "file:line", or "file" without a line.
func (s *Suppression) By() string { return sourceRef(s.File, s.Line) }

// ValidSuppression checks one entry and returns an error that names it: a
// missing reason, neither or both of fingerprint and match, a bad regular
// expression, path pattern, severity or date.
func ValidSuppression(s *Suppression) error {
	m := s.Match
	hasMatch := m.Title != "" || m.File != "" || m.Severity != ""
	var problem string
	switch {
	case strings.TrimSpace(s.Reason) == "":
		problem = "has no reason: say why the finding is accepted"
	case s.Fingerprint == "" && !hasMatch:
		problem = "names neither a fingerprint nor a match rule"
	case s.Fingerprint != "" && hasMatch:
		problem = "names both a fingerprint and a match rule: use one"
	}
	if problem == "" && m.Title != "" {
		if _, err := regexp.Compile("(?i)" + m.Title); err != nil {
			problem = fmt.Sprintf("match.title %q: %v", m.Title, err)
		}
	}
	if problem == "" && m.File != "" {
		if _, err := path.Match(strings.TrimSuffix(m.File, "/**"), ""); err != nil {
			problem = fmt.Sprintf("match.file %q: %v", m.File, err)
		}
	}
	if problem == "" && m.Severity != "" && m.Severity.Rank() > 3 {
		problem = fmt.Sprintf("match.severity %q: want P0, P1, P2 or P3", m.Severity)
	}
	if problem == "" && s.Expires != "" {
		if _, err := time.Parse(time.DateOnly, s.Expires); err != nil {
			problem = fmt.Sprintf("expires %q: want a date YYYY-MM-DD", s.Expires)
		}
	}
	if problem == "" {
		return nil
	}
	return fmt.Errorf("%s: suppression%s %s", s.By(), s.names(), problem)
}

// names says what the entry names, for messages: " (fingerprint F)", " (match
// title T, …)", or "".
func (s *Suppression) names() string {
	var parts []string
	if s.Fingerprint != "" {
		parts = append(parts, "fingerprint "+s.Fingerprint)
	}
	if m := s.Match; m.Title != "" || m.File != "" || m.Severity != "" {
		var ms []string
		for _, kv := range [][2]string{{"title", m.Title}, {"file", m.File}, {"severity", string(m.Severity)}} {
			if kv[1] != "" {
				ms = append(ms, kv[0]+" "+strconv.Quote(kv[1]))
			}
		}
		parts = append(parts, "match "+strings.Join(ms, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// Suppressed marks a suppressed finding in findings.json.
type Suppressed struct {
	Reason  string `json:"reason"`
	Expires string `json:"expires,omitempty"`
	// By is where the suppression is written: "file:line".
	By string `json:"by"`
}

// SuppressionReport sums up the suppressions of a synthesis.
type SuppressionReport struct {
	// Entries counts the suppressions of the configuration.
	Entries    int `json:"entries"`
	Suppressed int `json:"suppressed"`
	// Expired entries no longer suppress anything; Unused ones (in force)
	// matched no finding. Both in configuration order.
	Expired []SuppressionNote `json:"expired"`
	Unused  []SuppressionNote `json:"unused"`
}

// SuppressionNote names one entry of the configuration.
type SuppressionNote struct {
	By          string `json:"by"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Reason      string `json:"reason"`
	Expires     string `json:"expires,omitempty"`
}

// suppress marks the findings of fs that an entry in force suppresses (the
// first such entry in configuration order) and returns the report. An entry
// is in force unless today (YYYY-MM-DD; "" = no date known) is after its
// expiry date. An entry that ValidSuppression rejects suppresses nothing.
func suppress(fs []Finding, entries []Suppression, today string) *SuppressionReport {
	r := &SuppressionReport{Entries: len(entries), Expired: []SuppressionNote{}, Unused: []SuppressionNote{}}
	var rules []*suppressionRule
	for i := range entries {
		e := &entries[i]
		note := SuppressionNote{By: e.By(), Fingerprint: e.Fingerprint, Reason: e.Reason, Expires: e.Expires}
		if ValidSuppression(e) != nil {
			continue
		}
		if e.Expires != "" && today != "" && today > e.Expires {
			r.Expired = append(r.Expired, note)
			continue
		}
		ru := &suppressionRule{e: e}
		if e.Match.Title != "" {
			ru.title = regexp.MustCompile("(?i)" + e.Match.Title)
		}
		rules = append(rules, ru)
	}
	for i := range fs {
		var by *Suppressed
		for _, ru := range rules {
			if ru.matches(&fs[i]) {
				ru.used = true
				by = &Suppressed{Reason: ru.e.Reason, Expires: ru.e.Expires, By: ru.e.By()}
				r.Suppressed++
				break
			}
		}
		if by != fs[i].Suppressed() {
			fs[i].setMore(func(m *findingMore) { m.suppressed = by })
		}
	}
	for _, ru := range rules {
		if !ru.used {
			e := ru.e
			r.Unused = append(r.Unused, SuppressionNote{By: e.By(), Fingerprint: e.Fingerprint, Reason: e.Reason, Expires: e.Expires})
		}
	}
	return r
}

// suppressionRule is an entry in force, ready to match.
type suppressionRule struct {
	e     *Suppression
	title *regexp.Regexp
	used  bool
}

// matches reports whether the rule suppresses f: its fingerprint is f's or
// the fingerprint of f's baseline finding, or every field of its match rule
// holds for f.
func (ru *suppressionRule) matches(f *Finding) bool {
	e := ru.e
	if e.Fingerprint != "" {
		return e.Fingerprint == f.Fingerprint || (f.Baseline() != nil && e.Fingerprint == f.Baseline().Fingerprint)
	}
	m := e.Match
	if m.Severity != "" && f.Severity != m.Severity {
		return false
	}
	if ru.title != nil && !ru.title.MatchString(f.Title) {
		matched := false
		eachSource(f, func(_, title string) { matched = matched || ru.title.MatchString(title) })
		if !matched {
			return false
		}
	}
	if m.File != "" && !slicesAny(f.FileRefs, func(r string) bool { return pathMatches(m.File, ParseRef(r).Path) }) {
		return false
	}
	return true
}

// pathMatches applies a match.file pattern to a path: DIR/** matches every
// path under DIR, anything else is a path.Match pattern.
func pathMatches(pattern, p string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/**"); ok {
		return strings.HasPrefix(p, dir+"/")
	}
	ok, _ := path.Match(pattern, p)
	return ok
}

func slicesAny[T any](l []T, f func(T) bool) bool {
	for _, v := range l {
		if f(v) {
			return true
		}
	}
	return false
}

// Today returns the date of t as suppressions' expiry dates write it
// (YYYY-MM-DD, UTC); "" for the zero time.
func Today(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

// suppressionDiagnostics are the diagnostics of a suppression report: one
// warning per expired entry, one per unused one.
func suppressionDiagnostics(r *SuppressionReport) []Diagnostic {
	if r == nil {
		return nil
	}
	var out []Diagnostic
	for _, n := range r.Expired {
		out = append(out, noteDiagnostic(n, "suppression expired on "+n.Expires+": it no longer suppresses"))
	}
	for _, n := range r.Unused {
		out = append(out, noteDiagnostic(n, "suppression matched no finding: remove it, or fix its fingerprint or match rule"))
	}
	return out
}

func noteDiagnostic(n SuppressionNote, msg string) Diagnostic {
	file, line := n.By, 0
	if i := strings.LastIndexByte(file, ':'); i > 0 {
		if l, err := strconv.Atoi(file[i+1:]); err == nil {
			file, line = file[:i], l
		}
	}
	return Diagnostic{File: file, Line: line, Level: parse.LevelWarning, Message: msg}
}

// judge compares the merged findings fs with opts.Baseline and applies
// opts.Suppressions, marking the findings in place; either report is nil
// when its option is unset. The baseline comes first: a suppression by
// fingerprint also holds a re-worded finding through its baseline match.
func judge(fs []Finding, opts Options) (*BaselineReport, *SuppressionReport) {
	var b *BaselineReport
	if opts.Baseline != nil {
		b = compareBaseline(fs, opts.Baseline)
	}
	var s *SuppressionReport
	if len(opts.Suppressions) > 0 {
		s = suppress(fs, opts.Suppressions, Today(opts.Today))
	}
	return b, s
}
