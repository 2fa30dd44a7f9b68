package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/interrupt"
	"github.com/fluxwatch/fluxwatch/internal/redact"
	"github.com/fluxwatch/fluxwatch/internal/termview"
	"github.com/spf13/cobra"
)

func main() {
	os.Exit(mainStatus(os.Args[1:], newEnv()))
}

// mainStatus runs the command in args and returns the process's exit status.
// A signal cancels the command and ends the process (interrupt.Run): the
// status is then 128 + its number (130 for SIGINT, 143 for SIGTERM), with no
// message for the cancellation itself. A command that returned before the
// signal keeps its own status.
func mainStatus(args []string, e *env) int {
	code, err := interrupt.Run(func(ctx context.Context) error { return run(ctx, args, e) }, signalsCaught)
	if code == 0 {
		return exitCode(err, e.stderr)
	}
	// Interrupted: the command returned because its context ended (or ended
	// its work meanwhile). Say only what went wrong besides the cancellation.
	if err != nil && !errors.Is(err, context.Canceled) {
		var x exitError
		if !errors.As(err, &x) || x.err != nil {
			fmt.Fprintf(e.stderr, "fluxwatch: %s\n", inert.Line(err.Error()))
		}
	}
	fsio.RemoveTemps()
	return code
}

// signalsCaught, when a test sets it, is called once mainStatus catches
// SIGINT and SIGTERM: a signal sent before then ends the process by the
// default action, before the command even started.
var signalsCaught func()

// env is what a command may touch of the outside world. Tests replace its
// fields; nothing below main reads os.Stdout or os.Getenv directly.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// isTerminal reports whether w is an interactive terminal.
	isTerminal func(w io.Writer) bool
	// terminalSize returns the columns and rows of the terminal w is (ok
	// false when unknown).
	terminalSize func(w io.Writer) (cols, rows int, ok bool)
	// log is the structured logger of -v and --log-level (nil: none; use
	// logger()).
	log *slog.Logger
}

func newEnv() *env {
	return &env{
		stdin:        os.Stdin,
		stdout:       os.Stdout,
		stderr:       os.Stderr,
		getenv:       os.Getenv,
		isTerminal:   termview.IsTerminal,
		terminalSize: termview.Size,
	}
}

// bareEnv is an environment with an empty standard input, no variables and
// no terminal, writing to stdout and stderr: the one a command runs in for
// its own help, man pages and flags, and the one the tests run it in.
func bareEnv(stdout, stderr io.Writer) *env {
	return &env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr,
		getenv: func(string) string { return "" }, isTerminal: func(io.Writer) bool { return false },
		terminalSize: func(io.Writer) (int, int, bool) { return 0, 0, false }}
}

// run runs the command line args (without the program name): global options,
// then a command and its arguments.
func run(ctx context.Context, args []string, e *env) error {
	// Every log line, warning and error goes to stderr: the credentials of
	// a URL there (--bus nats://alice:PASSWORD@host, in -v's start line,
	// an error, a warning) are redacted, whoever prints it (SPEC §10).
	e.stderr = redact.Writer(e.stderr)
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		return execute(ctx, newRoot(e), e, completionArgs(args))
	}
	g, args, err := parseGlobal(args)
	if err != nil {
		return usageError{err}
	}
	if e.log, err = g.logger(e.stderr); err != nil {
		return usageError{err}
	}
	root := newRoot(e)
	switch {
	case g.version:
		args = []string{"version"}
	case g.help:
		args = append([]string{"help"}, args...)
	case len(args) == 0:
		usage(e.stdout, root)
		return usageError{errors.New("no command given")}
	}
	name, rest := args[0], args[1:]
	if c, _, err := root.Find(args[:1]); err != nil || c == root {
		return unknownCommand(root, name)
	}
	if g.quiet {
		rest = quietArgs(name, rest)
	}
	log := e.logger().With("command", name)
	e.log = log // the command's own logs name it too
	log.Debug("start", "args", rest)
	start := time.Now()
	err = execute(ctx, root, e, append([]string{name}, rest...))
	log.Debug("end", "elapsed", time.Since(start).Round(time.Microsecond).String(), "error", err)
	return err
}

// completionArgs are the arguments of a completion request (__complete
// WORD…, the last word the one completed) as cobra reads them: the global
// options before the last word left out, as parseGlobal leaves them out of
// a command line (cobra would complete no command after a flag of the
// root's own).
func completionArgs(args []string) []string {
	if len(args) < 2 {
		return args
	}
	words, last := args[1:len(args)-1], args[len(args)-1]
	if _, rest, err := parseGlobal(words); err == nil {
		words = rest
	}
	return append(append([]string{args[0]}, words...), last)
}

// execute runs args, a command and its arguments, in the command tree root.
func execute(ctx context.Context, root *cobra.Command, e *env, args []string) error {
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	return root.ExecuteContext(ctx)
}
