package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Text renders the result for people: one "path:line: kind: message" line
// per problem (a missing blocker has no line), then a summary line. What the
// synthesis and the agents wrote is inert (inert.Line): on one line, its
// control characters and bidirectional overrides shown as stand-ins.
func (r *Result) Text(path string) []byte {
	var b bytes.Buffer
	if r.Run != "" {
		fmt.Fprintf(&b, "%s: several runs: %s\n", inert.Line(path), inert.Line(r.Run))
	}
	for _, p := range r.Problems {
		if p.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s: ", inert.Line(path), p.Line, p.Kind)
		} else {
			fmt.Fprintf(&b, "%s: %s: ", inert.Line(path), p.Kind)
		}
		if p.Claim != "" {
			b.WriteString(quote(inert.Line(p.Claim)) + ": ")
		}
		b.WriteString(inert.Line(p.Message))
		b.WriteByte('\n')
	}
	b.WriteString(r.summary())
	b.WriteByte('\n')
	return b.Bytes()
}

// summary is the one-line tally.
func (r *Result) summary() string {
	var parts []string
	for _, k := range Kinds {
		if n := r.Tally[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	state := "grounded"
	if r.Ungrounded() {
		state = "ungrounded"
	}
	s := fmt.Sprintf("%s: %d claims, %d hold", state, len(r.Claims), r.Grounded)
	if len(parts) > 0 {
		s += "; " + strings.Join(parts, ", ")
	}
	return s
}

// JSON renders the result as an indented JSON document naming the
// synthesis file and the run directory, control characters escaped
// (inert.EscapeJSON).
func (r *Result) JSON(path, run string) []byte {
	doc := struct {
		Synthesis  string `json:"synthesis"`
		Run        string `json:"run"`
		Ungrounded bool   `json:"ungrounded"`
		Result
	}{path, run, r.Ungrounded(), *r}
	if doc.Claims == nil {
		doc.Claims = []Claim{}
	}
	if doc.Problems == nil {
		doc.Problems = []Problem{}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err) // plain structs of strings and numbers: cannot fail
	}
	return append(inert.EscapeJSON(out), '\n')
}

// sarifLevel: wrong claims are errors, notes notes.
func sarifLevel(k Kind) string {
	if k.Note() {
		return "note"
	}
	return "error"
}

var kindHelp = map[Kind]string{
	Invented:        "The synthesis states a finding no agent's report says anything like",
	SeverityRaised:  "The synthesis rates a finding above every agent's severity (or an improvement as a finding)",
	SeverityDropped: "The synthesis rates a blocker below every agent's severity (a note)",
	MissingBlocker:  "A P0/P1 finding of the run is neither cited by ID nor stated anywhere in the synthesis",
	WrongCount:      "The synthesis names an agent that did not report the finding, or counts more agents than said it",
	Unverifiable:    "The synthesis says too little to tie the claim to a finding, though an agent says something like it (a note)",
}

// SARIF renders the result as a SARIF 2.1.0 log (github.com/owenrumney/
// go-sarif): one rule per kind, each problem a result at its line of the
// synthesis file path (a missing blocker at the file). Its messages keep the
// text as written, control characters escaped (inert.EscapeJSON).
func (r *Result) SARIF(path, toolVersion string) ([]byte, error) {
	rep := sarif.NewReport()
	run := sarif.NewRunWithInformationURI("fluxwatch verify", "https://github.com/fluxwatch/fluxwatch")
	if toolVersion != "" {
		run.Tool.Driver.Version = &toolVersion
	}
	for _, k := range Kinds {
		run.AddRule(string(k)).WithDescription(kindHelp[k]).WithName("Synthesis" + camel(string(k)))
	}
	for _, p := range r.Problems {
		msg := p.Message
		if p.Claim != "" {
			msg = quote(p.Claim) + ": " + msg
		}
		res := run.CreateResultForRule(string(p.Kind)).
			WithLevel(sarifLevel(p.Kind)).
			WithMessage(sarif.NewTextMessage(msg))
		if p.Finding != "" {
			res.WithProperties(sarif.NewPropertyBag().Add("finding", p.Finding))
		}
		res.AddLocation(synth.SARIFLocation(path, p.Line, p.Line))
	}
	rep.AddRun(run)
	var b bytes.Buffer
	if err := rep.PrettyWrite(&b); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	b.WriteByte('\n')
	return inert.EscapeJSON(b.Bytes()), nil
}

// camel turns "severity-raised" into "SeverityRaised".
func camel(s string) string {
	var b strings.Builder
	for w := range strings.SplitSeq(s, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}
