//go:build unix

package main

import (
	"fmt"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/internal/procbench/reportgen"
)

// generalKinds are the rows of the scale table for the shapes of SPEC
// §2.3's general reader (issue 26): reports with no index, from 2 to 16
// MiB, each read by `fluxwatch check`. report makes the input of a shape.
func generalKinds(c scaleConfig, report func(reportgen.Shape) func(string, int) ([]string, string, error)) []*scaleKind {
	var ks []*scaleKind
	for _, s := range reportgen.General {
		ks = append(ks, &scaleKind{name: generalNames[s] + " (check)", unit: "MiB", base: c.reportMiB, make: report(s), report: true})
	}
	return ks
}

// generalSynthKinds are the synthesis rows of the same shapes (issue 29:
// a 16 MiB report of any shape synthesised in < 5 s): the report alone in
// a run directory; synth returns the command that synthesises a run
// directory. A report of table rows holds the most findings for its size
// (190,000 at 16 MiB), and synth's work past the parse grows with them.
func generalSynthKinds(c scaleConfig, synth func(dir string) []string) []*scaleKind {
	var ks []*scaleKind
	for _, s := range reportgen.General {
		ks = append(ks, &scaleKind{name: generalNames[s] + " (synth)", unit: "MiB", base: c.reportMiB,
			make: func(dir string, n int) ([]string, string, error) {
				d := filepath.Join(dir, fmt.Sprintf("synth-%s-%d", s, n))
				err := writeOnce(filepath.Join(d, "fd-"+string(s)+".md"), func() []byte { return reportgen.Report(s, c.reportSize(n)) })
				return synth(d), d, err
			}})
	}
	return ks
}

// generalNames name the general shapes' rows.
var generalNames = map[reportgen.Shape]string{
	reportgen.SevGroups:    "general report: severity groups + fields",
	reportgen.FieldBlock:   "general report: ### Title + Severity field",
	reportgen.Numbered:     "general report: numbered levels",
	reportgen.TrailingDash: "general report: trailing-dash levels",
	reportgen.IDLevels:     "general report: levels in IDs",
	reportgen.TableAny:     "general report: tables under any heading",
	reportgen.Restate:      "general report: restating summary",
	reportgen.Resolved:     "general report: resolved/struck items",
	reportgen.JSONBody:     "general report: JSON body",
	reportgen.PlainLabels:  "general report: plain label lines",
	reportgen.Details:      "general report: <details> comments",
	reportgen.AuditIDs:     "general report: audit IDs, badges, quotes",
	reportgen.BoldLeads:    "general report: bold severity leads",
	reportgen.Contest:      "general report: contest IDs (## H-01: Title)",
	reportgen.CVSS:         "general report: CVSS scores",
	reportgen.Languages:    "general report: severity words of other languages",
	reportgen.Badges:       "general report: badge images",
	reportgen.Scanner:      "general report: scanner ✗ lines",
	reportgen.Rating:       "general report: Rating columns",
	reportgen.Repeated:     "general report: repeated titles",
	reportgen.FieldRuns:    "general report: fields of a finding in any order",
	reportgen.Fences:       "general report: tool printouts in plain fences",
	reportgen.HTMLTables:   "general report: HTML tables",
	reportgen.FieldParas:   "general report: tracker field paragraphs",
	reportgen.Verdicts:     "general report: per-section verdicts and tallies",
	reportgen.HTMLItems:    "general report: HTML headings and items",
	reportgen.Mix:          "general report: a mix of the shapes",
}
