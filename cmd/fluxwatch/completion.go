package main

import (
	_ "embed"
	"io"

	"github.com/spf13/cobra"
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

// completionUsage is the help of the completion command.
//
//go:embed help/completion.txt
var completionUsage string

func completionCmd(e *env) *cobra.Command {
	cmd := newCommand("completion", "print a shell completion script (bash, zsh, fish or powershell)", completionUsage)
	cmd.ValidArgs = []string{"bash", "zsh", "fish", "powershell"}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usageErrorf("completion: want one shell: bash, zsh, fish or powershell")
		}
		gen, ok := completionScripts[args[0]]
		if !ok {
			return usageErrorf("completion: shell %q: want bash, zsh, fish or powershell", args[0])
		}
		return gen(cmd.Root(), e.stdout)
	}
	return cmd
}

// flagValues are the values that complete after a flag (completeValues;
// --format's are report.FormatNames).
var flagValues = map[string][]string{
	"fail-on":    {"none", "needs-changes", "risky"},
	"dedup":      {"fuzzy", "exact"},
	"severity":   {"blocking", "notable"},
	"log-level":  {"debug", "info", "warn", "error"},
	"log-format": {"text", "json"},
}
