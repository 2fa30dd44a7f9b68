package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	flag "github.com/spf13/pflag"
)

const synthUsage = `Usage: fluxwatch synth [flags] [DIR]

Reads the review run in DIR (default: discovery tiers 1-2, that is
$FLUX_OUTPUT_DIR or a recent .claude/features directory, else the current
directory), writes summary.md and findings.json into DIR (or --out) and exits
by the verdict gate: 0 ok, 1 the --fail-on gate tripped, 2 a usage or input
error, 3 an internal error.

Flags:
`

// reportFlags are the flags that `synth` and `watch` share: what to read,
// how to synthesise, where the reports go, the gate.
type reportFlags struct {
	cmd       string // the command, for messages
	out       string
	quiet     bool
	failOn    string
	run       string
	strictRun bool
	expect    []string
	dedup     string
	sarif     string
	rdjsonl   string
	junit     string
	html      string
	maxLine   int
	jobs      int
	evidence  evidenceFlags
}

// synthFlags are the flags of `fluxwatch synth`.
type synthFlags struct {
	reportFlags
	json        bool
	annotations bool
	format      string
}

// register adds the shared flags to fs.
func (f *reportFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "out", "", "write summary.md and findings.json into `DIR` (default: the run directory)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors")
	fs.StringVar(&f.failOn, "fail-on", "none", "exit 1 when the verdict is at least `LEVEL`: none, needs-changes or risky (error trips any gate)")
	fs.StringVar(&f.run, "run", "", "synthesise run `RUN` (default: $FLUX_RUN_UUID, else the newest run)")
	fs.BoolVar(&f.strictRun, "strict-run", false, "leave unscoped (legacy) reports out of the selected run")
	fs.StringSliceVar(&f.expect, "expect", nil, "`AGENTS` launched (comma-separated): an expected agent without a report has failed")
	fs.StringVar(&f.dedup, "dedup", "fuzzy", "merge findings by `MODE`: fuzzy (key, title rule, shared file:line) or exact (key only)")
	fs.StringVar(&f.sarif, "sarif", "", "also write a SARIF 2.1.0 log to `FILE`")
	fs.StringVar(&f.rdjsonl, "rdjsonl", "", "also write reviewdog rdjsonl to `FILE`")
	fs.StringVar(&f.junit, "junit", "", "also write a JUnit XML report to `FILE`")
	fs.StringVar(&f.html, "html", "", "also write a self-contained HTML page to `FILE`")
	fs.IntVar(&f.maxLine, "max-line", parse.DefaultMaxLine, "skip bus lines longer than `BYTES`")
	fs.IntVar(&f.jobs, "jobs", 8, "parse at most `N` files at once")
	f.evidence.register(fs)
}

var runIDRe = regexp.MustCompile(`^[0-9a-fA-F-]{8,}$`)

func runSynth(ctx context.Context, e *env, args []string) error {
	f := synthFlags{reportFlags: reportFlags{cmd: "synth"}}
	fs := e.newFlagSet("synth")
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stdout, synthUsage)
		fmt.Fprint(e.stdout, fs.FlagUsages())
	}
	f.register(fs)
	fs.BoolVar(&f.json, "json", false, "also print findings.json on stdout")
	fs.BoolVar(&f.annotations, "annotations", false, "print GitHub Actions annotations even outside GitHub Actions")
	fs.StringVar(&f.format, "format", "", "print the synthesis on stdout as `FORMAT`: "+strings.Join(formatNames(), ", ")+" (json is --json, github the annotations)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageErrorf("synth: %v", err)
	}
	if fs.NArg() > 1 {
		return usageErrorf("synth: want at most one directory, got %d arguments", fs.NArg())
	}
	if err := checkFormat("synth", f.format, f.json); err != nil {
		return err
	}
	if f.json {
		f.format = "json"
	}
	dir := fs.Arg(0)
	if dir == "" {
		var err error
		if dir, err = defaultRunDir(e, "synth"); err != nil {
			return err
		}
	}

	opts, scanOpts, err := f.options(e)
	if err != nil {
		return err
	}
	if err := f.evidence.apply(e, "synth", dir, &opts); err != nil {
		return err
	}
	s, err := watcher.Synthesize(ctx, dir, scanOpts, opts)
	if err != nil {
		if ctx.Err() != nil {
			return exitError{exitInternal, fmt.Errorf("synth: %w", ctx.Err())}
		}
		return usageErrorf("synth: %v", err)
	}
	out := f.outDir(dir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return usageErrorf("synth: %v", err)
	}
	ciDir := ciRunDir(e, f.evidence.repo, dir)
	r, err := f.writeReports(s, ciDir, out)
	if err != nil {
		return err
	}
	// --format github prints the annotations itself: not twice.
	if err := githubOutputs(e, s, r.summary, ciDir, f.annotations, f.format != "", f.format == "github"); err != nil {
		return usageErrorf("synth: %v", err)
	}
	switch {
	case f.format != "":
		if err := writeFormat(e, f.format, s, r, ciDir, &f.reportFlags); err != nil {
			return err
		}
	case !f.quiet:
		fmt.Fprintln(e.stdout, oneLineSummary(s, filepath.Join(out, "summary.md")))
	}
	if gateTripped(f.failOn, s.Verdict) {
		return exitError{code: exitGate}
	}
	return nil
}

// outDir is where summary.md and findings.json go: --out, else the run
// directory.
func (f *reportFlags) outDir(dir string) string {
	if f.out != "" {
		return f.out
	}
	return dir
}

// rendered are the renderings of one synthesis that callers reuse.
type rendered struct {
	findingsJSON, summary []byte
}

// writeReports renders s and writes findings.json (first: a watcher of the
// file sees the change as early as possible), summary.md and the --sarif,
// --rdjsonl and --junit files, each atomically and only when its content
// changed. dir is the run directory relative to the repository top
// (ciRunDir), out where the reports go (it exists).
// Errors are exit errors: a rendering that fails is internal, a write that
// fails an input error naming the file.
func (f *reportFlags) writeReports(s *synth.Synthesis, dir, out string) (rendered, error) {
	// The two renderings only read s: make them side by side.
	var r rendered
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.summary = synth.RenderMarkdown(s)
	}()
	r.findingsJSON = synth.RenderJSON(s)
	<-done
	files := []struct {
		path string
		data func() ([]byte, error)
	}{
		{filepath.Join(out, "findings.json"), func() ([]byte, error) { return r.findingsJSON, nil }},
		{filepath.Join(out, "summary.md"), func() ([]byte, error) { return r.summary, nil }},
		{f.sarif, func() ([]byte, error) { return synth.RenderSARIF(s, dir) }},
		{f.rdjsonl, func() ([]byte, error) { return synth.RenderRDJSONL(s, dir), nil }},
		{f.junit, func() ([]byte, error) { return synth.RenderJUnit(s, dir), nil }},
		{f.html, func() ([]byte, error) { return page.Render(s, f.pageOptions(s.Verdict, false)) }},
	}
	for _, w := range files {
		if w.path == "" {
			continue
		}
		data, err := w.data()
		if err != nil {
			return r, exitError{exitInternal, fmt.Errorf("%s: %w", f.cmd, err)}
		}
		if err := os.MkdirAll(filepath.Dir(w.path), 0o755); err != nil {
			return r, usageErrorf("%s: %v", f.cmd, err)
		}
		if _, err := watcher.WriteFile(w.path, data, 0o644); err != nil {
			return r, usageErrorf("%s: %v", f.cmd, err)
		}
	}
	return r, nil
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
	switch f.failOn {
	case "none", "needs-changes", "risky":
	default:
		return opts, scan, usageErrorf("%s: --fail-on %q: want none, needs-changes or risky", f.cmd, f.failOn)
	}
	switch f.dedup {
	case "fuzzy":
	case "exact":
		opts.Dedup = synth.DedupExact
	default:
		return opts, scan, usageErrorf("%s: --dedup %q: want fuzzy or exact", f.cmd, f.dedup)
	}
	scan.Run = f.run
	source := "--run"
	if scan.Run == "" {
		scan.Run, source = e.getenv("FLUX_RUN_UUID"), "FLUX_RUN_UUID"
	}
	if scan.Run != "" && !runIDRe.MatchString(scan.Run) {
		return opts, scan, usageErrorf("%s: %s %q: a run is a UUID ([0-9a-fA-F-]{8,})", f.cmd, source, scan.Run)
	}
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
	if f.maxLine <= 0 {
		return opts, scan, usageErrorf("%s: --max-line %d: want a positive number of bytes", f.cmd, f.maxLine)
	}
	if f.jobs <= 0 {
		return opts, scan, usageErrorf("%s: --jobs %d: want at least 1", f.cmd, f.jobs)
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

// pageOptions are the options of the HTML page of a synthesis whose verdict
// is v: the gate, and whether the page is the live one.
func (f *reportFlags) pageOptions(v parse.Verdict, live bool) page.Options {
	return page.Options{Gate: f.failOn, GateTripped: gateTripped(f.failOn, v), Live: live}
}

// gateTripped applies --fail-on (SPEC §7): an error verdict trips any gate.
func gateTripped(failOn string, v parse.Verdict) bool {
	switch failOn {
	case "needs-changes":
		return v == parse.NeedsChanges || v == parse.Risky || v == parse.Error
	case "risky":
		return v == parse.Risky || v == parse.Error
	}
	return false
}

func oneLineSummary(s *synth.Synthesis, summaryPath string) string {
	evidence := ""
	if ev := s.Evidence; ev != nil && ev.Claims > 0 {
		evidence = fmt.Sprintf("; evidence: %d/%d %s hold, %d ungrounded", ev.Verified+ev.Moved, ev.Claims, synth.Noun(ev.Claims, "claim"), ev.Ungrounded)
	}
	return fmt.Sprintf("%s: %d/%d %s completed, %d failed; %s (P0 %d, P1 %d, P2 %d, P3 %d)%s → %s",
		s.Verdict, len(s.AgentsCompleted), len(s.AgentsLaunched), synth.Noun(len(s.AgentsLaunched), "agent"), len(s.AgentsFailed),
		synth.Plural(s.Counts.Total(), "finding"),
		s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3, evidence, summaryPath)
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
		top, ok := gitTop(dir, e.getenv("GIT_CEILING_DIRECTORIES"))
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

// gitTop returns the top of the git work tree holding dir: the nearest
// directory at or above it with a .git entry (a directory, or a file in a
// linked worktree or submodule). Like git, it never goes up into a directory
// listed in ceilings ($GIT_CEILING_DIRECTORIES, colon-separated absolute
// paths). When dir is relative the result is relative to the current
// directory ("." or ".."), so that reports do not depend on where the tree
// lives.
func gitTop(dir, ceilings string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	stop := map[string]bool{}
	for _, c := range filepath.SplitList(ceilings) {
		if filepath.IsAbs(c) {
			stop[filepath.Clean(c)] = true
		}
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if filepath.IsAbs(dir) {
				return d, true
			}
			wd, err := os.Getwd()
			if err != nil {
				return d, true
			}
			if rel, err := filepath.Rel(wd, d); err == nil {
				return rel, true
			}
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d || stop[parent] {
			return "", false
		}
		d = parent
	}
}

// mdCode wraps s in backticks for summary.md.
func mdCode(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

// githubOutputs writes what GitHub Actions reads (SPEC §6): annotations for the
// top findings (on stdout, or on stderr when stdout carries data), the summary
// appended to $GITHUB_STEP_SUMMARY and verdict= (and counts) to $GITHUB_OUTPUT.
// annotations asks for them outside GitHub Actions too; annotated says they
// are on stdout already (--format github).
func githubOutputs(e *env, s *synth.Synthesis, summary []byte, dir string, annotations, stdoutIsData, annotated bool) error {
	onActions := e.getenv("GITHUB_ACTIONS") == "true"
	if (onActions || annotations) && !annotated {
		w := e.stdout
		if stdoutIsData {
			w = e.stderr
		}
		w.Write(synth.RenderAnnotations(s, dir))
	}
	if !onActions {
		return nil
	}
	if p := e.getenv("GITHUB_STEP_SUMMARY"); p != "" {
		if err := appendFile(p, summary); err != nil {
			return err
		}
	}
	if p := e.getenv("GITHUB_OUTPUT"); p != "" {
		var b strings.Builder
		for _, kv := range [][2]string{
			{"verdict", string(s.Verdict)},
			{"findings", strconv.Itoa(s.Counts.Total())},
			{"p0", strconv.Itoa(s.Counts.P0)},
			{"p1", strconv.Itoa(s.Counts.P1)},
			{"agents-completed", strconv.Itoa(len(s.AgentsCompleted))},
			{"agents-failed", strconv.Itoa(len(s.AgentsFailed))},
		} {
			b.WriteString(githubOutput(kv[0], kv[1]))
		}
		if err := appendFile(p, []byte(b.String())); err != nil {
			return err
		}
	}
	return nil
}

// githubOutput formats one $GITHUB_OUTPUT entry: name=value, or the heredoc
// form with a delimiter that does not occur in the value when the value
// holds a line break.
func githubOutput(name, value string) string {
	if !strings.ContainsAny(value, "\r\n") {
		return name + "=" + value + "\n"
	}
	sum := sha256.Sum256([]byte(value))
	delim := "ghadelimiter_" + hex.EncodeToString(sum[:8])
	for strings.Contains(value, delim) {
		delim += "_"
	}
	return name + "<<" + delim + "\n" + value + "\n" + delim + "\n"
}

func appendFile(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fh.Write(data)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	return nil
}
