package main

import (
	"strings"

	"github.com/fluxwatch/fluxwatch/report"
)

// applyFormat turns --format into the report target it stands for, printed
// on standard output (as reviewdog's -f): --format F is --F - for the
// formats that are files of their own (report.Formats), markdown is --out -
// (summary.md on stdout), json is --json, github the annotations of
// --annotations, on stdout. One mechanism, so the rule of one thing on
// stdout (checkTargets) covers --format too.
func (f *synthFlags) applyFormat() error {
	if f.format == "" {
		return nil
	}
	rf, ok := report.LookupFormat(f.format)
	if !ok {
		return usageErrorf("%s: --format %q: want one of %s", f.cmd, f.format, strings.Join(report.FormatNames(), ", "))
	}
	target, name := f.files[rf.Name], "--"+rf.Flag
	switch rf.Name {
	case "json":
		f.json = true
		return nil
	case "github":
		f.annotations = true
		return nil
	case "markdown":
		target, name = &f.out, "--out"
	}
	if *target != "" && *target != "-" {
		return usageErrorf("%s: --format %s and %s %s both want the %s: give one", f.cmd, f.format, name, *target, f.format)
	}
	*target = "-"
	return nil
}

// stdoutData names what synth prints on stdout itself ("" for nothing):
// --json's findings.json or --format github's annotations.
func (f *synthFlags) stdoutData() string {
	switch {
	case f.format == "github":
		return "--format github"
	case f.json:
		return "--json"
	}
	return ""
}
