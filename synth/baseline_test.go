package synth

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"github.com/fluxwatch/fluxwatch/parse"
)

// reportRun is a run of completed agents parsed from their report texts,
// in the order given.
func reportRun(reports ...[2]string) *Run {
	run := &Run{}
	for _, r := range reports {
		rep := parse.ReadReport([]byte(r[1]))
		run.Agents = append(run.Agents, Agent{Name: r[0], File: r[0] + ".md", Status: rep.Status,
			ModTime: t0, Report: rep, Text: []byte(r[1])})
	}
	return run
}

// baselineOf is the baseline a synthesis of run makes, through its
// findings.json.
func baselineOf(t *testing.T, run *Run) *Baseline {
	t.Helper()
	b, err := BaselineOf("old/findings.json", Synthesize(run, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	strictA = "### Findings Index\n" +
		"- P1 | AR-001 | \"Authentication\" | Session tokens stored in localStorage\n" +
		"- P2 | AR-002 | \"API Design\" | Missing rate limiting on the login endpoint\n" +
		"Verdict: needs-changes\n\n## Issues Found\n\n" +
		"### AR-001: Session tokens stored in localStorage\n\nSee `src/auth.ts:12`.\n\n" +
		"### AR-002: Missing rate limiting\n\nIn `api/login.go:40-42`.\n"
	strictB = "### Findings Index\n" +
		"- P1 | SEC-001 | \"Authentication\" | Session tokens stored in localStorage\n" +
		"- P3 | SEC-002 | \"Logging\" | Debug logging left on in production\n" +
		"Verdict: needs-changes\n\n### SEC-001: tokens\n\n`src/auth.ts:12`\n"
)

func TestBaselineStates(t *testing.T) {
	base := reportRun([2]string{"fd-a", strictA}, [2]string{"fd-b", strictB})
	// sameFingerprints: every finding of base found again by its fingerprint.
	sameFingerprints := map[string]string{
		"Session tokens stored in localStorage":       "unchanged fingerprint",
		"Missing rate limiting on the login endpoint": "unchanged fingerprint",
		"Debug logging left on in production":         "unchanged fingerprint",
	}
	tests := []struct {
		name string
		run  *Run
		// want maps each finding's title to its state and how it matched.
		want   map[string]string
		absent []string
	}{
		{
			name: "rerun",
			run:  reportRun([2]string{"fd-a", strictA}, [2]string{"fd-b", strictB}),
			want: sameFingerprints,
		},
		{
			name: "agent order",
			run:  reportRun([2]string{"fd-b", strictB}, [2]string{"fd-a", strictA}),
			want: sameFingerprints,
		},
		{
			name: "lines moved in the reports and the code",
			run: reportRun(
				[2]string{"fd-a", "\n\n<!-- notes -->\n\n" + strings.ReplaceAll(strings.ReplaceAll(strictA, "auth.ts:12", "auth.ts:57"), "login.go:40-42", "login.go:90")},
				[2]string{"fd-b", "\n" + strings.ReplaceAll(strictB, "auth.ts:12", "auth.ts:57-60")}),
			want: sameFingerprints,
		},
		{
			name: "strict index as a table, file refs lost",
			run: reportRun([2]string{"fd-a", "## Findings Index\n\n| ID | Severity | Section | Title |\n|---|---|---|---|\n" +
				"| AR-001 | P1 | Authentication | Session tokens stored in localStorage |\n" +
				"| AR-002 | P2 | API Design | Missing rate limiting on the login endpoint |\n\nVerdict: needs-changes\n"},
				[2]string{"fd-b", strictB}),
			want: map[string]string{
				"Session tokens stored in localStorage":       "unchanged fingerprint",
				"Missing rate limiting on the login endpoint": "unchanged key",
				"Debug logging left on in production":         "unchanged fingerprint",
			},
		},
		{
			name: "variant lines, re-worded titles, another set of agents",
			run: reportRun([2]string{"fd-c", "### Findings Index\n" +
				"- [P1] Session tokens are stored in localStorage — Authentication\n" +
				"- [P2] Missing rate limiting on login endpoint — API Design\n" +
				"- [P0] SQL injection in the search handler — Data\nVerdict: risky\n"}),
			want: map[string]string{
				"Session tokens are stored in localStorage": "unchanged title",
				"Missing rate limiting on login endpoint":   "unchanged title",
				"SQL injection in the search handler":       "new",
			},
			absent: []string{"Debug logging left on in production"},
		},
		{
			name: "a re-worded title in another section is new",
			run: reportRun([2]string{"fd-a", "### Findings Index\n" +
				"- P1 | AR-001 | \"Storage\" | Session tokens stored in localStorage\nVerdict: needs-changes\n"}),
			want: map[string]string{"Session tokens stored in localStorage": "new"},
			absent: []string{"Session tokens stored in localStorage", "Missing rate limiting on the login endpoint",
				"Debug logging left on in production"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Synthesize(tt.run, Options{Baseline: baselineOf(t, base)})
			got := map[string]string{}
			for _, f := range s.Findings {
				st := f.Baseline().State
				if f.Baseline().MatchedBy != "" {
					st += " " + f.Baseline().MatchedBy
				}
				got[f.Title] = st
			}
			for title, want := range tt.want {
				if got[title] != want {
					t.Errorf("%q: %q, want %q", title, got[title], want)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("findings %v, want %v", got, tt.want)
			}
			var absent []string
			for _, a := range s.Baseline.Absent {
				absent = append(absent, a.Title)
			}
			slices.Sort(absent)
			slices.Sort(tt.absent)
			if !slices.Equal(absent, tt.absent) {
				t.Errorf("absent %q, want %q", absent, tt.absent)
			}
			if n := s.Baseline.New + s.Baseline.Unchanged; n != len(s.Findings) {
				t.Errorf("new+unchanged = %d, want %d", n, len(s.Findings))
			}
		})
	}
}

// TestBaselineOneToOne: two findings that both match one baseline finding
// by title do not both become unchanged. (The second is a misspelling: the
// title rule of the baseline matches it, the merge rule of dedup does not.)
func TestBaselineOneToOne(t *testing.T) {
	base := reportRun([2]string{"fd-a", "### Findings Index\n- P1 | A-001 | \"Auth\" | Token leak\nVerdict: needs-changes\n"})
	run := reportRun([2]string{"fd-a", "### Findings Index\n" +
		"- P1 | A-001 | \"Auth\" | Token leak\n" +
		"- P1 | A-002 | \"Auth\" | Tokn leak\nVerdict: needs-changes\n"})
	s := Synthesize(run, Options{Baseline: baselineOf(t, base)})
	if s.Baseline.Unchanged != 1 || s.Baseline.New != 1 || len(s.Baseline.Absent) != 0 {
		t.Errorf("baseline = %+v, want 1 unchanged, 1 new, 0 absent", s.Baseline)
	}
}

func TestDecodeBaselineErrors(t *testing.T) {
	for name, data := range map[string]string{
		"not JSON":       "{",
		"other protocol": `{"synthesis_protocol_version":"0.9","findings":[]}`,
		"no fingerprint": `{"synthesis_protocol_version":"1.0","findings":[{"key":"a:b"}]}`,
	} {
		if _, err := DecodeBaseline("x/findings.json", []byte(data)); err == nil || !strings.Contains(err.Error(), "x/findings.json") {
			t.Errorf("%s: err = %v, want an error naming the file", name, err)
		}
	}
}

func TestSuppressions(t *testing.T) {
	run := reportRun([2]string{"fd-a", strictA}, [2]string{"fd-b", strictB})
	plain := Synthesize(run, Options{})
	fp := map[string]string{}
	for _, f := range plain.Findings {
		fp[f.Title] = f.Fingerprint
	}
	tokens, rate, logging := "Session tokens stored in localStorage", "Missing rate limiting on the login endpoint", "Debug logging left on in production"
	today := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		entries    []Suppression
		suppressed []string
		verdict    parse.Verdict
		expired    int
		unused     int
	}{
		{"fingerprint", []Suppression{{Line: 3, Fingerprint: fp[tokens], Reason: "accepted"}}, []string{tokens}, parse.Safe, 0, 0},
		{"title regexp", []Suppression{{Line: 3, Match: SuppressionMatch{Title: "RATE limiting"}, Reason: "r"}}, []string{rate}, parse.NeedsChanges, 0, 0},
		{"file glob", []Suppression{{Line: 3, Match: SuppressionMatch{File: "api/*.go"}, Reason: "r"}}, []string{rate}, parse.NeedsChanges, 0, 0},
		{"dir/**", []Suppression{{Line: 3, Match: SuppressionMatch{File: "src/**"}, Reason: "r"}}, []string{tokens}, parse.Safe, 0, 0},
		{"severity", []Suppression{{Line: 3, Match: SuppressionMatch{Severity: parse.P3}, Reason: "r"}}, []string{logging}, parse.NeedsChanges, 0, 0},
		{"every field must hold", []Suppression{{Line: 3, Match: SuppressionMatch{Severity: parse.P3, File: "src/**"}, Reason: "r"}}, nil, parse.NeedsChanges, 0, 1},
		{"expires today: in force", []Suppression{{Line: 3, Fingerprint: fp[tokens], Reason: "r", Expires: "2026-11-25"}}, []string{tokens}, parse.Safe, 0, 0},
		{"expired yesterday", []Suppression{{Line: 3, Fingerprint: fp[tokens], Reason: "r", Expires: "2026-11-24"}}, nil, parse.NeedsChanges, 1, 0},
		{"unused", []Suppression{{Line: 3, Fingerprint: "0123456789abcdef0123456789abcdef", Reason: "r"}}, nil, parse.NeedsChanges, 0, 1},
		{"first entry wins, second unused", []Suppression{
			{Line: 3, Match: SuppressionMatch{Title: "tokens"}, Reason: "first"},
			{Line: 7, Fingerprint: fp[tokens], Reason: "second"},
		}, []string{tokens}, parse.Safe, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.entries {
				tt.entries[i].File = ".fluxwatch.yaml"
			}
			s := Synthesize(run, Options{Suppressions: tt.entries, Today: today})
			var got []string
			for _, f := range s.Findings {
				if f.Suppressed() != nil {
					got = append(got, f.Title)
					if f.Suppressed().By != ".fluxwatch.yaml:3" {
						t.Errorf("by = %q, want .fluxwatch.yaml:3", f.Suppressed().By)
					}
				}
			}
			if !slices.Equal(got, tt.suppressed) {
				t.Errorf("suppressed %q, want %q", got, tt.suppressed)
			}
			if len(s.Findings) != len(plain.Findings) {
				t.Errorf("%d findings, want %d: a suppressed finding is never dropped", len(s.Findings), len(plain.Findings))
			}
			if s.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", s.Verdict, tt.verdict)
			}
			r := s.Suppressions
			if len(r.Expired) != tt.expired || len(r.Unused) != tt.unused || r.Suppressed != len(tt.suppressed) {
				t.Errorf("report %+v, want %d expired, %d unused", r, tt.expired, tt.unused)
			}
			if n := len(suppressionDiagnostics(r)); countDiag(s, "suppression") != n || n != tt.expired+tt.unused {
				t.Errorf("diagnostics %+v, want one per expired or unused entry", s.Diagnostics)
			}
			md := string(RenderMarkdown(s))
			if !strings.Contains(md, "## Suppressed Findings") {
				t.Errorf("summary.md has no Suppressed Findings section")
			}
		})
	}
}

func countDiag(s *Synthesis, word string) int {
	n := 0
	for _, d := range s.Diagnostics {
		if strings.Contains(d.Message, word) {
			n++
		}
	}
	return n
}

func TestValidSuppression(t *testing.T) {
	tests := []struct {
		e    Suppression
		want string // in the error; "" = valid
	}{
		{Suppression{Fingerprint: "ab", Reason: "ok"}, ""},
		{Suppression{Match: SuppressionMatch{Title: "x", File: "a/**", Severity: "P2"}, Reason: "ok", Expires: "2027-01-31"}, ""},
		{Suppression{Fingerprint: "ab"}, "has no reason"},
		{Suppression{Fingerprint: "ab", Reason: "  "}, "has no reason"},
		{Suppression{Reason: "r"}, "neither a fingerprint nor a match"},
		{Suppression{Fingerprint: "ab", Match: SuppressionMatch{Title: "x"}, Reason: "r"}, "both"},
		{Suppression{Match: SuppressionMatch{Title: "("}, Reason: "r"}, "match.title"},
		{Suppression{Match: SuppressionMatch{File: "["}, Reason: "r"}, "match.file"},
		{Suppression{Match: SuppressionMatch{Severity: "high"}, Reason: "r"}, "match.severity"},
		{Suppression{Fingerprint: "ab", Reason: "r", Expires: "31/01/2027"}, "expires"},
	}
	for _, tt := range tests {
		tt.e.File, tt.e.Line = "cfg.yaml", 9
		err := ValidSuppression(&tt.e)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: %v, want valid", tt.e, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "cfg.yaml:9: ")):
			t.Errorf("%+v: %v, want an error naming cfg.yaml:9 and %q", tt.e, err, tt.want)
		}
	}
}

// TestNewAtOrAbove: the --fail-on-new gate counts new, unsuppressed
// findings at or above the severity.
func TestNewAtOrAbove(t *testing.T) {
	base := reportRun([2]string{"fd-b", strictB})
	run := reportRun([2]string{"fd-a", strictA}, [2]string{"fd-b", strictB})
	b := baselineOf(t, base)
	s := Synthesize(run, Options{Baseline: b})
	titles := func(fs []Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Title)
		}
		return out
	}
	// Session tokens (P1) are in the baseline through fd-b; rate limiting
	// (P2) is new.
	if got := titles(NewAtOrAbove(s, parse.P1)); len(got) != 0 {
		t.Errorf("P1: %q, want none", got)
	}
	if got := titles(NewAtOrAbove(s, parse.P3)); !slices.Equal(got, []string{"Missing rate limiting on the login endpoint"}) {
		t.Errorf("P3: %q", got)
	}
	s = Synthesize(run, Options{Baseline: b, Suppressions: []Suppression{{Match: SuppressionMatch{Title: "rate"}, Reason: "r"}}})
	if got := NewAtOrAbove(s, parse.P3); len(got) != 0 {
		t.Errorf("suppressed finding trips --fail-on-new: %q", titles(got))
	}
	if got := NewAtOrAbove(Synthesize(run, Options{}), parse.P3); got != nil {
		t.Errorf("without a baseline: %q, want nil", titles(got))
	}
}

// TestBaselineSARIF: results carry baselineState and an external
// suppression with its justification.
func TestBaselineSARIF(t *testing.T) {
	run := reportRun([2]string{"fd-a", strictA})
	s := Synthesize(run, Options{
		Baseline:     baselineOf(t, reportRun([2]string{"fd-b", strictB})),
		Suppressions: []Suppression{{File: "c.yaml", Line: 4, Match: SuppressionMatch{Title: "rate"}, Reason: "known, ticket 12"}},
	})
	var log struct {
		Runs []struct {
			Results []struct {
				BaselineState string `json:"baselineState"`
				Suppressions  []struct {
					Kind, Justification string
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	data := sarifOf(t, s, "", &log)
	var states []string
	sup := 0
	for _, r := range log.Runs[0].Results {
		states = append(states, r.BaselineState)
		for _, x := range r.Suppressions {
			if x.Kind != "external" || x.Justification != "known, ticket 12" {
				t.Errorf("suppression %+v", x)
			}
			sup++
		}
	}
	slices.Sort(states)
	if !slices.Equal(states, []string{"new", "unchanged"}) || sup != 1 {
		t.Errorf("baselineStates %q, %d suppressions; want new and unchanged, 1", states, sup)
	}
	validateSARIF(t, data)
}

// validateSARIF checks data against the SARIF 2.1.0 schema.
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	sch := schematest.CompileFile(t, "testdata/sarif-schema-2.1.0.json")
	if err := schematest.Validate(sch, data); err != nil {
		t.Errorf("SARIF does not validate: %v", err)
	}
}

// TestBaselineSplit: a baseline finding merged through an agent's source
// splits when that agent is left out (the title rule is not transitive);
// both parts are unchanged.
func TestBaselineSplit(t *testing.T) {
	idx := func(name, title string) [2]string {
		return [2]string{name, "### Findings Index\n- P1 | X-001 | \"S\" | " + title + "\nVerdict: needs-changes\n"}
	}
	a := idx("fd-a", "alpha bravo charlie delta")
	b := idx("fd-b", "alpha bravo charlie echo foxtrot golf")
	c := idx("fd-c", "charlie echo foxtrot golf hotel")
	if n := len(Synthesize(reportRun(a, b, c), Options{}).Findings); n != 1 {
		t.Fatalf("setup: %d baseline findings, want 1", n)
	}
	s := Synthesize(reportRun(a, c), Options{Baseline: baselineOf(t, reportRun(a, b, c))})
	if len(s.Findings) != 2 || s.Baseline.New != 0 || s.Baseline.Unchanged != 2 || len(s.Baseline.Absent) != 0 {
		t.Fatalf("%d findings, baseline %+v: want 2 unchanged", len(s.Findings), s.Baseline)
	}
	// One part keeps the fingerprint; the other shares a source's key with
	// the baseline finding it already matched.
	by := []string{s.Findings[0].Baseline().MatchedBy, s.Findings[1].Baseline().MatchedBy}
	slices.Sort(by)
	if !slices.Equal(by, []string{MatchFingerprint, MatchKey}) {
		t.Errorf("matched by %q, want one by fingerprint, one by key", by)
	}
}

func TestSectionPath(t *testing.T) {
	for in, want := range map[string]string{
		"sync.sh:87":       "sync.sh",
		"sync.sh:87-92":    "sync.sh",
		"`sync.sh:87–92`":  "sync.sh",
		"sync.sh:94–92":    "sync.sh",
		"Authentication":   "",
		"Task 1: overview": "",
		"Note: 3 files":    "",
		"src/a.go":         "",
		"API Design:v2":    "",
	} {
		if got := sectionPath(in); got != want {
			t.Errorf("sectionPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBaselineSplitMoved: two findings merged by a shared place split when
// one's lines move away; the part whose section (a file:line) moved too is
// matched by its title, unchanged, though the other part took the baseline
// finding by its fingerprint.
func TestBaselineSplitMoved(t *testing.T) {
	a := [2]string{"fd-a", "### Findings Index\n- P1 | A-001 | \"Uploads\" | SQL injection in list_uploads\nVerdict: needs-changes\n\n" +
		"### A-001: SQL injection\n\nIn `src/db.py:40`.\n"}
	b := func(line string) [2]string {
		return [2]string{"fd-b", "### Findings Index\n- P2 | B-001 | \"db.py:" + line + "\" | SQL query built with string formatting (injection risk)\nVerdict: needs-changes\n\n" +
			"### B-001: query\n\nIn `src/db.py:" + line + "`.\n"}
	}
	base := reportRun(a, b("41"))
	if n := len(Synthesize(base, Options{}).Findings); n != 1 {
		t.Fatalf("setup: %d baseline findings, want 1 (merged at one place)", n)
	}
	s := Synthesize(reportRun(a, b("90")), Options{Baseline: baselineOf(t, base)})
	if len(s.Findings) != 2 || s.Baseline.New != 0 || s.Baseline.Unchanged != 2 || len(s.Baseline.Absent) != 0 {
		t.Errorf("%d findings, baseline %+v: want 2 unchanged", len(s.Findings), s.Baseline)
	}
}
