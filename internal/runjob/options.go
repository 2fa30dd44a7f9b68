package runjob

import (
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/config"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// Exit statuses (SPEC §7) of an Error.
const (
	StatusOK       = 0
	StatusGate     = 1 // a gate tripped
	StatusInput    = 2 // a usage or input error
	StatusInternal = 3
	StatusSIGPIPE  = 128 + 13 // watch's reader went away: as SIGPIPE ends a process
)

// Error is the error of a job: the exit status it calls for and what to
// say (Err nil: nothing; a tripped gate has said it already).
type Error struct {
	Status int
	Err    error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Status)
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// inputf is an input error (exit 2).
func inputf(format string, a ...any) error {
	return &Error{StatusInput, fmt.Errorf(format, a...)}
}

// internal is an internal error (exit 3).
func internal(err error) error { return &Error{StatusInternal, err} }

// Env is what a job may touch of the outside world besides the files it is
// named: nothing here reads os.Getenv or os.Stdout.
type Env struct {
	Getenv  func(string) string
	Stdout  io.Writer
	Stderr  io.Writer
	Log     *slog.Logger // nil: none
	Version string       // the generator's version in the reports
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e Env) log() *slog.Logger {
	if e.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return e.Log
}

// Options are what synth and watch are asked to do: their flags, as given
// (the zero value of a string is "not given"; Given tells a flag given
// from its default when the configuration fills it).
type Options struct {
	Env
	Command string // "synth" or "watch": names the command in messages
	Dir     string // the run directory; "": the default (DefaultDir)

	Out             string            // --out: summary.md and findings.json ("": the run directory)
	Files           map[string]string // the file targets of report.Formats, by format name
	Quiet           bool
	FailOn          string // none, needs-changes or risky ("": none)
	FailOnNew       string // none or a severity ("": none)
	MinIndependent  int
	AllowUnreadable bool
	Run             string
	StrictRun       bool
	Expect          []string
	Dedup           string // fuzzy or exact ("": fuzzy)
	MaxLine         int
	Jobs            int
	SummaryLimit    int
	Repo            string // --repo
	NoEvidence      bool
	Config          string // --config
	Baseline        string

	// Given reports whether the flag name was on the command line (nil:
	// none was).
	Given func(name string) bool

	// synth: --format, --json, --annotations.
	Format      string
	JSON        bool
	Annotations bool

	// Bus is --bus, the bus read instead of the run's bus files: a file or
	// a nats:// URL ("": $FLUXWATCH_BUS when a URL, else the run's own);
	// BusOptions open it (its MaxLine is MaxLine).
	Bus        string
	BusOptions bus.Options

	Watch WatchOptions
}

func (o *Options) given(name string) bool { return o.Given != nil && o.Given(name) }

var runIDRe = regexp.MustCompile(`^[0-9a-fA-F-]{8,}$`)

// SelectRun is the run a command reads in a run directory (SPEC §1): flagged
// (--run), else $FLUX_RUN_UUID, else "" (the newest). A value that is not a
// run is an input error naming where it came from. synth, watch, verify,
// check and mcp all choose the run here.
func SelectRun(getenv func(string) string, cmd, flagged string) (string, error) {
	run, source := flagged, "--run"
	if run == "" && getenv != nil {
		run, source = getenv("FLUX_RUN_UUID"), "FLUX_RUN_UUID"
	}
	if run != "" && !runIDRe.MatchString(run) {
		return "", inputf("%s: %s %q: a run is a UUID ([0-9a-fA-F-]{8,})", cmd, source, run)
	}
	return run, nil
}

// DefaultDir is the run directory when none is named: discovery tiers 1
// and 2 (SPEC §4.3: $FLUX_OUTPUT_DIR, then a recent feature directory),
// else the current directory. Several feature directories that fit equally
// are an error: synthesising the wrong one would be worse.
func DefaultDir(getenv func(string) string, cmd string) (string, error) {
	envDir := ""
	if getenv != nil {
		envDir = getenv("FLUX_OUTPUT_DIR")
	}
	dir, _, err := plan.DiscoverDir(plan.Options{EnvDir: envDir})
	switch {
	case err == nil:
		return dir, nil
	case plan.ErrorType(err) == plan.ErrNotFound:
		return ".", nil
	}
	return "", inputf("%s: no DIR given and %v", cmd, err)
}

// Settings checks the options that say how to read and synthesise the run
// (not the targets, the gate's inputs aside) and the environment
// (SOURCE_DATE_EPOCH), and turns them into the options of synth and the
// watcher. verify reads a run with them too.
func Settings(o Options) (synth.Options, watcher.ScanOptions, error) {
	cmd := o.Command
	opts := synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: o.Version}}
	scan := watcher.ScanOptions{StrictRun: o.StrictRun, MaxLine: o.MaxLine, Jobs: o.Jobs}
	if o.MinIndependent < 0 {
		return opts, scan, inputf("%s: --min-independent %d: want 0 or more", cmd, o.MinIndependent)
	}
	if err := config.CheckChoice("gate.fail-on", o.value("fail-on", o.FailOn, "none")); err != nil {
		return opts, scan, inputf("%s: --fail-on %q: %v", cmd, o.FailOn, err)
	}
	if err := config.CheckChoice("agents.dedup", o.value("dedup", o.Dedup, "fuzzy")); err != nil {
		return opts, scan, inputf("%s: --dedup %q: %v", cmd, o.Dedup, err)
	}
	if o.Dedup == "exact" {
		opts.Dedup = synth.DedupExact
	}
	run, err := SelectRun(o.Getenv, cmd, o.Run)
	if err != nil {
		return opts, scan, err
	}
	scan.Run = run
	for _, name := range o.Expect {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if err := parse.ValidName(name); err != nil {
			return opts, scan, inputf("%s: --expect %q: %v", cmd, name, err)
		}
		opts.Expect = append(opts.Expect, name)
	}
	scan.Agents.Expect = opts.Expect
	if o.MaxLine <= 0 {
		return opts, scan, inputf("%s: --max-line %d: want a positive number of bytes", cmd, o.MaxLine)
	}
	if o.Jobs <= 0 {
		return opts, scan, inputf("%s: --jobs %d: want at least 1", cmd, o.Jobs)
	}
	if o.SummaryLimit != 0 && (o.SummaryLimit < 1024 || o.SummaryLimit > 1<<20) {
		return opts, scan, inputf("%s: --summary-limit %d: want 1024 to 1048576 bytes (GitHub's limit)", cmd, o.SummaryLimit)
	}
	if v := o.getenv("SOURCE_DATE_EPOCH"); v != "" {
		sec, err := strconv.ParseInt(v, 10, 64)
		if err != nil || sec < 0 {
			return opts, scan, inputf("%s: SOURCE_DATE_EPOCH %q: want seconds since 1970", cmd, v)
		}
		opts.Reviewed = time.Unix(sec, 0).UTC()
	}
	return opts, scan, nil
}

// value is v, the value of the flag name, or its default def when v is
// empty and the flag was not given: an empty value given (--fail-on ”)
// is checked as given.
func (o *Options) value(name, v, def string) string {
	if v == "" && !o.given(name) {
		return def
	}
	return v
}

// or is v, else (v empty) def.
func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// gate is the gate of o (--fail-on, --fail-on-new, --min-independent,
// --allow-unreadable), once the configuration is merged: synth.Gate.Judge
// decides it, for the exit status and the page alike.
func (o *Options) gate() synth.Gate {
	g := synth.Gate{MinIndependent: o.MinIndependent, AllowUnreadable: o.AllowUnreadable}
	if f := or(o.FailOn, "none"); f != "none" {
		g.FailOn = parse.Verdict(f)
	}
	if f := or(o.FailOnNew, "none"); f != "none" {
		g.FailOnNew = parse.Severity(f)
	}
	return g
}
