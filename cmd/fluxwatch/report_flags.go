package main

import (
	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

// reportFlags are the flags that `synth` and `watch` share: what to read,
// how to synthesise, where the reports go, the gate, the configuration.
// What they mean is runjob's: options turns them into runjob.Options.
type reportFlags struct {
	cmd          string // the command, for messages
	fs           *flag.FlagSet
	out          string
	quiet        bool
	failOn       string
	failOnNew    string
	minIndep     int
	allowUnread  bool
	run          string
	strictRun    bool
	expect       []string
	dedup        string
	files        map[string]*string // the file flags of report.Formats, by format name
	maxLine      int
	jobs         int
	summaryLimit int
	repo         string
	noEvidence   bool
	config       string
	baseline     string
	bus          busflag.Flags
}

// newCommand returns the command f.cmd (synth or watch) with the flags of
// f and of its bus, and its flag set.
func (f *reportFlags) newCommand(summary, usage string) (*cobra.Command, *flag.FlagSet) {
	cmd := newCommand(f.cmd, summary, usage)
	fs := cmd.Flags()
	f.register(fs)
	fs.StringVar(&f.bus.Path, "bus", "", "read the peer findings from `BUS`, nats://HOST:PORT/RUN or a file, not from DIR's bus files (default $FLUXWATCH_BUS when a URL)")
	f.bus.RegisterNATS(fs)
	return cmd, fs
}

// register adds the shared flags to fs.
func (f *reportFlags) register(fs *flag.FlagSet) {
	f.fs = fs
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
	fs.StringVar(&f.repo, "repo", "", "check the agents' evidence against the repository in `DIR` (default: the git work tree holding the run directory)")
	fs.BoolVar(&f.noEvidence, "no-evidence", false, "do not check the agents' evidence")
	fs.StringVar(&f.config, "config", "", "read the configuration `FILE` (default: .fluxwatch.yaml in the working directory or above it, up to the git top)")
	fs.StringVar(&f.baseline, "baseline", "", "compare the findings with an earlier run: its findings.json `FILE`, or its run directory")
	fs.StringVar(&f.failOnNew, "fail-on-new", "none", "exit 1 when a finding new since --baseline, not suppressed, is at least `SEVERITY`: none, P0, P1, P2 or P3")
}

// options are the flags as runjob's options, for the run directory named
// by the arguments (at most one).
func (f *reportFlags) options(e *env) (runjob.Options, error) {
	if f.fs.NArg() > 1 {
		return runjob.Options{}, usageErrorf("%s: want at most one directory, got %d arguments", f.cmd, f.fs.NArg())
	}
	files := map[string]string{}
	for name, p := range f.files {
		files[name] = *p
	}
	o := runjob.Options{
		Env:     e.job(),
		Command: f.cmd, Dir: f.fs.Arg(0),
		Out: f.out, Files: files, Quiet: f.quiet,
		FailOn: f.failOn, FailOnNew: f.failOnNew, MinIndependent: f.minIndep, AllowUnreadable: f.allowUnread,
		Run: f.run, StrictRun: f.strictRun, Expect: f.expect, Dedup: f.dedup,
		MaxLine: f.maxLine, Jobs: f.jobs, SummaryLimit: f.summaryLimit,
		Repo: f.repo, NoEvidence: f.noEvidence, Config: f.config, Baseline: f.baseline,
		Given: f.fs.Changed,
		Bus:   f.bus.Path, BusOptions: f.bus.Options(e.getenv, false),
	}
	return o, nil
}

// job is the outside world of a runjob call.
func (e *env) job() runjob.Env {
	return runjob.Env{Getenv: e.getenv, Stdout: e.stdout, Stderr: e.stderr, Log: e.logger(), Version: versionString()}
}

// selectRun is runjob.SelectRun for check and mcp.
func selectRun(e *env, cmd, flagged string) (string, error) {
	run, err := runjob.SelectRun(e.getenv, cmd, flagged)
	return run, jobError(err)
}
