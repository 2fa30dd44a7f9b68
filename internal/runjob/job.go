package runjob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/config"
	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// Job is one run directory read as the options say: its run, its
// configuration merged with the flags, its evidence and baseline, its
// report targets checked, and its bus when it is not the directory's own.
type Job struct {
	o        Options // the flags with the configuration merged
	dir      string
	implicit bool // dir is the default, not named
	cfg      *config.Config
	synth    synth.Options
	scan     watcher.ScanOptions
	bus      bus.Backend // nil: dir's bus files
	targets  report.Targets
	onStdout bool // standard output carries data: one target or what the command prints
	runURL   string
}

// Load finds the run directory (o.Dir, else DefaultDir), then prepares the
// job: the configuration merged with o, the options checked, the baseline
// read, the bus opened (o.Bus), the report targets checked and the
// evidence verifier set up, in that order. The caller closes the job.
func Load(ctx context.Context, o Options) (*Job, error) {
	dir, implicit, err := o.dir()
	if err != nil {
		return nil, err
	}
	return load(ctx, o, dir, implicit)
}

// dir is the run directory of o and whether it is the default.
func (o *Options) dir() (string, bool, error) {
	if o.Dir != "" {
		return o.Dir, false, nil
	}
	dir, err := DefaultDir(o.Getenv, o.Command)
	return dir, true, err
}

func load(ctx context.Context, o Options, dir string, implicit bool) (*Job, error) {
	if err := o.applyFormat(); err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(o.Getenv, o.Stderr, o.Command, o.Config, dir)
	if err != nil {
		return nil, err
	}
	if err := o.merge(cfg); err != nil {
		return nil, err
	}
	j := &Job{o: o, dir: dir, implicit: implicit, cfg: cfg}
	if j.synth, j.scan, err = Settings(o); err != nil {
		return nil, err
	}
	j.scan.Agents.Include, j.scan.Agents.Ignore = cfg.Agents.Include, cfg.Agents.Ignore
	j.runURL = actionsRunURL(o.getenv)
	if err := j.readBaseline(ctx); err != nil {
		return nil, err
	}
	if j.bus, err = o.openBus(ctx, dir); err != nil {
		return nil, err
	}
	j.targets = j.targetsOf()
	if j.onStdout, err = j.checkTargets(o.stdoutData()); err == nil {
		err = j.setEvidence()
	}
	if err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// Close closes the bus the job opened.
func (j *Job) Close() error {
	if j.bus == nil {
		return nil
	}
	return j.bus.Close()
}

// Dir is the run directory the job reads.
func (j *Job) Dir() string { return j.dir }

// Synthesize reads the run once and synthesises it. Without a named
// directory, one that holds nothing of a run is an input error saying what
// was looked for; so is a run picked by file times under a gate
// (pickedRun). A signal is an internal error (the status is the
// signal's).
func (j *Job) Synthesize(ctx context.Context) (*synth.Synthesis, error) {
	var s *synth.Synthesis
	var err error
	scan := j.scan
	scan.RequireRun = j.implicit
	if j.bus != nil {
		s, err = watcher.SynthesizeFrom(ctx, j.dir, j.bus, scan, j.synth)
	} else {
		// Hold the process to SPEC §9's memory for what it reads. A bus
		// stream's size is not known beforehand: with one, no limit.
		scan.Sized = sized
		s, err = watcher.Synthesize(ctx, j.dir, scan, j.synth)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, internal(fmt.Errorf("%s: %w", j.o.Command, ctx.Err()))
		}
		return nil, inputf("%s: %v", j.o.Command, err)
	}
	j.o.log().Info("synthesised", "dir", j.dir, "base", j.targets.Base, "verdict", s.Verdict,
		"agents", len(s.Agents), "findings", len(s.Findings), "evidence", s.Evidence != nil)
	if err := j.pickedRun(s); err != nil {
		return nil, err // before anything is written: no report of a run picked by file times
	}
	return s, nil
}

// readBaseline sets the baseline, the suppressions and the date they expire
// against (SOURCE_DATE_EPOCH, else today).
func (j *Job) readBaseline(ctx context.Context) error {
	j.synth.Suppressions = j.cfg.SynthSuppressions()
	j.synth.Today = j.synth.Reviewed
	if j.synth.Today.IsZero() {
		j.synth.Today = time.Now()
	}
	if j.o.Baseline == "" {
		return nil
	}
	b, err := ReadBaseline(ctx, j.o.Baseline, j.scan, j.synth)
	if err != nil {
		return inputf("%s: --baseline %v", j.o.Command, err)
	}
	j.synth.Baseline = b
	return nil
}

// ReadBaseline reads the baseline at path: a findings.json, or a run
// directory, whose findings.json is read when it has one and which is
// synthesised with scan and opts (without evidence or a baseline of its
// own) when not.
func ReadBaseline(ctx context.Context, path string, scan watcher.ScanOptions, opts synth.Options) (*synth.Baseline, error) {
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

// setEvidence sets the evidence verifier (one that re-reads the cited files
// at each synthesis), the repository and, when evidence is not checked, the
// note that says why (SPEC §5.7). A --repo that is not a readable
// directory is an input error; without --repo, a run directory outside any
// git work tree is not checked, and the reports say so.
func (j *Job) setEvidence() error {
	o, opts := &j.o, &j.synth
	switch {
	case o.NoEvidence && o.Repo != "":
		return inputf("%s: --repo and --no-evidence exclude each other", o.Command)
	case o.NoEvidence:
		opts.EvidenceNote = "--no-evidence"
		return nil
	}
	repo := o.Repo
	if repo == "" {
		top, ok := plan.GitTop(j.dir, o.getenv("GIT_CEILING_DIRECTORIES"))
		if !ok {
			opts.EvidenceNote = synth.MarkdownCode(j.dir) + " is not inside a git work tree; pass --repo DIR"
			return nil
		}
		repo = top
	}
	v, err := evidence.Open(repo, evidence.Options{})
	if err != nil {
		if o.Repo != "" {
			return inputf("%s: --repo: %v", o.Command, err)
		}
		opts.EvidenceNote = "the git work tree " + synth.MarkdownCode(repo) + " cannot be read"
		return nil
	}
	opts.Evidence, opts.EvidenceRepo = v, repo
	return nil
}

// pickedRun applies SPEC §10's "the gate is not flipped by a stranger" to
// s: when no run was selected and the agent files name several runs, the
// run read was picked by file times, which any writer of the directory
// sets. With a gate (from a flag or the configuration) that is an input
// error: pass --run. Without one it is a warning on stderr (unless quiet);
// the reports carry it as a diagnostic either way.
func (j *Job) pickedRun(s *synth.Synthesis) error {
	if j.scan.Run != "" || len(s.Runs) < 2 {
		return nil
	}
	runs := strings.Join(s.Runs, ", ")
	if j.o.gate().Set() {
		return inputf("%s: %s holds reports of %d runs (%s): pass --run RUN (or set FLUX_RUN_UUID); a gate never picks a run by file times",
			j.o.Command, j.dir, len(s.Runs), runs)
	}
	if !j.o.Quiet && s.Run != nil {
		fmt.Fprintf(j.o.Stderr, "fluxwatch: warning: %s: %s holds reports of %d runs (%s); read %s, the newest by finish times (declared, else file times): pass --run RUN to choose\n",
			j.o.Command, j.dir, len(s.Runs), runs, *s.Run)
	}
	return nil
}
