package runjob

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// world is a job's outside world in a test: its variables, what it
// printed.
type world struct {
	env            map[string]string
	stdout, stderr bytes.Buffer
}

// options returns the options of a synth of dir as the flags' defaults
// give them, with evidence off, in a fresh working directory outside any
// git work tree (so that no .fluxwatch.yaml of the tree applies).
func (w *world) options(t *testing.T, dir string) Options {
	t.Helper()
	wd := t.TempDir()
	t.Chdir(wd)
	if w.env == nil {
		w.env = map[string]string{}
	}
	w.env["GIT_CEILING_DIRECTORIES"] = filepath.Dir(wd)
	return Options{
		Env:     Env{Getenv: func(k string) string { return w.env[k] }, Stdout: &w.stdout, Stderr: &w.stderr, Version: "test"},
		Command: "synth", Dir: dir, FailOn: "none", FailOnNew: "none", Dedup: "fuzzy",
		MaxLine: 1 << 20, Jobs: 2, NoEvidence: true,
	}
}

// writeFiles writes files (name: content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// status is the exit status err calls for (0 for nil; -1 for an error that
// is not an *Error).
func status(err error) int {
	var je *Error
	switch {
	case err == nil:
		return StatusOK
	case errors.As(err, &je):
		return je.Status
	}
	return -1
}

const needsChanges = "### Findings Index\n- P1 | SEC-002 | \"Auth\" | Session tokens never expire\nVerdict: needs-changes\n"

// TestConfigAndFlags: a flag given wins over .fluxwatch.yaml; a flag left
// at its default takes the file's value; paths of the file are resolved
// from it and must stay in its repository.
func TestConfigAndFlags(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string
		given  map[string]string // flag: value given on the command line
		format string
		check  func(t *testing.T, j *Job)
		err    string
	}{
		{name: "file fills a default", config: "gate: {fail-on: risky}\nagents: {dedup: exact}\n",
			check: func(t *testing.T, j *Job) {
				if got := j.o.gate().FailOn; got != parse.Verdict("risky") {
					t.Errorf("gate fail-on = %q, want risky", got)
				}
				if j.o.Dedup != "exact" {
					t.Errorf("dedup = %q, want exact", j.o.Dedup)
				}
			}},
		{name: "flag wins", config: "gate: {fail-on: risky}\n", given: map[string]string{"fail-on": "needs-changes"},
			check: func(t *testing.T, j *Job) {
				if got := j.o.gate().FailOn; got != parse.Verdict("needs-changes") {
					t.Errorf("gate fail-on = %q, want needs-changes (the flag)", got)
				}
			}},
		{name: "expect from the file", config: "agents: {expect: [fd-a, fd-b]}\n",
			check: func(t *testing.T, j *Job) {
				if !slices.Equal(j.synth.Expect, []string{"fd-a", "fd-b"}) {
					t.Errorf("expect = %q, want the file's", j.synth.Expect)
				}
			}},
		{name: "expect flag wins", config: "agents: {expect: [fd-a, fd-b]}\n", given: map[string]string{"expect": "fd-c"},
			check: func(t *testing.T, j *Job) {
				if !slices.Equal(j.synth.Expect, []string{"fd-c"}) {
					t.Errorf("expect = %q, want the flag's", j.synth.Expect)
				}
			}},
		{name: "output path from the file's directory", config: "output: {sarif: out/r.sarif}\n",
			check: func(t *testing.T, j *Job) {
				got := j.targets.Files["sarif"]
				if !strings.HasSuffix(got, filepath.Join("conf", "out", "r.sarif")) {
					t.Errorf("sarif target = %q, want conf/out/r.sarif", got)
				}
			}},
		{name: "path leading out of the repository", config: "output: {sarif: ../../elsewhere.sarif}\n",
			err: "leads outside"},
		{name: "fail-on-new needs a baseline", config: "gate: {fail-on-new: P1}\n",
			err: "synth: --fail-on-new needs a baseline: --baseline FILE or baseline: in .fluxwatch.yaml"},
		{name: "--format keeps its stdout target", config: "output: {sarif: out/r.sarif, out: reports}\n", format: "sarif",
			check: func(t *testing.T, j *Job) {
				if got := j.targets.Files["sarif"]; got != "-" {
					t.Errorf("sarif target = %q, want - (--format sarif wins over output.sarif)", got)
				}
				if !strings.HasSuffix(j.targets.Dir, filepath.Join("conf", "reports")) {
					t.Errorf("--out target = %q, want output.out (conf/reports)", j.targets.Dir)
				}
			}},
		{name: "--format alone writes no report files", format: "markdown",
			check: func(t *testing.T, j *Job) {
				if j.targets.Dir != "-" || len(j.targets.FileTargets()) != 0 {
					t.Errorf("targets %+v, want summary.md on stdout and no file", j.targets)
				}
			}},
		{name: "bad choice from a flag", given: map[string]string{"dedup": "loose"}, err: `synth: --dedup "loose"`},
		{name: "empty choice given", given: map[string]string{"fail-on": ""}, err: `synth: --fail-on "": want none, needs-changes or risky`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w world
			run := t.TempDir()
			o := w.options(t, run)
			conf := filepath.Join(t.TempDir(), "conf")
			writeFiles(t, conf, map[string]string{".fluxwatch.yaml": tc.config})
			o.Config = filepath.Join(conf, ".fluxwatch.yaml")
			for name, v := range tc.given {
				switch name {
				case "fail-on":
					o.FailOn = v
				case "expect":
					o.Expect = []string{v}
				case "dedup":
					o.Dedup = v
				}
			}
			o.Given = func(name string) bool { _, ok := tc.given[name]; return ok }
			o.Format = tc.format
			j, err := Load(context.Background(), o)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || status(err) != StatusInput {
					t.Fatalf("Load: %v (status %d), want an input error with %q", err, status(err), tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			tc.check(t, j)
		})
	}
}

// TestConfigInRunDirectoryIgnored: the .fluxwatch.yaml an agent wrote into
// the run directory is never read (SPEC §10): a warning names it, and its
// gate is not set.
func TestConfigInRunDirectoryIgnored(t *testing.T) {
	var w world
	run := t.TempDir()
	o := w.options(t, run)
	writeFiles(t, run, map[string]string{".fluxwatch.yaml": "gate: {fail-on: risky}\n", "fd-a.md": needsChanges})
	j, err := Load(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if j.o.gate().Set() {
		t.Errorf("gate %+v set from the run directory's configuration", j.o.gate())
	}
	if !strings.Contains(w.stderr.String(), "is in the run directory, which agents write: ignored") {
		t.Errorf("stderr %q: want the warning that names it", w.stderr.String())
	}
}

// TestRunSelection: a directory holding reports of several runs is read as
// its newest run with a warning when nothing gates; under a gate it is an
// input error and nothing is written; a run selected (flag, else
// FLUX_RUN_UUID) is read and gates.
func TestRunSelection(t *testing.T) {
	const a, x = "5eed0001-0000-4000-8000-000000000001", "0bad0002-0000-4000-8000-000000000002"
	files := map[string]string{
		"fd-a." + a + ".md": needsChanges,
		"fd-x." + x + ".md": "### Findings Index\nVerdict: safe\n",
	}
	setup := func(t *testing.T, w *world) Options {
		run := t.TempDir()
		o := w.options(t, run)
		writeFiles(t, run, files)
		old, now := mustTime(t, "2026-11-20T08:00:00Z"), mustTime(t, "2026-11-20T09:00:00Z")
		chtimes(t, filepath.Join(run, "fd-a."+a+".md"), old)
		chtimes(t, filepath.Join(run, "fd-x."+x+".md"), now)
		return o
	}
	t.Run("gate refuses to pick", func(t *testing.T) {
		var w world
		o := setup(t, &w)
		o.FailOn = "needs-changes"
		err := Synth(context.Background(), o)
		if status(err) != StatusInput || !strings.Contains(err.Error(), "holds reports of 2 runs ("+x+", "+a+"): pass --run RUN") {
			t.Fatalf("Synth: %v (status %d), want the several-runs input error", err, status(err))
		}
		if _, err := os.Stat(filepath.Join(o.Dir, "findings.json")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("findings.json written (%v): want nothing written", err)
		}
	})
	t.Run("no gate: the newest, said", func(t *testing.T) {
		var w world
		o := setup(t, &w)
		if err := Synth(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if want := "read " + x + ", the newest"; !strings.Contains(w.stderr.String(), want) {
			t.Errorf("stderr %q: want %q", w.stderr.String(), want)
		}
		if !strings.HasPrefix(w.stdout.String(), "safe: 1/1 agent completed") {
			t.Errorf("stdout %q: want the newest run's verdict", w.stdout.String())
		}
	})
	for _, how := range []string{"flag", "FLUX_RUN_UUID"} {
		t.Run("selected by "+how, func(t *testing.T) {
			var w world
			o := setup(t, &w)
			o.FailOn, o.Quiet = "needs-changes", true
			if how == "flag" {
				o.Run = a
				w.env["FLUX_RUN_UUID"] = x // the flag wins
			} else {
				w.env["FLUX_RUN_UUID"] = a
			}
			if err := Synth(context.Background(), o); status(err) != StatusGate {
				t.Fatalf("Synth: %v (status %d), want the gate tripped by run %s", err, status(err), a)
			}
			if w.stderr.Len() > 0 {
				t.Errorf("stderr %q with -q", w.stderr.String())
			}
		})
	}
	t.Run("not a run", func(t *testing.T) {
		_, err := SelectRun(func(string) string { return "../x" }, "check", "")
		if want := `check: FLUX_RUN_UUID "../x": a run is a UUID`; err == nil || !strings.Contains(err.Error(), want) || status(err) != StatusInput {
			t.Errorf("SelectRun: %v, want %q", err, want)
		}
	})
}

// TestTargetsRefused: report targets are checked before anything is read:
// an input of the run, two names of one file, two things on standard
// output and the --bus file are refused, naming the flags.
func TestTargetsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(o *Options)
		want string
	}{
		{"agent report", func(o *Options) { o.Files = map[string]string{"sarif": filepath.Join(o.Dir, "fd-a.md")} },
			"--sarif " + "RUN/fd-a.md: an input of the run in RUN; give another path"},
		{"the bus", func(o *Options) { o.Files = map[string]string{"junit": filepath.Join(o.Dir, "peer-findings.jsonl")} },
			"an input of the run"},
		{"the --bus file", func(o *Options) {
			o.Bus = filepath.Join(filepath.Dir(o.Dir), "bus.jsonl")
			o.BusOptions.Timeout = time.Second
			writeFiles(t, filepath.Dir(o.Dir), map[string]string{"bus.jsonl": ""})
			o.Files = map[string]string{"rdjsonl": o.Bus}
		}, "an input of the run"},
		{"one file twice", func(o *Options) {
			p := filepath.Join(filepath.Dir(o.Dir), "r.out")
			o.Files = map[string]string{"sarif": p, "junit": p}
		}, "are one file: give each its own"},
		{"two on stdout", func(o *Options) { o.Out, o.JSON = "-", true }, "--out, --json all want standard output"},
		{"format and its flag", func(o *Options) {
			o.Format, o.Files = "sarif", map[string]string{"sarif": "x.sarif"}
		}, "--format sarif and --sarif x.sarif both want the sarif: give one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w world
			run := filepath.Join(t.TempDir(), "run")
			o := w.options(t, run)
			writeFiles(t, run, map[string]string{"fd-a.md": needsChanges, "peer-findings.jsonl": ""})
			tc.set(&o)
			_, err := Load(context.Background(), o)
			want := strings.ReplaceAll(tc.want, "RUN", run)
			if status(err) != StatusInput || !strings.Contains(err.Error(), want) {
				t.Fatalf("Load: %v (status %d), want an input error with %q", err, status(err), want)
			}
			if got, _ := os.ReadFile(filepath.Join(run, "fd-a.md")); string(got) != needsChanges {
				t.Errorf("the agent report changed: %q", got)
			}
		})
	}
}

// TestGateExplained: a tripped gate is StatusGate with one line per reason
// on stderr (none with Quiet); an open gate says nothing and passes.
func TestGateExplained(t *testing.T) {
	type gateCase struct {
		name, failOn string
		quiet        bool
		status       int
		stderr       string // a line it prints ("": nothing)
	}
	for _, tc := range []gateCase{
		{"tripped", "needs-changes", false, StatusGate, "fluxwatch: gate --fail-on needs-changes tripped: verdict needs-changes from 1 finding at P1 or above"},
		{"tripped quietly", "needs-changes", true, StatusGate, ""},
		{"not tripped", "risky", false, StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w world
			run := t.TempDir()
			o := w.options(t, run)
			o.FailOn, o.Quiet = tc.failOn, tc.quiet
			o.Out = t.TempDir()
			writeFiles(t, run, map[string]string{"fd-a.md": needsChanges})
			err := Synth(context.Background(), o)
			if status(err) != tc.status {
				t.Fatalf("Synth: %v (status %d), want status %d", err, status(err), tc.status)
			}
			if got := w.stderr.String(); tc.stderr == "" && got != "" || !strings.Contains(got, tc.stderr) {
				t.Errorf("stderr %q, want %q", got, tc.stderr)
			}
			if _, err := os.Stat(filepath.Join(o.Out, "findings.json")); err != nil {
				t.Errorf("findings.json not written to --out: %v", err)
			}
		})
	}
}

// TestEffective: the configuration command shows every default.
func TestEffective(t *testing.T) {
	var w world
	o := w.options(t, "")
	cfg, err := LoadConfig(o.Getenv, &w.stderr, "config", "", "")
	if err != nil {
		t.Fatal(err)
	}
	eff := effective(cfg)
	if eff.Gate.FailOn != "none" || eff.Gate.FailOnNew != "none" || eff.Agents.Dedup != "fuzzy" ||
		eff.Evidence.Check == nil || !*eff.Evidence.Check || eff.Agents.StrictRun == nil || *eff.Agents.StrictRun ||
		eff.Gate.AllowUnreadable == nil || *eff.Gate.AllowUnreadable || eff.Suppressions == nil {
		t.Errorf("effective(no file) = %+v: want every default filled", eff)
	}
}
