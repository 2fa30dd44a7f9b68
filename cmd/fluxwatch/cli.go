package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

// The command line around cobra's tree (root.go): help on stdout with
// examples, and "did you mean" for mistyped commands (cobra's) and flags
// (cobra has none). The global options are global.go's.

// isHelp reports whether args (a command's) ask for its help.
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

// helpUsage is the help of the help command.
//
//go:embed help/help.txt
var helpUsage string

func helpCmd(e *env) *cobra.Command {
	cmd := newCommand("help", "show the help of fluxwatch or of a command", helpUsage)
	cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return prefixed(commandNames(cmd.Root()), prefix), cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		root := cmd.Root()
		if len(args) == 0 {
			usage(e.stdout, root)
			return nil
		}
		c, rest, err := root.Find(args)
		if err != nil || c == root {
			return unknownCommand(root, args[0])
		}
		switch {
		case c.DisableFlagParsing: // plan: its subcommands' help is its own
			return c.RunE(c, append(rest, "--help"))
		case len(rest) > 0 && c.HasSubCommands():
			return usageErrorf("%s: unknown subcommand %q", commandName(c), rest[0])
		}
		printHelp(c, nil)
		return nil
	}
	return cmd
}

// rootUsage is the help of fluxwatch itself: its commands and global
// options.
//
//go:embed help/fluxwatch.txt
var rootUsage string

var rootUsageTmpl = template.Must(template.New("fluxwatch").Parse(rootUsage))

// usage prints the help of fluxwatch itself on w.
func usage(w io.Writer, root *cobra.Command) {
	var cmds []*cobra.Command
	for _, n := range commandNames(root) {
		c, _, _ := root.Find([]string{n})
		cmds = append(cmds, c)
	}
	_ = rootUsageTmpl.Execute(w, struct {
		Long     string
		Commands []*cobra.Command
		Flags    string
	}{root.Long, cmds, root.Flags().FlagUsages()})
}

// commandNames lists the commands of root that help shows, sorted.
func commandNames(root *cobra.Command) []string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			names = append(names, c.Name())
		}
	}
	sort.Strings(names)
	return names
}

// unknownCommand is the usage error of a mistyped command, with cobra's
// first suggestion (a Levenshtein distance of at most 2, or a prefix).
func unknownCommand(root *cobra.Command, name string) error {
	hint := ""
	root.SuggestionsMinimumDistance = 2
	if s := root.SuggestionsFor(name); name != "" && len(s) > 0 {
		hint = fmt.Sprintf("; did you mean %q?", s[0])
	}
	return usageErrorf("unknown command %q%s (run 'fluxwatch help')", name, hint)
}

var unknownFlagRe = regexp.MustCompile(`unknown flag: (--[^\s]+)|unknown shorthand flag: '(.)' in (-\S+)`)

// withFlagHint adds "did you mean" to the error of an unknown flag, from the
// flags of fs, the flag set that reported it.
func withFlagHint(err error, fs *flag.FlagSet) error {
	var u usageError
	if !errors.As(err, &u) || fs == nil {
		return err
	}
	msg := err.Error()
	m := unknownFlagRe.FindStringSubmatchIndex(msg)
	if m == nil {
		return err
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	typed := msg[m[0]:m[1]]
	if m[2] >= 0 {
		typed = msg[m[2]:m[3]]
	} else {
		typed = "--" + msg[m[4]:m[5]]
	}
	hint := suggestFlag(typed, names)
	if hint == "" {
		return err
	}
	return usageError{errors.New(msg[:m[1]] + hint + msg[m[1]:])}
}

// suggestFlag is " (did you mean --NAME?)" for the flag typed (with its
// dashes and any =value), or "".
func suggestFlag(typed string, names []string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(typed, "-"), "=")
	if s := closest(name, names); s != "" {
		return fmt.Sprintf(" (did you mean --%s?)", s)
	}
	return ""
}

// closest returns the flag name nearest to s, when it is near enough: a
// distance of at most a third of its length (at least 1), or s a prefix of
// exactly one candidate. "" otherwise. cobra suggests commands
// (unknownCommand), not flags.
func closest(s string, candidates []string) string {
	if s == "" {
		return ""
	}
	best, bestD := "", -1
	var prefixed []string
	for _, c := range candidates {
		if strings.HasPrefix(c, s) {
			prefixed = append(prefixed, c)
		}
		if d := distance(s, c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(1, len(s)/3)
	if bestD >= 0 && bestD <= limit {
		return best
	}
	if len(prefixed) == 1 && len(s) >= 2 {
		return prefixed[0]
	}
	return ""
}

// distance is the edit distance of a mistyped flag s to the flag c:
// parse.Levenshtein (SPEC §5.2's), with one swap of neighbours in s
// counting as one edit, so that --jsno is one edit from --json.
func distance(s, c string) int {
	d := parse.Levenshtein(s, c)
	r := []rune(s)
	for i := 0; i+1 < len(r); i++ {
		r[i], r[i+1] = r[i+1], r[i]
		d = min(d, 1+parse.Levenshtein(string(r), c))
		r[i], r[i+1] = r[i+1], r[i]
	}
	return d
}
