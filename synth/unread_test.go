package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"github.com/fluxwatch/fluxwatch/parse"
)

// unreadableAgent is an agent whose report could not be fully read: it
// declared risky and gave one P3, with two reasons (error diagnostics) and
// a warning that is not one.
func unreadableAgent(name string) Agent {
	a := agentOf(name, parse.StatusUnreadable, fnd(parse.P3, "", "", "Log lines are long"))
	a.Report.Findings[0].Confidence = parse.ConfidenceLow
	a.Report.DeclaredVerdict = parse.Risky
	a.Report.Diagnostics = []parse.Diagnostic{
		{Line: 0, Level: parse.LevelWarning, Message: "malformed index: prose fallback"},
		{Line: 7, Level: parse.LevelError, Message: `P0 "CRITICAL" here gave no finding`},
		{Line: 12, Level: parse.LevelError, Message: "declared verdict risky is worse than the safe computed from what was read"},
	}
	return a
}

// unreadableRun is a safe run (a P2 and a P3) of a valid agent and an
// unreadable one.
func unreadableRun() *Synthesis {
	valid := agentOf("fd-valid", parse.StatusValid, fnd(parse.P2, "V-1", "S", "Retry without backoff", "src/a.go:3"))
	return Synthesize(&Run{Input: "run", Agents: []Agent{valid, unreadableAgent("audit")}},
		Options{Generator: Generator{Name: "fluxwatch", Version: "test"}})
}

func TestAgentsUnreadable(t *testing.T) {
	s := unreadableRun()
	if s.Verdict != parse.Safe {
		t.Errorf("verdict %s, want safe: the verdict is computed from what was read", s.Verdict)
	}
	if !slices.Equal(s.AgentsUnreadable, []string{"audit"}) || !slices.Contains(s.AgentsCompleted, "audit") {
		t.Errorf("unreadable %v, completed %v: want audit in both", s.AgentsUnreadable, s.AgentsCompleted)
	}
	if got := len(s.Findings); got != 2 {
		t.Errorf("%d findings, want 2: what was read of an unreadable report counts", got)
	}
	var audit AgentResult
	for _, a := range s.Agents {
		if a.Name == "audit" {
			audit = a
		}
	}
	reasons := audit.UnreadReasons()
	if len(reasons) != 2 || reasons[0].Line != 7 || reasons[1].Line != 12 {
		t.Errorf("reasons %v, want the two error diagnostics, lines 7 and 12", reasons)
	}
	for _, a := range s.Agents {
		if a.Name != "audit" && a.UnreadReasons() != nil {
			t.Errorf("%s (%s) has unread reasons", a.Name, a.Status)
		}
	}
	clean := Synthesize(&Run{Agents: []Agent{agentOf("fd-valid", parse.StatusValid)}}, Options{})
	if clean.AgentsUnreadable == nil || len(clean.AgentsUnreadable) != 0 {
		t.Errorf("agents_unreadable of a fully read run: %#v, want []", clean.AgentsUnreadable)
	}
	if !bytes.Contains(must(RenderJSON(clean)), []byte(`"agents_unreadable": []`)) {
		t.Error(`findings.json of a fully read run has no "agents_unreadable": []`)
	}
}

// TestNeverPlainSafe: wherever the verdict is written for people, a run
// with an unreadable agent says so beside it.
func TestNeverPlainSafe(t *testing.T) {
	s := unreadableRun()
	if got, want := VerdictText(s), "safe — 1 report could not be fully read"; got != want {
		t.Errorf("VerdictText = %q, want %q", got, want)
	}
	md := string(RenderMarkdown(s))
	wantAll(t, "summary.md", md,
		"**Verdict:** safe — 1 report could not be fully read (2/2 agents completed, 0 failed)\n",
		"- Could not be fully read: audit — ",
		"- Agent audit could not be fully read (`audit.md`)",
		"  - `audit.md:7: error: P0 \"CRITICAL\" here gave no finding`",
		"  - `audit.md:12: error: declared verdict risky")
	// A warning is not listed as a reason.
	wantNone(t, "summary.md", md, "audit.md: warning: malformed index: prose fallback`\n  -")
	clean := Synthesize(&Run{Agents: []Agent{agentOf("fd-valid", parse.StatusValid)}}, Options{})
	if got := VerdictText(clean); got != "safe" {
		t.Errorf("VerdictText of a fully read run = %q", got)
	}
	if md := string(RenderMarkdown(clean)); strings.Contains(md, "could not be fully read") {
		t.Errorf("a fully read run says a report could not be fully read:\n%s", md)
	}
	two := Synthesize(&Run{Agents: []Agent{unreadableAgent("a"), unreadableAgent("b")}}, Options{})
	if got, want := VerdictText(two), "safe — 2 reports could not be fully read"; got != want {
		t.Errorf("VerdictText = %q, want %q", got, want)
	}
}

// TestUnreadSummaryCapsReasons: a report with many lines that gave no
// finding lists the first ones in Agent Reports, and how many more.
func TestUnreadSummaryCapsReasons(t *testing.T) {
	a := unreadableAgent("audit")
	for i := range 30 {
		a.Report.Diagnostics = append(a.Report.Diagnostics, parse.Diagnostic{Line: 20 + i, Level: parse.LevelError, Message: "P1 here gave no finding"})
	}
	md := string(RenderMarkdown(Synthesize(&Run{Agents: []Agent{a}}, Options{})))
	if !strings.Contains(md, "  - … and 22 more (see findings.json)\n") {
		t.Errorf("no cap on 32 reasons:\n%s", md)
	}
}

func TestUnreadableSARIF(t *testing.T) {
	s := unreadableRun()
	data, err := RenderSARIF(s, "reviews/run1")
	if err != nil {
		t.Fatal(err)
	}
	if err := schematest.Validate(schematest.CompileFile(t, "testdata/sarif-schema-2.1.0.json"), data); err != nil {
		t.Fatalf("SARIF does not validate: %v", err)
	}
	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	var rules []string
	for _, r := range run.Tool.Driver.Rules {
		rules = append(rules, r.ID)
	}
	if !slices.Contains(rules, "unreadable") {
		t.Errorf("rules %v lack unreadable", rules)
	}
	n := 0
	for _, r := range run.Results {
		if r.RuleID != "unreadable" {
			continue
		}
		n++
		loc := r.Locations[0].PhysicalLocation
		if r.Level != "error" || loc.ArtifactLocation.URI != "reviews/run1/audit.md" || loc.Region == nil || loc.Region.StartLine != 7 {
			t.Errorf("unreadable result: level %s at %s %+v; want error at reviews/run1/audit.md line 7", r.Level, loc.ArtifactLocation.URI, loc.Region)
		}
		if !strings.Contains(r.Message.Text, "audit could not be fully read") || !strings.Contains(r.Message.Text, "(and 1 more)") {
			t.Errorf("message %q", r.Message.Text)
		}
		if len(r.PartialFingerprints[FingerprintKey]) != 32 || r.Properties["agent"] != "audit" {
			t.Errorf("fingerprints %v, properties %v", r.PartialFingerprints, r.Properties)
		}
	}
	if n != 1 || len(run.Results) != len(s.Findings)+1 {
		t.Errorf("%d unreadable results, %d results for %d findings; want 1 and one more than the findings", n, len(run.Results), len(s.Findings))
	}
	// A run read in full has no such rule.
	clean, err := RenderSARIF(Synthesize(&Run{Agents: []Agent{agentOf("fd-valid", parse.StatusValid)}}, Options{}), ".")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(clean, []byte(`"unreadable"`)) {
		t.Error("SARIF of a fully read run names the unreadable rule")
	}
}

func TestUnreadableJUnit(t *testing.T) {
	s := unreadableRun()
	var got junitSuites
	if err := xml.Unmarshal(must(RenderJUnit(s, "out")), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Name, "safe — 1 report could not be fully read") {
		t.Errorf("suites named %q", got.Name)
	}
	agents := got.Suites[0]
	if agents.Failures != 1 || got.Failures != 1 {
		t.Errorf("failures: agents %d, all %d; want 1 (audit; the findings are P2 and P3)", agents.Failures, got.Failures)
	}
	for _, c := range agents.Cases {
		if (c.Failure != nil) != (c.Name == "audit") {
			t.Errorf("%s: failure %v", c.Name, c.Failure)
		}
		if c.Failure != nil && (c.Failure.Type != "unreadable" || !strings.Contains(c.Failure.Text, "out/audit.md:7: error: P0")) {
			t.Errorf("failure %+v", c.Failure)
		}
	}
}

func TestUnreadableAnnotationsAndRDJSONL(t *testing.T) {
	s := unreadableRun()
	ann := string(RenderAnnotations(s, "out"))
	first, _, _ := strings.Cut(ann, "\n")
	if !strings.HasPrefix(first, "::error file=out/audit.md,line=7,title=Report could not be fully read%3A audit::The report of agent audit could not be fully read") {
		t.Errorf("first annotation %q", first)
	}
	// Many unreadable agents stay within GitHub's 10 errors.
	var agents []Agent
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		agents = append(agents, unreadableAgent(n))
	}
	many := Synthesize(&Run{Agents: agents}, Options{})
	if n := strings.Count(string(RenderAnnotations(many, ".")), "::error "); n != maxAnnotations {
		t.Errorf("%d errors for 12 unreadable agents, want %d", n, maxAnnotations)
	}

	sc := bufio.NewScanner(bytes.NewReader(must(RenderRDJSONL(s, "out"))))
	var last rdjsonl
	n := 0
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != len(s.Findings)+1 || last.Code.Value != "unreadable" || last.Severity != "ERROR" || last.Location.Path != "out/audit.md" ||
		last.Location.Range == nil || last.Location.Range.Start.Line != 7 {
		t.Errorf("%d lines for %d findings; last %+v", n, len(s.Findings), last)
	}
}

// TestUnreadCIReasonsBounded: a report with thousands of lines that gave no
// finding lists the first ones in SARIF and JUnit, and how many more.
func TestUnreadCIReasonsBounded(t *testing.T) {
	a := unreadableAgent("audit")
	for i := range 5000 {
		a.Report.Diagnostics = append(a.Report.Diagnostics, parse.Diagnostic{Line: 20 + i, Level: parse.LevelError, Message: "P1 here gave no finding"})
	}
	s := Synthesize(&Run{Agents: []Agent{a}}, Options{})
	var log sarifLog
	sarifOf(t, s, ".", &log)
	res := log.Runs[0].Results
	props := res[len(res)-1].Properties // after the one finding
	if reasons, _ := props["reasons"].([]any); len(reasons) != maxReasons+1 || props["reasons_total"] != float64(5002) ||
		reasons[maxReasons] != "… and 4982 more (see findings.json)" {
		t.Errorf("SARIF reasons: %d listed, total %v: %v", len(reasons), props["reasons_total"], props)
	}
	var ju junitSuites
	if err := xml.Unmarshal(must(RenderJUnit(s, ".")), &ju); err != nil {
		t.Fatal(err)
	}
	if text := ju.Suites[0].Cases[0].Failure.Text; strings.Count(text, "\n") != maxReasons+1 || !strings.HasSuffix(text, "… and 4982 more (see findings.json)") {
		t.Errorf("JUnit failure text of %d lines:\n%.300s", strings.Count(text, "\n")+1, text)
	}
}
