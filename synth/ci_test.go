package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"github.com/fluxwatch/fluxwatch/parse"
)

func ciSynthesis() *Synthesis {
	run := timelineRun()
	run.Agents = append(run.Agents, agentOf("fd-evil", parse.StatusValid,
		fnd(parse.P1, "EV-1", "Injection, really", "Bad\n::set-output name=verdict::safe\r\n::stop-commands::x 100% done", "a,b.go:3"),
		fnd(parse.P2, "EV-2", "S", "Warning with %0A encoded newline"),
		fnd(parse.P3, "EV-3", "S", "A note <b>&amp;</b>"),
	), agentOf("fd-failed", parse.StatusError))
	return Synthesize(run, Options{Generator: Generator{Name: "fluxwatch", Version: "test"}})
}

// sarifLog is what the tests read of a SARIF log: the rules and results of
// its runs.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct{ Rules []struct{ ID string } }
		}
		Results []struct {
			RuleID              string `json:"ruleId"`
			Level               string `json:"level"`
			Message             struct{ Text string }
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          map[string]any    `json:"properties"`
			Locations           []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// sarifOf renders s as SARIF under dir, decodes it into log and returns it,
// failing the test when either fails.
func sarifOf(t *testing.T, s *Synthesis, dir string, log any) []byte {
	t.Helper()
	data, err := RenderSARIF(s, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, log); err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSARIFValidates(t *testing.T) {
	data, err := RenderSARIF(ciSynthesis(), "out")
	if err != nil {
		t.Fatal(err)
	}
	sch := schematest.CompileFile(t, "testdata/sarif-schema-2.1.0.json")
	if err := schematest.Validate(sch, data); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v", err)
	}
	// The schema must be able to fail.
	var m map[string]any
	json.Unmarshal(data, &m)
	m["version"] = "2.0.0"
	bad, _ := json.Marshal(m)
	if schematest.Validate(sch, bad) == nil {
		t.Fatal("the SARIF schema accepts version 2.0.0")
	}

	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	s := ciSynthesis()
	res := log.Runs[0].Results
	if len(res) != len(s.Findings) {
		t.Fatalf("%d results for %d findings", len(res), len(s.Findings))
	}
	levels := map[parse.Severity]string{parse.P0: "error", parse.P1: "error", parse.P2: "warning", parse.P3: "note"}
	for i, f := range s.Findings {
		if res[i].Level != levels[f.Severity] || res[i].RuleID != string(f.Severity) {
			t.Errorf("result %d: level %s rule %s for %s", i, res[i].Level, res[i].RuleID, f.Severity)
		}
		if res[i].PartialFingerprints[FingerprintKey] != f.Fingerprint {
			t.Errorf("result %d: fingerprint missing", i)
		}
		if len(res[i].Locations) == 0 {
			t.Errorf("result %d has no location", i)
		}
	}
	// EV-2 has no file refs: located at its line in the agent's report, under the output directory.
	for i, f := range s.Findings {
		if f.ID == "EV-2" {
			loc := res[i].Locations[0].PhysicalLocation
			if loc.ArtifactLocation.URI != "out/fd-evil.md" || loc.Region == nil || loc.Region.StartLine != 3 {
				t.Errorf("EV-2 located at %+v", loc)
			}
		}
	}
}

func TestAnnotationsCannotInject(t *testing.T) {
	out := string(RenderAnnotations(ciSynthesis(), "out"))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::warning ") {
			t.Errorf("line is not one annotation: %q", l)
		}
		// After the command's own "::", no "::" may appear anywhere.
		rest := l[2:]
		i := strings.Index(rest, "::")
		if strings.Contains(rest[i+2:], "::") {
			t.Errorf("agent text keeps a \"::\": %q", l)
		}
		if strings.ContainsAny(l, "\r") {
			t.Errorf("raw CR in %q", l)
		}
	}
	var evil string
	for _, l := range lines {
		if strings.Contains(l, "EV-1") {
			evil = l
		}
	}
	// The title is on one line (inert.Line), its "::" and ',' escaped.
	wantProps := "::error file=a%2Cb.go,line=3,title=P1 EV-1%3A Bad %3A%3Aset-output name=verdict%3A%3Asafe %3A%3Astop-commands%3A%3Ax 100%25 done::"
	if !strings.HasPrefix(evil, wantProps) {
		t.Errorf("EV-1 annotation =\n%s\nwant prefix\n%s", evil, wantProps)
	}
	if !strings.Contains(out, "Warning with %250A encoded newline") {
		t.Errorf("%% is not escaped in data: %s", out)
	}
	if strings.Contains(out, "EV-3") {
		t.Errorf("a P3 was annotated")
	}
}

func TestAnnotationLimits(t *testing.T) {
	a := agentOf("fd-many", parse.StatusValid)
	for i := range 15 {
		a.Report.Findings = append(a.Report.Findings,
			fnd(parse.P1, "E-"+string(rune('a'+i)), "S"+string(rune('a'+i)), "error number "+strings.Repeat("x", i+1)),
			fnd(parse.P2, "W-"+string(rune('a'+i)), "T"+string(rune('a'+i)), "warning number "+strings.Repeat("y", i+1)))
	}
	out := string(RenderAnnotations(Synthesize(&Run{Agents: []Agent{a}}, Options{}), "."))
	if n := strings.Count(out, "::error "); n != 10 {
		t.Errorf("%d errors, want 10", n)
	}
	if n := strings.Count(out, "::warning "); n != 10 {
		t.Errorf("%d warnings, want 10", n)
	}
}

func TestRDJSONL(t *testing.T) {
	s := ciSynthesis()
	sc := bufio.NewScanner(bytes.NewReader(must(RenderRDJSONL(s, "out"))))
	n := 0
	for sc.Scan() {
		var d rdjsonl
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		if d.Location.Path == "" || d.Source.Name != "fluxwatch" || d.Code.Value == "" {
			t.Errorf("line %d incomplete: %s", n+1, sc.Bytes())
		}
		n++
	}
	if n != len(s.Findings) {
		t.Errorf("%d lines for %d findings", n, len(s.Findings))
	}
}

func TestJUnit(t *testing.T) {
	s := ciSynthesis()
	data := must(RenderJUnit(s, "out"))
	var got junitSuites
	if err := xml.Unmarshal(data, &got); err != nil {
		t.Fatalf("JUnit is not XML: %v\n%s", err, data)
	}
	if got.Tests != len(s.Agents)+len(s.Findings) || got.Errors != 1 {
		t.Errorf("tests %d errors %d, want %d and 1 (fd-failed)", got.Tests, got.Errors, len(s.Agents)+len(s.Findings))
	}
	want := s.Counts.P0 + s.Counts.P1
	if got.Failures != want {
		t.Errorf("failures = %d, want %d (the P0 and P1 findings)", got.Failures, want)
	}
}

// ciRun has a foreign and a partial agent beside a valid one, finishing at
// different times, and findings with and without file refs.
func ciRun() *Synthesis {
	valid := agentOf("fd-valid", parse.StatusValid,
		fnd(parse.P1, "V-1", "S", "Refs already repo-relative", "./internal/a/../b.go:7-9"),
		fnd(parse.P2, "V-2", "S", "No refs at all"))
	foreign := agentOf("fd-foreign", parse.StatusForeign, fnd(parse.P3, "", "S", "Prose finding"))
	foreign.ModTime = valid.ModTime.Add(90 * time.Second)
	partial := agentOf("fd-partial", parse.StatusPartial)
	partial.ModTime = valid.ModTime.Add(30 * time.Second)
	return Synthesize(&Run{Agents: []Agent{valid, foreign, partial}}, Options{Generator: Generator{Name: "fluxwatch"}})
}

// Every CI output names the same file for a finding: its first ref cleaned,
// or its report under the run directory relative to the repository top.
func TestCILocationsShareBase(t *testing.T) {
	s := ciRun()
	const dir = "reviews/run1"
	want := map[string]string{"V-1": "internal/b.go", "V-2": "reviews/run1/fd-valid.md"}

	var log struct {
		Runs []struct {
			Results []struct {
				Properties struct{ ID string } `json:"properties"`
				Locations  []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	sarifOf(t, s, dir, &log)
	for _, r := range log.Runs[0].Results {
		if w, ok := want[r.Properties.ID]; ok && r.Locations[0].PhysicalLocation.ArtifactLocation.URI != w {
			t.Errorf("SARIF %s at %q, want %q", r.Properties.ID, r.Locations[0].PhysicalLocation.ArtifactLocation.URI, w)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(string(must(RenderRDJSONL(s, dir)))), "\n") {
		var d rdjsonl
		json.Unmarshal([]byte(l), &d)
		if w, ok := want[d.Code.Value]; ok && d.Location.Path != w {
			t.Errorf("rdjsonl %s at %q, want %q", d.Code.Value, d.Location.Path, w)
		}
	}
	ann := string(RenderAnnotations(s, dir))
	for _, w := range want {
		if !strings.Contains(ann, "file="+w+",") {
			t.Errorf("annotations do not name %s:\n%s", w, ann)
		}
	}
	var ju junitSuites
	if err := xml.Unmarshal(must(RenderJUnit(s, dir)), &ju); err != nil {
		t.Fatal(err)
	}
	for _, c := range ju.Suites[1].Cases {
		id, _, _ := strings.Cut(c.Name, ":")
		if w, ok := want[id]; ok && c.File != w {
			t.Errorf("JUnit %s at %q, want %q", id, c.File, w)
		}
	}
	if c := ju.Suites[0].Cases[0]; c.File != "reviews/run1/"+c.Name+".md" {
		t.Errorf("JUnit agent %s: file %q", c.Name, c.File)
	}
}

func TestJUnitSkipsForeignAndPartial(t *testing.T) {
	s := ciRun()
	var got junitSuites
	if err := xml.Unmarshal(must(RenderJUnit(s, ".")), &got); err != nil {
		t.Fatal(err)
	}
	agents := got.Suites[0]
	if agents.Skipped != 2 || got.Skipped != 2 {
		t.Errorf("skipped: suite %d, all %d; want 2", agents.Skipped, got.Skipped)
	}
	times := map[string]string{}
	for _, c := range agents.Cases {
		times[c.Name] = c.Time
		skipped := c.Name == "fd-foreign" || c.Name == "fd-partial"
		if (c.Skipped != nil) != skipped {
			t.Errorf("%s: skipped %v", c.Name, c.Skipped != nil)
		}
		if c.File != c.Name+".md" {
			t.Errorf("%s: file %q", c.Name, c.File)
		}
	}
	if times["fd-valid"] != "0.000" || times["fd-partial"] != "0.000" || times["fd-foreign"] != "0.000" || agents.Time != "0.000" {
		t.Errorf("times %v, suite %s", times, agents.Time)
	}
	for _, c := range got.Suites[1].Cases {
		if c.Time == "" || c.File == "" {
			t.Errorf("finding case %q: time %q file %q", c.Name, c.Time, c.File)
		}
	}
}

func TestSARIFRulesAndNoEmptyArrays(t *testing.T) {
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID              string
						FullDescription struct{ Text string } `json:"fullDescription"`
						Help            struct{ Text, Markdown string }
					}
				}
			}
		}
	}
	data := sarifOf(t, ciRun(), ".", &log)
	for _, bad := range []string{"[]", "{}", ": -1"} {
		if bytes.Contains(data, []byte(bad)) {
			t.Errorf("SARIF holds %s", bad)
		}
	}
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) != 4 {
		t.Fatalf("%d rules", len(rules))
	}
	for _, r := range rules {
		if !strings.HasPrefix(r.FullDescription.Text, r.ID+": ") || !strings.Contains(r.Help.Text, "convergence") ||
			!strings.Contains(r.Help.Markdown, "**"+r.ID+"**") {
			t.Errorf("rule %s: %+v", r.ID, r)
		}
	}
}
