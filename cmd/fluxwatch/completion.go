package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fluxwatch/fluxwatch/report"
)

// The completion scripts are cobra's (root.go): they ask the program
// itself what comes next (`fluxwatch __complete WORD…`), so they never go
// stale as flags change.

// completionScripts writes the completion script of each shell.
var completionScripts = map[string]func(root *cobra.Command, w io.Writer) error{
	"bash":       func(root *cobra.Command, w io.Writer) error { return root.GenBashCompletionV2(w, true) },
	"zsh":        (*cobra.Command).GenZshCompletion,
	"fish":       func(root *cobra.Command, w io.Writer) error { return root.GenFishCompletion(w, true) },
	"powershell": (*cobra.Command).GenPowerShellCompletionWithDesc,
}

const completionUsage = `Usage: fluxwatch completion bash|zsh|fish|powershell

Prints a completion script for the shell: commands, their subcommands and
flags, and the values of --format, --fail-on and --dedup complete; other
arguments complete as file names.
`

func runCompletion(ctx context.Context, e *env, args []string) error {
	fs := e.newFlagSet("completion")
	fs.Usage = func() { fmt.Fprint(e.stdout, completionUsage) }
	if err := parseHelp(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("completion: want one shell: bash, zsh, fish or powershell")
	}
	gen, ok := completionScripts[fs.Arg(0)]
	if !ok {
		return usageErrorf("completion: shell %q: want bash, zsh, fish or powershell", fs.Arg(0))
	}
	return gen(newRoot(e), e.stdout)
}

// flagValues are the values that complete after a flag.
var flagValues = map[string][]string{
	"fail-on":    {"none", "needs-changes", "risky"},
	"dedup":      {"fuzzy", "exact"},
	"severity":   {"blocking", "notable"},
	"log-level":  {"debug", "info", "warn", "error"},
	"log-format": {"text", "json"},
}

func completeWords(args []string) []string {
	if len(args) == 0 {
		args = []string{""}
	}
	cur, before := args[len(args)-1], args[:len(args)-1]
	// Skip global options to find the command.
	var path []string
	for i := 0; i < len(before); i++ {
		a := before[i]
		if len(path) == 0 && strings.HasPrefix(a, "-") {
			if a == "--log-level" || a == "--log-format" {
				i++
			}
			continue
		}
		if !strings.HasPrefix(a, "-") && (len(path) == 0 || len(path) == 1 && subcommands[path[0]] != nil) {
			path = append(path, a)
		}
	}
	if len(before) > 0 {
		prev := strings.TrimLeft(before[len(before)-1], "-")
		if strings.HasPrefix(before[len(before)-1], "--") {
			if prev == "format" && len(path) > 0 && path[0] == "synth" {
				return prefixed(report.FormatNames(), cur)
			}
			if v, ok := flagValues[prev]; ok {
				return prefixed(v, cur)
			}
		}
	}
	if len(path) == 0 {
		if strings.HasPrefix(cur, "-") {
			return prefixed(dashed(globalFlagNames), cur)
		}
		return prefixed(commandNames(), cur)
	}
	if path[0] == "help" {
		if len(path) == 1 {
			return prefixed(commandNames(), cur)
		}
		return nil
	}
	if path[0] == "completion" {
		return prefixed([]string{"bash", "zsh", "fish"}, cur)
	}
	if subs := subcommands[path[0]]; len(subs) > 0 && len(path) == 1 && !strings.HasPrefix(cur, "-") {
		return prefixed(subs, cur)
	}
	if strings.HasPrefix(cur, "-") {
		var names []string
		for _, f := range commandFlags(path) {
			names = append(names, f.Name)
		}
		return prefixed(dashed(names), cur)
	}
	return nil // file names: the shell's default
}

func dashed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	return out
}

func prefixed(words []string, prefix string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, prefix) {
			out = append(out, w)
		}
	}
	return out
}
