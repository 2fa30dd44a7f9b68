package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/config"
	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

// This file is the output helper that synth and watch share: their common
// flags, what they turn into (options, report targets, the gate), and the
// one-line summary.

// reportFlags are the flags that `synth` and `watch` share: what to read,
// how to synthesise, where the reports go, the gate.
type reportFlags struct {
	cmd         string // the command, for messages
	out         string
	quiet       bool
	failOn      string
	minIndep    int
	allowUnread bool
	run         string
	strictRun   bool
	expect      []string
	agents      parse.AgentFilter // .fluxwatch.yaml agents: include and ignore
	dedup       string
	files       map[string]*string // the file flags of report.Formats, by format name
	maxLine     int
	jobs        int
	evidence    evidenceFlags
	ci          ciFlags // --config, --baseline, --fail-on-new (ci_flags.go)
	busFile     string  // the --bus file read instead of the run's (prepare): an input
	// printOnly writes no summary.md and findings.json unless --out (or
	// output.out) names where: synth --format prints, and only prints.
	printOnly bool
	// summaryLimit caps the job summary (--summary-limit); runURL is the
	// page of the GitHub Actions run ("" elsewhere), which its note links.
	summaryLimit int
	runURL       string
}

// newCommand returns the command f.cmd (synth or watch) with the flags of
// f and of its bus b, and its flag set.
func (f *reportFlags) newCommand(b *synthBus, summary, usage string) (*cobra.Command, *flag.FlagSet) {
	cmd := newCommand(f.cmd, summary, usage)
	fs := cmd.Flags()
	f.register(fs)
	b.register(fs)
	return cmd, fs
}

// runDir returns the run directory of the command, whose flag set fs is
// parsed: its one argument, else the default (implicit: discovery tiers
// 1-2, else ".").
func (f *reportFlags) runDir(e *env, fs *flag.FlagSet) (dir string, implicit bool, err error) {
	if fs.NArg() > 1 {
		return "", false, usageErrorf("%s: want at most one directory, got %d arguments", f.cmd, fs.NArg())
	}
	if dir = fs.Arg(0); dir != "" {
		return dir, false, nil
	}
	dir, err = defaultRunDir(e, f.cmd)
	return dir, true, err
}

// register adds the shared flags to fs.
func (f *reportFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "out", "", "write summary.md and findings.json into `DIR` (default: the run directory)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors")
	fs.StringVar(&f.failOn, "fail-on", "none", "exit 1 when the verdict is at least `LEVEL`: none, needs-changes or risky (error trips any gate)")
	fs.IntVar(&f.minIndep, "min-independent", 0, "let --fail-on count only findings that at least `N` agents reported independently (not primed by a peer's bus entry)")
	fs.BoolVar(&f.allowUnread, "allow-unreadable", false, "let the gate pass reports that could not be fully read (without it, any gate trips on them)")
	fs.StringVar(&f.run, "run", "", "synthesise run `RUN` (default: $FLUX_RUN_UUID, else the newest run)")
	fs.BoolVar(&f.strictRun, "strict-run", false, "leave unscoped (legacy) reports out of the selected run")
	fs.StringSliceVar(&f.expect, "expect", nil, "`AGENTS` launched (comma-separated): an expected agent without a report has failed")
	fs.StringVar(&f.dedup, "dedup", "fuzzy", "merge findings by `MODE`: fuzzy (key, title rule, shared file:line) or exact (key only)")
	f.files = map[string]*string{}
	for _, rf := range report.FileFormats() {
		f.files[rf.Name] = fs.String(rf.Flag, "", rf.Usage)
	}
	fs.IntVar(&f.maxLine, "max-line", bus.DefaultMaxLine, "skip bus lines longer than `BYTES`")
	fs.IntVar(&f.jobs, "jobs", 8, "parse at most `N` files at once")
	fs.IntVar(&f.summaryLimit, "summary-limit", synth.StepSummaryLimit, "on GitHub Actions, cut the job summary to at most `BYTES` (GitHub drops one over 1 MiB), with a note naming the full summary.md")
	f.evidence.register(fs)
	f.ci.register(fs)
}

var runIDRe = regexp.MustCompile(`^[0-9a-fA-F-]{8,}$`)

// selectRun is the run a command reads in a run directory (SPEC §1): --run
// (flagged), else $FLUX_RUN_UUID, else "" (the newest). A value that is not
// a run is a usage error naming where it came from. synth, watch, verify,
// check and mcp all choose the run here.
func selectRun(e *env, cmd, flagged string) (string, error) {
	run, source := flagged, "--run"
	if run == "" {
		run, source = e.getenv("FLUX_RUN_UUID"), "FLUX_RUN_UUID"
	}
	if run != "" && !runIDRe.MatchString(run) {
		return "", usageErrorf("%s: %s %q: a run is a UUID ([0-9a-fA-F-]{8,})", cmd, source, run)
	}
	return run, nil
}

// outDir is where summary.md and findings.json go: --out, else the run
// directory, else ("") nowhere when the command only prints (printOnly).
func (f *reportFlags) outDir(dir string) string {
	switch {
	case f.out != "":
		return f.out
	case f.printOnly:
		return ""
	}
	return dir
}

// defaultRunDir is the run directory when none is named: discovery tiers 1
// and 2 (SPEC §4.3: $FLUX_OUTPUT_DIR, then a recent feature directory),
// else the current directory. Several feature directories that fit equally
// are an error: synthesising the wrong one would be worse.
func defaultRunDir(e *env, cmd string) (string, error) {
	dir, _, err := plan.DiscoverDir(plan.Options{EnvDir: e.getenv("FLUX_OUTPUT_DIR")})
	switch {
	case err == nil:
		return dir, nil
	case plan.ErrorType(err) == plan.ErrNotFound:
		return ".", nil
	}
	return "", usageErrorf("%s: no DIR given and %v", cmd, err)
}

// options checks the flags and the environment and turns them into options.
func (f *reportFlags) options(e *env) (synth.Options, watcher.ScanOptions, error) {
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: versionString()}}
	scan := watcher.ScanOptions{StrictRun: f.strictRun, MaxLine: f.maxLine, Jobs: f.jobs}
	if f.minIndep < 0 {
		return opts, scan, usageErrorf("%s: --min-independent %d: want 0 or more", f.cmd, f.minIndep)
	}
	if err := config.CheckChoice("gate.fail-on", f.failOn); err != nil {
		return opts, scan, usageErrorf("%s: --fail-on %q: %v", f.cmd, f.failOn, err)
	}
	if err := config.CheckChoice("agents.dedup", f.dedup); err != nil {
		return opts, scan, usageErrorf("%s: --dedup %q: %v", f.cmd, f.dedup, err)
	}
	if f.dedup == "exact" {
		opts.Dedup = synth.DedupExact
	}
	run, err := selectRun(e, f.cmd, f.run)
	if err != nil {
		return opts, scan, err
	}
	scan.Run = run
	for _, name := range f.expect {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if err := parse.ValidName(name); err != nil {
			return opts, scan, usageErrorf("%s: --expect %q: %v", f.cmd, name, err)
		}
		opts.Expect = append(opts.Expect, name)
	}
	scan.Agents = f.agents
	scan.Agents.Expect = opts.Expect
	if f.maxLine <= 0 {
		return opts, scan, usageErrorf("%s: --max-line %d: want a positive number of bytes", f.cmd, f.maxLine)
	}
	if f.jobs <= 0 {
		return opts, scan, usageErrorf("%s: --jobs %d: want at least 1", f.cmd, f.jobs)
	}
	if f.summaryLimit != 0 && (f.summaryLimit < 1024 || f.summaryLimit > 1<<20) {
		return opts, scan, usageErrorf("%s: --summary-limit %d: want 1024 to 1048576 bytes (GitHub's limit)", f.cmd, f.summaryLimit)
	}
	if v := e.getenv("SOURCE_DATE_EPOCH"); v != "" {
		sec, err := strconv.ParseInt(v, 10, 64)
		if err != nil || sec < 0 {
			return opts, scan, usageErrorf("%s: SOURCE_DATE_EPOCH %q: want seconds since 1970", f.cmd, v)
		}
		opts.Reviewed = time.Unix(sec, 0).UTC()
	}
	return opts, scan, nil
}

// gate is the gate of the flags (--fail-on, --fail-on-new,
// --min-independent, --allow-unreadable), checked by options and
// ciFlags.configure: synth.Gate.Judge decides it, for the exit status and
// the page alike.
func (f *reportFlags) gate() synth.Gate {
	g := synth.Gate{MinIndependent: f.minIndep, AllowUnreadable: f.allowUnread}
	if f.failOn != "none" {
		g.FailOn = parse.Verdict(f.failOn)
	}
	if f.ci.failOnNew != "none" {
		g.FailOnNew = parse.Severity(f.ci.failOnNew)
	}
	return g
}

// pickedRun applies SPEC §10's "the gate is not flipped by a stranger" to
// s, the synthesis of the run in dir read with the run selected (""
// for none): when none was and the agent files name several runs, the run
// read was picked by file times, which any writer of the directory sets.
// With a gate (--fail-on or --fail-on-new, from a flag or the
// configuration) that is an input error (exit 2): pass --run. Without one
// it is a warning on stderr (unless -q); the reports carry it as a
// diagnostic either way.
func (f *reportFlags) pickedRun(e *env, s *synth.Synthesis, selected, dir string) error {
	if selected != "" || len(s.Runs) < 2 {
		return nil
	}
	runs := strings.Join(s.Runs, ", ")
	if f.gate().Set() {
		return usageErrorf("%s: %s holds reports of %d runs (%s): pass --run RUN (or set FLUX_RUN_UUID); a gate never picks a run by file times",
			f.cmd, dir, len(s.Runs), runs)
	}
	if !f.quiet && s.Run != nil {
		fmt.Fprintf(e.stderr, "fluxwatch: warning: %s: %s holds reports of %d runs (%s); read %s, the newest by finish times (declared, else file times): pass --run RUN to choose\n",
			f.cmd, dir, len(s.Runs), runs, *s.Run)
	}
	return nil
}

// judge ends synth and watch: it reports the configuration's expired and
// unused suppressions, decides the gate on s and, unless -q, says on
// stderr why it tripped, one line per reason, and what no gate caught (an
// error verdict, reports that could not be fully read): synth.Decision's
// Explain is the one account of it. A tripped gate is exit 1. After a
// signal (ctx done) the exit status is the signal's, and nothing is said
// of the gate.
func (f *reportFlags) judge(ctx context.Context, e *env, s *synth.Synthesis) error {
	return f.explain(ctx, e, f.decide(e, s))
}

// decide reports s to CI (f.ci) and judges it by the gate.
func (f *reportFlags) decide(e *env, s *synth.Synthesis) synth.Decision {
	f.ci.report(e, s, f.quiet)
	return f.gate().Judge(s)
}

// explain prints d's account on stderr, one line per reason (nothing
// after a signal: the status is the signal's), and returns its exit
// status as an error.
func (f *reportFlags) explain(ctx context.Context, e *env, d synth.Decision) error {
	if !f.quiet && ctx.Err() == nil {
		for _, line := range d.Explain() {
			fmt.Fprintf(e.stderr, "fluxwatch: %s\n", inert.Line(line))
		}
	}
	if d.Tripped {
		return exitError{code: exitGate}
	}
	return nil
}

func oneLineSummary(s *synth.Synthesis, summaryPath string) string {
	evidence := ""
	if ev := s.Evidence; ev != nil && ev.Claims > 0 {
		evidence = fmt.Sprintf("; evidence: %d/%d %s hold, %d ungrounded", ev.Verified+ev.Moved, ev.Claims, synth.Noun(ev.Claims, "claim"), ev.Ungrounded)
	}
	return inert.Line(fmt.Sprintf("%s: %d/%d %s completed, %d failed; %s (P0 %d, P1 %d, P2 %d, P3 %d)%s → %s",
		synth.VerdictText(s), len(s.AgentsCompleted), len(s.AgentsLaunched), synth.Noun(len(s.AgentsLaunched), "agent"), len(s.AgentsFailed),
		synth.Plural(s.Counts.Total(), "finding"),
		s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3, evidence, summaryPath))
}

// evidenceFlags are --repo and --no-evidence (SPEC §5.7), shared by synth and
// watch: register them on the command's flag set, then call apply with the
// run directory before synthesising.
type evidenceFlags struct {
	repo string
	none bool
}

func (f *evidenceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.repo, "repo", "", "check the agents' evidence against the repository in `DIR` (default: the git work tree holding the run directory)")
	fs.BoolVar(&f.none, "no-evidence", false, "do not check the agents' evidence")
}

// apply sets opts.Evidence (a verifier that re-reads the cited files at each
// synthesis), opts.EvidenceRepo and, when evidence is not checked,
// opts.EvidenceNote, for the run in dir. A --repo that is not a readable
// directory is a usage error; without --repo, a run directory outside any git
// work tree is not checked, and the reports say so.
func (f *evidenceFlags) apply(e *env, cmd, dir string, opts *synth.Options) error {
	switch {
	case f.none && f.repo != "":
		return usageErrorf("%s: --repo and --no-evidence exclude each other", cmd)
	case f.none:
		opts.EvidenceNote = "--no-evidence"
		return nil
	}
	repo := f.repo
	if repo == "" {
		top, ok := plan.GitTop(dir, e.getenv("GIT_CEILING_DIRECTORIES"))
		if !ok {
			opts.EvidenceNote = mdCode(dir) + " is not inside a git work tree; pass --repo DIR"
			return nil
		}
		repo = top
	}
	v, err := evidence.Open(repo, evidence.Options{})
	if err != nil {
		if f.repo != "" {
			return usageErrorf("%s: --repo: %v", cmd, err)
		}
		opts.EvidenceNote = "the git work tree " + mdCode(repo) + " cannot be read"
		return nil
	}
	opts.Evidence, opts.EvidenceRepo = v, repo
	return nil
}

// mdCode wraps s in backticks for summary.md.
func mdCode(s string) string { return synth.MarkdownCode(s) }

// targets are the report targets of the flags for the run in dir: --out
// (default: the run directory) and the files of report.Formats (--sarif,
// …), any of which may be "-" for standard output. Their Base is the run
// directory relative to the repository top (ciRunDir).
func (f *reportFlags) targets(e *env, dir string) report.Targets {
	files := map[string]string{}
	for name, p := range f.files {
		if *p != "" {
			files[name] = stdoutTarget(*p)
		}
	}
	return report.Targets{Dir: stdoutTarget(f.outDir(dir)), Files: files, Base: ciRunDir(e, f.evidence.repo, dir), Stdout: e.stdout, Run: dir}
}

// stdoutTarget is a report target as written: "-" for a name of standard
// output (/dev/stdout, /dev/fd/1, a link to one), so that it is written
// through the command's stdout and counted as one of its users (a second
// description of fd 1, at its own offset, would overwrite what the command
// prints there); other targets as given.
func stdoutTarget(p string) string {
	if p != "" && p != report.Stdout && fsio.NamesStdout(p) {
		return report.Stdout
	}
	return p
}

// pageOptions are the options of the HTML page: the gate, and whether the
// page is the live one.
func (f *reportFlags) pageOptions(live bool) page.Options {
	return page.Options{Gate: f.gate(), Live: live}
}

// writeReports writes the reports of s to t (the HTML page with the gate of
// --fail-on). A rendering that fails is an internal error, a target that
// cannot be written an input error naming it.
func (f *reportFlags) writeReports(ctx context.Context, s *synth.Synthesis, t report.Targets) (report.Rendered, error) {
	t.Page = f.pageOptions(false)
	r, err := report.Write(ctx, s, t)
	switch {
	case errors.Is(err, report.ErrRender):
		return r, exitError{exitInternal, fmt.Errorf("%s: %w", f.cmd, err)}
	case errors.Is(err, context.Canceled):
		return r, err // a signal: main gives the status, and says nothing of it
	case err != nil:
		return r, usageErrorf("%s: %w", f.cmd, err) // %w: a watcher tells fsio.ErrNoReader
	}
	return r, nil
}

// checkTargets checks the report targets t of the run in dir before
// anything is read or written: at most one thing uses standard output (the
// targets that are "-", and data the command prints there itself, named by
// data, "" for none); no two targets are one file; no target is an input
// of the run (an agent report, the bus, a specialist file, the --bus file),
// which it would destroy, by its name or through a link; no target inside
// the run leads out of it through a symbolic link (SPEC §10: the rules of
// report.Write's writes, checked before anything is read). It returns
// whether stdout carries data.
func (f *reportFlags) checkTargets(t report.Targets, dir, data string) (bool, error) {
	names := t.OnStdout()
	if data != "" {
		names = append(names, data)
	}
	if len(names) > 1 {
		return true, usageErrorf("%s: %s all want standard output: give files to all but one", f.cmd, strings.Join(names, ", "))
	}
	files := t.FileTargets()
	for i, a := range files {
		err := fsio.CheckWithin(dir, a.Path, report.RefuseInput)
		if err == nil && f.busFile != "" && sameTarget(a.Path, f.busFile) {
			err = report.ErrInput
		}
		switch {
		case errors.Is(err, report.ErrInput) && !isLink(a.Path):
			return false, usageErrorf("%s: %s %s: an input of the run in %s; give another path", f.cmd, a.Flag, a.Path, dir)
		case err != nil:
			return false, usageErrorf("%s: %v", f.cmd, err) // "write run/summary.md: symlink resolves outside …"
		}
		for _, b := range files[:i] {
			if sameTarget(a.Path, b.Path) {
				return false, usageErrorf("%s: %s %s and %s %s are one file: give each its own", f.cmd, b.Flag, b.Path, a.Flag, a.Path)
			}
		}
	}
	return len(names) == 1, nil
}

// isLink reports whether path is a symbolic link.
func isLink(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// sameTarget reports whether two report targets are one file: the same
// path, or two names of one existing file (a link, a hard link). A device
// (/dev/null) takes any number of reports.
func sameTarget(a, b string) bool {
	ia, err1 := os.Stat(a)
	if err1 == nil && ia.Mode()&fs.ModeDevice != 0 {
		return false
	}
	if fsio.Target(a) == fsio.Target(b) {
		return true
	}
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// github are the GitHub Actions targets (SPEC §6): on GitHub Actions, or with
// annotations asked for, the annotations go to stdout (stderr when stdout
// carries data); on GitHub Actions the summary and outputs go to the files
// named by $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT.
func github(e *env, annotations, stdoutIsData bool) report.GitHub {
	var g report.GitHub
	onActions := e.getenv("GITHUB_ACTIONS") == "true"
	if onActions || annotations {
		g.Annotations = e.stdout
		if stdoutIsData {
			g.Annotations = e.stderr
		}
	}
	if onActions {
		g.StepSummary, g.Output = e.getenv("GITHUB_STEP_SUMMARY"), e.getenv("GITHUB_OUTPUT")
	}
	return g
}

// writeOutputs writes the outputs of s: the report files of t, the files
// of g ($GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT), then what goes to standard
// output: the targets of t that are "-", then g's annotations. Files first,
// so that a reader of stdout that goes away early (| head: SIGPIPE ends the
// process) leaves every file written. summary is s's summary.md when the
// caller has it (nil: rendered here).
func (f *reportFlags) writeOutputs(ctx context.Context, s *synth.Synthesis, t report.Targets, g report.GitHub, summary []byte) error {
	if len(t.FileTargets()) > 0 {
		files := t
		files.SkipStdout = true
		r, err := f.writeReports(ctx, s, files)
		if err != nil {
			return err
		}
		summary = r.Summary
	}
	if summary == nil && g.StepSummary != "" {
		summary = synth.RenderMarkdown(s)
	}
	g.SummaryLimit, g.FullReport = f.summaryLimit, f.fullReport(t.Dir)
	// A step summary that cannot be written is the error, but the job
	// still gets the rest: the report on stdout, the annotations.
	ghFiles := g
	ghFiles.Annotations = nil
	var first error
	if err := ghFiles.Write(ctx, s, summary, t.Base); err != nil {
		first = usageErrorf("%s: %w", f.cmd, err) // %w: a signal that ended a wait for a FIFO says nothing
	}
	if len(t.OnStdout()) > 0 && ctx.Err() == nil {
		if _, err := f.writeReports(ctx, s, t.StdoutOnly()); err != nil && first == nil {
			first = err
		}
	}
	if ctx.Err() == nil {
		if err := (report.GitHub{Annotations: g.Annotations}).Write(ctx, s, summary, t.Base); err != nil && first == nil {
			first = usageErrorf("%s: %w", f.cmd, err)
		}
	}
	return first
}

// fullReport says in Markdown where the full summary.md of a job summary
// cut to --summary-limit is: in dir (the --out target; "" or "-" when no
// file was written) and, on GitHub Actions, with the artifacts of the run,
// when the workflow keeps them (the action does).
func (f *reportFlags) fullReport(dir string) string {
	where := "summary.md, which this command wrote to no file (pass --out DIR)"
	if dir != "" && dir != report.Stdout {
		where = mdCode(filepath.ToSlash(filepath.Join(dir, "summary.md")))
	}
	if f.runURL != "" {
		where += ", kept with the artifacts of [this run](" + f.runURL + ") when the workflow uploads it"
	}
	return where
}

// actionsRunURL is the page of the GitHub Actions run the command runs in
// ($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID),
// "" outside one.
func actionsRunURL(e *env) string {
	server, repo, id := e.getenv("GITHUB_SERVER_URL"), e.getenv("GITHUB_REPOSITORY"), e.getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" || strings.ContainsAny(server+repo+id, " ()[]<>\n\r") {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}

// hasFiles reports whether t has a target that is not standard output.
func hasFiles(t report.Targets) bool {
	if t.Dir != "" && t.Dir != report.Stdout {
		return true
	}
	for _, p := range t.Files {
		if p != "" && p != report.Stdout {
			return true
		}
	}
	return false
}

// writeStdout is a write of what a command prints on standard output
// itself (--json, the one-line summary, events): an error there is an
// output that cannot be written (exit 2), not something to pass over.
func writeStdout(cmd string, err error) error {
	if err != nil {
		return usageErrorf("%s: write standard output: %w", cmd, fsio.Cause(err))
	}
	return nil
}

// prepare is what synth and watch do before they read the run in dir: the
// configuration and the options of f, and the bus of b when it is not dir's
// own (nil then); the caller closes it.
func prepare(ctx context.Context, e *env, f *reportFlags, b *synthBus, dir string) (synth.Options, watcher.ScanOptions, bus.Backend, error) {
	if err := f.ci.configure(e, f, dir); err != nil {
		return synth.Options{}, watcher.ScanOptions{}, nil, err
	}
	opts, scan, err := f.options(e)
	if err != nil {
		return opts, scan, nil, err
	}
	f.runURL = actionsRunURL(e)
	if err := f.ci.synthOptions(ctx, f.cmd, scan, &opts); err != nil {
		return opts, scan, nil, err
	}
	src, err := b.open(ctx, e, f, dir)
	if b.path != "" && !bus.IsURL(b.path) {
		f.busFile = b.path
	}
	return opts, scan, src, err
}
