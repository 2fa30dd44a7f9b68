package schematest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const doc = `{"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}`

// Validate accepts what the schema allows and refuses the rest: no JSON,
// a missing field, a field of the wrong type; the schema compiled from
// memory and from a file alike.
func TestValidate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n.schema.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sch := range []*jsonschema.Schema{Compile(t, "n.schema.json", []byte(doc)), CompileFile(t, path)} {
		validate(t, sch)
	}
}

func validate(t *testing.T, sch *jsonschema.Schema) {
	t.Helper()
	if err := Validate(sch, []byte(`{"n": 1}`)); err != nil {
		t.Errorf("a valid document: %v", err)
	}
	for _, bad := range []string{`{"n": 1`, `{}`, `{"n": "one"}`} {
		if err := Validate(sch, []byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if err := Validate(sch, []byte("{")); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("no JSON: err = %v, want it to say so", err)
	}
}
