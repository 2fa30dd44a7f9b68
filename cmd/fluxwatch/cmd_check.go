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

	"github.com/fluxwatch/fluxwatch/parse"
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
}

func runCheck(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print the parsed reports as a JSON array")
	quiet := fs.BoolP("quiet", "q", false, "print only the summary line of each report")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "Usage: fluxwatch check [--json] [-q] PATH…\n\nParses agent reports (files, or directories classified by the output-directory\nrules) and prints their diagnostics and one summary line per report.\n\nFlags:")
		fs.PrintDefaults()
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
		fmt.Fprintf(w, "%s: %s, %d findings (P0 %d, P1 %d, P2 %d, P3 %d), %d improvements, declared %s, verdict %s\n",
			r.File, r.Status, len(r.Findings), counts[parse.P0], counts[parse.P1], counts[parse.P2], counts[parse.P3],
			len(r.Improvements), declared, r.Verdict)
	}
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
		Findings: r.Findings, Improvements: r.Improvements, Diagnostics: r.Diagnostics,
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
