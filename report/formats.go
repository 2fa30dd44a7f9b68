package report

import (
	"slices"

	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Format is one output format of a synthesis: how a user asks for it (the
// value of --format, a file flag, a key under output: in .fluxwatch.yaml)
// and how it is rendered.
type Format struct {
	// Name is the value of --format that prints it on standard output.
	Name string
	// Flag is the flag that writes it to a file (--sarif FILE), and Config
	// its key under output: in .fluxwatch.yaml ("sarif"); both "" for a
	// format that is no file of its own (markdown and json are summary.md
	// and findings.json in the report directory, github the annotations).
	Flag, Config string
	// Usage is the help of Flag, or what --format Name prints.
	Usage string
	// Render renders s for t (its Base, its Page); nil when Flag is "".
	Render func(s *synth.Synthesis, t Targets) ([]byte, error)
}

// Formats is the one list of output formats: report targets (Targets.Files,
// Write), --format, the file flags, the output: keys of the configuration,
// help and completion all read it. A new format is one entry here, its
// renderer, its tests and its docs (docs/cli.md#output-formats). Files are
// written, and named in messages, in this order.
var Formats = []Format{
	{Name: "markdown", Usage: "summary.md (as --out -)"},
	{Name: "json", Usage: "findings.json (as --json)"},
	{Name: "sarif", Flag: "sarif", Config: "sarif", Usage: "also write a SARIF 2.1.0 log to `FILE`",
		Render: func(s *synth.Synthesis, t Targets) ([]byte, error) { return synth.RenderSARIF(s, t.Base) }},
	{Name: "rdjsonl", Flag: "rdjsonl", Config: "rdjsonl", Usage: "also write reviewdog rdjsonl to `FILE`",
		Render: func(s *synth.Synthesis, t Targets) ([]byte, error) { return synth.RenderRDJSONL(s, t.Base) }},
	{Name: "junit", Flag: "junit", Config: "junit", Usage: "also write a JUnit XML report to `FILE`",
		Render: func(s *synth.Synthesis, t Targets) ([]byte, error) { return synth.RenderJUnit(s, t.Base) }},
	{Name: "html", Flag: "html", Config: "html", Usage: "also write a self-contained HTML page to `FILE`",
		Render: func(s *synth.Synthesis, t Targets) ([]byte, error) {
			return page.Render(s, PageNames(t.Page, s, t.Base))
		}},
	{Name: "github", Usage: "GitHub Actions annotations (as --annotations)"},
	{Name: "codeclimate", Flag: "codeclimate", Config: "codeclimate", Usage: "also write a GitLab Code Quality (Code Climate JSON) report to `FILE`",
		Render: func(s *synth.Synthesis, t Targets) ([]byte, error) { return synth.RenderCodeClimate(s, t.Base) }},
}

// FileFormats returns the formats that are files of their own (a Flag and
// a Renderer), in the order of Formats.
func FileFormats() []Format {
	var out []Format
	for _, f := range Formats {
		if f.Flag != "" {
			out = append(out, f)
		}
	}
	return out
}

// FormatNames returns the names of the formats (the values of --format),
// sorted.
func FormatNames() []string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	slices.Sort(names)
	return names
}

// LookupFormat returns the format named name (a value of --format).
func LookupFormat(name string) (Format, bool) {
	i := slices.IndexFunc(Formats, func(f Format) bool { return f.Name == name })
	if i < 0 {
		return Format{}, false
	}
	return Formats[i], true
}
