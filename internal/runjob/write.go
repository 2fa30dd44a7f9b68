package runjob

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
)

// writeReports writes the reports of s to t (the HTML page with the gate).
// A rendering that fails is an internal error, a target that cannot be
// written an input error naming it.
func (j *Job) writeReports(ctx context.Context, s *synth.Synthesis, t report.Targets) (report.Rendered, error) {
	t.Page = j.pageOptions(false)
	r, err := report.Write(ctx, s, t)
	switch {
	case errors.Is(err, report.ErrRender):
		return r, internal(fmt.Errorf("%s: %w", j.o.Command, err))
	case errors.Is(err, context.Canceled):
		return r, err // a signal: main gives the status, and says nothing of it
	case err != nil:
		return r, inputf("%s: %w", j.o.Command, err) // %w: a watcher tells fsio.ErrNoReader
	}
	return r, nil
}

// pageOptions are the options of the HTML page: the gate, and whether the
// page is the live one.
func (j *Job) pageOptions(live bool) page.Options {
	return page.Options{Gate: j.o.gate(), Live: live}
}

// github are the GitHub Actions targets (SPEC §6): on GitHub Actions, or
// with annotations asked for, the annotations go to stdout (stderr when
// stdout carries data); on GitHub Actions the summary and outputs go to
// the files named by $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT.
func (j *Job) github(annotations, stdoutIsData bool) report.GitHub {
	var g report.GitHub
	onActions := j.o.getenv("GITHUB_ACTIONS") == "true"
	if onActions || annotations {
		g.Annotations = j.o.Stdout
		if stdoutIsData {
			g.Annotations = j.o.Stderr
		}
	}
	if onActions {
		g.StepSummary, g.Output = j.o.getenv("GITHUB_STEP_SUMMARY"), j.o.getenv("GITHUB_OUTPUT")
	}
	return g
}

// Write writes the outputs of s (synth's): the report files, the GitHub
// files ($GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT), then what goes to standard
// output: the targets that are "-", then the annotations.
func (j *Job) Write(ctx context.Context, s *synth.Synthesis) error {
	// --format github: the annotations are what stdout carries.
	gh := j.github(j.o.Annotations, j.onStdout && j.o.Format != "github")
	return j.writeOutputs(ctx, s, j.targets, gh)
}

// writeOutputs writes the outputs of s: the report files of t, the files of
// g, then what goes to standard output: the targets of t that are "-",
// then g's annotations. Files first, so that a reader of stdout that goes
// away early (| head: SIGPIPE ends the process) leaves every file written.
// The step summary renders summary.md again: the file target streams it
// and keeps no copy.
func (j *Job) writeOutputs(ctx context.Context, s *synth.Synthesis, t report.Targets, g report.GitHub) error {
	if len(t.FileTargets()) > 0 {
		files := t
		files.SkipStdout = true
		if _, err := j.writeReports(ctx, s, files); err != nil {
			return err
		}
	}
	var summary []byte
	if g.StepSummary != "" {
		summary = synth.RenderMarkdown(s)
	}
	g.SummaryLimit, g.FullReport = j.o.SummaryLimit, j.fullReport(t.Dir)
	// A step summary that cannot be written is the error, but the job
	// still gets the rest: the report on stdout, the annotations.
	ghFiles := g
	ghFiles.Annotations = nil
	var first error
	if err := ghFiles.Write(ctx, s, summary, t.Base); err != nil {
		first = inputf("%s: %w", j.o.Command, err) // %w: a signal that ended a wait for a FIFO says nothing
	}
	if len(t.OnStdout()) > 0 && ctx.Err() == nil {
		if _, err := j.writeReports(ctx, s, t.StdoutOnly()); err != nil && first == nil {
			first = err
		}
	}
	if ctx.Err() == nil {
		if err := (report.GitHub{Annotations: g.Annotations}).Write(ctx, s, summary, t.Base); err != nil && first == nil {
			first = inputf("%s: %w", j.o.Command, err)
		}
	}
	return first
}

// fullReport says in Markdown where the full summary.md of a job summary
// cut to --summary-limit is: in dir (the --out target; "" or "-" when no
// file was written) and, on GitHub Actions, with the artifacts of the run,
// when the workflow keeps them (the action does).
func (j *Job) fullReport(dir string) string {
	where := "summary.md, which this command wrote to no file (pass --out DIR)"
	if dir != "" && dir != report.Stdout {
		where = synth.MarkdownCode(filepath.ToSlash(filepath.Join(dir, "summary.md")))
	}
	if j.runURL != "" {
		where += ", kept with the artifacts of [this run](" + j.runURL + ") when the workflow uploads it"
	}
	return where
}

// actionsRunURL is the page of the GitHub Actions run the command runs in
// ($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID),
// "" outside one.
func actionsRunURL(getenv func(string) string) string {
	server, repo, id := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY"), getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" || strings.ContainsAny(server+repo+id, " ()[]<>\n\r") {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}

// printSummary prints the one-line summary of s on stdout.
func (j *Job) printSummary(s *synth.Synthesis) error {
	_, err := fmt.Fprintln(j.o.Stdout, OneLine(s, filepath.Join(j.targets.Dir, "summary.md")))
	return writeStdout(j.o.Command, err)
}

// OneLine is the one line synth and watch print of s, whose summary.md is
// summaryPath.
func OneLine(s *synth.Synthesis, summaryPath string) string {
	evidence := ""
	if ev := s.Evidence; ev != nil && ev.Claims > 0 {
		evidence = fmt.Sprintf("; evidence: %d/%d %s hold, %d ungrounded", ev.Verified+ev.Moved, ev.Claims, synth.Noun(ev.Claims, "claim"), ev.Ungrounded)
	}
	return inert.Line(fmt.Sprintf("%s: %d/%d %s completed, %d failed; %s (P0 %d, P1 %d, P2 %d, P3 %d)%s → %s",
		synth.VerdictText(s), len(s.AgentsCompleted), len(s.AgentsLaunched), synth.Noun(len(s.AgentsLaunched), "agent"), len(s.AgentsFailed),
		synth.Plural(s.Counts.Total(), "finding"),
		s.Counts.P0, s.Counts.P1, s.Counts.P2, s.Counts.P3, evidence, summaryPath))
}

// writeStdout is the error of a write of what a command prints on standard
// output itself (--json, the one-line summary, events): an output that
// cannot be written (exit 2), not something to pass over.
func writeStdout(cmd string, err error) error {
	if err != nil {
		return inputf("%s: write standard output: %w", cmd, fsio.Cause(err))
	}
	return nil
}

// Judge reports the configuration's expired and unused suppressions on
// stderr (unless quiet) and decides the gate on s.
func (j *Job) Judge(s *synth.Synthesis) synth.Decision {
	if s.Suppressions != nil && !j.o.Quiet {
		for _, d := range s.Diagnostics {
			if d.File == j.cfg.Path && j.cfg.Path != "" {
				fmt.Fprintf(j.o.Stderr, "fluxwatch: %s\n", inert.Line(d.String()))
			}
		}
	}
	return j.o.gate().Judge(s)
}

// Explain prints d's account on stderr, one line per reason, unless quiet
// (synth.Decision's Explain is the one account of it: why the gate
// tripped, and what no gate caught). After a signal (ctx done) nothing is
// said: the status is the signal's. A tripped gate is an Error of
// StatusGate with nothing more to say.
func (j *Job) Explain(ctx context.Context, d synth.Decision) error {
	if !j.o.Quiet && ctx.Err() == nil {
		for _, line := range d.Explain() {
			fmt.Fprintf(j.o.Stderr, "fluxwatch: %s\n", inert.Line(line))
		}
	}
	if d.Tripped {
		return &Error{Status: StatusGate}
	}
	return nil
}
