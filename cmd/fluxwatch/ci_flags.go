package main

import (
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

// loadConfig reads --config, or the .fluxwatch.yaml that applies in the
// working directory; ok false when there is none.
func loadConfig(e *env, cmd, named string) (*config.Config, error) {
	path := named
	if path == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, usageErrorf("%s: %v", cmd, err)
		}
		top, _ := plan.GitTop(wd, e.getenv("GIT_CEILING_DIRECTORIES"))
		if path, err = config.Find(wd, top); err != nil {
			return nil, usageErrorf("%s: config: %v", cmd, err)
		}
		if path == "" {
			return &config.Config{}, nil
		}
		if rel, err := filepath.Rel(wd, path); err == nil {
			path = rel // messages and reports name it as the user sees it
		}
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, usageErrorf("%s: %v", cmd, err)
	}
	return cfg, nil
}

// configure reads the configuration and gives every flag of f and c that
// was not on the command line the file's value (a flag always wins). Call
// it after parsing the flags, before f.options.
func (c *ciFlags) configure(e *env, f *reportFlags) error {
	cfg, err := loadConfig(e, f.cmd, c.config)
	if err != nil {
		return err
	}
	c.cfg = cfg
	set := func(name string, dst *string, v string, path bool) {
		if v == "" || c.fs.Changed(name) {
			return
		}
		if path {
			v = cfg.Resolve(v)
		}
		*dst = v
	}
	set("fail-on", &f.failOn, cfg.Gate.FailOn, false)
	set("fail-on-new", &c.failOnNew, cfg.Gate.FailOnNew, false)
	set("baseline", &c.baseline, cfg.Baseline, true)
	set("out", &f.out, cfg.Output.Out, true)
	set("sarif", &f.sarif, cfg.Output.SARIF, true)
	set("rdjsonl", &f.rdjsonl, cfg.Output.RDJSONL, true)
	set("junit", &f.junit, cfg.Output.JUnit, true)
	set("html", &f.html, cfg.Output.HTML, true)
	set("dedup", &f.dedup, cfg.Agents.Dedup, false)
	if !c.fs.Changed("repo") && !c.fs.Changed("no-evidence") {
		set("repo", &f.evidence.repo, cfg.Evidence.Repo, true)
		if cfg.Evidence.Check != nil && !*cfg.Evidence.Check {
			f.evidence.none, f.evidence.repo = true, ""
		}
	}
	if !c.fs.Changed("expect") && len(cfg.Agents.Expect) > 0 {
		f.expect = cfg.Agents.Expect
	}
	if !c.fs.Changed("strict-run") && cfg.Agents.StrictRun != nil {
		f.strictRun = *cfg.Agents.StrictRun
	}
	if !c.fs.Changed("allow-unreadable") && cfg.Gate.AllowUnreadable != nil {
		f.allowUnread = *cfg.Gate.AllowUnreadable
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
			return synth.DecodeBaseline(path, synth.RenderJSON(s))
		}
	}
	// Never blocks and never grows without bound: a FIFO or device
	// (/dev/zero) is refused at once, a file over maxBaseline too.
	data, err := fsio.ReadFile(file, maxBaseline)
	if errors.Is(err, fsio.ErrTooLarge) {
		return nil, fmt.Errorf("%s: larger than %d bytes", file, maxBaseline)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, fsio.Cause(err))
	}
	return synth.DecodeBaseline(file, data)
}

// maxBaseline caps a baseline findings.json: 1 GiB, some 15 times the
// findings.json of 1,000 agents × 50 findings.
const maxBaseline = 1 << 30

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
