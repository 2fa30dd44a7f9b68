package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// The command tree is spf13/cobra's: it finds the command, serves the
// completion protocol (`fluxwatch __complete WORD…`) and writes the
// completion scripts of bash, zsh, fish and powershell. Each command still
// parses its own flags (DisableFlagParsing) and prints its own help, so
// flags, help text, messages and exit codes are those of its run function.

// newRoot returns the command tree of fluxwatch, each command running in e.
func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:           "fluxwatch",
		Short:         "watch parallel review agents and keep one deterministic synthesis current",
		SilenceErrors: true,
		SilenceUsage:  true,
		// Completion is a command of its own (completion.go), with its
		// usage and errors.
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	// The global options, for completion: parseGlobal reads them before a
	// command runs.
	pf := root.PersistentFlags()
	pf.BoolP("quiet", "q", false, "print nothing but errors")
	pf.BoolP("verbose", "v", false, "structured logs on stderr at level debug")
	pf.String("log-level", "", "structured logs on stderr from `LEVEL`")
	pf.String("log-format", "", "the logs as text or json")
	pf.Bool("version", false, "as 'fluxwatch version'")
	_ = root.RegisterFlagCompletionFunc("log-level", fixedValues(flagValues["log-level"]))
	_ = root.RegisterFlagCompletionFunc("log-format", fixedValues(flagValues["log-format"]))
	for name, c := range commands {
		run := c.run
		cmd := &cobra.Command{
			Use:                name,
			Short:              c.summary,
			Example:            examples[name],
			Hidden:             hiddenCommands[name],
			DisableFlagParsing: true,
			RunE: func(cmd *cobra.Command, args []string) error {
				return run(cmd.Context(), e, args)
			},
			ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				words := completeWords(append(append([]string{name}, args...), toComplete))
				if len(words) == 0 && !strings.HasPrefix(toComplete, "-") {
					return nil, cobra.ShellCompDirectiveDefault // file names
				}
				return words, cobra.ShellCompDirectiveNoFileComp
			},
		}
		if name == "help" {
			root.SetHelpCommand(cmd)
			continue
		}
		root.AddCommand(cmd)
	}
	return root
}

// fixedValues completes a flag's value from values.
func fixedValues(values []string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}
