package main

import (
	"path"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestGoldenFindingsValidate checks every expected findings.json of the
// testscript golden runs against the schema `fluxwatch schema` prints.
func TestGoldenFindingsValidate(t *testing.T) {
	sch := schematest.Compile(t, "findings.schema.json", synth.Schema())
	n := 0
	txtartest.Each(t, "testdata/script/*.txtar", func(t *testing.T, file string, ar *txtar.Archive) {
		for _, f := range ar.Files {
			if path.Base(f.Name) != "findings.json" || !strings.HasPrefix(f.Name, "want/") {
				continue
			}
			n++
			if err := schematest.Validate(sch, f.Data); err != nil {
				t.Errorf("%s: %s does not validate: %v", file, f.Name, err)
			}
		}
	})
	if n < 2 {
		t.Fatalf("found %d golden findings.json files, want at least 2", n)
	}
}
