package runjob

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/report"
)

// applyFormat turns --format into the report target it stands for, printed
// on standard output (as reviewdog's -f): --format F is --F - for the
// formats that are files of their own (report.Formats), markdown is --out -
// (summary.md on stdout), json is --json, github the annotations of
// --annotations, on stdout. One mechanism, so the rule of one thing on
// stdout (checkTargets) covers --format too.
func (o *Options) applyFormat() error {
	if o.Format == "" {
		return nil
	}
	rf, ok := report.LookupFormat(o.Format)
	if !ok {
		return inputf("%s: --format %q: want one of %s", o.Command, o.Format, strings.Join(report.FormatNames(), ", "))
	}
	switch rf.Name {
	case "json":
		o.JSON = true
		return nil
	case "github":
		o.Annotations = true
		return nil
	}
	o.Files = maps.Clone(o.Files)
	target, name := o.Files[rf.Name], "--"+rf.Flag
	if rf.Name == "markdown" {
		target, name = o.Out, "--out"
	}
	if target != "" && target != report.Stdout {
		return inputf("%s: --format %s and %s %s both want the %s: give one", o.Command, o.Format, name, target, o.Format)
	}
	if rf.Name == "markdown" {
		o.Out = report.Stdout
	} else {
		if o.Files == nil {
			o.Files = map[string]string{}
		}
		o.Files[rf.Name] = report.Stdout
	}
	return nil
}

// stdoutData names what the command prints on stdout itself ("" for
// nothing): --json's findings.json, --format github's annotations, watch's
// --events.
func (o *Options) stdoutData() string {
	switch {
	case o.Format == "github":
		return "--format github"
	case o.JSON:
		return "--json"
	case o.Watch.Events:
		return "--events"
	}
	return ""
}

// targetsOf are the report targets of the job: --out (default: the run
// directory; with --format, nowhere unless --out or output.out names it)
// and the files of report.Formats (--sarif, …), any of which may be "-"
// for standard output. Their Base is the run directory relative to the
// repository top (baseOf).
func (j *Job) targetsOf() report.Targets {
	files := map[string]string{}
	for name, p := range j.o.Files {
		if p != "" {
			files[name] = StdoutTarget(p)
		}
	}
	out := j.o.Out
	if out == "" && j.o.Format == "" {
		out = j.dir
	}
	return report.Targets{Dir: StdoutTarget(out), Files: files, Base: baseOf(j.o.getenv, j.o.Repo, j.dir), Stdout: j.o.Stdout, Run: j.dir}
}

// StdoutTarget is a report target as written: "-" for a name of standard
// output (/dev/stdout, /dev/fd/1, a link to one), so that it is written
// through the command's stdout and counted as one of its users (a second
// description of fd 1, at its own offset, would overwrite what the command
// prints there); other targets as given.
func StdoutTarget(p string) string {
	if p != "" && p != report.Stdout && fsio.NamesStdout(p) {
		return report.Stdout
	}
	return p
}

// checkTargets checks the report targets before anything is read or
// written: at most one thing uses standard output (the targets that are
// "-", and data the command prints there itself, named by data, "" for
// none); no two targets are one file; no target is an input of the run (an
// agent report, the bus, a specialist file, the --bus file), which it would
// destroy, by its name or through a link; no target inside the run leads
// out of it through a symbolic link (SPEC §10: the rules of report.Write's
// writes, checked before anything is read). It returns whether stdout
// carries data.
func (j *Job) checkTargets(data string) (bool, error) {
	cmd, t := j.o.Command, j.targets
	names := t.OnStdout()
	if data != "" {
		names = append(names, data)
	}
	if len(names) > 1 {
		return true, inputf("%s: %s all want standard output: give files to all but one", cmd, strings.Join(names, ", "))
	}
	files := t.FileTargets()
	for i, a := range files {
		err := fsio.CheckWithin(j.dir, a.Path, report.RefuseInput)
		if err == nil && j.o.busFile() != "" && sameTarget(a.Path, j.o.busFile()) {
			err = report.ErrInput
		}
		switch {
		case errors.Is(err, report.ErrInput) && !isLink(a.Path):
			return false, inputf("%s: %s %s: an input of the run in %s; give another path", cmd, a.Flag, a.Path, j.dir)
		case err != nil:
			return false, inputf("%s: %v", cmd, err) // "write run/summary.md: symlink resolves outside …"
		}
		for _, b := range files[:i] {
			if sameTarget(a.Path, b.Path) {
				return false, inputf("%s: %s %s and %s %s are one file: give each its own", cmd, b.Flag, b.Path, a.Flag, a.Path)
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

// baseOf decides the one base every machine output (SARIF, rdjsonl,
// annotations, JUnit) names files from, the repository top: repo (--repo),
// else the top of the git work tree holding the run directory, else the
// working directory. It returns the run directory dir relative to that
// base, slash-separated, which the renderers put before the name of an
// agent's report; file refs, which agents write relative to the repository
// top, stay as they are. A run directory outside the base (or a base that
// cannot be resolved) is named as given.
func baseOf(getenv func(string) string, repo, dir string) string {
	base := repo
	if base == "" {
		top, ok := plan.GitTop(dir, Env{Getenv: getenv}.getenv("GIT_CEILING_DIRECTORIES"))
		if !ok {
			top = "."
		}
		base = top
	}
	absBase, err1 := filepath.Abs(base)
	absDir, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(dir)
	}
	// Compare resolved paths: a base reached through a symbolic link is
	// still the base.
	if r, err := filepath.EvalSymlinks(absBase); err == nil {
		absBase = r
	}
	if r, err := filepath.EvalSymlinks(absDir); err == nil {
		absDir = r
	}
	rel, err := filepath.Rel(absBase, absDir)
	if err != nil || rel == ".." || filepath.IsAbs(rel) || len(rel) > 2 && rel[:3] == ".."+string(os.PathSeparator) {
		return filepath.ToSlash(dir)
	}
	return filepath.ToSlash(rel)
}

// sized holds the process to SPEC §9's memory for n bytes read.
func sized(n int64) { membudget.Add(n) }
