package plan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Env is what Command reads and writes besides the plan root: the JSON
// envelope goes to Stdout, warnings and usage errors to Stderr, a "-" file
// is read from Stdin, and Getenv gives FLUXWATCH_PLAN_DIR and
// GIT_CEILING_DIRECTORIES.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// The exit codes of an ExitError.
const (
	CodeInput  = 2 // bad arguments or files: the caller's error
	CodeSystem = 3 // the file system failed, or the output could not be written
)

// ExitError is the error Command returns once it has printed the error
// envelope: Code is the process's exit code, Err the one-line message.
type ExitError struct {
	Code int
	Err  error
}

func (x *ExitError) Error() string { return x.Err.Error() }
func (x *ExitError) Unwrap() error { return x.Err }

// Commands returns the names of plan's subcommands, in the order of its
// usage.
func Commands() []string { return append([]string(nil), commandOrder...) }

// IsCommand reports whether name is one of plan's subcommands.
func IsCommand(name string) bool {
	_, ok := commands[name]
	return ok
}

// newFlagSet returns a flag set that returns its errors, printing nothing:
// they become the error envelope.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// command is one subcommand of `fluxwatch plan`.
type command struct {
	args    string // the synopsis after the command name
	summary string
	run     func(p *run, args []string) error
}

var commands = map[string]command{
	"write-finding": {`NAME [--notes TEXT | --notes-file F] [--approaches JSON | --approaches-file F]`,
		"write a specialist's notes and (all of its) approaches", writeFinding},
	"write-approach": {`NAME N [--variant[=L]] [--description TEXT] [--context TEXT | --context-file F] [--files a,b] [--questions "q1|q2"]`,
		"add or replace one approach; clears its pending refinement", writeApproach},
	"clear-approach": {`NAME N [L]`,
		"remove approach N (the standalone or every variant), or variant N L", clearApproach},
	"get-finding-approach": {`NAME N [L]`,
		"print approach N (the standalone or every variant) or N L, in full", getApproach},
	"refine": {`NAME N[_L] --text TEXT`,
		"set an approach's pending refinement (empty text clears it)", refine},
	"get-findings": {`[--full]`,
		"list every approach of every specialist; --full adds notes and context", getFindings},
	"read-design-manifest": {``,
		"list the designs of design/manifest.yaml", readDesign},
}

var commandOrder = []string{"write-finding", "write-approach", "clear-approach", "get-finding-approach", "refine", "get-findings", "read-design-manifest"}

// Usage writes plan's usage: its subcommands, its output and its exit codes.
func Usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: fluxwatch plan [--plan-dir DIR] COMMAND [args]")
	fmt.Fprintln(w, "\nManage specialist findings (findings/NAME.yaml under the plan root). Output is JSON:")
	fmt.Fprintln(w, `{"status":"success","data":…} or {"status":"error","error":{"type","message","suggestion"}}.`)
	fmt.Fprintln(w, "\nCommands:")
	for _, name := range commandOrder {
		c := commands[name]
		fmt.Fprintf(w, "  %s %s\n      %s\n", name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nPlan root: --plan-dir, else $FLUXWATCH_PLAN_DIR, else <git top level>/.claude/plans/<branch>.")
	fmt.Fprintln(w, "Errors exit 2 (bad arguments or files) or 3 (the file system failed).")
}

// run is one run of `fluxwatch plan`: the environment and the plan root
// flag given before the command.
type run struct {
	ctx     context.Context // ends at a signal: a change not yet made is not made
	env     Env
	name    string // the subcommand
	cmd     command
	planDir string
}

// Command runs `fluxwatch plan ARGS` and prints its JSON envelope (SPEC
// §4.2) on env.Stdout. A failure returns an *ExitError after the error
// envelope; a change that ctx stopped (a signal) prints nothing, is not
// made, and returns ctx's error. --help prints the usage and returns nil.
func Command(ctx context.Context, env Env, args []string) error {
	p := &run{ctx: ctx, env: env}
	fs := newFlagSet("plan")
	fs.SetOutput(env.Stderr)
	fs.SetInterspersed(false)
	fs.StringVar(&p.planDir, "plan-dir", "", "the plan root")
	fs.Usage = func() { Usage(env.Stdout) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return p.fail(badArgs("%v", err))
	}
	if fs.NArg() == 0 {
		Usage(env.Stderr)
		return p.fail(badArgs("no plan command given"))
	}
	p.name = fs.Arg(0)
	c, ok := commands[p.name]
	if !ok {
		return p.fail(badArgs("unknown plan command %q", p.name))
	}
	p.cmd = c
	return c.run(p, fs.Args()[1:])
}

func badArgs(format string, a ...any) *Error {
	return &Error{Type: ErrInvalidArguments, Message: fmt.Sprintf(format, a...),
		Suggestion: "run `fluxwatch plan --help` for the commands and their arguments"}
}

// flags returns the flag set of the subcommand, with --plan-dir (it may be
// given before or after the command).
func (p *run) flags() *flag.FlagSet {
	fs := newFlagSet("plan " + p.name)
	fs.SetOutput(p.env.Stderr)
	fs.StringVar(&p.planDir, "plan-dir", p.planDir, "the plan root (default $FLUXWATCH_PLAN_DIR, else <git top level>/.claude/plans/<branch>)")
	fs.Usage = func() {
		fmt.Fprintf(p.env.Stdout, "Usage: fluxwatch plan %s %s\n\n%s\n\nFlags:\n", p.name, p.cmd.args, p.cmd.summary)
		fs.SetOutput(p.env.Stdout)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses the subcommand's flags and checks the count of its positional
// arguments. ok is false when the command is done: --help printed the usage
// (err nil), or the arguments are wrong (err from fail, the envelope printed).
func (p *run) parse(fs *flag.FlagSet, args []string, minArgs, maxArgs int) (ok bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return false, nil
		}
		return false, p.fail(badArgs("plan %s: %v", p.name, err))
	}
	if n := fs.NArg(); n < minArgs || n > maxArgs {
		return false, p.fail(badArgs("plan %s: want arguments %s, got %d", p.name, p.cmd.args, n))
	}
	return true, nil
}

// do opens the store (--plan-dir, else FLUXWATCH_PLAN_DIR, else the branch's
// directory under the git top level) and runs f on it: the error envelope
// when either fails, else the success envelope with f's data and its
// warnings. A change that a signal stopped prints nothing: it was not made,
// and main exits with the signal's status.
func (p *run) do(f func(s *Store) (data any, warnings []string, err error)) error {
	root, err := ResolveRoot(RootOptions{Flag: p.planDir, Env: p.env.Getenv("FLUXWATCH_PLAN_DIR"),
		Ceilings: p.env.Getenv("GIT_CEILING_DIRECTORIES")})
	if err != nil {
		return p.fail(err)
	}
	data, warnings, err := f(&Store{Root: root, Context: p.ctx})
	if err != nil && p.ctx.Err() != nil && errors.Is(err, p.ctx.Err()) {
		return err
	}
	if err != nil {
		return p.fail(err)
	}
	return p.ok(data, warnings)
}

// ok prints the success envelope, and the warnings on stderr.
func (p *run) ok(data any, warnings []string) error {
	for _, w := range warnings {
		fmt.Fprintf(p.env.Stderr, "fluxwatch: %s\n", inert.Line(w))
	}
	if err := WriteJSON(p.env.Stdout, Envelope{Status: "success", Data: data}); err != nil {
		return &ExitError{CodeSystem, fmt.Errorf("write output: %w", err)}
	}
	return nil
}

// fail prints the error envelope and returns the error that sets the exit
// code: 2 for the caller's errors, 3 for the system's.
func (p *run) fail(err error) error {
	var pe *Error
	if !errors.As(err, &pe) {
		pe = &Error{Type: ErrIO, Message: err.Error(), Err: err}
	}
	WriteJSON(p.env.Stdout, Envelope{Status: "error", Error: &EnvelopeError{pe.Type, pe.Message, pe.Suggestion}})
	code := CodeInput
	if !pe.Input() {
		code = CodeSystem
	}
	prefix := "plan"
	if p.name != "" {
		prefix += " " + p.name
	}
	msg := pe.Message
	if !strings.HasPrefix(msg, prefix+": ") { // badArgs messages name the command already
		msg = prefix + ": " + msg
	}
	return &ExitError{code, errors.New(msg)}
}

// text returns the value of a text flag or of its -file variant ("-" reads
// standard input; a FIFO such as <(cmd) is read as it comes); set is false
// when neither was given. A file is read up to parse.MaxYAMLSize, the most a
// findings file holds: a larger one (/dev/zero) is refused without being
// held in memory.
func (p *run) text(fs *flag.FlagSet, name string) (value string, set bool, err error) {
	fileFlag := name + "-file"
	switch {
	case fs.Changed(name) && fs.Changed(fileFlag):
		return "", false, badArgs("plan %s: give --%s or --%s, not both", p.name, name, fileFlag)
	case fs.Changed(name):
		v, _ := fs.GetString(name)
		return v, true, nil
	case fs.Changed(fileFlag):
		path, _ := fs.GetString(fileFlag)
		data, err := fsio.ReadInput(p.env.Stdin, path, parse.MaxYAMLSize)
		if err != nil {
			return "", false, badArgs("plan %s: --%s: %v", p.name, fileFlag, err)
		}
		return string(data), true, nil
	}
	return "", false, nil
}

func writeFinding(p *run, args []string) error {
	fs := p.flags()
	fs.String("notes", "", "key practices, stack, technologies, APIs, dependencies (replaces the notes)")
	fs.String("notes-file", "", "read the notes from a file (- for standard input)")
	fs.String("approaches", "", `JSON array of approaches (replaces them all): [{"number":1,"variant":"A","description":"…","context":"…","relevant_files":["a.ts"],"questions":["q?"]}]`)
	fs.String("approaches-file", "", "read the approaches JSON from a file (- for standard input)")
	if ok, err := p.parse(fs, args, 1, 1); !ok {
		return err
	}
	name := fs.Arg(0)
	notes, notesSet, err := p.text(fs, "notes")
	if err != nil {
		return p.fail(err)
	}
	approachesJSON, approachesSet, err := p.text(fs, "approaches")
	if err != nil {
		return p.fail(err)
	}
	var (
		notesArg   *string
		approaches []parse.Approach
	)
	if notesSet {
		notesArg = &notes
	}
	if approachesSet {
		if approaches, err = ParseApproachesJSON([]byte(approachesJSON)); err != nil {
			return p.fail(err)
		}
		if approaches == nil {
			approaches = []parse.Approach{}
		}
	}
	return p.do(func(s *Store) (any, []string, error) {
		res, err := s.WriteFinding(name, notesArg, approaches)
		return res, res.Warnings, err
	})
}

func writeApproach(p *run, args []string) error {
	fs := p.flags()
	fs.String("variant", "", "make it variant `L` of approach N; --variant alone takes the next free letter")
	fs.Lookup("variant").NoOptDefVal = variantFlagNext
	fs.String("description", "", "what the approach solves, in about three sentences")
	fs.String("context", "", "the full approach: pseudo-code, findings, best practices")
	fs.String("context-file", "", "read the context from a file (- for standard input)")
	fs.String("files", "", "relevant files, comma-separated, project-relative")
	fs.String("questions", "", `clarifying questions for the user, separated by "|"`)
	if ok, err := p.parse(fs, args, 2, 3); !ok {
		return err
	}
	variant, _ := fs.GetString("variant")
	if fs.NArg() == 3 {
		// The seed's form `--variant B` reads as --variant (no letter)
		// followed by the argument B.
		if variant != variantFlagNext {
			return p.fail(badArgs("plan write-approach: want arguments NAME N, got %d", fs.NArg()))
		}
		variant = fs.Arg(2)
	}
	in := ApproachInput{Variant: variant}
	if variant == variantFlagNext {
		in.Variant, in.NextVariant = "", true
	}
	var err error
	name := fs.Arg(0)
	if err := ValidSpecialist(name); err != nil {
		return p.fail(err)
	}
	if in.Number, err = ParseNumber(fs.Arg(1)); err != nil {
		return p.fail(err)
	}
	in.Description, _ = fs.GetString("description")
	if in.Detail, _, err = p.text(fs, "context"); err != nil {
		return p.fail(err)
	}
	files, _ := fs.GetString("files")
	in.Files = splitList(files, ",")
	questions, _ := fs.GetString("questions")
	in.Questions = splitList(questions, "|")
	return p.do(func(s *Store) (any, []string, error) {
		res, err := s.WriteApproach(name, in)
		return res, res.Warnings, err
	})
}

// variantFlagNext is the value of a --variant given without a letter.
const variantFlagNext = "next"

// splitList splits s at sep, trims the parts and drops empty ones.
func splitList(s, sep string) []string {
	var out []string
	for _, part := range strings.Split(s, sep) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// approachRef names an approach: specialist, number, variant ("" for none).
type approachRef struct {
	name    string
	n       int
	variant string
}

// parseTarget parses fs's flags and the NAME N [L] arguments; N may also be
// written N_L. ok is false when the command is done, as for parse.
func (p *run) parseTarget(fs *flag.FlagSet, args []string) (a approachRef, ok bool, err error) {
	if ok, err := p.parse(fs, args, 2, 3); !ok {
		return a, false, err
	}
	if a, err = target(fs.Args()); err != nil {
		return a, false, p.fail(err)
	}
	return a, true, nil
}

func target(args []string) (a approachRef, err error) {
	a.name = args[0]
	if err := ValidSpecialist(a.name); err != nil {
		return approachRef{}, err
	}
	if a.n, a.variant, err = ParseApproachID(args[1]); err != nil {
		return approachRef{}, err
	}
	if len(args) == 3 {
		if a.variant != "" {
			return approachRef{}, badArgs("give the variant once: %s or %s %s", args[1], strings.Split(args[1], "_")[0], args[2])
		}
		a.variant = args[2]
		if err := ValidVariant(a.variant); err != nil {
			return approachRef{}, err
		}
	}
	return a, nil
}

func clearApproach(p *run, args []string) error {
	ref, ok, err := p.parseTarget(p.flags(), args)
	if !ok {
		return err
	}
	return p.do(func(s *Store) (any, []string, error) {
		res, err := s.ClearApproach(ref.name, ref.n, ref.variant)
		return res, res.Warnings, err
	})
}

func getApproach(p *run, args []string) error {
	ref, ok, err := p.parseTarget(p.flags(), args)
	if !ok {
		return err
	}
	return p.do(func(s *Store) (any, []string, error) {
		sp, as, diags, err := s.Approaches(ref.name, ref.n, ref.variant)
		if err != nil {
			return nil, nil, err
		}
		views := make([]ApproachView, len(as))
		for i, a := range as {
			views[i] = View("", a, sp.Approaches, true)
		}
		return struct {
			Specialist string         `json:"specialist"`
			Number     int            `json:"number"`
			Approaches []ApproachView `json:"approaches"`
		}{ref.name, ref.n, views}, Warnings(diags), nil
	})
}

func refine(p *run, args []string) error {
	fs := p.flags()
	fs.String("text", "", "the revision asked of the specialist (empty clears it)")
	fs.String("text-file", "", "read the text from a file (- for standard input)")
	ref, ok, err := p.parseTarget(fs, args)
	if !ok {
		return err
	}
	text, set, err := p.text(fs, "text")
	if err != nil {
		return p.fail(err)
	}
	if !set {
		return p.fail(badArgs("plan refine: --text is required (an empty --text clears the refinement)"))
	}
	return p.do(func(s *Store) (any, []string, error) {
		res, err := s.Refine(ref.name, ref.n, ref.variant, text)
		return res, res.Warnings, err
	})
}

func getFindings(p *run, args []string) error {
	fs := p.flags()
	full := fs.Bool("full", false, "add each specialist's notes and each approach's full context")
	if ok, err := p.parse(fs, args, 0, 0); !ok {
		return err
	}
	return p.do(func(s *Store) (any, []string, error) {
		all, diags, err := s.All()
		if err != nil {
			return nil, nil, err
		}
		if *full {
			type specialistView struct {
				Specialist string         `json:"specialist"`
				File       string         `json:"file"`
				Notes      string         `json:"notes"`
				Approaches []ApproachView `json:"approaches"`
			}
			out := []specialistView{}
			for _, f := range all {
				v := specialistView{Specialist: f.Name, File: f.File, Notes: f.Specialist.Notes, Approaches: []ApproachView{}}
				for _, a := range f.Specialist.Approaches {
					v.Approaches = append(v.Approaches, View("", a, f.Specialist.Approaches, true))
				}
				out = append(out, v)
			}
			return struct {
				Specialists []specialistView `json:"specialists"`
			}{out}, Warnings(diags), nil
		}
		names := []string{}
		approaches := []SummaryView{}
		for _, f := range all {
			names = append(names, f.Name)
			for _, a := range f.Specialist.Approaches {
				approaches = append(approaches, Summary(f.Name, a))
			}
		}
		return struct {
			Specialists []string      `json:"specialists"`
			Approaches  []SummaryView `json:"approaches"`
		}{names, approaches}, Warnings(diags), nil
	})
}

func readDesign(p *run, args []string) error {
	fs := p.flags()
	if ok, err := p.parse(fs, args, 0, 0); !ok {
		return err
	}
	return p.do(func(s *Store) (any, []string, error) {
		m, diags, exists, err := s.DesignManifest()
		if err != nil {
			return nil, nil, err
		}
		type designView struct {
			ScreenshotFileName string `json:"screenshot_file_name"`
			Description        string `json:"description"`
			Path               string `json:"path,omitempty"`
		}
		warnings := Warnings(diags)
		designs := []designView{}
		for _, d := range m.Designs {
			v := designView{ScreenshotFileName: d.ScreenshotFileName, Description: d.Description}
			if parse.ValidName(d.ScreenshotFileName) == nil {
				v.Path = filepath.Join(s.Root, "design", d.ScreenshotFileName)
			} else if d.ScreenshotFileName != "" {
				warnings = append(warnings, fmt.Sprintf("%s: screenshot_file_name %q is not a plain file name; no path given",
					filepath.Join(s.Root, filepath.FromSlash(DesignFile)), d.ScreenshotFileName))
			}
			designs = append(designs, v)
		}
		return struct {
			Exists  bool         `json:"exists"`
			File    string       `json:"file"`
			Designs []designView `json:"designs"`
		}{exists, filepath.Join(s.Root, filepath.FromSlash(DesignFile)), designs}, warnings, nil
	})
}
