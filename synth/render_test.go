package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// renderJSONPlain is findings.json as the reference renders it: the whole
// synthesis through a json.Encoder with SetIndent("", "  ").
func renderJSONPlain(s *Synthesis) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// TestRenderJSONMatchesEncoder: findings rendered one at a time into the
// skeleton give the bytes the plain encoder gives, with no findings, empty
// ones, and strings that look like the member they replace.
func TestRenderJSONMatchesEncoder(t *testing.T) {
	awkward := []string{"", `"findings":null`, `\"`, `\\`, `<a href="x">&</a>`, "ü — \u2028", "{[,:]}", "\x01\t"}
	run := "run-1"
	for _, n := range []int{-1, 0, 1, 2, 9} { // -1: nil
		s := &Synthesis{ProtocolVersion: "1", Input: `"findings":null`, Run: &run, Verdict: parse.Verdict("needs-changes")}
		if n >= 0 {
			s.Findings = []Finding{}
		}
		for i := range max(n, 0) {
			a := awkward[i%len(awkward)]
			f := Finding{ID: fmt.Sprint(i), Title: a, Section: a, Agents: []string{a, "x"}, FileRefs: []string{}}
			if i%2 == 1 {
				f.SeverityConflict = map[string]parse.Severity{a: "P1"}
				f.DiscoveredBy = &a
			}
			s.Findings = append(s.Findings, f)
		}
		s.AgentsLaunched = []string{`findings`, "a"}
		if got, want := RenderJSON(s), renderJSONPlain(s); !bytes.Equal(got, want) {
			t.Errorf("%d findings: RenderJSON differs from the encoder:\n%s\nwant\n%s", len(s.Findings), got, want)
		}
	}
}
