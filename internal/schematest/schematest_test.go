package schematest

import (
	"strings"
	"testing"
)

const doc = `{"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}`

// Validate accepts what the schema allows and refuses the rest: no JSON,
// a missing field, a field of the wrong type.
func TestValidate(t *testing.T) {
	sch := Compile(t, "n.schema.json", []byte(doc))
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
