package synth

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
)

// TestCodeClimateGolden renders each testdata/codeclimate/*.txtar run.json
// as a Code Climate report and compares codeclimate.json; -update rewrites
// it.
func TestCodeClimateGolden(t *testing.T) {
	txtartest.Each(t, "testdata/codeclimate/*.txtar", func(t *testing.T, file string, ar *txtar.Archive) {
		run, opts := loadGoldenRun(t, txtartest.File(ar, "run.json").Data)
		got, err := RenderCodeClimate(Synthesize(run, opts), "reviews/run")
		if err != nil {
			t.Fatal(err)
		}
		checkCodeClimateShape(t, got)
		txtartest.Golden(t, file, ar, "codeclimate.json", got, *update)
	})
}

// checkCodeClimateShape checks data against what GitLab's Code Quality
// widget reads: a JSON array of objects with exactly type "issue", a
// check_name, a description, a severity of info, minor, major, critical or
// blocker, a fingerprint (unique in the report), and a location with a
// relative path and lines.begin ≥ 1 (and an end, when given, ≥ begin).
func checkCodeClimateShape(t *testing.T, data []byte) {
	t.Helper()
	var issues []map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&issues); err != nil {
		t.Fatalf("not a JSON array of objects: %v\n%s", err, data)
	}
	if issues == nil {
		t.Fatalf("null, not an array: %s", data)
	}
	severities := map[string]bool{"info": true, "minor": true, "major": true, "critical": true, "blocker": true}
	seen := map[string]bool{}
	for i, raw := range issues {
		var is struct {
			Type, CheckName, Description, Severity, Fingerprint string
			Location                                            struct {
				Path  string
				Lines struct{ Begin, End *int }
			}
		}
		for _, k := range []string{"type", "check_name", "description", "severity", "fingerprint", "location"} {
			if _, ok := raw[k]; !ok {
				t.Errorf("issue %d: no %s", i, k)
			}
		}
		if len(raw) != 6 {
			t.Errorf("issue %d: %d keys, want the 6 of the format", i, len(raw))
		}
		b, _ := json.Marshal(raw)
		d := json.NewDecoder(bytes.NewReader(bytes.ReplaceAll(b, []byte(`"check_name"`), []byte(`"checkname"`))))
		d.DisallowUnknownFields()
		if err := d.Decode(&is); err != nil {
			t.Errorf("issue %d: %v", i, err)
			continue
		}
		switch {
		case is.Type != "issue":
			t.Errorf("issue %d: type %q", i, is.Type)
		case is.CheckName == "" || is.Description == "":
			t.Errorf("issue %d: empty check_name or description", i)
		case !severities[is.Severity]:
			t.Errorf("issue %d: severity %q", i, is.Severity)
		case len(is.Fingerprint) != 32 || seen[is.Fingerprint]:
			t.Errorf("issue %d: fingerprint %q empty, malformed or repeated", i, is.Fingerprint)
		case is.Location.Path == "" || is.Location.Path[0] == '/':
			t.Errorf("issue %d: path %q", i, is.Location.Path)
		case is.Location.Lines.Begin == nil || *is.Location.Lines.Begin < 1:
			t.Errorf("issue %d: no lines.begin ≥ 1", i)
		case is.Location.Lines.End != nil && *is.Location.Lines.End < *is.Location.Lines.Begin:
			t.Errorf("issue %d: lines.end before lines.begin", i)
		}
		seen[is.Fingerprint] = true
	}
}

// A finding's issue carries the fingerprint SARIF gives it, so GitLab and
// code scanning follow the same finding; a run without findings is an
// empty array, never null.
func TestCodeClimateFingerprints(t *testing.T) {
	empty, err := RenderCodeClimate(Synthesize(&Run{Input: "empty"}, Options{}), "")
	if err != nil || string(empty) != "[]\n" {
		t.Errorf("empty run: %q, %v", empty, err)
	}
	s := Synthesize(timelineRun(), Options{})
	got, err := RenderCodeClimate(s, "run")
	if err != nil {
		t.Fatal(err)
	}
	checkCodeClimateShape(t, got)
	var issues []struct {
		Fingerprint string `json:"fingerprint"`
		CheckName   string `json:"check_name"`
	}
	if err := json.Unmarshal(got, &issues); err != nil {
		t.Fatal(err)
	}
	if len(issues) != len(s.Findings) || len(issues) == 0 {
		t.Fatalf("%d issues for %d findings", len(issues), len(s.Findings))
	}
	for i, f := range s.Findings {
		if issues[i].Fingerprint != f.Fingerprint || issues[i].CheckName != string(f.Severity) {
			t.Errorf("issue %d = %+v, want fingerprint %s, check %s", i, issues[i], f.Fingerprint, f.Severity)
		}
	}
}

// Two findings with one fingerprint are two issues with two fingerprints
// (GitLab shows one issue per fingerprint), the first keeping its own.
func TestCodeClimateDistinctFingerprints(t *testing.T) {
	s := &Synthesis{Generator: Generator{Name: "fluxwatch"}}
	for _, title := range []string{"first", "second"} {
		s.Findings = append(s.Findings, Finding{Severity: parse.P2, Title: title, Fingerprint: "0123456789abcdef0123456789abcdef",
			Agents: []string{"fd-a"}, ConvergenceDisplay: "1/1", FileRefs: []string{"a.go:1"}})
	}
	got, err := RenderCodeClimate(s, "")
	if err != nil {
		t.Fatal(err)
	}
	checkCodeClimateShape(t, got)
	if !bytes.Contains(got, []byte(`"fingerprint": "0123456789abcdef0123456789abcdef"`)) {
		t.Errorf("the first issue lost its fingerprint:\n%s", got)
	}
}

// The report keeps the agents' text, escaped: it holds no raw control
// character, and the description decodes to what the agent wrote.
func TestCodeClimateInert(t *testing.T) {
	for _, s := range attackTexts {
		out, err := RenderCodeClimate(hostileSynthesis(s), "out")
		if err != nil {
			t.Fatal(err)
		}
		if i := activeAt(out); i >= 0 {
			t.Errorf("%q: raw control character at %d:\n%s", s, i, out)
		}
		var issues []struct{ Description string }
		if err := json.Unmarshal(out, &issues); err != nil || len(issues) == 0 || !bytes.Contains([]byte(issues[0].Description), []byte(inert.Collapse(s))) {
			t.Errorf("%q: issues %+v, %v", s, issues, err)
		}
	}
}
