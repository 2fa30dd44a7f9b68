package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/synth"
)

// stdoutFormat renders a synthesis for `synth --format NAME` (as reviewdog's
// -f): s is the synthesis, r its findings.json and summary.md already
// rendered, ciDir the run directory relative to the repository top
// (ciRunDir), f the command's flags.
type stdoutFormat func(s *synth.Synthesis, r rendered, ciDir string, f *reportFlags) ([]byte, error)

// stdoutFormats are the values of --format. Each is also a report file flag
// (--sarif, --rdjsonl, --junit, --html; json and markdown are findings.json
// and summary.md; github the annotations of --annotations).
var stdoutFormats = map[string]stdoutFormat{
	"json": func(_ *synth.Synthesis, r rendered, _ string, _ *reportFlags) ([]byte, error) {
		return r.findingsJSON, nil
	},
	"markdown": func(_ *synth.Synthesis, r rendered, _ string, _ *reportFlags) ([]byte, error) { return r.summary, nil },
	"sarif": func(s *synth.Synthesis, _ rendered, dir string, _ *reportFlags) ([]byte, error) {
		return synth.RenderSARIF(s, dir)
	},
	"rdjsonl": func(s *synth.Synthesis, _ rendered, dir string, _ *reportFlags) ([]byte, error) {
		return synth.RenderRDJSONL(s, dir), nil
	},
	"junit": func(s *synth.Synthesis, _ rendered, dir string, _ *reportFlags) ([]byte, error) {
		return synth.RenderJUnit(s, dir), nil
	},
	"github": func(s *synth.Synthesis, _ rendered, dir string, _ *reportFlags) ([]byte, error) {
		return synth.RenderAnnotations(s, dir), nil
	},
	"html": func(s *synth.Synthesis, _ rendered, _ string, f *reportFlags) ([]byte, error) {
		return page.Render(s, f.pageOptions(s.Verdict, false))
	},
}

// formatNames lists the values of --format, for messages and completion.
func formatNames() []string {
	names := make([]string, 0, len(stdoutFormats))
	for n := range stdoutFormats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkFormat checks --format (empty: none) against --json, the other way
// to put a rendering on stdout: only one may go there per run.
func checkFormat(cmd, format string, json bool) error {
	if format == "" {
		return nil
	}
	if _, ok := stdoutFormats[format]; !ok {
		return usageErrorf("%s: --format %q: want one of %s", cmd, format, strings.Join(formatNames(), ", "))
	}
	if json && format != "json" {
		return usageErrorf("%s: --json and --format %s both print on stdout: choose one", cmd, format)
	}
	return nil
}

// writeFormat prints the --format rendering of s on stdout.
func writeFormat(e *env, format string, s *synth.Synthesis, r rendered, ciDir string, f *reportFlags) error {
	b, err := stdoutFormats[format](s, r, ciDir, f)
	if err != nil {
		return exitError{exitInternal, fmt.Errorf("%s: %w", f.cmd, err)}
	}
	if _, err := e.stdout.Write(b); err != nil {
		return usageErrorf("%s: stdout: %v", f.cmd, err)
	}
	return nil
}
