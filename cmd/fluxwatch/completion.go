package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/fluxwatch/fluxwatch/report"
)

// The completion scripts ask the program itself what comes next
// (`fluxwatch __complete WORD…`, the words typed after "fluxwatch", the last
// one being completed), so they never go stale as flags change.

const bashCompletion = `# bash completion for fluxwatch: source <(fluxwatch completion bash)
_fluxwatch() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    local IFS=$'\n'
    local words
    words=$(fluxwatch __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _fluxwatch fluxwatch
`

const zshCompletion = `#compdef fluxwatch
# zsh completion for fluxwatch: fluxwatch completion zsh > "${fpath[1]}/_fluxwatch"
_fluxwatch() {
    local -a words_
    words_=("${(@f)$(fluxwatch __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    if (( ${#words_} )) && [[ -n ${words_[1]} ]]; then
        compadd -- "${words_[@]}"
    else
        _files
    fi
}
compdef _fluxwatch fluxwatch
`

const fishCompletion = `# fish completion for fluxwatch: fluxwatch completion fish > ~/.config/fish/completions/fluxwatch.fish
complete -c fluxwatch -a '(fluxwatch __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`

var completionScripts = map[string]string{"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}

const completionUsage = `Usage: fluxwatch completion bash|zsh|fish

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
		return usageErrorf("completion: want one shell: bash, zsh or fish")
	}
	script, ok := completionScripts[fs.Arg(0)]
	if !ok {
		return usageErrorf("completion: shell %q: want bash, zsh or fish", fs.Arg(0))
	}
	fmt.Fprint(e.stdout, script)
	return nil
}

// flagValues are the values that complete after a flag.
var flagValues = map[string][]string{
	"fail-on":    {"none", "needs-changes", "risky"},
	"dedup":      {"fuzzy", "exact"},
	"severity":   {"blocking", "notable"},
	"log-level":  {"debug", "info", "warn", "error"},
	"log-format": {"text", "json"},
}

// runComplete prints the completions of the last of args, one a line: the
// words typed after "fluxwatch".
func runComplete(ctx context.Context, e *env, args []string) error {
	for _, c := range completeWords(args) {
		fmt.Fprintln(e.stdout, c)
	}
	return nil
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
