package main

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestGoldenFindingsValidate checks every expected findings.json of the
// testscript golden runs against the schema `fluxwatch schema` prints.
func TestGoldenFindingsValidate(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(synth.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("findings.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("findings.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/script/*.txtar")
	n := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if path.Base(f.Name) != "findings.json" || !strings.HasPrefix(f.Name, "want/") {
				continue
			}
			n++
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Data))
			if err != nil {
				t.Errorf("%s: %s: %v", file, f.Name, err)
				continue
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s: %s does not validate: %v", file, f.Name, err)
			}
		}
	}
	if n < 2 {
		t.Fatalf("found %d golden findings.json files, want at least 2", n)
	}
}
