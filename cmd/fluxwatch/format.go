package main

import "strings"

// formatNames are the values of synth --format (as reviewdog's -f), sorted.
var formatNames = []string{"github", "html", "json", "junit", "markdown", "rdjsonl", "sarif"}

// applyFormat turns --format into the report target it stands for, printed
// on standard output: --format F is --F - for the reports that have a file
// flag (sarif, rdjsonl, junit, html), markdown is --out - (summary.md on
// stdout), json is --json, github the annotations of --annotations, on
// stdout. One mechanism, so the rule of one thing on stdout (stdoutTargets)
// covers --format too.
func (f *synthFlags) applyFormat() error {
	var target *string
	name := ""
	switch f.format {
	case "":
		return nil
	case "json":
		f.json = true
		return nil
	case "github":
		f.annotations = true
		return nil
	case "sarif":
		target, name = &f.sarif, "--sarif"
	case "rdjsonl":
		target, name = &f.rdjsonl, "--rdjsonl"
	case "junit":
		target, name = &f.junit, "--junit"
	case "html":
		target, name = &f.html, "--html"
	case "markdown":
		target, name = &f.out, "--out"
	default:
		return usageErrorf("%s: --format %q: want one of %s", f.cmd, f.format, strings.Join(formatNames, ", "))
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
