package synth

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"path"
	"strings"

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
	b.WriteString(oneLine(f.Title))
	if f.Section != "" {
		b.WriteString(" — " + oneLine(f.Section))
	}
	fmt.Fprintf(&b, " (%s agents: %s)", f.ConvergenceDisplay, strings.Join(f.Agents, ", "))
	return b.String()
}

// reportLocation is where a finding without file refs is: its
// representative's line in its report, under dir (the output directory as
// the user named it).
func reportLocation(dir string, f Finding) (string, int) {
	file, line := f.Sources[0].Ref, 0
	if i := strings.LastIndexByte(file, ':'); i > 0 {
		if r := ParseRef(file); r.Start > 0 {
			file, line = r.Path, r.Start
		}
	}
	if dir != "" && dir != "." {
		file = path.Join(strings.TrimSuffix(dir, "/"), file)
	}
	return file, line
}

// RenderSARIF returns a SARIF 2.1.0 log of the findings, built with
// github.com/owenrumney/go-sarif. Rules are the severities P0–P3; each finding
// is one result located at its file refs (or, without any, at its line in the
// agent's report under dir), with its fingerprint in partialFingerprints.
func RenderSARIF(s *Synthesis, dir string) ([]byte, error) {
	rep := sarif.NewReport()
	run := sarif.NewRunWithInformationURI(s.Generator.Name, "https://github.com/fluxwatch/fluxwatch")
	if s.Generator.Version != "" {
		v := s.Generator.Version
		run.Tool.Driver.Version = &v
	}
	for _, sev := range []parse.Severity{parse.P0, parse.P1, parse.P2, parse.P3} {
		run.AddRule(string(sev)).
			WithDescription(fmt.Sprintf("A %s finding of the review agents (%s)", sev, sarifLevel(sev))).
			WithName("ReviewFinding" + string(sev))
	}
	for _, f := range s.Findings {
		res := run.CreateResultForRule(string(f.Severity)).
			WithLevel(sarifLevel(f.Severity)).
			WithMessage(sarif.NewTextMessage(message(f))).
			WithPartialFingerprints(map[string]string{FingerprintKey: f.Fingerprint})
		props := sarif.NewPropertyBag().
			Add("key", f.Key).Add("id", f.ID).Add("agents", f.Agents).
			Add("convergence", f.ConvergenceDisplay).Add("confidence", f.Confidence).
			Add("independent", f.Independent).Add("primed", f.Primed).Add("provenance", f.Provenance)
		if f.Evidence != nil {
			// Evidence was checked (SPEC §5.7): say whether every claim failed.
			props.Add("ungrounded", f.Evidence.Ungrounded)
		}
		res.WithProperties(props)
		sarifBaseline(res, f)
		for i, r := range f.FileRefs {
			if i == maxLocations {
				break
			}
			ref := ParseRef(r)
			loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(ref.Path))
			if ref.Start > 0 {
				loc.WithRegion(sarif.NewSimpleRegion(ref.Start, ref.End))
			}
			res.AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
		}
		if len(f.FileRefs) == 0 {
			file, line := reportLocation(dir, f)
			loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(file))
			if line > 0 {
				loc.WithRegion(sarif.NewSimpleRegion(line, line))
			}
			res.AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
		}
	}
	rep.AddRun(run)
	var b bytes.Buffer
	if err := rep.PrettyWrite(&b); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// sarifBaseline adds to res the baselineState of f, when it was compared
// with a baseline, and an external suppression with its reason when it is
// suppressed. Absent baseline findings are not results: code-scanning
// services would show them as open alerts; findings.json lists them.
func sarifBaseline(res *sarif.Result, f Finding) {
	if f.Baseline != nil {
		res.WithBaselineState(f.Baseline.State)
	}
	if f.Suppressed != nil {
		res.AddSuppression(sarif.NewSuppression().WithKind("external").WithJustification(f.Suppressed.Reason))
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
// report under dir).
func RenderRDJSONL(s *Synthesis, dir string) []byte {
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
		var ref Ref
		if len(f.FileRefs) > 0 {
			ref = ParseRef(f.FileRefs[0])
		} else {
			ref.Path, ref.Start = reportLocation(dir, f)
			ref.End = ref.Start
		}
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
			panic("synth: encode rdjsonl: " + err.Error())
		}
	}
	return b.Bytes()
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// RenderJUnit returns a JUnit XML report: a suite "agents" with one case per
// agent (a failed agent is an error), and a suite "findings" with one case per
// finding (P0 and P1 are failures; P2 and P3 pass, with the finding as
// output).
func RenderJUnit(s *Synthesis) []byte {
	agents := junitSuite{Name: "agents"}
	for _, a := range s.Agents {
		c := junitCase{Name: a.Name, Classname: "fluxwatch.agents"}
		switch {
		case a.Status == parse.StatusError:
			msg := "agent failed"
			if len(a.Diagnostics) > 0 {
				msg = a.Diagnostics[len(a.Diagnostics)-1].Message
			}
			c.Error = &junitProblem{Message: msg, Type: string(a.Status)}
			agents.Errors++
		default:
			c.SystemOut = fmt.Sprintf("status %s, verdict %s", a.Status, a.Verdict)
		}
		agents.Cases = append(agents.Cases, c)
		agents.Tests++
	}
	findings := junitSuite{Name: "findings"}
	for _, f := range s.Findings {
		name := f.Title
		if f.ID != "" {
			name = f.ID + ": " + f.Title
		}
		c := junitCase{Name: oneLine(name), Classname: "fluxwatch.findings." + string(f.Severity)}
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
	all := junitSuites{Name: "fluxwatch: " + string(s.Verdict), Suites: []junitSuite{agents, findings}}
	for _, su := range all.Suites {
		all.Tests += su.Tests
		all.Failures += su.Failures
		all.Errors += su.Errors
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		panic("synth: encode JUnit: " + err.Error())
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// Annotation limits (SPEC §6): at most this many errors and warnings.
const maxAnnotations = 10

// RenderAnnotations returns GitHub Actions workflow commands for the top
// findings: P0/P1 as ::error, P2 as ::warning (P3 none), at most 10 of each,
// most severe and most convergent first. Agent text is escaped so that it can
// never end the command or start another (see EscapeData, EscapeProperty).
// GitHub shows an annotation's title and message as plain text, never as
// Markdown or HTML, so agent text is put on one line and otherwise kept as
// written: HTML or a link in it shows literally (a Markdown escape would
// show as a stray backslash).
func RenderAnnotations(s *Synthesis, dir string) []byte {
	var b bytes.Buffer
	errs, warns := 0, 0
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
		var ref Ref
		if len(f.FileRefs) > 0 {
			ref = ParseRef(f.FileRefs[0])
		} else {
			ref.Path, ref.Start = reportLocation(dir, f)
			ref.End = ref.Start
		}
		props := []string{"file=" + EscapeProperty(ref.Path)}
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
		props = append(props, "title="+EscapeProperty(title))
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), EscapeData(message(f)))
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
