package main

import (
	"fmt"
	"strings"

	"github.com/fluxwatch/fluxwatch/report"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

// The command tree is spf13/cobra's: each command is a cobra.Command with
// its pflag flags, its help text (Long: the synopsis and description;
// printHelp adds the flags and Examples) and its work as RunE. cobra finds
// the command, parses its flags, serves the completion protocol
// (`fluxwatch __complete WORD…`) and writes the completion scripts and man
// pages, so they never go stale as flags change.

// newRoot returns the command tree of fluxwatch, each command running in e.
func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:           "fluxwatch",
		Short:         "watch parallel review agents and keep one deterministic synthesis current",
		Long:          "fluxwatch watches parallel review agents and keeps one deterministic synthesis current.\n",
		SilenceErrors: true,
		SilenceUsage:  true,
		// Completion is a command of its own (completion.go), with its
		// usage and errors.
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetHelpFunc(printHelp)
	root.SetFlagErrorFunc(flagError)
	// The global options are the root's own (a command has only its own
	// flags), for help, completion and the man page: parseGlobal reads
	// them before a command runs.
	globalFlags(root.Flags())
	root.AddCommand(checkCmd(e), configCmd(e), synthCmd(e), watchCmd(e), findingCmd(e), busCmd(e),
		protocolCmd(e), mcpCmd(e), planCmd(e), discoverCmd(e), schemaCmd(e), demoCmd(e), verifyCmd(e),
		versionCmd(e), completionCmd(e), manCmd(e))
	help := helpCmd(e)
	root.SetHelpCommand(help)
	root.InitDefaultHelpCmd() // a command of the tree from now on: Find finds it
	for _, c := range append(root.Commands(), help) {
		c.Example = examples[c.Name()]
		for _, sub := range c.Commands() {
			sub.Example = c.Example
		}
	}
	completeValues(root)
	return root
}

// newCommand returns a command of the tree: use is its synopsis (its name
// first), help its help text (newRoot gives it examples[name], a
// subcommand its parent's). -h and --help print the help, and are in no
// list of its flags.
func newCommand(use, summary, help string) *cobra.Command {
	c := &cobra.Command{Use: use, Short: summary, Long: help, Args: cobra.ArbitraryArgs}
	c.Flags().BoolP("help", "h", false, "print this help")
	_ = c.Flags().MarkHidden("help")
	return c
}

// printHelp prints the help of c on stdout: its help text, its flags (after
// a Flags: line, unless the text ends with one) and its Examples.
func printHelp(c *cobra.Command, _ []string) {
	w := c.OutOrStdout()
	fmt.Fprint(w, c.Long)
	if flags := c.LocalFlags().FlagUsages(); flags != "" && c.HasParent() {
		if !strings.HasSuffix(c.Long, "Flags:\n") {
			fmt.Fprint(w, "\nFlags:\n")
		}
		fmt.Fprint(w, flags)
	}
	if c.Example != "" {
		fmt.Fprintf(w, "\nExamples:\n%s", c.Example)
	}
}

// commandName is c's path after "fluxwatch": "synth", "finding write".
func commandName(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// flagError is the usage error of a flag c could not parse, naming the
// command, with "did you mean" for an unknown flag.
func flagError(c *cobra.Command, err error) error {
	return withFlagHint(usageErrorf("%s: %v", commandName(c), err), c.Flags())
}

// completeValues lets the flags of every command below c whose values are
// few words complete them: --format its formats, the others flagValues.
func completeValues(c *cobra.Command) {
	c.Flags().VisitAll(func(f *flag.Flag) {
		values := flagValues[f.Name]
		if f.Name == "format" {
			values = report.FormatNames()
		}
		if values != nil {
			_ = c.RegisterFlagCompletionFunc(f.Name, func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
				return prefixed(values, prefix), cobra.ShellCompDirectiveNoFileComp
			})
		}
	})
	for _, sub := range c.Commands() {
		completeValues(sub)
	}
}

// parentCmd returns the command that runs the subcommands subs (finding,
// bus): without one it prints its help on stderr and is a usage error; a
// word that names none is a usage error too.
func parentCmd(e *env, use, summary, help string, subs ...*cobra.Command) *cobra.Command {
	c := newCommand(use, summary, help)
	var names []string
	for _, s := range subs {
		names = append(names, s.Name())
	}
	want := strings.Join(names, " or ")
	c.RunE = func(c *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			fmt.Fprint(e.stderr, help)
			return usageErrorf("%s: want %s", c.Name(), want)
		case args[0] == "help":
			printHelp(c, nil)
			return nil
		}
		return usageErrorf("%s: unknown subcommand %q (want %s)", c.Name(), args[0], want)
	}
	c.AddCommand(subs...)
	return c
}

// prefixed returns the words that start with prefix.
func prefixed(words []string, prefix string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, prefix) {
			out = append(out, w)
		}
	}
	return out
}
