package synth

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/internal/inert"
)

// attackTexts are agent-written strings that act on a terminal or reorder
// the text around them (SPEC §10): clear the screen, ring the bell, the C1
// CSI, a right-to-left override, an OSC that sets the window title, DEL,
// isolates, a carriage return that overwrites the line.
var attackTexts = []string{
	"x\x1b[2Jy",
	"ding\a",
	"c1 \u009b31m red",
	"file\u202etxt.exe",
	"\x1b]0;pwned\a title",
	"del\x7f \u2066iso\u2069",
	"safe\rP0 gone",
}

// activeAt returns the index of the first control character (line feeds
// aside), DEL or bidirectional control in b, or of a byte that is not
// UTF-8; -1 when there is none.
func activeAt(b []byte) int {
	for i, r := range string(b) {
		if r == utf8.RuneError && !utf8.ValidString(string(b[i:min(i+3, len(b))])) || r != '\n' && inert.Active(r) {
			return i
		}
	}
	return -1
}

// TestHumanOutputsInert: summary.md (and so the job summary) and the
// workflow annotations, fed the attack strings in every agent field, hold no
// raw control character; each shows as its stand-in.
func TestHumanOutputsInert(t *testing.T) {
	for _, s := range attackTexts {
		syn := hostileSynthesis(s)
		for name, out := range map[string][]byte{
			"summary.md":  RenderMarkdown(syn),
			"annotations": RenderAnnotations(syn, "out"),
		} {
			if i := activeAt(out); i >= 0 {
				t.Errorf("%q: %s holds a raw control character at %d:\n%s", s, name, i, out)
			}
			if want := strings.ReplaceAll(inert.Line(s), "|", `\|`); name == "summary.md" && !strings.Contains(string(out), want) {
				t.Errorf("%q: %s does not show %q", s, name, want)
			}
		}
	}
}

// TestMachineOutputsKeepData: findings.json, SARIF, rdjsonl and JUnit keep
// the agents' text (a reader decodes it as written), escaped: the files
// themselves hold no raw control character either.
func TestMachineOutputsKeepData(t *testing.T) {
	for _, s := range attackTexts {
		syn := hostileSynthesis(s)
		sarif, err := RenderSARIF(syn, "out")
		if err != nil {
			t.Fatal(err)
		}
		outs := map[string][]byte{"findings.json": must(RenderJSON(syn)), "SARIF": sarif,
			"rdjsonl": must(RenderRDJSONL(syn, "out")), "JUnit": must(RenderJUnit(syn, "out"))}
		for name, out := range outs {
			if i := activeAt(out); i >= 0 {
				t.Errorf("%q: %s holds a raw control character at %d:\n%s", s, name, i, out)
			}
		}
		var doc struct {
			Agents   []struct{ Name string }
			Findings []struct{ Title string }
		}
		if err := json.Unmarshal(outs["findings.json"], &doc); err != nil || doc.Agents[0].Name != s || doc.Findings[0].Title != s {
			t.Errorf("%q: findings.json decodes to %+v (%v), want the text as written", s, doc, err)
		}
		var log struct {
			Runs []struct {
				Results []struct{ Message struct{ Text string } }
			}
		}
		if err := json.Unmarshal(sarif, &log); err != nil || !strings.Contains(log.Runs[0].Results[0].Message.Text, inert.Collapse(s)) {
			t.Errorf("%q: SARIF decodes to %+v (%v), want the text as written", s, log, err)
		}
		var rd struct{ Message string }
		if err := json.Unmarshal([]byte(strings.SplitN(string(outs["rdjsonl"]), "\n", 2)[0]), &rd); err != nil || !strings.Contains(rd.Message, inert.Collapse(s)) {
			t.Errorf("%q: rdjsonl decodes to %+v (%v), want the text as written", s, rd, err)
		}
		var suites junitCaseNames
		// encoding/xml writes a C0 control as U+FFFD (XML cannot hold it):
		// the others are kept, as character references.
		want := strings.Map(func(r rune) rune {
			if r < 0x20 {
				return utf8.RuneError
			}
			return r
		}, inert.Collapse(s))
		if err := xml.Unmarshal(outs["JUnit"], &suites); err != nil || !strings.Contains(suites.Suites[1].Cases[0].Name, want) {
			t.Errorf("%q: JUnit decodes to %+v (%v), want %q in it", s, suites, err, want)
		}
	}
}
