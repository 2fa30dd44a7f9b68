package verify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// TestSARIF: the log validates against the SARIF 2.1.0 schema (the copy in
// synth's testdata), has one result per problem at its line, errors for
// ungrounded claims and notes for unverifiable ones.
func TestSARIF(t *testing.T) {
	sch := schematest.CompileFile(t, "../synth/testdata/sarif-schema-2.1.0.json")
	for _, name := range []string{"raised", "missing", "unverifiable", "clean"} {
		r := resultOf(t, name)
		data, err := r.SARIF("synthesis.md", "test")
		if err != nil {
			t.Fatal(err)
		}
		if err := schematest.Validate(sch, data); err != nil {
			t.Errorf("%s: SARIF does not validate: %v", name, err)
		}
		log, err := sarif.FromBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		res := log.Runs[0].Results
		if len(res) != len(r.Problems) {
			t.Fatalf("%s: %d results for %d problems", name, len(res), len(r.Problems))
		}
		for i, p := range r.Problems {
			got := res[i]
			rule, line := "", 0
			if got.RuleID != nil {
				rule = *got.RuleID
			}
			if reg := got.Locations[0].PhysicalLocation.Region; reg != nil && reg.StartLine != nil {
				line = *reg.StartLine
			}
			want := "error"
			if p.Kind == Unverifiable {
				want = "note"
			}
			if rule != string(p.Kind) || got.Level != want || line != p.Line {
				t.Errorf("%s: result %d = %s %s line %d, want %s %s line %d", name, i, rule, got.Level, line, p.Kind, want, p.Line)
			}
		}
	}
}

// TestJSON: the --json document names its inputs and carries the verdict,
// every claim and every problem; empty lists are [] not null.
func TestJSON(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(resultOf(t, "raised").JSON("s.md", "run"), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["synthesis"] != "s.md" || doc["run"] != "run" || doc["ungrounded"] != true {
		t.Errorf("document = %v", doc)
	}
	if n := len(doc["problems"].([]any)); n != 2 {
		t.Errorf("%d problems, want 2", n)
	}
	clean := string(resultOf(t, "clean").JSON("s.md", "run"))
	if !strings.Contains(clean, `"problems": []`) || !strings.Contains(clean, `"ungrounded": false`) {
		t.Errorf("clean document:\n%s", clean)
	}
}
