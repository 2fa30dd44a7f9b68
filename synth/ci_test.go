package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"strings"
	"testing"

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

func TestSARIFValidates(t *testing.T) {
	data, err := RenderSARIF(ciSynthesis(), "out")
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := os.ReadFile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	sch := schematest.Compile(t, "sarif-schema-2.1.0.json", schemaDoc)
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

	var log struct {
		Runs []struct {
			Results []struct {
				RuleID              string            `json:"ruleId"`
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
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
	wantProps := "::error file=a%2Cb.go,line=3,title=P1 EV-1%3A Bad%0A%3A%3Aset-output name=verdict%3A%3Asafe%0D%0A%3A%3Astop-commands%3A%3Ax 100%25 done::"
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
	sc := bufio.NewScanner(bytes.NewReader(RenderRDJSONL(s, "out")))
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
	data := RenderJUnit(s)
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
