package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/plan"
)

// planCommand is one subcommand of `fluxwatch plan`.
type planCommand struct {
	args    string // the synopsis after the command name
	summary string
	run     func(p *planRun, args []string) error
}

var planCommands = map[string]planCommand{
	"write-finding": {`NAME [--notes TEXT | --notes-file F] [--approaches JSON | --approaches-file F]`,
		"write a specialist's notes and (all of its) approaches", planWriteFinding},
	"write-approach": {`NAME N [--variant[=L]] [--description TEXT] [--context TEXT | --context-file F] [--files a,b] [--questions "q1|q2"]`,
		"add or replace one approach; clears its pending refinement", planWriteApproach},
	"clear-approach": {`NAME N [L]`,
		"remove approach N (the standalone or every variant), or variant N L", planClearApproach},
	"get-finding-approach": {`NAME N [L]`,
		"print approach N (the standalone or every variant) or N L, in full", planGetApproach},
	"refine": {`NAME N[_L] --text TEXT`,
		"set an approach's pending refinement (empty text clears it)", planRefine},
	"get-findings": {`[--full]`,
		"list every approach of every specialist; --full adds notes and context", planGetFindings},
	"read-design-manifest": {``,
		"list the designs of design/manifest.yaml", planReadDesign},
}

var planOrder = []string{"write-finding", "write-approach", "clear-approach", "get-finding-approach", "refine", "get-findings", "read-design-manifest"}

func planUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: fluxwatch plan [--plan-dir DIR] COMMAND [args]")
	fmt.Fprintln(w, "\nManage specialist findings (findings/NAME.yaml under the plan root). Output is JSON:")
	fmt.Fprintln(w, `{"status":"success","data":…} or {"status":"error","error":{"type","message","suggestion"}}.`)
	fmt.Fprintln(w, "\nCommands:")
	for _, name := range planOrder {
		c := planCommands[name]
		fmt.Fprintf(w, "  %s %s\n      %s\n", name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nPlan root: --plan-dir, else $FLUXWATCH_PLAN_DIR, else <git top level>/.claude/plans/<branch>.")
	fmt.Fprintln(w, "Errors exit 2 (bad arguments or files) or 3 (the file system failed).")
}

// planRun is one run of `fluxwatch plan`: the environment and the plan root
// flag given before the command.
type planRun struct {
	ctx     context.Context // ends at a signal: a change not yet made is not made
	e       *env
	name    string // the subcommand
	cmd     planCommand
	planDir string
}

func planCmd(e *env) *cobra.Command {
	var help strings.Builder
	planUsage(&help)
	cmd := newCommand("plan", "manage specialist findings (envoy plan)", help.String())
	// plan parses its own flags and answers its errors in its JSON
	// envelope; --plan-dir is declared for completion and man pages.
	cmd.DisableFlagParsing = true
	cmd.Flags().String("plan-dir", "", "the plan root (default $FLUXWATCH_PLAN_DIR, else <git top level>/.claude/plans/<branch>)")
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		for _, a := range args {
			if _, ok := planCommands[a]; ok {
				return nil, cobra.ShellCompDirectiveDefault
			}
		}
		return prefixed(planOrder, prefix), cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		err := runPlan(cmd.Context(), e, args)
		if err == nil && isHelp(args) {
			fmt.Fprintf(e.stdout, "\nExamples:\n%s", cmd.Example)
		}
		return err
	}
	return cmd
}

func runPlan(ctx context.Context, e *env, args []string) error {
	p := &planRun{ctx: ctx, e: e}
	fs := e.newFlagSet("plan")
	fs.SetOutput(e.stderr)
	fs.SetInterspersed(false)
	fs.StringVar(&p.planDir, "plan-dir", "", "the plan root")
	fs.Usage = func() { planUsage(e.stdout) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return p.fail(badArgs("%v", err))
	}
	if fs.NArg() == 0 {
		planUsage(e.stderr)
		return p.fail(badArgs("no plan command given"))
	}
	p.name = fs.Arg(0)
	c, ok := planCommands[p.name]
	if !ok {
		return p.fail(badArgs("unknown plan command %q", p.name))
	}
	p.cmd = c
	return c.run(p, fs.Args()[1:])
}

func badArgs(format string, a ...any) *plan.Error {
	return &plan.Error{Type: plan.ErrInvalidArguments, Message: fmt.Sprintf(format, a...),
		Suggestion: "run `fluxwatch plan --help` for the commands and their arguments"}
}

// flags returns the flag set of the subcommand, with --plan-dir (it may be
// given before or after the command).
func (p *planRun) flags() *flag.FlagSet {
	fs := p.e.newFlagSet("plan " + p.name)
	fs.SetOutput(p.e.stderr)
	fs.StringVar(&p.planDir, "plan-dir", p.planDir, "the plan root (default $FLUXWATCH_PLAN_DIR, else <git top level>/.claude/plans/<branch>)")
	fs.Usage = func() {
		fmt.Fprintf(p.e.stdout, "Usage: fluxwatch plan %s %s\n\n%s\n\nFlags:\n", p.name, p.cmd.args, p.cmd.summary)
		fs.SetOutput(p.e.stdout)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses the subcommand's flags and checks the count of its positional
// arguments. ok is false when the command is done: --help printed the usage
// (err nil), or the arguments are wrong (err from fail, the envelope printed).
func (p *planRun) parse(fs *flag.FlagSet, args []string, minArgs, maxArgs int) (ok bool, err error) {
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
func (p *planRun) do(f func(s *plan.Store) (data any, warnings []string, err error)) error {
	root, err := plan.ResolveRoot(plan.RootOptions{Flag: p.planDir, Env: p.e.getenv("FLUXWATCH_PLAN_DIR"),
		Ceilings: p.e.getenv("GIT_CEILING_DIRECTORIES")})
	if err != nil {
		return p.fail(err)
	}
	data, warnings, err := f(&plan.Store{Root: root, Context: p.ctx})
	if err != nil && p.ctx.Err() != nil && errors.Is(err, p.ctx.Err()) {
		return err
	}
	if err != nil {
		return p.fail(err)
	}
	return p.ok(data, warnings)
}

// ok prints the success envelope, and the warnings on stderr.
func (p *planRun) ok(data any, warnings []string) error {
	for _, w := range warnings {
		fmt.Fprintf(p.e.stderr, "fluxwatch: %s\n", inert.Line(w))
	}
	if err := writeJSON(p.e.stdout, envelope{Status: "success", Data: data}); err != nil {
		return exitError{exitInternal, fmt.Errorf("write output: %w", err)}
	}
	return nil
}

// fail prints the error envelope and returns the error that sets the exit
// code: 2 for the caller's errors, 3 for the system's.
func (p *planRun) fail(err error) error {
	var pe *plan.Error
	if !errors.As(err, &pe) {
		pe = &plan.Error{Type: plan.ErrIO, Message: err.Error(), Err: err}
	}
	writeJSON(p.e.stdout, envelope{Status: "error", Error: &envelopeError{pe.Type, pe.Message, pe.Suggestion}})
	code := exitUsage
	if !pe.Input() {
		code = exitInternal
	}
	prefix := "plan"
	if p.name != "" {
		prefix += " " + p.name
	}
	msg := pe.Message
	if !strings.HasPrefix(msg, prefix+": ") { // badArgs messages name the command already
		msg = prefix + ": " + msg
	}
	return exitError{code, errors.New(msg)}
}

// text returns the value of a text flag or of its -file variant ("-" reads
// standard input; a FIFO such as <(cmd) is read as it comes); set is false
// when neither was given. A file is read up to parse.MaxYAMLSize, the most a
// findings file holds: a larger one (/dev/zero) is refused without being
// held in memory.
func (p *planRun) text(fs *flag.FlagSet, name string) (value string, set bool, err error) {
	fileFlag := name + "-file"
	switch {
	case fs.Changed(name) && fs.Changed(fileFlag):
		return "", false, badArgs("plan %s: give --%s or --%s, not both", p.name, name, fileFlag)
	case fs.Changed(name):
		v, _ := fs.GetString(name)
		return v, true, nil
	case fs.Changed(fileFlag):
		path, _ := fs.GetString(fileFlag)
		data, err := readInput(p.e.stdin, path, parse.MaxYAMLSize)
		if err != nil {
			return "", false, badArgs("plan %s: --%s: %v", p.name, fileFlag, err)
		}
		return string(data), true, nil
	}
	return "", false, nil
}

func planWriteFinding(p *planRun, args []string) error {
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
		if approaches, err = plan.ParseApproachesJSON([]byte(approachesJSON)); err != nil {
			return p.fail(err)
		}
		if approaches == nil {
			approaches = []parse.Approach{}
		}
	}
	return p.do(func(s *plan.Store) (any, []string, error) {
		res, err := s.WriteFinding(name, notesArg, approaches)
		return res, res.Warnings, err
	})
}

func planWriteApproach(p *planRun, args []string) error {
	fs := p.flags()
	fs.String("variant", "", "make it variant `L` of approach N; --variant alone takes the next free letter")
	fs.Lookup("variant").NoOptDefVal = nextVariant
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
		if variant != nextVariant {
			return p.fail(badArgs("plan write-approach: want arguments NAME N, got %d", fs.NArg()))
		}
		variant = fs.Arg(2)
	}
	in := plan.ApproachInput{Variant: variant}
	if variant == nextVariant {
		in.Variant, in.NextVariant = "", true
	}
	var err error
	name := fs.Arg(0)
	if err := plan.ValidSpecialist(name); err != nil {
		return p.fail(err)
	}
	if in.Number, err = plan.ParseNumber(fs.Arg(1)); err != nil {
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
	return p.do(func(s *plan.Store) (any, []string, error) {
		res, err := s.WriteApproach(name, in)
		return res, res.Warnings, err
	})
}

// nextVariant is the value of a --variant given without a letter.
const nextVariant = "next"

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
func (p *planRun) parseTarget(fs *flag.FlagSet, args []string) (a approachRef, ok bool, err error) {
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
	if err := plan.ValidSpecialist(a.name); err != nil {
		return approachRef{}, err
	}
	if a.n, a.variant, err = plan.ParseApproachID(args[1]); err != nil {
		return approachRef{}, err
	}
	if len(args) == 3 {
		if a.variant != "" {
			return approachRef{}, badArgs("give the variant once: %s or %s %s", args[1], strings.Split(args[1], "_")[0], args[2])
		}
		a.variant = args[2]
		if err := plan.ValidVariant(a.variant); err != nil {
			return approachRef{}, err
		}
	}
	return a, nil
}

func planClearApproach(p *planRun, args []string) error {
	fs := p.flags()
	ref, ok, err := p.parseTarget(fs, args)
	if !ok {
		return err
	}
	return p.do(func(s *plan.Store) (any, []string, error) {
		res, err := s.ClearApproach(ref.name, ref.n, ref.variant)
		return res, res.Warnings, err
	})
}

func planGetApproach(p *planRun, args []string) error {
	fs := p.flags()
	ref, ok, err := p.parseTarget(fs, args)
	if !ok {
		return err
	}
	return p.do(func(s *plan.Store) (any, []string, error) {
		sp, as, diags, err := s.Approaches(ref.name, ref.n, ref.variant)
		if err != nil {
			return nil, nil, err
		}
		views := make([]plan.ApproachView, len(as))
		for i, a := range as {
			views[i] = plan.View("", a, sp.Approaches, true)
		}
		return struct {
			Specialist string              `json:"specialist"`
			Number     int                 `json:"number"`
			Approaches []plan.ApproachView `json:"approaches"`
		}{ref.name, ref.n, views}, plan.Warnings(diags), nil
	})
}

func planRefine(p *planRun, args []string) error {
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
	return p.do(func(s *plan.Store) (any, []string, error) {
		res, err := s.Refine(ref.name, ref.n, ref.variant, text)
		return res, res.Warnings, err
	})
}

func planGetFindings(p *planRun, args []string) error {
	fs := p.flags()
	full := fs.Bool("full", false, "add each specialist's notes and each approach's full context")
	if ok, err := p.parse(fs, args, 0, 0); !ok {
		return err
	}
	return p.do(func(s *plan.Store) (any, []string, error) {
		all, diags, err := s.All()
		if err != nil {
			return nil, nil, err
		}
		if *full {
			type specialistView struct {
				Specialist string              `json:"specialist"`
				File       string              `json:"file"`
				Notes      string              `json:"notes"`
				Approaches []plan.ApproachView `json:"approaches"`
			}
			out := []specialistView{}
			for _, f := range all {
				v := specialistView{Specialist: f.Name, File: f.File, Notes: f.Specialist.Notes, Approaches: []plan.ApproachView{}}
				for _, a := range f.Specialist.Approaches {
					v.Approaches = append(v.Approaches, plan.View("", a, f.Specialist.Approaches, true))
				}
				out = append(out, v)
			}
			return struct {
				Specialists []specialistView `json:"specialists"`
			}{out}, plan.Warnings(diags), nil
		}
		names := []string{}
		approaches := []plan.SummaryView{}
		for _, f := range all {
			names = append(names, f.Name)
			for _, a := range f.Specialist.Approaches {
				approaches = append(approaches, plan.Summary(f.Name, a))
			}
		}
		return struct {
			Specialists []string           `json:"specialists"`
			Approaches  []plan.SummaryView `json:"approaches"`
		}{names, approaches}, plan.Warnings(diags), nil
	})
}

func planReadDesign(p *planRun, args []string) error {
	fs := p.flags()
	if ok, err := p.parse(fs, args, 0, 0); !ok {
		return err
	}
	return p.do(func(s *plan.Store) (any, []string, error) {
		m, diags, exists, err := s.DesignManifest()
		if err != nil {
			return nil, nil, err
		}
		type designView struct {
			ScreenshotFileName string `json:"screenshot_file_name"`
			Description        string `json:"description"`
			Path               string `json:"path,omitempty"`
		}
		warnings := plan.Warnings(diags)
		designs := []designView{}
		for _, d := range m.Designs {
			v := designView{ScreenshotFileName: d.ScreenshotFileName, Description: d.Description}
			if parse.ValidName(d.ScreenshotFileName) == nil {
				v.Path = filepath.Join(s.Root, "design", d.ScreenshotFileName)
			} else if d.ScreenshotFileName != "" {
				warnings = append(warnings, fmt.Sprintf("%s: screenshot_file_name %q is not a plain file name; no path given",
					filepath.Join(s.Root, filepath.FromSlash(plan.DesignFile)), d.ScreenshotFileName))
			}
			designs = append(designs, v)
		}
		return struct {
			Exists  bool         `json:"exists"`
			File    string       `json:"file"`
			Designs []designView `json:"designs"`
		}{exists, filepath.Join(s.Root, filepath.FromSlash(plan.DesignFile)), designs}, warnings, nil
	})
}
