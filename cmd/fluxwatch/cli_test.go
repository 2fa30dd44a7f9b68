package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/spf13/cobra"
)

// testRoot is the command tree, run in an environment that discards its
// output.
func testRoot() *cobra.Command { return newRoot(bareEnv(io.Discard, io.Discard)) }

// helpPaths are every command and subcommand whose help can be asked for
// (plan's subcommands too, which plan parses itself).
func helpPaths() [][]string {
	var paths [][]string
	root := testRoot()
	for _, n := range commandNames(root) {
		paths = append(paths, []string{n})
		c, _, _ := root.Find([]string{n})
		for _, sub := range c.Commands() {
			paths = append(paths, []string{n, sub.Name()})
		}
	}
	for _, sub := range plan.Commands() {
		paths = append(paths, []string{"plan", sub})
	}
	return paths
}

// Every command prints its help on stdout (nothing on stderr, exit 0) with an
// Examples section, whether asked with --help, -h or `help CMD`.
func TestHelpEveryCommand(t *testing.T) {
	if len(helpPaths()) < 15 {
		t.Fatalf("only %d commands: the table is not read", len(helpPaths()))
	}
	for _, p := range helpPaths() {
		for _, args := range [][]string{append(p, "--help"), append(p, "-h"), append([]string{"help"}, p...)} {
			var out, errb bytes.Buffer
			err := run(context.Background(), args, bareEnv(&out, &errb))
			if err != nil {
				t.Errorf("%q: %v", args, err)
			}
			if errb.Len() > 0 {
				t.Errorf("%q: help on stderr: %s", args, errb.String())
			}
			if !strings.Contains(out.String(), "Usage:") || !strings.Contains(out.String(), "\nExamples:\n  ") {
				t.Errorf("%q: no usage or examples on stdout:\n%s", args, out.String())
			}
		}
	}
}

// Every example names a command that exists; examples of commands that are
// gone would rot.
func TestExamplesNameCommands(t *testing.T) {
	names := commandNames(testRoot())
	for name, ex := range examples {
		if !slices.Contains(names, name) {
			t.Errorf("examples of %q, which is no command", name)
		}
		for _, line := range strings.Split(strings.TrimSpace(ex), "\n") {
			f := strings.Fields(line)
			if f[0] == "fluxwatch" && len(f) > 1 && !strings.HasPrefix(f[1], "-") {
				if !slices.Contains(names, f[1]) {
					t.Errorf("example %q: no command %q", line, f[1])
				}
			}
		}
	}
}

// TestSuggestions: a mistyped command gets cobra's suggestion, a mistyped
// flag closest's.
func TestSuggestions(t *testing.T) {
	root := testRoot()
	for typed, want := range map[string]string{
		"synht": "synth", "sytnh": "synth", "wtach": "watch", "verison": "version", "fidning": "finding",
		"scheam": "schema", "compl": "completion", "frobnicate": "", "x": "", "": "",
	} {
		msg := unknownCommand(root, typed).Error()
		if hint := fmt.Sprintf("did you mean %q?", want); want != "" && !strings.Contains(msg, hint) || want == "" && strings.Contains(msg, "did you mean") {
			t.Errorf("unknown command %q: %s; want the suggestion %q", typed, msg, want)
		}
	}
	for typed, want := range map[string]string{
		"--fial-on": " (did you mean --fail-on?)", "--jsno": " (did you mean --json?)", "--bogus": "",
		"--rdjson=x": " (did you mean --rdjsonl?)",
	} {
		if got := suggestFlag(typed, []string{"fail-on", "json", "rdjsonl", "bus"}); got != want {
			t.Errorf("suggestFlag(%q) = %q, want %q", typed, got, want)
		}
	}
}

// fluxwatch man DIR writes a page for fluxwatch and for every command and
// subcommand (cobra's generator), each with its options and examples.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"man", dir}, bareEnv(&out, &errb)); err != nil {
		t.Fatal(err, errb.String())
	}
	top, err := os.ReadFile(filepath.Join(dir, "fluxwatch.1"))
	if err != nil {
		t.Fatal(err)
	}
	pages := 1
	for _, p := range helpPaths() {
		if p[0] == "help" || p[0] == "plan" && len(p) > 1 {
			continue // help has no page; plan's subcommands are on plan's
		}
		pages++
		name := strings.Join(p, "-")
		page, err := os.ReadFile(filepath.Join(dir, "fluxwatch-"+name+".1"))
		if err != nil {
			t.Errorf("no man page for %s: %v", name, err)
			continue
		}
		for _, want := range []string{`.TH "FLUXWATCH-` + strings.ToUpper(name) + `" "1"`, ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH EXAMPLE"} {
			if !bytes.Contains(page, []byte(want)) {
				t.Errorf("man page of %s lacks %q", name, want)
			}
		}
		if len(p) == 1 && !bytes.Contains(top, []byte(`\fBfluxwatch-`+name+`(1)\fP`)) {
			t.Errorf("fluxwatch.1 does not list %s", name)
		}
	}
	if synth, _ := os.ReadFile(filepath.Join(dir, "fluxwatch-synth.1")); !bytes.Contains(synth, []byte(`\fB--fail-on\fP`)) {
		t.Errorf("fluxwatch-synth.1 lists no --fail-on:\n%s", synth)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != pages {
		t.Errorf("%d pages for %d commands", len(entries), pages)
	}
}

// complete returns what `fluxwatch __complete ARGS…` offers, its directive
// line left out.
func complete(t *testing.T, args ...string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), append([]string{"__completeNoDesc"}, args...), bareEnv(&out, io.Discard)); err != nil {
		t.Fatalf("complete %q: %v", args, err)
	}
	var words []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l != "" && !strings.HasPrefix(l, ":") {
			words = append(words, l)
		}
	}
	return words
}

func TestComplete(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sy"}, "synth"},
		{[]string{"-v", "sy"}, "synth"},
		{[]string{"--log-level", "debug", "wa"}, "watch"},
		{[]string{"synth", "--fail-on-"}, "--fail-on-new"},
		{[]string{"synth", "--fail-on", ""}, "none needs-changes risky"},
		{[]string{"watch", "--dedup", ""}, "fuzzy exact"},
		{[]string{"synth", "--format", "s"}, "sarif"},
		{[]string{"finding", ""}, "read write"},
		{[]string{"finding", "write", "--sev"}, "--severity"},
		{[]string{"finding", "read", "--severity", ""}, "blocking notable"},
		{[]string{"plan", "get-f"}, "get-finding-approach get-findings"},
		{[]string{"plan", "--pl"}, "--plan-dir"},
		{[]string{"completion", ""}, "bash zsh fish powershell"},
		{[]string{"help", "ver"}, "verify version"},
		{[]string{"synth", "run"}, ""},
		{[]string{"--ver"}, "--verbose --version"},
		{[]string{"check", "--ev"}, "--evidence"},
		{[]string{"watch", "--until"}, "--until-complete"},
		{[]string{"mcp", "--ro"}, "--root"},
		{[]string{"protocol", "--ag"}, "--agent"},
	} {
		if got := strings.Join(complete(t, c.args...), " "); got != c.want {
			t.Errorf("complete %q = %q, want %q", c.args, got, c.want)
		}
	}
}

// Every output format of report.Formats reaches the command line: a value
// of synth --format (its help and its completion), and the file flag of
// synth and watch for a file format.
func TestFormatsInTheCLI(t *testing.T) {
	var help bytes.Buffer
	if err := run(context.Background(), []string{"synth", "--help"}, bareEnv(&help, io.Discard)); err != nil {
		t.Fatal(err)
	}
	completed := complete(t, "synth", "--format", "")
	for _, f := range report.Formats {
		if !slices.Contains(completed, f.Name) {
			t.Errorf("synth --format does not complete %q: %v", f.Name, completed)
		}
		if !strings.Contains(help.String(), f.Name) {
			t.Errorf("synth --help does not name the format %q", f.Name)
		}
		if f.Flag == "" {
			continue
		}
		for _, name := range []string{"synth", "watch"} {
			if c, _, _ := testRoot().Find([]string{name}); c.Flags().Lookup(f.Flag) == nil {
				t.Errorf("%s has no flag --%s for the format %q", name, f.Flag, f.Name)
			}
		}
	}
}

// Every mistake on the command line is a usage error (exit 2) with one
// line naming it, wherever cobra or the command finds it.
func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"finding", "--bogus", "write"}, {"finding", "--bus", "x", "write"}, {"bus", "--x"}, {"finding"},
		{"finding", "frob"}, {"synth", "--jobs", "abc"}, {"synth", "--fail-on"}, {"help", "nosuch"},
		{"completion"}, {"man"}, {"schema", "x"}, {"check", "--bogus", "x"}, {"nosuch"},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), args, bareEnv(io.Discard, io.Discard))
		if code := exitCode(err, &stderr); code != exitUsage || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, code, stderr.String())
		}
	}
}
