package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// maxReportBytes caps the size of an agent report read by check (and by the
// run reader): real reports are tens of KiB; a larger file is not a report.
const maxReportBytes = 16 << 20

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

func runCheck(ctx context.Context, e *env, args []string) error {
	fs := e.newFlagSet("check")
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print the parsed reports as a JSON array")
	quiet := fs.BoolP("quiet", "q", false, "print only the summary line of each report")
	withEvidence := fs.Bool("evidence", false, "also check every evidence claim and file:line reference against the repository")
	repo := fs.String("repo", "", "with --evidence: the repository in `DIR` (default: the git work tree holding each report)")
	fs.Usage = func() {
		fmt.Fprintln(e.stdout, "Usage: fluxwatch check [--json] [-q] [--evidence [--repo DIR]] PATH…\n\nParses agent reports (files, or directories classified by the output-directory\nrules) and prints their diagnostics and one summary line per report. With\n--evidence, also every claim of every finding with its status (SPEC §5.7).\n\nFlags:")
		fmt.Fprint(e.stdout, fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
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
	var reports []checked
	var others []otherFile
	var unreadable []error
	for _, path := range fs.Args() {
		rs, os, err := checkPath(path)
		reports = append(reports, rs...)
		others = append(others, os...)
		unreadable = append(unreadable, err...)
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
		e.stdout.Write(append(b, '\n'))
		printOther(e.stderr, others, *quiet)
	} else {
		printChecked(e.stdout, reports, *quiet)
		printOther(e.stdout, others, *quiet)
	}
	for _, err := range unreadable {
		fmt.Fprintf(e.stderr, "fluxwatch: %s\n", oneLine(err.Error()))
	}
	if len(unreadable) > 0 {
		return exitError{code: exitUsage}
	}
	return nil
}

func printChecked(w io.Writer, reports []checked, quiet bool) {
	for _, r := range reports {
		if !quiet {
			for _, d := range r.Diagnostics {
				d.Path = r.File
				fmt.Fprintln(w, d.String())
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
		fmt.Fprintf(w, "%s: %s, %s (P0 %d, P1 %d, P2 %d, P3 %d), %s, declared %s, verdict %s\n",
			r.File, r.Status, synth.Plural(len(r.Findings), "finding"), counts[parse.P0], counts[parse.P1], counts[parse.P2], counts[parse.P3],
			synth.Plural(len(r.Improvements), "improvement"), declared, r.Verdict)
		if ev != nil {
			t := ev.tally
			fmt.Fprintf(w, "%s: evidence against %s: %s (%d verified, %d moved, %d mismatch, %d missing file, %d out of range, %d skipped), %d ungrounded\n",
				r.File, ev.Repo, synth.Plural(t.Claims, "claim"), t.Verified, t.Moved, t.Mismatch, t.MissingFile, t.OutOfRange, t.Skipped, t.Ungrounded)
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
		fmt.Fprintln(w, l.text)
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
			top, ok := gitTop(filepath.Dir(r.File), ceilings)
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
// design manifest), anything else an agent report whatever its name. A
// directory's entries are classified by SPEC §1: its reports, partials,
// aborts, bus files, findings/*.yaml and design/manifest.yaml are read.
func checkPath(path string) ([]checked, []otherFile, []error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, []error{fmt.Errorf("%s: %w", path, unwrapPathError(err))}
	}
	if !fi.IsDir() {
		if kind := otherKind(path); kind != "" {
			o, err := checkOther(path, kind)
			if err != nil {
				return nil, nil, []error{err}
			}
			return nil, []otherFile{o}, nil
		}
		name := parse.ClassifyName(filepath.Base(path))
		if name.Kind != parse.KindReport && name.Kind != parse.KindPartial && name.Kind != parse.KindAbort {
			name = parse.Name{Kind: parse.KindReport, Agent: agentStem(filepath.Base(path))}
		}
		c, err := checkFile(path, name)
		if err != nil {
			return nil, nil, []error{err}
		}
		return []checked{c}, nil, nil
	}
	rels, err := dirEntries(path)
	if err != nil {
		return nil, nil, []error{fmt.Errorf("%s: %w", path, unwrapPathError(err))}
	}
	var out []checked
	var others []otherFile
	var errs []error
	for _, rel := range rels {
		name := parse.ClassifyName(rel)
		p := filepath.Join(path, filepath.FromSlash(rel))
		switch name.Kind {
		case parse.KindReport, parse.KindPartial, parse.KindAbort, parse.KindBus, parse.KindSpecialist, parse.KindDesign:
		default:
			continue
		}
		if !insideDir(path, p) {
			errs = append(errs, fmt.Errorf("%s: symlink leaves the directory: not followed", p))
			continue
		}
		var kind string
		switch name.Kind {
		case parse.KindBus:
			kind = "bus"
		case parse.KindSpecialist:
			kind = "specialist"
		case parse.KindDesign:
			kind = "design"
		}
		if kind != "" {
			o, err := checkOther(p, kind)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			others = append(others, o)
			continue
		}
		c, err := checkFile(p, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	return out, others, errs
}

// dirEntries lists the slash-separated names of dir's files, and of the files
// of its findings/ and design/ subdirectories.
func dirEntries(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var rels []string
	for _, e := range ents {
		if e.IsDir() {
			if e.Name() == "findings" || e.Name() == "design" {
				sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
				if err != nil {
					return nil, err
				}
				for _, s := range sub {
					if !s.IsDir() {
						rels = append(rels, e.Name()+"/"+s.Name())
					}
				}
			}
			continue
		}
		rels = append(rels, e.Name())
	}
	return rels, nil
}

// agentStem names the agent of a file check was given directly.
func agentStem(base string) string {
	for _, s := range []string{".md.partial", ".md", ".abort"} {
		if t, ok := strings.CutSuffix(base, s); ok {
			return t
		}
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

func insideDir(dir, p string) bool {
	rd, err1 := filepath.EvalSymlinks(dir)
	rp, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(rd, rp)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readReportFile reads a report file with a size cap; a file over the cap, or
// one that holds NUL bytes, is not a report: it comes back as an error status
// with a diagnostic.
func readReportFile(path string) (*parse.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > maxReportBytes {
		return notAReport(fmt.Sprintf("report larger than %d MiB: not parsed", maxReportBytes>>20)), nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxReportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	switch {
	case len(data) > maxReportBytes:
		return notAReport(fmt.Sprintf("report larger than %d MiB: not parsed", maxReportBytes>>20)), nil
	case bytes.IndexByte(data[:min(len(data), 64<<10)], 0) >= 0:
		return notAReport("binary file (NUL bytes): not a report"), nil
	}
	return parse.ReadReport(data), nil
}

func notAReport(msg string) *parse.Report {
	return &parse.Report{
		Status: parse.StatusError, Findings: []parse.Finding{}, Improvements: []parse.Improvement{},
		Diagnostics: []parse.Diagnostic{{Level: parse.LevelError, Message: msg}},
	}
}

func checkFile(path string, name parse.Name) (checked, error) {
	var r *parse.Report
	if name.Kind == parse.KindAbort {
		r = notAReport("aborted agent")
	} else {
		var err error
		if r, err = readReportFile(path); err != nil {
			return checked{}, err
		}
	}
	switch {
	case name.Kind == parse.KindPartial:
		r.Status = parse.StatusPartial
	case name.Run != "" && r.RunUUID != "" && !strings.EqualFold(name.Run, r.RunUUID):
		r.Status = parse.StatusForeign
		r.Diagnostics = append(r.Diagnostics, parse.Diagnostic{Line: 1, Level: parse.LevelWarning,
			Message: fmt.Sprintf("run-uuid %s differs from the file name's run %s: foreign", r.RunUUID, name.Run)})
	}
	c := checked{
		File: path, Agent: name.Agent, Status: r.Status, Verdict: r.Verdict(),
		Findings: r.Findings, Improvements: r.Improvements, Diagnostics: r.Diagnostics, Envelope: r.Envelope,
	}
	if r.DeclaredVerdict != "" {
		v := string(r.DeclaredVerdict)
		c.DeclaredVerdict = &v
	}
	if c.Diagnostics == nil {
		c.Diagnostics = []parse.Diagnostic{}
	}
	return c, nil
}
