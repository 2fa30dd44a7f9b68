package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

// The command line around cobra's tree (root.go): global options, help on
// stdout with examples, and "did you mean" for mistyped commands and
// flags.

// globalOptions are the options given before the command (-v, --log-level
// and --log-format also after it).
type globalOptions struct {
	quiet     bool
	verbose   bool
	logLevel  string
	logFormat string
	help      bool
	version   bool
}

// globalFlags declares the global options on fs, the root command's, for
// help, completion and the man page; parseGlobal reads them.
func globalFlags(fs *flag.FlagSet) {
	fs.BoolP("quiet", "q", false, "print nothing but errors (what a command was asked to print, such as --format or schema, still prints)")
	fs.BoolP("verbose", "v", false, "structured logs on stderr at level debug")
	fs.String("log-level", "", "structured logs on stderr from `LEVEL`: debug, info, warn or error")
	fs.String("log-format", "", "the logs as `FORMAT`: text (default) or json")
	fs.BoolP("help", "h", false, "this help ('fluxwatch help COMMAND': a command's help)")
	fs.Bool("version", false, "as 'fluxwatch version'")
}

// parseGlobal reads the global options at the front of args and -v,
// --verbose, --log-level and --log-format anywhere before "--" (no command
// has flags of those names). It returns the options and the remaining
// arguments, the command first.
func parseGlobal(args []string) (globalOptions, []string, error) {
	var g globalOptions
	valued := func(arg, name string, i *int, rest []string) (string, bool, error) {
		if v, ok := strings.CutPrefix(arg, name+"="); ok {
			return v, true, nil
		}
		if arg != name {
			return "", false, nil
		}
		if *i+1 >= len(rest) {
			return "", true, fmt.Errorf("flag needs an argument: %s", name)
		}
		*i++
		return rest[*i], true, nil
	}
	var out []string
	front := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		switch a {
		case "-v", "--verbose":
			g.verbose = true
			continue
		}
		if v, ok, err := valued(a, "--log-level", &i, args); ok || err != nil {
			if err != nil {
				return g, nil, err
			}
			g.logLevel = v
			continue
		}
		if v, ok, err := valued(a, "--log-format", &i, args); ok || err != nil {
			if err != nil {
				return g, nil, err
			}
			g.logFormat = v
			continue
		}
		if front {
			switch a {
			case "-q", "--quiet":
				g.quiet = true
				continue
			case "-h", "--help":
				g.help = true
				continue
			case "--version":
				g.version = true
				continue
			}
			if strings.HasPrefix(a, "-") {
				var names []string
				fs := flag.NewFlagSet("fluxwatch", flag.ContinueOnError)
				globalFlags(fs)
				fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
				return g, nil, fmt.Errorf("unknown global flag %s%s", a, suggestFlag(a, names))
			}
			front = false
		}
		out = append(out, a)
	}
	return g, out, nil
}

// logger returns the structured logger the options ask for: none unless -v
// or --log-level, on w (stderr).
func (g globalOptions) logger(w io.Writer) (*slog.Logger, error) {
	if !g.verbose && g.logLevel == "" {
		if g.logFormat != "" && g.logFormat != "text" && g.logFormat != "json" {
			return nil, fmt.Errorf("--log-format %q: want text or json", g.logFormat)
		}
		return discardLogger, nil
	}
	level := slog.LevelDebug
	if g.logLevel != "" {
		if err := level.UnmarshalText([]byte(g.logLevel)); err != nil {
			return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", g.logLevel)
		}
	}
	opts := &slog.HandlerOptions{Level: level}
	switch g.logFormat {
	case "", "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", g.logFormat)
}

var discardLogger = slog.New(slog.DiscardHandler)

// logger is the command's structured logger (never nil).
func (e *env) logger() *slog.Logger {
	if e.log == nil {
		return discardLogger
	}
	return e.log
}

// newFlagSet returns a flag set that returns its errors (printing
// nothing): plan's, which parses its own flags.
func (e *env) newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

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

const helpUsage = `Usage: fluxwatch help [COMMAND [SUBCOMMAND]]

Without a command, lists the commands and the global options; with one,
prints its help (as COMMAND --help): usage, flags and examples, on stdout.
`

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

// unknownCommand is the usage error of a mistyped command.
func unknownCommand(root *cobra.Command, name string) error {
	hint := ""
	if s := closest(name, commandNames(root)); s != "" {
		hint = fmt.Sprintf("; did you mean %q?", s)
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

// closest returns the candidate nearest to s, when it is near enough: an
// edit distance of at most a third of its length (at least 1), or s a
// prefix of exactly one candidate. "" otherwise.
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
		d := editDistance(s, c)
		if bestD < 0 || d < bestD {
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

// editDistance is the Damerau–Levenshtein distance (optimal string
// alignment) of a and b: insertions, deletions, substitutions and swaps of
// neighbours each cost 1.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// quietArgs passes a global -q to the command: as its own --quiet where it
// has one. Every other command prints only what it was asked for.
func quietArgs(name string, args []string) []string {
	switch name {
	case "synth", "watch", "check", "verify", "demo":
		return append([]string{"--quiet"}, args...)
	case "finding":
		if len(args) > 0 && args[0] == "read" {
			return append([]string{"read", "--quiet"}, args[1:]...)
		}
	}
	return args
}
