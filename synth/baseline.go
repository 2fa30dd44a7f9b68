package synth

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Baseline states of a finding (SARIF baselineState).
const (
	// BaselineNew: the baseline holds no finding it matches.
	BaselineNew = "new"
	// BaselineUnchanged: it matches a finding of the baseline.
	BaselineUnchanged = "unchanged"
	// BaselineAbsent: a baseline finding that no finding of this run
	// matches (fixed, or no longer reported).
	BaselineAbsent = "absent"
)

// How a finding matched its baseline finding (FindingBaseline.MatchedBy).
const (
	MatchFingerprint = "fingerprint"
	MatchKey         = "key"
	MatchTitle       = "title"
)

// Baseline is an earlier synthesis that a run is compared with (--baseline):
// the findings of its findings.json. Build it with [DecodeBaseline].
type Baseline struct {
	// Path names the baseline as the user gave it.
	Path string
	// Reviewed is the baseline's own "reviewed" time.
	Reviewed string
	Findings []Finding
}

// BaselineOf is s as a baseline: what DecodeBaseline gives for the
// findings.json of s, read from path.
func BaselineOf(path string, s *Synthesis) (*Baseline, error) {
	data, err := RenderJSON(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return DecodeBaseline(path, data)
}

// MaxBaseline caps a baseline findings.json a reader takes: 1 GiB, some 15
// times the findings.json of 1,000 agents × 50 findings.
const MaxBaseline = 1 << 30

// DecodeBaseline decodes the findings.json data of an earlier synthesis
// named path. Its error names path (and the line, for JSON that does not
// decode) and says what is wrong with the data; a findings.json of another
// synthesis protocol is an error, found before its findings are decoded
// (a large file of something else costs no more than reading it).
func DecodeBaseline(path string, data []byte) (*Baseline, error) {
	var head struct {
		Protocol string `json:"synthesis_protocol_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(path, data, err)
	}
	if head.Protocol != ProtocolVersion {
		return nil, fmt.Errorf("%s: synthesis_protocol_version %q, want %q (is it a findings.json?)", path, head.Protocol, ProtocolVersion)
	}
	var s struct {
		Reviewed string    `json:"reviewed"`
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, jsonError(path, data, err)
	}
	for i, f := range s.Findings {
		if f.Fingerprint == "" {
			return nil, fmt.Errorf("%s: finding %d (%q) has no fingerprint", path, i+1, f.Key)
		}
	}
	return &Baseline{Path: path, Reviewed: s.Reviewed, Findings: s.Findings}, nil
}

// FindingBaseline is how a finding compares with the baseline.
type FindingBaseline struct {
	// State is new or unchanged.
	State string `json:"state"`
	// Fingerprint is the matched baseline finding's fingerprint (it differs
	// from the finding's own when the finding matched by key or title).
	Fingerprint string `json:"fingerprint,omitempty"`
	// MatchedBy is fingerprint, key or title.
	MatchedBy string `json:"matched_by,omitempty"`
}

// BaselineReport says which baseline a synthesis was compared with and what
// came of it.
type BaselineReport struct {
	Path      string `json:"path"`
	Reviewed  string `json:"reviewed"`
	Findings  int    `json:"findings"`
	New       int    `json:"new"`
	Unchanged int    `json:"unchanged"`
	// Absent lists the baseline findings that nothing of this run matched,
	// by severity, then key.
	Absent []AbsentFinding `json:"absent"`
}

// AbsentFinding is a baseline finding that this run no longer reports.
type AbsentFinding struct {
	Fingerprint string         `json:"fingerprint"`
	ID          string         `json:"id"`
	Key         string         `json:"key"`
	Severity    parse.Severity `json:"severity"`
	Section     string         `json:"section"`
	Title       string         `json:"title"`
	FileRefs    []string       `json:"file_refs"`
}

// compareBaseline marks each finding of fs new or unchanged against b and
// returns the report. The matching rule, in three passes, each in the
// order of fs (then of b), so that the outcome does not depend on
// the order of agents or reports:
//
//  1. fingerprint: equal fingerprints (the normalised key of the
//     representative and its first file path, no line: SPEC §6), one to
//     one;
//  2. key: a source of the finding and a source of the baseline finding
//     have the same normalised key (a different set of agents chose a
//     different representative, or a re-formatted report lost the file
//     refs). An unmatched baseline finding is taken first, else a matched
//     one: a baseline finding merged through a source no longer reported
//     may split into several findings, each unchanged;
//  3. title: a source of each, in the same normalised section, or sharing a
//     file path (of a file ref, or of a section that is a file:line
//     reference), whose titles match by the title rule of SPEC §5.2 (a
//     re-worded title). An unmatched baseline finding is taken first, else
//     a matched one that merged sources of several keys (a merge that split
//     when its evidence went, and whose part also moved its key); a
//     baseline finding of one key is matched once.
//
// A baseline finding matched by none is absent.
func compareBaseline(fs []Finding, b *Baseline) *BaselineReport {
	r := &BaselineReport{Path: b.Path, Reviewed: b.Reviewed, Findings: len(b.Findings), Absent: []AbsentFinding{}}
	old := make([]baseFinding, len(b.Findings))
	byFP := map[string]int{}
	for i := range b.Findings {
		old[i] = newBaseFinding(&b.Findings[i])
		if _, dup := byFP[b.Findings[i].Fingerprint]; !dup {
			byFP[b.Findings[i].Fingerprint] = i
		}
	}
	matched := make([]bool, len(old))
	cur := make([]baseFinding, len(fs))
	// Each finding's comparison, set on it once it is final: a finding
	// holds it behind its findingMore, made again at each change.
	is := make([]*FindingBaseline, len(fs))
	isNew := &FindingBaseline{State: BaselineNew} // shared: never changed
	for i := range fs {
		is[i] = isNew
		cur[i] = newBaseFinding(&fs[i])
	}
	match := func(i, j int, by string) {
		matched[j] = true
		is[i] = &FindingBaseline{State: BaselineUnchanged, Fingerprint: b.Findings[j].Fingerprint, MatchedBy: by}
	}
	for i := range fs {
		if j, ok := byFP[fs[i].Fingerprint]; ok && !matched[j] {
			match(i, j, MatchFingerprint)
		}
	}
	// matchShared matches each finding still new to a baseline finding it
	// shares with: an unmatched one first; else the first already matched
	// that split may take again.
	matchShared := func(shares func(a, b *baseFinding) bool, split func(b *baseFinding) bool, by string) {
		for i := range fs {
			if is[i].State != BaselineNew {
				continue
			}
			first := -1
			for j := range old {
				if !shares(&cur[i], &old[j]) {
					continue
				}
				if !matched[j] {
					first = j
					break
				}
				if first < 0 && split(&old[j]) {
					first = j
				}
			}
			if first >= 0 {
				match(i, first, by)
			}
		}
	}
	// Any baseline finding may split: one that merged through a source no
	// longer reported.
	matchShared(sharesKey, func(*baseFinding) bool { return true }, MatchKey)
	// A merged one may: a merge that split (its evidence, an ID or a line,
	// no longer there) whose part also moved its key.
	matchShared(sharesTitle, func(b *baseFinding) bool { return len(b.keys) > 1 }, MatchTitle)
	for i := range fs {
		fs[i].setMore(func(m *findingMore) { m.baseline = is[i] })
		if is[i].State == BaselineNew {
			r.New++
		} else {
			r.Unchanged++
		}
	}
	for j, f := range b.Findings {
		if matched[j] {
			continue
		}
		r.Absent = append(r.Absent, AbsentFinding{
			Fingerprint: f.Fingerprint, ID: f.ID, Key: f.Key, Severity: f.Severity,
			Section: f.Section, Title: f.Title, FileRefs: nonNil(f.FileRefs),
		})
	}
	slices.SortStableFunc(r.Absent, compareAbsent)
	return r
}

// baseFinding is what the matching rule compares of a finding: the keys,
// sections and titles of its sources and its file paths.
type baseFinding struct {
	keys     []string
	sections []string
	titles   []parse.Title
	paths    []string
}

func newBaseFinding(f *Finding) baseFinding {
	var b baseFinding
	add := func(section, title string) {
		sec, t := parse.Normalize(section), parse.NewTitle(title)
		key := sec + ":" + t.Norm()
		if !slices.Contains(b.keys, key) {
			b.keys = append(b.keys, key)
			b.sections = append(b.sections, sec)
			b.titles = append(b.titles, t)
		}
	}
	addPath := func(p string) {
		if p != "" && !slices.Contains(b.paths, p) {
			b.paths = append(b.paths, p)
		}
	}
	add(f.Section, f.Title)
	eachSource(f, func(section, title string) {
		add(section, title)
		// A section that is a file:line reference ("sync.sh:87-92") names
		// the file: its line moves with the code.
		addPath(sectionPath(section))
	})
	for _, r := range f.FileRefs {
		addPath(ParseRef(r).Path)
	}
	slices.Sort(b.paths)
	return b
}

// sectionPath returns the path of a section written as a file:line
// reference ("sync.sh:87", "sync.sh:87–92", whatever the dash), "" for any
// other section.
func sectionPath(section string) string {
	r := ParseRef(section)
	if r.Start > 0 {
		return r.Path
	}
	i := strings.LastIndexByte(r.Path, ':')
	if i <= 0 || i+1 >= len(r.Path) || r.Path[i+1] < '0' || r.Path[i+1] > '9' || strings.ContainsAny(r.Path[:i], " \t") {
		return ""
	}
	return r.Path[:i]
}

func sharesKey(a, b *baseFinding) bool {
	for _, k := range a.keys {
		if slices.Contains(b.keys, k) {
			return true
		}
	}
	return false
}

func sharesTitle(a, b *baseFinding) bool {
	samePath := false
	for _, p := range a.paths {
		if _, ok := slices.BinarySearch(b.paths, p); ok {
			samePath = true
			break
		}
	}
	for i := range a.titles {
		for j := range b.titles {
			if (samePath || a.sections[i] == b.sections[j]) && a.titles[i].Matches(&b.titles[j]) {
				return true
			}
		}
	}
	return false
}

// AtLeast reports whether severity s is at or above min (P0 is the highest).
func AtLeast(s, min parse.Severity) bool { return s.Rank() <= min.Rank() }

// NewAtOrAbove returns the findings that trip --fail-on-new min: new since
// the baseline, not suppressed, of severity min or higher. Without a
// baseline it returns nil.
func NewAtOrAbove(s *Synthesis, min parse.Severity) []Finding {
	var out []Finding
	for _, f := range s.Findings {
		if f.Baseline() != nil && f.Baseline().State == BaselineNew && f.Suppressed() == nil && AtLeast(f.Severity, min) {
			out = append(out, f)
		}
	}
	return out
}

// compareAbsent orders absent findings like findings: severity, then key.
func compareAbsent(a, b AbsentFinding) int {
	return cmp.Or(cmp.Compare(a.Severity.Rank(), b.Severity.Rank()), cmp.Compare(a.Key, b.Key))
}

// jsonError is err, an error of decoding the JSON data of path, as
// "path:line: what": the line of the offset a syntax or type error gives,
// and encoding/json's words without its Go type names.
func jsonError(path string, data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
		err = fmt.Errorf("%s holds a JSON %s where another kind of value belongs", cmp.Or(typ.Field, "the document"), typ.Value)
	}
	if off < 0 || off > int64(len(data)) {
		return fmt.Errorf("%s: %w", path, err)
	}
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	return fmt.Errorf("%s:%d: %w", path, line, err)
}
