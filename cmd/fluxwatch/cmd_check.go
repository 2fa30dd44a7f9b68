package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/membudget"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/spf13/cobra"
)

// checked is one agent report as `check --json` prints it.
type checked struct {
	File            string              `json:"file"`
	Agent           string              `json:"agent"`
	Status          parse.Status        `json:"status"`
	DeclaredVerdict *string             `json:"declared_verdict"`
	Verdict         parse.Verdict       `json:"verdict"`
	Findings        []parse.Finding     `json:"findings"`
	Improvements    []parse.Improvement `json:"improvements"`
	Diagnostics     []parse.Diagnostic  `json:"diagnostics"`
	// Envelope is the report's message envelope, when it has one.
	Envelope map[string]string `json:"envelope,omitempty"`
	// Evidence is set by --evidence.
	Evidence *checkedEvidence `json:"evidence,omitempty"`
}

// checkedEvidence is what --evidence found for one report (SPEC §5.7).
type checkedEvidence struct {
	Repo   string         `json:"repo"`
	Claims []checkedClaim `json:"claims"`
	// Ungrounded lists the findings (indexes into findings) that are P0/P1
	// with every claim failed.
	Ungrounded []int `json:"ungrounded"`
	tally      synth.EvidenceTally
}

// checkedClaim is one claim of finding Finding (an index into findings).
type checkedClaim struct {
	Finding int `json:"finding"`
	parse.ClaimResult
}

const checkUsage = "Usage: fluxwatch check [--strict] [--json] [-q] [--run RUN [--strict-run]] [--evidence [--repo DIR]] PATH…\n\nParses agent reports (files, or directories classified by the output-directory\nrules) and prints their diagnostics and one summary line per report. With\n--evidence, also every claim of every finding with its status (SPEC §5.7).\nWith --strict (what an agent runs on its report before finishing), the exit\nstatus is 0 only when every report is valid, else 1 with one line on stderr\nper report that is not.\n\nFlags:\n"

func checkCmd(e *env) *cobra.Command {
	cmd := newCommand("check", "parse agent reports and print diagnostics", checkUsage)
	fs := cmd.Flags()
	asJSON := fs.Bool("json", false, "print the parsed reports as a JSON array")
	quiet := fs.BoolP("quiet", "q", false, "print only the summary line of each report")
	withEvidence := fs.Bool("evidence", false, "also check every evidence claim and file:line reference against the repository")
	repo := fs.String("repo", "", "with --evidence: the repository in `DIR` (default: the git work tree holding each report)")
	runFlag := fs.String("run", "", "judge reports as of run `RUN`, as synth does (default: $FLUX_RUN_UUID, else a directory's newest run)")
	strictRun := fs.Bool("strict-run", false, "leave unscoped (legacy) reports out of the selected run")
	strict := fs.Bool("strict", false, "exit 1 unless every report is valid (the strict grammar); a .partial is judged as the report it becomes")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return runCheck(cmd.Context(), e, fs, asJSON, quiet, withEvidence, repo, runFlag, strictRun, strict)
	}
	return cmd
}

func runCheck(ctx context.Context, e *env, fs *flag.FlagSet, asJSON, quiet, withEvidence *bool, repo, runFlag *string, strictRun, strict *bool) error {
	if fs.NArg() == 0 {
		return usageErrorf("check: no PATH given")
	}
	if *repo != "" && !*withEvidence {
		return usageErrorf("check: --repo needs --evidence")
	}
	var fixed *evidence.Verifier
	if *repo != "" {
		v, err := evidence.Open(*repo, evidence.Options{})
		if err != nil {
			return usageErrorf("check: --repo: %v", err)
		}
		fixed = v
	}
	run, err := selectRun(e, "check", *runFlag)
	if err != nil {
		return err
	}
	scan := watcher.ScanOptions{Run: run, StrictRun: *strictRun}
	var reports []checked
	var others []otherFile
	var unreadable []error
	for _, path := range fs.Args() {
		rs, os, err := checkPath(ctx, path, scan, *strict)
		reports = append(reports, rs...)
		others = append(others, os...)
		unreadable = append(unreadable, err...)
	}
	if err := ctx.Err(); err != nil {
		return err // a signal: main says nothing of the cancellation
	}
	sort.SliceStable(reports, func(i, j int) bool { return reports[i].File < reports[j].File })
	if *withEvidence {
		unreadable = append(unreadable, checkEvidence(reports, fixed, *repo, e.getenv("GIT_CEILING_DIRECTORIES"))...)
	}
	sort.SliceStable(others, func(i, j int) bool { return others[i].path < others[j].path })
	if *asJSON {
		if reports == nil {
			reports = []checked{}
		}
		b, err := json.MarshalIndent(reports, "", "  ")
		if err != nil {
			return err
		}
		e.stdout.Write(append(inert.EscapeJSON(b), '\n')) // agent text as written, escaped
		printOther(e.stderr, others, *quiet)
	} else {
		printChecked(e.stdout, reports, *quiet)
		printOther(e.stdout, others, *quiet)
	}
	for _, err := range unreadable {
		fmt.Fprintf(e.stderr, "fluxwatch: %s\n", inert.Line(err.Error()))
	}
	if len(unreadable) > 0 {
		return exitError{code: exitUsage}
	}
	if *strict {
		return strictly(e.stderr, reports)
	}
	return nil
}

// strictly is check --strict's judgement: nil when every report is valid
// (SPEC §2.5), else one line per report that is not, on w, and exit 1.
// A run of no report at all is not valid either.
func strictly(w io.Writer, reports []checked) error {
	if len(reports) == 0 {
		fmt.Fprintln(w, "fluxwatch: check --strict: no agent report to check")
		return exitError{code: exitGate}
	}
	bad := 0
	for _, r := range reports {
		if r.Status == parse.StatusValid {
			continue
		}
		bad++
		why := "the diagnostics above say where it departs from the Findings Index format"
		switch r.Status {
		case parse.StatusError:
			why = "it is an error report (no findings)"
		case parse.StatusForeign:
			why = "it belongs to another run"
		case parse.StatusPartial:
			why = "it is still being written (name the .partial itself to check it)"
		}
		fmt.Fprintln(w, inert.Line(fmt.Sprintf("fluxwatch: check --strict: %s is %s, not valid: %s", r.File, r.Status, why)))
	}
	if bad > 0 {
		return exitError{code: exitGate}
	}
	return nil
}

// printChecked prints each report's diagnostics (unless quiet), its claims
// (with --evidence) and its summary line. Every line is inert (inert.Line):
// the diagnostics and claims quote what the agents wrote, and a report's
// name is the run's.
func printChecked(w io.Writer, reports []checked, quiet bool) {
	for _, r := range reports {
		if !quiet {
			for _, d := range r.Diagnostics {
				d.Path = r.File
				fmt.Fprintln(w, inert.Line(d.String()))
			}
		}
		counts := map[parse.Severity]int{}
		for _, f := range r.Findings {
			counts[f.Severity]++
		}
		declared := "none"
		if r.DeclaredVerdict != nil {
			declared = *r.DeclaredVerdict
		}
		ev := r.Evidence
		if ev != nil && !quiet {
			printClaims(w, r)
		}
		// An unreadable report's verdict is that of what was read: never
		// a plain "safe" (SPEC §2.3); its error lines above say why.
		unread := ""
		if r.Status == parse.StatusUnreadable {
			unread = " — could not be fully read"
		}
		fmt.Fprintln(w, inert.Line(fmt.Sprintf("%s: %s, %s (P0 %d, P1 %d, P2 %d, P3 %d), %s, declared %s, verdict %s%s",
			r.File, r.Status, synth.Plural(len(r.Findings), "finding"), counts[parse.P0], counts[parse.P1], counts[parse.P2], counts[parse.P3],
			synth.Plural(len(r.Improvements), "improvement"), declared, r.Verdict, unread)))
		if ev != nil {
			t := ev.tally
			fmt.Fprintln(w, inert.Line(fmt.Sprintf("%s: evidence against %s: %s (%d verified, %d moved, %d mismatch, %d missing file, %d out of range, %d skipped), %d ungrounded",
				r.File, ev.Repo, synth.Plural(t.Claims, "claim"), t.Verified, t.Moved, t.Mismatch, t.MissingFile, t.OutOfRange, t.Skipped, t.Ungrounded)))
		}
	}
}

// printClaims prints one line per claim of r, in the order of the report
// (path:line: status: claim), and one per ungrounded finding.
func printClaims(w io.Writer, r checked) {
	type out struct {
		line int
		text string
	}
	var lines []out
	for _, c := range r.Evidence.Claims {
		text := fmt.Sprintf("%s:%d: %s: %s", r.File, c.Line, c.Status, c.Ref())
		switch {
		case c.Found != "":
			text += " → " + c.Found
		case c.Note != "":
			text += " (" + c.Note + ")"
		}
		lines = append(lines, out{c.Line, text})
	}
	for _, i := range r.Evidence.Ungrounded {
		f := r.Findings[i]
		label := f.Title
		if f.ID != "" {
			label = f.ID + " " + f.Title
		}
		lines = append(lines, out{f.Line, fmt.Sprintf("%s:%d: ungrounded: %s %s: every claim failed", r.File, f.Line, f.Severity, label)})
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].line < lines[j].line })
	for _, l := range lines {
		fmt.Fprintln(w, inert.Line(l.text))
	}
}

// checkEvidence checks the claims of every report's findings (SPEC §5.7)
// against fixed (--repo) or the git work tree holding the report, in one
// Verify call per repository, so each cited file is read once. A report
// outside any work tree, without --repo, is an error.
func checkEvidence(reports []checked, fixed *evidence.Verifier, fixedRepo, ceilings string) []error {
	var errs []error
	type batch struct {
		v      *evidence.Verifier
		claims []parse.EvidenceClaim
		report []int // report of each claim
		owner  []int // finding of each claim
	}
	batches := map[string]*batch{}
	var repos []string
	for i := range reports {
		r := &reports[i]
		repo := fixedRepo
		if fixed == nil {
			top, ok := plan.GitTop(filepath.Dir(r.File), ceilings)
			if !ok {
				errs = append(errs, fmt.Errorf("%s: not inside a git work tree: evidence not checked (pass --repo DIR)", r.File))
				continue
			}
			repo = top
		}
		b := batches[repo]
		if b == nil {
			v := fixed
			if v == nil {
				var err error
				if v, err = evidence.Open(repo, evidence.Options{}); err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", r.File, err))
					continue
				}
			}
			b = &batch{v: v}
			batches[repo] = b
			repos = append(repos, repo)
		}
		r.Evidence = &checkedEvidence{Repo: repo, Claims: []checkedClaim{}, Ungrounded: []int{}}
		for j := range r.Findings {
			for _, c := range synth.ClaimsOf(r.Agent, &r.Findings[j]) {
				b.claims = append(b.claims, c)
				b.report = append(b.report, i)
				b.owner = append(b.owner, j)
			}
		}
	}
	for _, repo := range repos {
		b := batches[repo]
		for k, res := range b.v.Verify(b.claims) {
			ev := reports[b.report[k]].Evidence
			ev.Claims = append(ev.Claims, checkedClaim{Finding: b.owner[k], ClaimResult: res})
			ev.tally.Add(res.Status)
		}
	}
	for i := range reports {
		ev := reports[i].Evidence
		if ev == nil {
			continue
		}
		byFinding := map[int][]parse.ClaimResult{}
		for _, c := range ev.Claims {
			byFinding[c.Finding] = append(byFinding[c.Finding], c.ClaimResult)
		}
		for j, f := range reports[i].Findings {
			if f.Severity.Rank() <= 1 && synth.Ungrounded(byFinding[j]) {
				ev.Ungrounded = append(ev.Ungrounded, j)
				ev.tally.Ungrounded++
			}
		}
	}
	return errs
}

// checkPath reads one PATH. A file named *.jsonl is a bus, *.yaml a specialist
// findings file (MANIFEST.yaml a feature manifest, design/manifest.yaml a
// design manifest); a name holding a control character is rejected as a
// run rejects it; anything else named alone is an agent report whatever its
// name (a run ignores some names, SPEC §1: named, the file is read), read
// and judged as synth would read it in a run (watcher.ReadAgent). A
// directory is read as synth reads a run (watcher.Scan): its agents, with
// the selected run's rules, then its bus, specialist and design files, and
// the directory's own diagnostics (superseded, skipped and refused files).
//
// With asFinished (check --strict), a .partial named alone is judged as
// the report it becomes when renamed: an agent checks it before the
// rename.
func checkPath(ctx context.Context, path string, scan watcher.ScanOptions, asFinished bool) ([]checked, []otherFile, []error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, []error{fmt.Errorf("%s: %w", path, fsio.Cause(err))}
	}
	if !fi.IsDir() {
		if kind := otherKind(path); kind != "" {
			o, err := checkOther(path, kind)
			if err != nil {
				return nil, nil, []error{err}
			}
			return nil, []otherFile{o}, nil
		}
		base := filepath.Base(path)
		name := parse.NamedFile(base)
		if asFinished && name.Kind == parse.KindPartial {
			name.Kind = parse.KindReport
		}
		if err := parse.ValidName(name.Agent); err != nil {
			// As a run's Scan says it (SPEC §1: rejected everywhere), the
			// name quoted so that it cannot reach the terminal raw.
			quoted := filepath.Join(filepath.Dir(path), strconv.Quote(base))
			return nil, []otherFile{{path: quoted, summary: "not read",
				diags: []parse.Diagnostic{{Level: parse.LevelWarning, Message: "agent name rejected: " + err.Error()}}}}, nil
		}
		membudget.Add(fi.Size())
		a, err := watcher.ReadAgent(ctx, path, name, scan)
		if err != nil {
			return nil, nil, []error{err}
		}
		return []checked{checkedOf(path, a)}, nil, nil
	}
	scan.NoBus, scan.Sized = true, func(n int64) { membudget.Add(n) }
	run, err := watcher.Scan(ctx, path, scan)
	if err != nil {
		return nil, nil, []error{err}
	}
	var out []checked
	for _, a := range run.Agents {
		out = append(out, checkedOf(filepath.Join(path, filepath.FromSlash(a.File)), a))
	}
	var others []otherFile
	var errs []error
	for _, rel := range run.Ignored {
		others = append(others, otherFile{path: filepath.Join(path, filepath.FromSlash(rel)), summary: "ignored: not an agent report (the run's own document)"})
	}
	if len(run.Diagnostics) > 0 {
		o := otherFile{path: path, summary: "run directory, " + synth.Plural(len(run.Agents), "agent") + ", " + synth.Plural(len(run.Diagnostics), "diagnostic")}
		for _, d := range run.Diagnostics {
			d.Path = strings.TrimSuffix(path+"/"+d.Path, "/") // "": the directory itself
			o.diags = append(o.diags, d)
		}
		others = append(others, o)
	}
	for _, b := range run.Bus {
		o, err := checkOther(filepath.Join(path, b.Name), "bus")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		others = append(others, o)
	}
	for _, sp := range run.Specialists {
		o := otherFile{path: filepath.Join(path, filepath.FromSlash(sp.File)), diags: withoutPath(sp.Diagnostics)}
		if sp.Specialist == nil {
			o.summary = fmt.Sprintf("specialist %q, malformed", sp.Name)
		} else {
			o.summary = fmt.Sprintf("specialist %q, %s", sp.Specialist.Name, synth.Plural(len(sp.Specialist.Approaches), "approach", "approaches"))
		}
		others = append(others, o)
	}
	if d := run.Design; d != nil {
		o := otherFile{path: filepath.Join(path, filepath.FromSlash(d.File)), diags: withoutPath(d.Diagnostics)}
		if d.Manifest == nil {
			o.summary = "design manifest, malformed"
		} else {
			o.summary = "design manifest, " + synth.Plural(len(d.Manifest.Designs), "design")
		}
		others = append(others, o)
	}
	return out, others, errs
}

// withoutPath returns ds with their paths cleared: printOther names the file.
func withoutPath(ds []parse.Diagnostic) []parse.Diagnostic {
	out := slices.Clone(ds)
	for i := range out {
		out[i].Path = ""
	}
	return out
}

// checkedOf is the agent a, read from file, as check prints it: the file's
// diagnostics first, then the report's, by line.
func checkedOf(file string, a synth.Agent) checked {
	c := checked{
		File: file, Agent: a.Name, Status: a.Status, Verdict: parse.Error,
		Findings: []parse.Finding{}, Improvements: []parse.Improvement{},
		Diagnostics: slices.Clone(a.Diagnostics),
	}
	if r := a.Report; r != nil {
		c.Findings, c.Improvements, c.Envelope = r.Findings, r.Improvements, r.Envelope
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
