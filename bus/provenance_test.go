package bus

import (
	"strings"
	"testing"
)

// TestModelAndRunID: the optional fields decode on the fast and the slow
// path, come back in the canonical line, and leave a line without them as
// it was.
func TestModelAndRunID(t *testing.T) {
	for _, line := range []string{
		`{"severity":"notable","agent":"fd-a","summary":"S","file_refs":[],"model":"sonnet","run_id":"r1"}`,
		`{"severity":"notable","agent":"fd-a","summary":"S\u00e9","file_refs":[],"model":"son\u006eet","run_id":"r1"}`,
		`{"run_id":"r1","model":"sonnet","severity":"notable","agent":"fd-a","summary":"S","file_refs":[],"extra":{"x":1}}`,
	} {
		es, diags, err := DecodeAll(strings.NewReader(line+"\n"), 0)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %d entries, %v, %v", line, len(es), diags, err)
		}
		if es[0].Model != "sonnet" || es[0].RunID != "r1" {
			t.Errorf("%s: model %q run_id %q", line, es[0].Model, es[0].RunID)
		}
		if got := string(AppendLine(nil, es[0])); !strings.HasSuffix(got, `,"model":"sonnet","run_id":"r1"}`+"\n") {
			t.Errorf("canonical line %s", got)
		}
	}
	plain := `{"severity":"notable","agent":"fd-a","summary":"S","file_refs":[]}` + "\n"
	es, _, _ := DecodeAll(strings.NewReader(plain), 0)
	if len(es) != 1 || string(AppendLine(nil, es[0])) != plain {
		t.Errorf("a line without model or run_id changed: %q", AppendLine(nil, es[0]))
	}
}
