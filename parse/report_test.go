package parse

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
)

var update = flag.Bool("update", false, "rewrite the expected parts of golden files")

// goldenReport is what a golden case expects of one report.
type goldenReport struct {
	Status          Status            `json:"status"`
	DeclaredVerdict *string           `json:"declared_verdict"`
	Verdict         Verdict           `json:"verdict"`
	RunUUID         string            `json:"run_uuid,omitempty"`
	Complete        bool              `json:"complete"`
	Envelope        map[string]string `json:"envelope,omitempty"`
	Findings        []Finding         `json:"findings"`
	Improvements    []Improvement     `json:"improvements"`
	Resolved        []Finding         `json:"resolved,omitempty"`
	Diagnostics     []Diagnostic      `json:"diagnostics"`
	// Evidence lists, per finding index, the evidence claims (when any).
	Evidence map[int][]Claim `json:"evidence,omitempty"`
}

func golden(r *Report) goldenReport {
	g := goldenReport{Status: r.Status, Verdict: r.Verdict(), RunUUID: r.RunUUID, Complete: r.Complete,
		Envelope: r.Envelope, Findings: r.Findings, Improvements: r.Improvements, Resolved: r.Resolved, Diagnostics: r.Diagnostics}
	if r.DeclaredVerdict != "" {
		v := string(r.DeclaredVerdict)
		g.DeclaredVerdict = &v
	}
	if g.Diagnostics == nil {
		g.Diagnostics = []Diagnostic{}
	}
	for i, f := range r.Findings {
		if len(f.Evidence) > 0 {
			if g.Evidence == nil {
				g.Evidence = map[int][]Claim{}
			}
			g.Evidence[i] = f.Evidence
		}
	}
	return g
}

// TestGoldenReports runs every testdata/report/*.txtar archive: each file
// NAME.md in it is a report, and NAME.json the expected parse. With -update
// the .json parts are rewritten (the .md parts and comments are kept).
func TestGoldenReports(t *testing.T) {
	txtartest.Each(t, "testdata/report/*.txtar", func(t *testing.T, file string, ar *txtar.Archive) {
		want := map[string][]byte{}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".json") {
				want[strings.TrimSuffix(f.Name, ".json")] = f.Data
			}
		}
		var out []txtar.File
		changed := false
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".json") {
				continue
			}
			out = append(out, f)
			name := strings.TrimSuffix(f.Name, ".md")
			got, err := json.MarshalIndent(golden(ReadReport(f.Data)), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			if !bytes.Equal(got, want[name]) {
				if *update {
					changed = true
				} else {
					t.Errorf("%s: parse differs from %s.json\n--- got\n%s--- want\n%s", f.Name, name, got, want[name])
				}
			}
			out = append(out, txtar.File{Name: name + ".json", Data: got})
		}
		if *update && changed {
			ar.Files = out
			if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
}
