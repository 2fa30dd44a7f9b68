package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

const manUsage = `Usage: fluxwatch man DIR

Writes man pages into DIR (created when missing): fluxwatch.1, and
fluxwatch-COMMAND.1 for every command, from the same text as --help. Read
one with man -l DIR/fluxwatch-synth.1.
`

func runMan(ctx context.Context, e *env, args []string) error {
	fs := e.newFlagSet("man")
	fs.Usage = func() { fmt.Fprint(e.stdout, manUsage) }
	if err := parseHelp(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("man: want one directory")
	}
	dir := fs.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageErrorf("man: %v", err)
	}
	pages := map[string][]byte{"fluxwatch.1": manPage("", "")}
	for _, name := range commandNames() {
		pages["fluxwatch-"+name+".1"] = manPage(name, commandHelp(ctx, name))
	}
	for file, data := range pages {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			return usageErrorf("man: %v", err)
		}
	}
	e.logger().Info("man pages written", "dir", dir, "pages", len(pages))
	return nil
}

// commandHelp returns what `fluxwatch help NAME` prints.
func commandHelp(ctx context.Context, name string) string {
	var b bytes.Buffer
	run(ctx, []string{"help", name}, bareEnv(&b, io.Discard))
	return b.String()
}

// manPage renders the man page of command name ("": fluxwatch itself) from
// its help text. The page carries the version, not a date, so that the same
// build writes the same pages.
func manPage(name string, help string) []byte {
	var b strings.Builder
	title, cmd := "FLUXWATCH", "fluxwatch"
	if name != "" {
		title, cmd = "FLUXWATCH-"+strings.ToUpper(name), "fluxwatch "+name
	}
	fmt.Fprintf(&b, ".TH %s 1 \"\" \"fluxwatch %s\" \"fluxwatch manual\"\n", roff(title), roff(versionString()))
	b.WriteString(".SH NAME\n")
	if name == "" {
		b.WriteString("fluxwatch \\- watch parallel review agents and keep one deterministic synthesis current\n")
		b.WriteString(".SH SYNOPSIS\n.B fluxwatch\n[global options] COMMAND [flags] [args]\n.SH COMMANDS\n")
		for _, n := range commandNames() {
			fmt.Fprintf(&b, ".TP\n.BR fluxwatch\\-%s (1)\n%s\n", roff(n), roff(commands[n].summary))
		}
		b.WriteString(".SH OPTIONS\n.nf\n" + roff(globalUsage) + ".fi\n")
		b.WriteString(".SH EXIT STATUS\n0 success; 1 the verdict gate tripped; 2 a usage or input error; 3 an internal error; 130 or 143 after SIGINT or SIGTERM.\n")
		return []byte(b.String())
	}
	fmt.Fprintf(&b, "%s \\- %s\n", roff(strings.ReplaceAll(cmd, " ", "\\-")), roff(commands[name].summary))
	sections := splitHelp(help)
	for _, s := range sections {
		fmt.Fprintf(&b, ".SH %s\n.nf\n%s.fi\n", roff(strings.ToUpper(s.title)), roff(s.body))
	}
	b.WriteString(".SH SEE ALSO\n.BR fluxwatch (1)\n")
	return []byte(b.String())
}

type helpSection struct{ title, body string }

// splitHelp cuts help text at its "Flags:" and "Examples:" lines; the text
// before is the synopsis and description.
func splitHelp(help string) []helpSection {
	secs := []helpSection{{title: "Synopsis"}}
	for _, line := range strings.SplitAfter(help, "\n") {
		switch strings.TrimSpace(line) {
		case "Flags:", "Examples:", "Commands:":
			secs = append(secs, helpSection{title: strings.TrimSuffix(strings.TrimSpace(line), ":")})
			continue
		}
		secs[len(secs)-1].body += line
	}
	var out []helpSection
	for _, s := range secs {
		if s.body = strings.Trim(s.body, "\n") + "\n"; strings.TrimSpace(s.body) != "" {
			out = append(out, s)
		}
	}
	return out
}

// roff escapes text for a man page: backslashes, and a leading dot or quote
// that would start a request.
func roff(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\e")
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			b.WriteString("\\&")
		}
		b.WriteString(line)
	}
	return b.String()
}
