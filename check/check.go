package check

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// Options are what Paths reads and how.
type Options struct {
	// Scan selects the run whose rules judge the reports (Run, StrictRun).
	Scan watcher.ScanOptions
	// AsFinished judges a .partial named alone as the report it becomes
	// when renamed (check --strict: an agent checks it before the rename).
	AsFinished bool
	// Evidence checks every claim of every finding against the repository:
	// Repo, else the git work tree holding each report (not above
	// Ceilings, a GIT_CEILING_DIRECTORIES list).
	Evidence bool
	Repo     string
	Ceilings string
	// Sized, when set, is told the size of each input before it is read
	// (the command's memory budget).
	Sized func(bytes int64)
}

// Result is what Paths read: the agent reports (sorted by file), the other
// files (bus, specialist, manifest files and the run directories' own
// diagnostics, sorted by path), and the inputs that could not be read.
type Result struct {
	Reports    []Report
	Others     []Other
	Unreadable []error
}

// Report is one agent report as `check --json` prints it.
type Report struct {
	File            string          `json:"file"`
	Agent           string          `json:"agent"`
	Status          parse.Status    `json:"status"`
	DeclaredVerdict *string         `json:"declared_verdict"`
	Verdict         parse.Verdict   `json:"verdict"`
	Findings        []parse.Finding `json:"findings"`
	// Resolved are the findings the report marks struck through or
	// fixed (SPEC §2.3: recorded, never counted).
	Resolved     []parse.Finding     `json:"resolved,omitempty"`
	Improvements []parse.Improvement `json:"improvements"`
	Diagnostics  []parse.Diagnostic  `json:"diagnostics"`
	// Envelope is the report's message envelope, when it has one.
	Envelope map[string]string `json:"envelope,omitempty"`
	// Evidence is set with Options.Evidence.
	Evidence *Evidence `json:"evidence,omitempty"`
}

// Evidence is what Options.Evidence found for one report (SPEC §5.7).
type Evidence struct {
	Repo   string  `json:"repo"`
	Claims []Claim `json:"claims"`
	// Ungrounded lists the findings (indexes into findings) that
	// synth.Ungrounded flags.
	Ungrounded []int `json:"ungrounded"`
	tally      synth.EvidenceTally
}

// Claim is one claim of finding Finding (an index into findings).
type Claim struct {
	Finding int `json:"finding"`
	parse.ClaimResult
}

// Other is an input that is not an agent report: a bus or YAML file, or a
// run directory's own diagnostics. Its diagnostics without a path are its.
type Other struct {
	Path        string
	Summary     string
	Diagnostics []parse.Diagnostic
}

// Paths reads each path: a file as parse.NamedFile classifies it, a
// directory as synth reads a run (watcher.Scan) — its agents with the
// selected run's rules, then its bus, specialist and design files, and the
// directory's own diagnostics (superseded, skipped and refused files).
// An input that cannot be read is in Result.Unreadable; the error is
// --repo's (Options.Repo cannot be opened) or ctx's.
func Paths(ctx context.Context, paths []string, o Options) (*Result, error) {
	var fixed *evidence.Verifier
	if o.Evidence && o.Repo != "" {
		v, err := evidence.Open(o.Repo, evidence.Options{})
		if err != nil {
			return nil, fmt.Errorf("--repo: %w", err)
		}
		fixed = v
	}
	res := &Result{}
	for _, path := range paths {
		res.read(ctx, path, o)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sort.SliceStable(res.Reports, func(i, j int) bool { return res.Reports[i].File < res.Reports[j].File })
	if o.Evidence {
		res.Unreadable = append(res.Unreadable, checkEvidence(res.Reports, fixed, o.Repo, o.Ceilings)...)
	}
	sort.SliceStable(res.Others, func(i, j int) bool { return res.Others[i].Path < res.Others[j].Path })
	return res, nil
}

func (res *Result) read(ctx context.Context, path string, o Options) {
	fi, err := os.Stat(path)
	if err != nil {
		res.Unreadable = append(res.Unreadable, fmt.Errorf("%s: %w", path, fsio.Cause(err)))
		return
	}
	if fi.IsDir() {
		res.readDir(ctx, path, o)
		return
	}
	name := parse.NamedFile(filepath.ToSlash(path))
	switch name.Kind {
	case parse.KindReport, parse.KindPartial, parse.KindAbort:
	default:
		other, err := readOther(path, name.Kind)
		if err != nil {
			res.Unreadable = append(res.Unreadable, err)
			return
		}
		res.Others = append(res.Others, other)
		return
	}
	if o.AsFinished && name.Kind == parse.KindPartial {
		name.Kind = parse.KindReport
	}
	base := filepath.Base(path)
	if err := parse.ValidName(name.Agent); err != nil {
		// As a run's Scan says it (SPEC §1: rejected everywhere), the
		// name quoted so that it cannot reach the terminal raw.
		quoted := filepath.Join(filepath.Dir(path), strconv.Quote(base))
		res.Others = append(res.Others, Other{Path: quoted, Summary: "not read",
			Diagnostics: []parse.Diagnostic{{Level: parse.LevelWarning, Message: "agent name rejected: " + err.Error()}}})
		return
	}
	if o.Sized != nil {
		o.Sized(fi.Size())
	}
	a, err := watcher.ReadAgent(ctx, path, name, o.Scan)
	if err != nil {
		res.Unreadable = append(res.Unreadable, err)
		return
	}
	res.Reports = append(res.Reports, reportOf(path, a))
}

func (res *Result) readDir(ctx context.Context, path string, o Options) {
	scan := o.Scan
	scan.NoBus, scan.Sized = true, o.Sized
	run, err := watcher.Scan(ctx, path, scan)
	if err != nil {
		res.Unreadable = append(res.Unreadable, err)
		return
	}
	for _, a := range run.Agents {
		res.Reports = append(res.Reports, reportOf(filepath.Join(path, filepath.FromSlash(a.File)), a))
	}
	for _, rel := range run.Ignored {
		res.Others = append(res.Others, Other{Path: filepath.Join(path, filepath.FromSlash(rel)), Summary: "ignored: not an agent report (the run's own document)"})
	}
	if len(run.Diagnostics) > 0 {
		other := Other{Path: path, Summary: "run directory, " + synth.Plural(len(run.Agents), "agent") + ", " + synth.Plural(len(run.Diagnostics), "diagnostic")}
		for _, d := range run.Diagnostics {
			d.Path = strings.TrimSuffix(path+"/"+d.Path, "/") // "": the directory itself
			other.Diagnostics = append(other.Diagnostics, d)
		}
		res.Others = append(res.Others, other)
	}
	for _, b := range run.Bus {
		other, err := readOther(filepath.Join(path, b.Name), parse.KindBus)
		if err != nil {
			res.Unreadable = append(res.Unreadable, err)
			continue
		}
		res.Others = append(res.Others, other)
	}
	for _, sp := range run.Specialists {
		other := Other{Path: filepath.Join(path, filepath.FromSlash(sp.File)), Diagnostics: withoutPath(sp.Diagnostics)}
		if sp.Specialist == nil {
			other.Summary = fmt.Sprintf("specialist %q, malformed", sp.Name)
		} else {
			other.Summary = fmt.Sprintf("specialist %q, %s", sp.Specialist.Name, synth.Plural(len(sp.Specialist.Approaches), "approach", "approaches"))
		}
		res.Others = append(res.Others, other)
	}
	if d := run.Design; d != nil {
		other := Other{Path: filepath.Join(path, filepath.FromSlash(d.File)), Diagnostics: withoutPath(d.Diagnostics)}
		if d.Manifest == nil {
			other.Summary = "design manifest, malformed"
		} else {
			other.Summary = "design manifest, " + synth.Plural(len(d.Manifest.Designs), "design")
		}
		res.Others = append(res.Others, other)
	}
}

// withoutPath returns ds with their paths cleared: the Other names the file.
func withoutPath(ds []parse.Diagnostic) []parse.Diagnostic {
	out := slices.Clone(ds)
	for i := range out {
		out[i].Path = ""
	}
	return out
}

// reportOf is the agent a, read from file, as check prints it: the file's
// diagnostics first, then the report's, by line.
func reportOf(file string, a synth.Agent) Report {
	c := Report{
		File: file, Agent: a.Name, Status: a.Status, Verdict: parse.Error,
		Findings: []parse.Finding{}, Improvements: []parse.Improvement{},
		Diagnostics: slices.Clone(a.Diagnostics),
	}
	if r := a.Report; r != nil {
		c.Findings, c.Resolved, c.Improvements, c.Envelope = r.Findings, r.Resolved, r.Improvements, r.Envelope
		c.Diagnostics = append(c.Diagnostics, r.Diagnostics...)
		if a.Status != parse.StatusError {
			c.Verdict = r.Verdict()
		}
		if r.DeclaredVerdict != "" {
			v := string(r.DeclaredVerdict)
			c.DeclaredVerdict = &v
		}
		// A finished: the synthesis cannot use, said where the agent
		// looks before it finishes (synth says it in the reports too).
		if _, _, why := synth.FinishTime(r, a.ModTime); why != "" {
			c.Diagnostics = append(c.Diagnostics, parse.Diagnostic{Level: parse.LevelWarning, Message: why})
		}
	}
	for i := range c.Diagnostics {
		c.Diagnostics[i].Path = ""
	}
	slices.SortStableFunc(c.Diagnostics, func(x, y parse.Diagnostic) int { return cmp.Compare(x.Line, y.Line) })
	if c.Diagnostics == nil {
		c.Diagnostics = []parse.Diagnostic{}
	}
	return c
}
