package synth

import (
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// FingerprintKey is the partialFingerprints key of SARIF results.
const FingerprintKey = "fluxwatchFindingHash/v1"

// maxLocations bounds the locations of one SARIF result.
const maxLocations = 10

// sarifLevel maps a severity to a SARIF level (SPEC §6).
func sarifLevel(s parse.Severity) string {
	switch s {
	case parse.P0, parse.P1:
		return "error"
	case parse.P2:
		return "warning"
	}
	return "note"
}

// message is the one-line text of a finding for CI outputs.
func message(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] ", f.Severity)
	if f.ID != "" {
		b.WriteString(f.ID + ": ")
	}
	b.WriteString(inert.Collapse(f.Title))
	if f.Section != "" {
		b.WriteString(" — " + inert.Collapse(f.Section))
	}
	// "N/M agents", the noun in the number of M.
	noun := "agents"
	if strings.HasSuffix(f.ConvergenceDisplay, "/1") {
		noun = "agent"
	}
	fmt.Fprintf(&b, " (%s %s: %s)", f.ConvergenceDisplay, noun, strings.Join(f.Agents, ", "))
	return b.String()
}

// reportLocation is where a finding without file refs is: its
// representative's line in its report, under dir.
func reportLocation(dir string, f Finding) (string, int) {
	file, line := f.Sources[0].Ref, 0
	if i := strings.LastIndexByte(file, ':'); i > 0 {
		if r := ParseRef(file); r.Start > 0 {
			file, line = r.Path, r.Start
		}
	}
	return underDir(dir, file), line
}

// underDir is file, a path relative to the run directory, as a path
// relative to the repository top when dir is the run directory relative to
// it.
func underDir(dir, file string) string {
	if dir == "" || dir == "." {
		return file
	}
	return path.Join(strings.TrimSuffix(dir, "/"), file)
}

// unreadRule is the SARIF rule, and the JUnit failure type, of a report
// that could not be fully read.
const unreadRule = "unreadable"

// unreadHelp says what an unreadable report means, for the SARIF rule.
const unreadHelp = "The agent's report names severities, P0/P1 counts or a verdict that the findings read from it do not " +
	"account for. Its findings count, but what was not read may be worse, so the verdict may be too low; every gate " +
	"trips on it unless --allow-unreadable. The result stands at the first line that was not accounted for."

// unreadAgent is an agent whose report could not be fully read, as the CI
// outputs show it: its report under the run directory, at the line of its
// first reason.
type unreadAgent struct {
	agent, file string
	line        int
	reasons     []Diagnostic
}

// unreadAgents returns the unreadable agents of s, by name, their reports
// under dir (the run directory relative to the repository top).
func unreadAgents(s *Synthesis, dir string) []unreadAgent {
	var out []unreadAgent
	for _, a := range s.Agents {
		if a.Status == parse.StatusUnreadable {
			out = append(out, unreadOf(a, dir))
		}
	}
	return out
}

// unreadOf is agent a, unreadable, its report under dir.
func unreadOf(a AgentResult, dir string) unreadAgent {
	u := unreadAgent{agent: a.Name, file: a.Name, reasons: a.UnreadReasons()}
	if a.File != nil {
		u.file = underDir(dir, *a.File)
	}
	for i, d := range u.reasons {
		u.reasons[i].File = u.file
		if u.line == 0 && d.Line > 0 {
			u.line = d.Line
		}
	}
	return u
}

// maxReasons bounds the reasons a CI output lists of one unreadable report
// (a large report may give one per line it could not account for);
// findings.json has them all.
const maxReasons = 20

// reasonLines are the first maxReasons reasons of u as "file:line: error:
// message", then how many more.
func (u unreadAgent) reasonLines() []string {
	var out []string
	for i, d := range u.reasons {
		if i == maxReasons {
			out = append(out, fmt.Sprintf("… and %d more (see findings.json)", len(u.reasons)-i))
			break
		}
		out = append(out, inert.Collapse(d.String()))
	}
	return out
}

// message is the one-line text of u for CI outputs.
func (u unreadAgent) message() string {
	var b strings.Builder
	b.WriteString("The report of agent " + inert.Collapse(u.agent) + " could not be fully read")
	if len(u.reasons) > 0 {
		b.WriteString(": " + inert.Collapse(u.reasons[0].Message))
		if n := len(u.reasons) - 1; n > 0 {
			fmt.Fprintf(&b, " (and %d more)", n)
		}
	}
	b.WriteString("; its findings count, but the verdict may be too low")
	return b.String()
}

// ciLocation is where the CI outputs (SARIF, rdjsonl, annotations, JUnit)
// put a finding: its first file ref, which agents write relative to the
// repository top, cleaned ("./a/../b.go" is "b.go"), else its line in the
// agent's report. dir is the run directory relative to the repository top
// (the caller decides the top: every CI output then names files from the
// same base).
func ciLocation(dir string, f Finding) Ref {
	if len(f.FileRefs) == 0 {
		var r Ref
		r.Path, r.Start = reportLocation(dir, f)
		r.End = r.Start
		return r
	}
	return cleanRef(ParseRef(f.FileRefs[0]))
}

// cleanRef cleans r's path lexically; a path that is only "." stays as
// written.
func cleanRef(r Ref) Ref {
	if r.Path != "" {
		if c := path.Clean(r.Path); c != "." {
			r.Path = c
		}
	}
	return r
}

// RenderSARIF returns a SARIF 2.1.0 log of the findings, built with
// github.com/owenrumney/go-sarif. Rules are the severities P0–P3; each finding
// is one result located at its file refs (or, without any, at its line in the
// agent's report under dir), with its fingerprint in partialFingerprints.
// Each report that could not be fully read is an error result of the rule
// "unreadable" (there only when one is), at its report's first line that
// was not accounted for, so that a reader of the CI run sees it.
func RenderSARIF(s *Synthesis, dir string) ([]byte, error) {
	rep := sarif.NewReport()
	run := sarif.NewRunWithInformationURI(s.Generator.Name, "https://github.com/fluxwatch/fluxwatch")
	if s.Generator.Version != "" {
		v := s.Generator.Version
		run.Tool.Driver.Version = &v
	}
	for _, sev := range []parse.Severity{parse.P0, parse.P1, parse.P2, parse.P3} {
		text, md := ruleHelp(sev)
		run.AddRule(string(sev)).
			WithDescription(fmt.Sprintf("A %s finding of the review agents (%s)", sev, sarifLevel(sev))).
			WithName("ReviewFinding" + string(sev)).
			WithFullDescription(sarif.NewMultiformatMessageString().WithText(text)).
			WithHelp(sarif.NewMultiformatMessageString().WithText(text + " " + convergenceHelp).WithMarkdown(md))
	}
	unread := unreadAgents(s, dir)
	if len(unread) > 0 {
		run.AddRule(unreadRule).
			WithDescription("An agent report that fluxwatch could not fully read (error)").
			WithName("UnreadableReport").
			WithFullDescription(sarif.NewMultiformatMessageString().WithText(unreadHelp)).
			WithHelp(sarif.NewMultiformatMessageString().WithText(unreadHelp).WithMarkdown("**unreadable** — " + unreadHelp))
	}
	for _, vc := range versionControl(s) {
		run.AddVersionControlProvenance(sarif.NewVersionControlDetails().
			WithRepositoryURI(vc.repository).WithRevisionID(vc.commit))
	}
	for _, f := range s.Findings {
		res := run.CreateResultForRule(string(f.Severity)).
			WithLevel(sarifLevel(f.Severity)).
			WithMessage(sarif.NewTextMessage(message(f))).
			WithPartialFingerprints(map[string]string{FingerprintKey: f.Fingerprint})
		props := sarif.NewPropertyBag().
			Add("key", f.Key).Add("id", f.ID).Add("agents", f.Agents).
			Add("convergence", f.ConvergenceDisplay).Add("confidence", f.Confidence).
			Add("independent", f.Independent).Add("primed", nonNil(f.Primed())).Add("provenance", f.Provenance())
		if f.Evidence() != nil {
			// Evidence was checked (SPEC §5.7): say whether every claim failed.
			props.Add("ungrounded", f.Evidence().Ungrounded)
		}
		res.WithProperties(props)
		sarifBaseline(res, f)
		for i, r := range f.FileRefs {
			if i == maxLocations {
				break
			}
			ref := cleanRef(ParseRef(r))
			res.AddLocation(SARIFLocation(ref.Path, ref.Start, ref.End))
		}
		if len(f.FileRefs) == 0 {
			file, line := reportLocation(dir, f)
			res.AddLocation(SARIFLocation(file, line, line))
		}
	}
	for _, u := range unread {
		run.CreateResultForRule(unreadRule).
			WithLevel("error").
			WithMessage(sarif.NewTextMessage(u.message())).
			WithPartialFingerprints(map[string]string{FingerprintKey: fingerprint(unreadRule+":"+u.agent, "")}).
			WithProperties(sarif.NewPropertyBag().Add("agent", u.agent).Add("status", string(parse.StatusUnreadable)).
				Add("reasons", u.reasonLines()).Add("reasons_total", len(u.reasons))).
			AddLocation(SARIFLocation(u.file, u.line, u.line))
	}
	rep.AddRun(run)
	var raw bytes.Buffer
	if err := rep.Write(&raw); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	return pruneSARIF(raw.Bytes())
}

// SARIFLocation is the SARIF location of the file at path, at lines start
// to end; a start of 0 names the file alone.
func SARIFLocation(path string, start, end int) *sarif.Location {
	loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(path))
	if start > 0 {
		loc.WithRegion(sarif.NewSimpleRegion(start, end))
	}
	return sarif.NewLocationWithPhysicalLocation(loc)
}

// severityHelp says what each severity means, for the SARIF rules.
var severityHelp = map[parse.Severity]string{
	parse.P0: "P0: a blocking problem (a defect, a security hole, data loss) that must be fixed before merging; the verdict is at least risky.",
	parse.P1: "P1: a serious problem that should be fixed before merging; the verdict is at least needs-changes.",
	parse.P2: "P2: a problem worth fixing that does not block the merge on its own.",
	parse.P3: "P3: a minor remark or a suggestion.",
}

// convergenceHelp says what the convergence of a result means.
const convergenceHelp = "Each result carries its convergence, N/M agents: how many of the agents " +
	"that completed reported the finding; the more agents independently found it, the more likely it is real. " +
	"A finding several agents reported is merged into one result."

// ruleHelp is the full description of the rule of severity sev, as text and
// as Markdown.
func ruleHelp(sev parse.Severity) (text, markdown string) {
	text = severityHelp[sev] + " SARIF level: " + sarifLevel(sev) + "."
	markdown = "**" + string(sev) + "** — " + strings.TrimPrefix(severityHelp[sev], string(sev)+": ") +
		" SARIF level `" + sarifLevel(sev) + "`.\n\n" + convergenceHelp
	return text, markdown
}

// pruneSARIF re-encodes a SARIF log without what go-sarif fills in that
// says nothing: empty arrays and objects, and the -1 of an unset index, id
// or offset. Keys come out sorted, so the log is deterministic.
// Control characters and bidirectional overrides in agent text are
// escaped (inert.EscapeJSON), as in findings.json.
func pruneSARIF(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(prune(v)); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	return inert.EscapeJSON(b.Bytes()), nil
}

// unsetInts are the SARIF properties whose -1 means "not set" (rank: no
// rank given).
var unsetInts = map[string]bool{"index": true, "id": true, "byteOffset": true, "charOffset": true, "rank": true}

func prune(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if n, ok := x.(json.Number); ok && unsetInts[k] && n == "-1" {
				delete(v, k)
				continue
			}
			x = prune(x)
			if empty(x) {
				delete(v, k)
				continue
			}
			v[k] = x
		}
	case []any:
		for i, x := range v {
			v[i] = prune(x)
		}
	}
	return v
}

func empty(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// sarifBaseline adds to res the baselineState of f, when it was compared
// with a baseline, and an external suppression with its reason when it is
// suppressed. Absent baseline findings are not results: code-scanning
// services would show them as open alerts; findings.json lists them.
func sarifBaseline(res *sarif.Result, f Finding) {
	if f.Baseline() != nil {
		res.WithBaselineState(f.Baseline().State)
	}
	if f.Suppressed() != nil {
		res.AddSuppression(sarif.NewSuppression().WithKind("external").WithJustification(f.Suppressed().Reason))
	}
}

// rdjsonl is one line of reviewdog's rdjsonl format.
type rdjsonl struct {
	Message  string     `json:"message"`
	Location rdLocation `json:"location"`
	Severity string     `json:"severity"`
	Source   rdSource   `json:"source"`
	Code     rdCode     `json:"code"`
}

type rdLocation struct {
	Path  string   `json:"path"`
	Range *rdRange `json:"range,omitempty"`
}

type rdRange struct {
	Start rdPosition  `json:"start"`
	End   *rdPosition `json:"end,omitempty"`
}

type rdPosition struct {
	Line int `json:"line"`
}

type rdSource struct {
	Name string `json:"name"`
}

type rdCode struct {
	Value string `json:"value"`
}

// RenderRDJSONL returns the findings in reviewdog's rdjsonl format: one JSON
// object a line, at the finding's first file ref (or its line in the agent's
// report under dir), control characters escaped as in findings.json; then
// an ERROR, code "unreadable", for each report that could not be fully read.
//
// The error is one of encoding (encode rdjsonl: …).
func RenderRDJSONL(s *Synthesis, dir string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, f := range s.Findings {
		d := rdjsonl{Message: message(f), Source: rdSource{Name: s.Generator.Name}, Code: rdCode{Value: f.ID}}
		switch f.Severity {
		case parse.P0, parse.P1:
			d.Severity = "ERROR"
		case parse.P2:
			d.Severity = "WARNING"
		default:
			d.Severity = "INFO"
		}
		ref := ciLocation(dir, f)
		d.Location.Path = ref.Path
		if ref.Start > 0 {
			d.Location.Range = &rdRange{Start: rdPosition{Line: ref.Start}}
			if ref.End > ref.Start {
				d.Location.Range.End = &rdPosition{Line: ref.End}
			}
		}
		if d.Code.Value == "" {
			d.Code.Value = f.Fingerprint
		}
		if err := enc.Encode(d); err != nil {
			return nil, fmt.Errorf("encode rdjsonl: %w", err)
		}
	}
	for _, u := range unreadAgents(s, dir) {
		d := rdjsonl{Message: u.message(), Severity: "ERROR", Source: rdSource{Name: s.Generator.Name},
			Code: rdCode{Value: unreadRule}, Location: rdLocation{Path: u.file}}
		if u.line > 0 {
			d.Location.Range = &rdRange{Start: rdPosition{Line: u.line}}
		}
		if err := enc.Encode(d); err != nil {
			return nil, fmt.Errorf("encode rdjsonl: %w", err)
		}
	}
	return inert.EscapeJSON(b.Bytes()), nil
}

type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	junitTally
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	junitTally
	Cases []junitCase `xml:"testcase"`
}

// junitTally is the attributes testsuites and testsuite share.
type junitTally struct {
	Name      string `xml:"name,attr"`
	Tests     int    `xml:"tests,attr"`
	Failures  int    `xml:"failures,attr"`
	Errors    int    `xml:"errors,attr"`
	Skipped   int    `xml:"skipped,attr"`
	Time      string `xml:"time,attr"`
	Timestamp string `xml:"timestamp,attr,omitempty"`
}

// add counts the cases of o in t.
func (t *junitTally) add(o junitTally) {
	t.Tests += o.Tests
	t.Failures += o.Failures
	t.Errors += o.Errors
	t.Skipped += o.Skipped
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitSeconds formats a duration as JUnit's time attribute: seconds with
// millisecond precision.
func junitSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

// RenderJUnit returns a JUnit XML report: a suite "agents" with one case per
// agent (a failed agent is an error; an unreadable one a failure, with the
// reasons; a foreign or partial one is skipped, since its report was not
// read as a complete review), and a suite
// "findings" with one case per finding (P0 and P1 are failures; P2 and P3
// pass, with the finding as output). dir is the run directory relative to
// the repository top: an agent's case names its report under it, a
// finding's case its location (as the other CI outputs do). Every time
// attribute is 0 and the timestamp is the review time: fluxwatch does not
// know how long an agent ran, and like findings.json the report's bytes
// never depend on modification times. encoding/xml escapes agent text; the
// C1 controls and bidirectional overrides it leaves raw become character
// references (inert.EscapeXML).
//
// The error is one of encoding (encode JUnit: …).
func RenderJUnit(s *Synthesis, dir string) ([]byte, error) {
	agents := junitSuite{junitTally: junitTally{Name: "agents", Time: junitSeconds(0)}}
	for _, a := range s.Agents {
		c := junitCase{Name: a.Name, Classname: "fluxwatch.agents", Time: junitSeconds(0)}
		if a.File != nil {
			c.File = underDir(dir, *a.File)
		}
		switch a.Status {
		case parse.StatusError:
			msg := "agent failed"
			if len(a.Diagnostics) > 0 {
				msg = a.Diagnostics[len(a.Diagnostics)-1].Message
			}
			c.Error = &junitProblem{Message: msg, Type: string(a.Status)}
			agents.Errors++
		case parse.StatusForeign:
			c.Skipped = &junitSkipped{Message: "foreign report: not written in the review format, read as prose"}
			agents.Skipped++
		case parse.StatusPartial:
			c.Skipped = &junitSkipped{Message: "partial report: the agent has not finished"}
			agents.Skipped++
		case parse.StatusUnreadable:
			text := append([]string{fmt.Sprintf("status %s, verdict %s from what was read", a.Status, a.Verdict)},
				unreadOf(a, dir).reasonLines()...)
			c.Failure = &junitProblem{Message: "the report could not be fully read: its findings count, but the verdict may be too low", Type: unreadRule,
				Text: strings.Join(text, "\n")}
			agents.Failures++
		default:
			c.SystemOut = fmt.Sprintf("status %s, verdict %s", a.Status, a.Verdict)
		}
		agents.Cases = append(agents.Cases, c)
		agents.Tests++
	}
	findings := junitSuite{junitTally: junitTally{Name: "findings", Time: junitSeconds(0)}}
	for _, f := range s.Findings {
		name := f.Title
		if f.ID != "" {
			name = f.ID + ": " + f.Title
		}
		ref := ciLocation(dir, f)
		c := junitCase{Name: inert.Collapse(name), Classname: "fluxwatch.findings." + string(f.Severity),
			File: ref.Path, Line: ref.Start, Time: junitSeconds(0)}
		text := message(f)
		if len(f.FileRefs) > 0 {
			text += "\n" + strings.Join(f.FileRefs, "\n")
		}
		if f.Severity.Rank() <= 1 {
			c.Failure = &junitProblem{Message: message(f), Type: string(f.Severity), Text: text}
			findings.Failures++
		} else {
			c.SystemOut = text
		}
		findings.Cases = append(findings.Cases, c)
		findings.Tests++
	}
	all := junitSuites{junitTally: junitTally{Name: "fluxwatch: " + VerdictText(s), Time: agents.Time,
		Timestamp: strings.TrimSuffix(s.Reviewed, "Z")}, Suites: []junitSuite{agents, findings}}
	for i, su := range all.Suites {
		all.Suites[i].Timestamp = all.Timestamp
		all.add(su.junitTally)
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return nil, fmt.Errorf("encode JUnit: %w", err)
	}
	b.WriteByte('\n')
	return inert.EscapeXML(b.Bytes()), nil
}

// Annotation limits (SPEC §6): at most this many errors and warnings.
const maxAnnotations = 10

// RenderAnnotations returns GitHub Actions workflow commands for the top
// findings: P0/P1 as ::error, P2 as ::warning (P3 none), at most 10 of each,
// most severe and most convergent first, after an ::error for each report
// that could not be fully read (counted in the 10). Agent text is escaped so that it can
// never end the command or start another (see EscapeData, EscapeProperty).
// GitHub shows an annotation's title and message as plain text, never as
// Markdown or HTML, so agent text is put on one line, inert (inert.Line: a
// person reads it in the job log, where an escape sequence would act), and
// otherwise kept as written: HTML or a link in it shows literally (a
// Markdown escape would show as a stray backslash).
func RenderAnnotations(s *Synthesis, dir string) []byte {
	var b bytes.Buffer
	errs, warns := 0, 0
	// A report that could not be fully read comes first: what it did not
	// give may be worse than every finding below.
	for _, u := range unreadAgents(s, dir) {
		if errs == maxAnnotations {
			break
		}
		errs++
		props := []string{"file=" + EscapeProperty(inert.Line(u.file))}
		if u.line > 0 {
			props = append(props, fmt.Sprintf("line=%d", u.line))
		}
		props = append(props, "title="+EscapeProperty(inert.Line("Report could not be fully read: "+u.agent)))
		fmt.Fprintf(&b, "::error %s::%s\n", strings.Join(props, ","), EscapeData(inert.Line(u.message())))
	}
	for _, f := range s.Findings {
		cmd := ""
		switch {
		case f.Severity.Rank() <= 1 && errs < maxAnnotations:
			cmd, errs = "error", errs+1
		case f.Severity == parse.P2 && warns < maxAnnotations:
			cmd, warns = "warning", warns+1
		default:
			continue
		}
		ref := ciLocation(dir, f)
		props := []string{"file=" + EscapeProperty(inert.Line(ref.Path))}
		if ref.Start > 0 {
			props = append(props, fmt.Sprintf("line=%d", ref.Start))
			if ref.End > ref.Start {
				props = append(props, fmt.Sprintf("endLine=%d", ref.End))
			}
		}
		title := string(f.Severity) + " " + f.Title
		if f.ID != "" {
			title = string(f.Severity) + " " + f.ID + ": " + f.Title
		}
		props = append(props, "title="+EscapeProperty(inert.Line(title)))
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), EscapeData(inert.Line(message(f))))
	}
	return b.Bytes()
}

// EscapeData escapes the message of a workflow command: '%', '\r' and '\n'
// are percent-encoded (as the Actions toolkit does), and every "::" is broken
// with a zero-width space so that no text can look like a command.
func EscapeData(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	return breakColons(s)
}

// EscapeProperty escapes a property value of a workflow command: as
// EscapeData, plus ':' and ','.
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func breakColons(s string) string {
	for strings.Contains(s, "::") {
		s = strings.ReplaceAll(s, "::", ":\u200b:")
	}
	return s
}

// versionControl returns the distinct (repository, commit) pairs that the
// agents of s declare (SARIF versionControlProvenance), sorted. An agent
// that declares a commit without its repository adds nothing: SARIF needs
// the repository, and fluxwatch never guesses it.
func versionControl(s *Synthesis) []struct{ repository, commit string } {
	type vc = struct{ repository, commit string }
	seen := map[vc]bool{}
	var out []vc
	for _, a := range s.Agents {
		p := a.Provenance
		if p.Repository == nil || p.Commit == nil || a.Status == parse.StatusForeign {
			continue
		}
		k := vc{*p.Repository, *p.Commit}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b vc) int {
		return cmp.Or(cmp.Compare(a.repository, b.repository), cmp.Compare(a.commit, b.commit))
	})
	return out
}
