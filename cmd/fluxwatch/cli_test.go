package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/report"
	flag "github.com/spf13/pflag"
)

// helpPaths are every command and subcommand whose help can be asked for.
func helpPaths() [][]string {
	var paths [][]string
	for _, n := range commandNames() {
		paths = append(paths, []string{n})
		for _, sub := range subcommands[n] {
			paths = append(paths, []string{n, sub})
		}
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
	for name, ex := range examples {
		if _, ok := commands[name]; !ok && name != "config" {
			t.Errorf("examples of %q, which is no command", name)
		}
		for _, line := range strings.Split(strings.TrimSpace(ex), "\n") {
			f := strings.Fields(line)
			if f[0] == "fluxwatch" && len(f) > 1 && !strings.HasPrefix(f[1], "-") {
				if _, ok := commands[f[1]]; !ok && f[1] != "config" {
					t.Errorf("example %q: no command %q", line, f[1])
				}
			}
		}
	}
}

func TestClosest(t *testing.T) {
	names := commandNames()
	for typed, want := range map[string]string{
		"synht": "synth", "sytnh": "synth", "wtach": "watch", "verison": "version", "fidning": "finding",
		"scheam": "schema", "compl": "completion", "frobnicate": "", "x": "", "": "",
	} {
		if got := closest(typed, names); got != want {
			t.Errorf("closest(%q) = %q, want %q", typed, got, want)
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

func TestResolveVersion(t *testing.T) {
	bi := func(v string, kv ...string) *debug.BuildInfo {
		b := &debug.BuildInfo{Main: debug.Module{Version: v}}
		for i := 0; i < len(kv); i += 2 {
			b.Settings = append(b.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return b
	}
	const rev = "0123456789abcdef0123"
	for _, c := range []struct {
		stamp string
		bi    *debug.BuildInfo
		ok    bool
		want  string
	}{
		{"v1.0.0-3-gabc-dirty", bi("v0.9.0"), true, "v1.0.0-3-gabc-dirty"},
		{"", bi("v0.9.0"), true, "v0.9.0"},
		{"", bi("v0.9.0", "vcs.revision", rev, "vcs.modified", "true"), true, "v0.9.0+dirty"},
		{"", bi("(devel)", "vcs.revision", rev, "vcs.modified", "false"), true, "devel-0123456789ab"},
		{"", bi("(devel)", "vcs.revision", rev, "vcs.modified", "true"), true, "devel-0123456789ab-dirty"},
		{"", bi("(devel)"), true, "devel-go1.99"},
		{"", nil, false, "devel-go1.99"},
	} {
		if got := resolveVersion(c.stamp, c.bi, c.ok, "go1.99"); got != c.want {
			t.Errorf("resolveVersion(%q, %+v) = %q, want %q", c.stamp, c.bi, got, c.want)
		}
	}
}

// fluxwatch man DIR writes a page for fluxwatch and for every command, each
// with its examples.
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
	for _, n := range commandNames() {
		page, err := os.ReadFile(filepath.Join(dir, "fluxwatch-"+n+".1"))
		if err != nil {
			t.Errorf("no man page for %s: %v", n, err)
			continue
		}
		for _, want := range []string{".TH FLUXWATCH-" + strings.ToUpper(n) + " 1", ".SH NAME", ".SH SYNOPSIS", ".SH EXAMPLES"} {
			if !bytes.Contains(page, []byte(want)) {
				t.Errorf("man page of %s lacks %q", n, want)
			}
		}
		if !bytes.Contains(top, []byte(".BR fluxwatch\\-"+n+" (1)")) {
			t.Errorf("fluxwatch.1 does not list %s", n)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(commandNames())+1 {
		t.Errorf("%d pages for %d commands", len(entries), len(commandNames()))
	}
}

func TestCompleteWords(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sy"}, "synth"},
		{[]string{"-v", "sy"}, "synth"},
		{[]string{"--log-level", "debug", "wa"}, "watch"},
		{[]string{"synth", "--fail-on-"}, "--fail-on-new"},
		{[]string{"synth", "--fail-on", ""}, "none needs-changes risky"},
		{[]string{"synth", "--format", "s"}, "sarif"},
		{[]string{"finding", ""}, "write read"},
		{[]string{"finding", "write", "--sev"}, "--severity"},
		{[]string{"plan", "get-f"}, "get-finding-approach get-findings"},
		{[]string{"completion", ""}, "bash zsh fish"},
		{[]string{"help", "ver"}, "verify version"},
		{[]string{"synth", "run"}, ""},
		{[]string{"--ver"}, "--verbose --version"},
	} {
		if got := strings.Join(completeWords(c.args), " "); got != c.want {
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
	completed := completeWords([]string{"synth", "--format", ""})
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
		for _, cmd := range []string{"synth", "watch"} {
			if !slices.ContainsFunc(commandFlags([]string{cmd}), func(fl *flag.Flag) bool { return fl.Name == f.Flag }) {
				t.Errorf("%s has no flag --%s for the format %q", cmd, f.Flag, f.Name)
			}
		}
	}
}
