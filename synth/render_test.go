package synth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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
	for _, n := range []int{-1, 0, 1, 2, 9, 2000} { // -1: nil; 2000: WriteJSON writes in pieces
		s := &Synthesis{ProtocolVersion: "1", Input: `"findings":null`, Run: &run, Verdict: parse.Verdict("needs-changes")}
		if n >= 0 {
			s.Findings = []Finding{}
		}
		for i := range max(n, 0) {
			a := awkward[i%len(awkward)]
			f := Finding{ID: fmt.Sprint(i), Title: a, Section: a, Agents: []string{a, "x"}, FileRefs: []string{}}
			if i%2 == 1 {
				f.more = &findingMore{severityConflict: map[string]parse.Severity{a: "P1"}, discoveredBy: &a}
			}
			s.Findings = append(s.Findings, f)
		}
		s.AgentsLaunched = []string{`findings`, "a"}
		want := renderJSONPlain(s)
		if got := must(RenderJSON(s)); !bytes.Equal(got, want) {
			t.Errorf("%d findings: RenderJSON differs from the encoder:\n%s\nwant\n%s", len(s.Findings), got, want)
		}
		var w pieces
		if err := WriteJSON(&w, s); err != nil || !bytes.Equal(w.b, want) {
			t.Errorf("%d findings: WriteJSON (err %v) differs from the encoder:\n%s\nwant\n%s", len(s.Findings), err, w.b, want)
		}
		if n == 2000 && w.writes < 2 {
			t.Errorf("WriteJSON wrote %d bytes in %d piece: it holds the whole file", len(w.b), w.writes)
		}
	}
}

// pieces is a writer that counts its writes; it fails once it has failAt
// writes (when failAt > 0).
type pieces struct {
	b              []byte
	writes, failAt int
}

var errPieces = errors.New("disk full")

func (w *pieces) Write(p []byte) (int, error) {
	if w.failAt > 0 && w.writes >= w.failAt {
		return 0, errPieces
	}
	w.writes++
	w.b = append(w.b, p...)
	return len(p), nil
}

// WriteJSON stops at the first error of its writer and returns it.
func TestWriteJSONError(t *testing.T) {
	s := &Synthesis{Findings: make([]Finding, 3000)}
	for i := range s.Findings {
		s.Findings[i] = Finding{ID: fmt.Sprint(i), Title: strings.Repeat("t", 100)}
	}
	w := pieces{failAt: 1}
	if err := WriteJSON(&w, s); !errors.Is(err, errPieces) {
		t.Fatalf("err = %v, want the writer's", err)
	}
	if w.writes != 1 {
		t.Fatalf("WriteJSON went on for %d writes after the writer failed", w.writes-1)
	}
}

// TestSummaryLeavesInfoOut: info-level diagnostics about a report's format
// (no sentinel, an ID off the pattern) stay in findings.json; summary.md
// shows warnings and errors, and says how many info ones there are. A
// failed agent's info diagnostics say why it failed: they are shown.
func TestSummaryLeavesInfoOut(t *testing.T) {
	a := agentOf("fd-a", parse.StatusValid, fnd(parse.P1, "A-1", "Auth", "Token leak"))
	a.Report.Diagnostics = []parse.Diagnostic{
		{Line: 0, Level: parse.LevelInfo, Message: "no <!-- flux-drive:complete --> sentinel"},
		{Line: 2, Level: parse.LevelInfo, Message: `ID A-1 does not match [A-Z]{2,3}-\d{3}`},
		{Line: 4, Level: parse.LevelWarning, Message: "declared verdict safe disagrees with the computed needs-changes"},
	}
	failed := Agent{Name: "fd-b", File: "fd-b.md", Status: parse.StatusError, Report: &parse.Report{Status: parse.StatusError,
		Diagnostics: []parse.Diagnostic{{Line: 3, Level: parse.LevelInfo, Message: "error stub: the model timed out"}}}}
	s := Synthesize(&Run{Agents: []Agent{a, failed}}, Options{})
	md := string(RenderMarkdown(s))
	wantNone(t, "summary.md", md, "flux-drive:complete", "does not match")
	wantAll(t, "summary.md", md,
		"- `fd-a.md:4: warning: declared verdict safe disagrees with the computed needs-changes`",
		"- `fd-b.md:3: info: error stub: the model timed out`",
		"| fd-a | valid | — | needs-changes | 0 | 1 | 0 | 0 | 0 | 1 |",
		"2 info-level diagnostics (such as a missing completion sentinel or an ID off the pattern) are listed in findings.json and by `fluxwatch check`, not here.")
	wantAll(t, "findings.json", string(must(RenderJSON(s))), "sentinel", "does not match")
}
