package synth

import (
	"bytes"
	"encoding/json"
	"flag"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
)

var update = flag.Bool("update", false, "rewrite the expected parts of testdata/golden/*.txtar")

// goldenRun is the JSON form of a Run in testdata/golden/*.txtar (run.json).
type goldenRun struct {
	Input  string    `json:"input"`
	ID     string    `json:"id"`
	Newest time.Time `json:"newest"`
	Agents []struct {
		Name    string        `json:"name"`
		File    string        `json:"file"`
		Run     string        `json:"run"`
		Status  parse.Status  `json:"status"`
		ModTime time.Time     `json:"mod_time"`
		Text    string        `json:"text"`
		Report  *parse.Report `json:"report"`
	} `json:"agents"`
	Bus []struct {
		Name    string      `json:"name"`
		Entries []bus.Entry `json:"entries"`
	} `json:"bus"`
	Specialists []SpecialistFile `json:"specialists"`
	Expect      []string         `json:"expect"`
	Dedup       string           `json:"dedup"`
	// Baseline is the findings.json of an earlier run; Suppressions and
	// Today (YYYY-MM-DD) the suppressions of a configuration.
	Baseline     json.RawMessage `json:"baseline"`
	Suppressions []Suppression   `json:"suppressions"`
	Today        string          `json:"today"`
}

func loadGoldenRun(t *testing.T, data []byte) (*Run, Options) {
	t.Helper()
	var g goldenRun
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		t.Fatalf("run.json: %v", err)
	}
	run := &Run{Input: g.Input, ID: g.ID, Newest: g.Newest, Specialists: g.Specialists}
	for _, a := range g.Agents {
		run.Agents = append(run.Agents, Agent{Name: a.Name, File: a.File, Run: a.Run, Status: a.Status,
			ModTime: a.ModTime, Text: []byte(a.Text), Report: a.Report})
	}
	for _, b := range g.Bus {
		for i := range b.Entries {
			e := &b.Entries[i]
			e.Line = i + 1
			if ts, err := time.Parse(time.RFC3339, e.Timestamp); err == nil {
				e.Time = ts
			}
		}
		run.Bus = append(run.Bus, BusFile{Name: b.Name, Entries: b.Entries})
	}
	opts := Options{Expect: g.Expect, Generator: Generator{Name: "fluxwatch", Version: "test"}}
	if g.Dedup == "exact" {
		opts.Dedup = DedupExact
	}
	if g.Baseline != nil {
		b, err := DecodeBaseline("old/findings.json", g.Baseline)
		if err != nil {
			t.Fatal(err)
		}
		opts.Baseline = b
	}
	opts.Suppressions = g.Suppressions
	if g.Today != "" {
		today, err := time.Parse(time.DateOnly, g.Today)
		if err != nil {
			t.Fatalf("today: %v", err)
		}
		opts.Today = today
	}
	return run, opts
}

// TestGolden synthesises each testdata/golden/*.txtar run.json and compares
// findings.json and summary.md; -update rewrites them.
func TestGolden(t *testing.T) {
	txtartest.Each(t, "testdata/golden/*.txtar", func(t *testing.T, file string, ar *txtar.Archive) {
		var input []byte
		if f := txtartest.File(ar, "run.json"); f != nil {
			input = f.Data
		}
		run, opts := loadGoldenRun(t, input)
		s := Synthesize(run, opts)
		findings := must(RenderJSON(s))
		validateFindingsJSON(t, findings)
		txtartest.Golden(t, file, ar, "findings.json", findings, *update)
		txtartest.Golden(t, file, ar, "summary.md", RenderMarkdown(s), *update)
	})
}

// validateFindingsJSON checks data against the schema that `fluxwatch schema`
// prints.
func validateFindingsJSON(t *testing.T, data []byte) {
	t.Helper()
	if err := schematest.Validate(compileSchema(t), data); err != nil {
		t.Errorf("findings.json does not validate against its schema: %v", err)
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, "findings.schema.json", Schema())
}

func TestSchemaRejects(t *testing.T) {
	s := Synthesize(timelineRun(), Options{})
	good := must(RenderJSON(s))
	validateFindingsJSON(t, good)
	sch := compileSchema(t)
	for name, mutate := range map[string]func(m map[string]any){
		"bad verdict":       func(m map[string]any) { m["verdict"] = "fine" },
		"missing findings":  func(m map[string]any) { delete(m, "findings") },
		"unknown field":     func(m map[string]any) { m["extra"] = 1 },
		"bad severity":      func(m map[string]any) { m["findings"].([]any)[0].(map[string]any)["severity"] = "P9" },
		"short fingerprint": func(m map[string]any) { m["findings"].([]any)[0].(map[string]any)["fingerprint"] = "abc" },
	} {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		b, _ := json.Marshal(m)
		if err := schematest.Validate(sch, b); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}

// TestEmptyRunValidates: a run with no agent at all (an empty directory, or a
// bus alone) still renders a findings.json that the schema accepts, with
// empty lists rather than nulls.
func TestEmptyRunValidates(t *testing.T) {
	for _, opts := range []Options{{}, {Watching: true}, {Expect: []string{"fd-a"}}} {
		data := must(RenderJSON(Synthesize(&Run{Input: "empty"}, opts)))
		validateFindingsJSON(t, data)
		if bytes.Contains(data, []byte(`"agents": null`)) {
			t.Errorf("agents is null in\n%s", data)
		}
	}
}
