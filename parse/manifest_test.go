package parse

import "testing"

func TestReadRunManifest(t *testing.T) {
	m, diags, err := ReadRunManifest([]byte(`{"model":"sonnet","commit":"0a1b2c3","tokens":"x","note":{"a":1},
		"agents":{"fd-safety":{"model":"opus","tokens":48200},"fd-perf":{"usage":{"input_tokens":900,"output_tokens":100}},
		"../bad":{"model":"m"}, "fd-x":{"model":["list"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.For("fd-safety"); got != (Provenance{Model: "opus", Commit: "0a1b2c3", Tokens: 48200}) {
		t.Errorf("fd-safety: %+v", got)
	}
	if got := m.For("fd-perf"); got != (Provenance{Model: "sonnet", Commit: "0a1b2c3", Tokens: 1000}) {
		t.Errorf("fd-perf: %+v", got)
	}
	if got := m.For("fd-other"); got != (Provenance{Model: "sonnet", Commit: "0a1b2c3"}) {
		t.Errorf("fd-other: %+v", got)
	}
	if len(diags) != 2 { // ../bad is not a name; fd-x's model is a list
		t.Errorf("diagnostics %v", diags)
	}
	var none *RunManifest
	if none.For("fd-a") != (Provenance{}) {
		t.Error("a nil manifest declares something")
	}
	for _, bad := range []string{``, `[]`, `null`, `{"model":`} {
		if _, _, err := ReadRunManifest([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
