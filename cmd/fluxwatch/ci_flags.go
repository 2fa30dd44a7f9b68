package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fluxwatch/fluxwatch/config"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	flag "github.com/spf13/pflag"
)

// This file holds what synth and watch take from .fluxwatch.yaml and the
// flags that go with it (--config, --baseline, --fail-on-new), shared by
// synth, watch and config. ciFlags.register is the one place those flags
// are added.

// ciFlags are --config, --baseline and --fail-on-new, and what they and the
// configuration file give.
type ciFlags struct {
	config    string
	baseline  string
	failOnNew string

	fs  *flag.FlagSet
	cfg *config.Config // the file read; the zero Config without one
}

// register adds the flags to fs and keeps fs, to tell a flag given from
// its default when the configuration fills it.
func (c *ciFlags) register(fs *flag.FlagSet) {
	c.fs = fs
	fs.StringVar(&c.config, "config", "", "read the configuration `FILE` (default: .fluxwatch.yaml in the working directory or above it, up to the git top)")
	fs.StringVar(&c.baseline, "baseline", "", "compare the findings with an earlier run: its findings.json `FILE`, or its run directory")
	fs.StringVar(&c.failOnNew, "fail-on-new", "none", "exit 1 when a finding new since --baseline, not suppressed, is at least `SEVERITY`: none, P0, P1, P2 or P3")
}

// loadConfig reads --config (named), or the .fluxwatch.yaml that applies in
// the working directory: the zero Config when there is none. run is the
// run directory ("" for none): a file found in it is never read (SPEC §10:
// agents write it), and each one passed over is a warning on stderr.
// The configuration's Root is the repository it belongs to: the git work
// tree holding it, else its directory.
func loadConfig(e *env, cmd, named, run string) (*config.Config, error) {
	path := named
	wd, err := os.Getwd()
	if err != nil {
		return nil, usageErrorf("%s: %v", cmd, err)
	}
	ceiling := e.getenv("GIT_CEILING_DIRECTORIES")
	shown := func(p string) string {
		if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsAbs(p) {
			return rel // messages and reports name it as the user sees it
		}
		return p
	}
	if path == "" {
		top, _ := plan.GitTop(wd, ceiling)
		found, ignored, err := config.Find(wd, top, run)
		for _, p := range ignored {
			fmt.Fprintf(e.stderr, "fluxwatch: warning: %s: %s is in the run directory, which agents write: ignored (name a configuration with --config)\n", cmd, shown(p))
		}
		if err != nil {
			return nil, usageErrorf("%s: config: %v", cmd, err)
		}
		if found == "" {
			return &config.Config{}, nil
		}
		path = shown(found)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, usageErrorf("%s: %v", cmd, err)
	}
	dir := filepath.Dir(path)
	cfg.Root = dir
	if top, ok := plan.GitTop(dir, ceiling); ok {
		cfg.Root = top
	}
	if abs, err := filepath.Abs(cfg.Root); err == nil {
		cfg.Root = abs // messages name it whole: "leads outside ." says nothing
	}
	return cfg, nil
}

// configure reads the configuration for the run in dir and gives every
// flag of f and c that was not on the command line the file's value (a
// flag always wins). A path the file gives must stay in its repository
// (config.Config.Local). Call it after parsing the flags, before
// f.options.
func (c *ciFlags) configure(e *env, f *reportFlags, dir string) error {
	cfg, err := loadConfig(e, f.cmd, c.config, dir)
	if err != nil {
		return err
	}
	c.cfg = cfg
	var bad error
	set := func(name string, dst *string, v string, key string) {
		if v == "" || c.fs.Changed(name) || *dst == "-" { // "-": --format set it, a flag
			return
		}
		if key != "" {
			local, err := cfg.Local(key, v)
			if err != nil {
				bad = cmp.Or(bad, err)
				return
			}
			v = local
		}
		*dst = v
	}
	set("fail-on", &f.failOn, cfg.Gate.FailOn, "")
	set("fail-on-new", &c.failOnNew, cfg.Gate.FailOnNew, "")
	set("baseline", &c.baseline, cfg.Baseline, "baseline")
	set("out", &f.out, cfg.Output.Out, "output.out")
	for _, rf := range report.FileFormats() {
		set(rf.Flag, f.files[rf.Name], cfg.Output.Files[rf.Config], "output."+rf.Config)
	}
	set("dedup", &f.dedup, cfg.Agents.Dedup, "")
	if !c.fs.Changed("repo") && !c.fs.Changed("no-evidence") {
		set("repo", &f.evidence.repo, cfg.Evidence.Repo, "evidence.repo")
		if cfg.Evidence.Check != nil && !*cfg.Evidence.Check {
			f.evidence.none, f.evidence.repo = true, ""
		}
	}
	if !c.fs.Changed("expect") && len(cfg.Agents.Expect) > 0 {
		f.expect = cfg.Agents.Expect
	}
	f.agents.Include, f.agents.Ignore = cfg.Agents.Include, cfg.Agents.Ignore
	if !c.fs.Changed("strict-run") && cfg.Agents.StrictRun != nil {
		f.strictRun = *cfg.Agents.StrictRun
	}
	if !c.fs.Changed("allow-unreadable") && cfg.Gate.AllowUnreadable != nil {
		f.allowUnread = *cfg.Gate.AllowUnreadable
	}
	if bad != nil {
		return usageErrorf("%s: %v", f.cmd, bad)
	}
	if err := config.CheckChoice("gate.fail-on-new", c.failOnNew); err != nil {
		return usageErrorf("%s: --fail-on-new %q: %v", f.cmd, c.failOnNew, err)
	}
	if c.failOnNew != "none" && c.baseline == "" {
		return usageErrorf("%s: --fail-on-new needs a baseline: --baseline FILE or baseline: in %s", f.cmd, config.Name)
	}
	return nil
}

// synthOptions sets the baseline, the suppressions and the date they expire
// against (SOURCE_DATE_EPOCH, which f.options put in opts.Reviewed, else
// today) in opts. scan reads a baseline that is a run directory without a
// findings.json.
func (c *ciFlags) synthOptions(ctx context.Context, cmd string, scan watcher.ScanOptions, opts *synth.Options) error {
	opts.Suppressions = c.cfg.SynthSuppressions()
	opts.Today = opts.Reviewed
	if opts.Today.IsZero() {
		opts.Today = time.Now()
	}
	if c.baseline == "" {
		return nil
	}
	b, err := readBaseline(ctx, c.baseline, scan, *opts)
	if err != nil {
		return usageErrorf("%s: --baseline %v", cmd, err)
	}
	opts.Baseline = b
	return nil
}

// readBaseline reads the baseline at path: a findings.json, or a run
// directory, whose findings.json is read when it has one and which is
// synthesised (without evidence or a baseline of its own) when not.
func readBaseline(ctx context.Context, path string, scan watcher.ScanOptions, opts synth.Options) (*synth.Baseline, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, fsio.Cause(err))
	}
	file := path
	if fi.IsDir() {
		file = filepath.Join(path, "findings.json")
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
			opts.Evidence, opts.Baseline, opts.Suppressions = nil, nil, nil
			scan.Run = ""
			s, err := watcher.Synthesize(ctx, path, scan, opts)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			return synth.BaselineOf(path, s)
		}
	}
	// Never blocks and never grows without bound: a FIFO or device
	// (/dev/zero) is refused at once, a file over synth.MaxBaseline too.
	data, err := fsio.ReadFile(file, synth.MaxBaseline)
	if errors.Is(err, fsio.ErrTooLarge) {
		return nil, fmt.Errorf("%s: larger than %d bytes", file, synth.MaxBaseline)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, fsio.Cause(err))
	}
	return synth.DecodeBaseline(file, data)
}

// report prints the expired and unused suppressions of s on stderr (unless
// quiet).
func (c *ciFlags) report(e *env, s *synth.Synthesis, quiet bool) {
	if s.Suppressions == nil || quiet {
		return
	}
	for _, d := range s.Diagnostics {
		if d.File == c.cfg.Path && c.cfg.Path != "" {
			fmt.Fprintf(e.stderr, "fluxwatch: %s\n", inert.Line(d.String()))
		}
	}
}
