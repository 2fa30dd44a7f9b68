package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	flag "github.com/spf13/pflag"
)

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
