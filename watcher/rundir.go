package watcher

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// This file holds the one reader of a run directory's layout (SPEC §1) that
// check, synth, watch and mcp share: which files are candidates, and how
// each is opened. Names are classified by parse.ClassifyName; every file is
// opened through an os.Root of the directory (the kernel keeps it inside:
// no check-then-open race), without blocking, regular files only, and read
// up to DefaultMaxFile.

// openRunDir opens the run directory dir as a root. A missing path, or one
// that is not a directory (a file, a FIFO), is an error naming it.
func openRunDir(dir string) (*os.Root, error) {
	root, err := fsio.OpenRoot(dir)
	switch {
	case err == nil:
		return root, nil
	case errors.Is(err, fsio.ErrNotDir):
		return nil, fmt.Errorf("output directory %s: %w", dir, fsio.Cause(err)) // not a directory (a FIFO)
	}
	return nil, fmt.Errorf("output directory: %w", err)
}

// openRun returns the run directory dir open as a root: given when not nil
// (done then leaves it open), else opened by openRunDir (done closes it).
func openRun(dir string, given *os.Root) (root *os.Root, done func(), err error) {
	if given != nil {
		return given, func() {}, nil
	}
	root, err = openRunDir(dir)
	if err != nil {
		return nil, nil, err
	}
	return root, func() { root.Close() }, nil
}

// list finds the candidate files of the run directory open as root (dir is
// its path, for messages): its top level, findings/*.yaml and
// design/manifest.yaml, sorted by relative path. A symbolic link that leaves
// the directory and a file that is not regular are directory diagnostics.
// An agent file that agents says is no agent's (README.md, task.md) is
// listed in run.Ignored, not read.
func list(root *os.Root, dir string, run *synth.Run, agents parse.AgentFilter) ([]file, error) {
	var files []file
	note := func(rel, msg string) {
		run.Diagnostics = append(run.Diagnostics, diag(rel, parse.LevelWarning, msg))
	}
	// walk lists sub, whose path in root (its target, when a symbolic
	// link leads there) is at.
	var walk func(sub, at string) error
	walk = func(sub, at string) error {
		d, err := fsio.OpenDirIn(root, cmp.Or(at, "."))
		if err != nil {
			if sub != "" {
				note(sub, "not read: "+inert.Line(err.Error()))
				return nil
			}
			return fmt.Errorf("read directory %s: %w", dir, err)
		}
		entries, err := d.ReadDir(-1)
		d.Close()
		if err != nil {
			return fmt.Errorf("read directory %s: %w", filepath.Join(dir, filepath.FromSlash(sub)), err)
		}
		for _, de := range entries {
			rel, open := de.Name(), de.Name()
			if sub != "" {
				rel, open = sub+"/"+rel, at+"/"+open
			}
			info, err := de.Info()
			if err != nil {
				continue // vanished
			}
			if info.Mode()&fs.ModeSymlink != 0 {
				// Follow the link inside the root only.
				var msg string
				if open, info, msg = resolve(root, dir, open); info == nil {
					if msg != "" {
						note(rel, msg)
					}
					continue // escaping, a loop, or dangling
				}
			}
			if sub == "" && (rel == "findings" || rel == "design") && info.IsDir() {
				if err := walk(rel, open); err != nil {
					return err
				}
				continue
			}
			name := parse.ClassifyName(rel)
			if info.IsDir() {
				switch name.Kind {
				case parse.KindReport, parse.KindPartial, parse.KindAbort, parse.KindBus:
					if sub == "" { // a directory named as an agent file or the bus: said, as a FIFO is
						note(rel, "not a regular file ("+fsio.Kind(info.Mode())+"): skipped")
					}
				}
				continue
			}
			if name.Kind == parse.KindIgnored || name.Kind == parse.KindOwn {
				if sub == "" {
					if msg := badAgentName(rel); msg != "" {
						run.Diagnostics = append(run.Diagnostics, diag(fmt.Sprintf("%q", rel), parse.LevelWarning, msg))
					} else if parse.DottedAgentFile(rel) {
						// gpt-4.1.md: a report by its look, not read (docs/run-directory.md);
						// said, so that its findings are not lost without a word.
						note(rel, "not read: a dotted name is neither AGENT.md nor AGENT.RUN.md (RUN: 8 or more hex digits and dashes)")
					}
				}
				continue
			}
			switch name.Kind {
			case parse.KindReport, parse.KindPartial, parse.KindAbort:
				if agents.Ignores(name.Agent) {
					run.Ignored = append(run.Ignored, rel)
					continue
				}
			}
			if !info.Mode().IsRegular() {
				note(rel, "not a regular file ("+fsio.Kind(info.Mode())+"): skipped")
				continue
			}
			f := file{rel: rel, path: filepath.Join(dir, filepath.FromSlash(rel)), root: root, name: name, info: info}
			if open != rel {
				f.open = open
			}
			files = append(files, f)
		}
		return nil
	}
	if err := walk("", ""); err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b file) int { return cmp.Compare(a.rel, b.rel) })
	return files, nil
}

// subdirInside reports whether sub (findings or design) of dir is a
// directory reached inside dir.
func subdirInside(dir, sub string) bool {
	root, err := fsio.OpenRoot(dir)
	if err != nil {
		return false
	}
	defer root.Close()
	_, info, _ := resolve(root, dir, sub)
	return info != nil && info.IsDir()
}

// resolve follows name, a path in the run directory open as root (dir is
// its path), through symbolic links that stay inside the directory. It
// returns the path in root to open, name itself or where its links lead,
// with the FileInfo of what is there. A path not followed has a nil
// FileInfo and a message saying why: a link out of the directory, a loop;
// none when it is dangling.
//
// An absolute link, or one through a directory named by an absolute link,
// is refused by root even when it leads inside: it is resolved here, and
// its target opened through root by its path there. Nothing outside the
// directory is read, even when a link changes between this and the open:
// root still refuses what leaves it.
func resolve(root *os.Root, dir, name string) (string, fs.FileInfo, string) {
	if info, err := root.Stat(name); err == nil {
		return name, info, ""
	}
	rel, err := fsio.ResolveIn(dir, filepath.FromSlash(name))
	if err == nil {
		var info fs.FileInfo
		if info, err = root.Stat(rel); err == nil {
			return rel, info, ""
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, "" // dangling
	case errors.Is(err, fsio.ErrOutside), errors.Is(err, fsio.ErrLinkLoop):
		return "", nil, err.Error()
	}
	return "", nil, "symlink not followed: " + inert.Line(fsio.Cause(err).Error())
}

// badAgentName explains why a name that looks like an agent file was
// rejected (SPEC §1: names are data, not paths), or returns "".
func badAgentName(base string) string {
	for _, suffix := range []string{".md.partial", ".abort", ".md"} {
		if stem, ok := strings.CutSuffix(base, suffix); ok {
			if err := parse.ValidName(stem); err != nil && !strings.HasPrefix(stem, ".") {
				return "agent name rejected: " + err.Error()
			}
			return ""
		}
	}
	return ""
}

// read reads a report or YAML file: inside its root, without blocking,
// regular files only (fsio.ErrNotRegular), at most maxFile bytes
// (fsio.ErrTooLarge). An abort marker's content does not matter: it is not
// read.
func read(f file, maxFile int64) ([]byte, fs.FileInfo, error) {
	var fh *os.File
	var info fs.FileInfo
	var err error
	if f.root != nil {
		fh, info, err = fsio.OpenIn(f.root, cmp.Or(f.open, f.rel))
	} else {
		fh, info, err = fsio.Open(f.path)
	}
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	if f.name.Kind == parse.KindAbort {
		return nil, info, nil
	}
	data, err := fsio.ReadAll(fh, info.Size(), maxFile)
	if err != nil {
		return nil, info, err
	}
	return data, info, nil
}

// ReadAgent reads the agent file at path — a report, a .partial or an abort
// marker, as name says — exactly as a Scan of a run directory reads and
// judges it (the same cap, parse and status rules), for `fluxwatch check
// FILE`. The file is the one the caller named: a symbolic link is followed.
// With opts.Run (and opts.StrictRun) it is foreign when a Scan selecting
// that run would call it so; without, only when its run-uuid comment and
// its name disagree. The error names path when it is missing, not a
// regular file or unreadable.
func ReadAgent(ctx context.Context, path string, name parse.Name, opts ScanOptions) (synth.Agent, error) {
	s := NewScanner(ScanOptions{})
	f := file{rel: filepath.Base(path), path: path, name: name}
	p := s.parse(ctx, f, nil)
	switch {
	case p.gone:
		return synth.Agent{}, p.why
	case p.err != nil:
		return synth.Agent{}, p.err
	}
	f.info = p.info
	a := agentOf(f, p)
	a.File = path
	if why := foreignReason(f, p, opts.Run, opts.StrictRun); why != "" {
		a.Status = parse.StatusForeign
		a.Diagnostics = append(a.Diagnostics, diag("", parse.LevelInfo, why))
	}
	return a, nil
}

// named returns err as "path: what went wrong", without the operation and
// name of an *fs.PathError, which may name the file relative to its root.
func named(path string, err error) error {
	return fmt.Errorf("%s: %w", path, fsio.Cause(err))
}

// ErrNoRun is wrapped by the error of Synthesize with ScanOptions.RequireRun
// for a directory that holds nothing of a run.
var ErrNoRun = errors.New("no run directory")

// noRun is the error for dir that holds nothing of a run: it says what was
// looked for.
func noRun(dir string) error {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return fmt.Errorf("%w: no agent reports (*.md with a Findings Index or verdict, *.md.partial, *.abort), "+
		"bus (%s) or findings/*.yaml in %s; pass DIR or set FLUX_OUTPUT_DIR", ErrNoRun, strings.Join(parse.BusNames, ", "), dir)
}

// isRun reports whether run holds something only a review run holds: a bus,
// a specialist or design file, a .partial or abort marker, a run-scoped
// report, or a report the parser reads as an agent's (an index, a declared
// verdict). A directory of ordinary Markdown (a README, a changelog) is not
// a run: its files read as malformed reports.
func isRun(run *synth.Run) bool {
	if len(run.Bus) > 0 || len(run.Specialists) > 0 || run.Design != nil {
		return true
	}
	for _, a := range run.Agents {
		r := a.Report
		switch {
		case parse.ClassifyName(a.File).Kind != parse.KindReport, a.Run != "":
			return true
		case r == nil:
		case r.Status == parse.StatusValid, r.Status == parse.StatusVariant, r.DeclaredVerdict != "":
			return true
		}
	}
	return false
}

// severalRuns is the warning of a directory whose agent files name several
// runs (SPEC §10) when none was selected: which one was read, and how to
// choose.
func severalRuns(runs []string, selected string) string {
	read := selected + ", the newest by finish times (declared, else file times)"
	return fmt.Sprintf("the directory holds reports of %d runs (%s); read: %s. Pass --run RUN (or FLUX_RUN_UUID) to choose: a gate does not pick a run by file times",
		len(runs), strings.Join(runs, ", "), read)
}
