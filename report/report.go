package report

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// Stdout is the target that means standard output.
const Stdout = "-"

// ErrRender is wrapped by the errors of Write when a rendering fails (an
// internal error); other errors are those of writing a target, and name it.
var ErrRender = errors.New("render")

// Targets says where the renderings of one synthesis go. An empty target is
// not written; Stdout ("-") is written to the Stdout writer.
type Targets struct {
	// Dir receives findings.json and summary.md; Stdout prints summary.md
	// there and writes no findings.json.
	Dir string
	// Files are the report files by format name (Formats: "sarif" →
	// review.sarif), each written by its format's Render.
	Files map[string]string
	// Page says how the HTML page is drawn (the gate, live or not).
	Page page.Options
	// Base is the run directory relative to the repository top: the
	// renderings name an agent's report under it.
	Base string
	// Stdout is standard output, for the targets that are Stdout.
	Stdout io.Writer
	// SkipStdout leaves the Stdout targets out (a live watcher writes them
	// only with its final synthesis).
	SkipStdout bool
	// Run is the run directory the synthesis read, "" for none: a target
	// inside it is written by fsio.Within's rules (SPEC §10), never
	// through a symbolic link out of it nor over an input of the run
	// (RefuseInput).
	Run string
	// KeepJSON has Write render findings.json in memory and return it in
	// Rendered (a live page serves it); otherwise findings.json is streamed
	// to its file and never held whole.
	KeepJSON bool
	// JSON, when not nil, streams findings.json to its file instead of
	// synth.WriteJSON (a watcher's synth.JSONSplice); not with KeepJSON.
	// Markdown, when not nil, streams summary.md to its file (in Dir, not
	// Stdout) instead of synth.WriteMarkdown (a synth.MarkdownSplice).
	JSON     func(w io.Writer, s *synth.Synthesis) error
	Markdown func(w io.Writer, s *synth.Synthesis) error
}

// OnStdout returns the names of the targets that are Stdout ("--out",
// "--sarif", …), for a caller that lets only one thing use standard output.
func (t Targets) OnStdout() []string {
	var names []string
	if t.Dir == Stdout {
		names = append(names, "--out")
	}
	for _, f := range FileFormats() {
		if t.Files[f.Name] == Stdout {
			names = append(names, "--"+f.Flag)
		}
	}
	return names
}

// FileTarget is a target of Targets that is a file, with the flag that
// named it ("--out", "--sarif").
type FileTarget struct{ Flag, Path string }

// FileTargets returns the targets of t that are files (neither "" nor
// Stdout): the report directory's findings.json and summary.md, then
// t.Files in the order of Formats.
func (t Targets) FileTargets() []FileTarget {
	var out []FileTarget
	if t.Dir != "" && t.Dir != Stdout {
		out = append(out, FileTarget{"--out", filepath.Join(t.Dir, "findings.json")}, FileTarget{"--out", filepath.Join(t.Dir, "summary.md")})
	}
	for _, f := range FileFormats() {
		if p := t.Files[f.Name]; p != "" && p != Stdout {
			out = append(out, FileTarget{"--" + f.Flag, p})
		}
	}
	return out
}

// StdoutOnly returns t with only its Stdout targets: a live watcher writes
// the files at every change and standard output once, at the end.
func (t Targets) StdoutOnly() Targets {
	if t.Dir != Stdout {
		t.Dir = ""
	}
	files := map[string]string{}
	for name, p := range t.Files {
		if p == Stdout {
			files[name] = p
		}
	}
	t.Files = files
	t.SkipStdout = false
	return t
}

// Rendered are the renderings of a synthesis that callers reuse.
// FindingsJSON is there only when Targets.KeepJSON asked for it.
type Rendered struct {
	FindingsJSON []byte
}

// Write renders s and writes findings.json (first: a watcher of the file sees
// the change as early as possible), summary.md and the files of t.Files (in
// the order of Formats) to t, each file only when its content changed. A path's
// missing directory is created. The error wraps ErrRender when a rendering
// failed; otherwise it names the target that could not be written. Under
// fsio.WithoutWaiting a FIFO target with no reader is passed over, the
// other targets written, and the error wraps fsio.ErrNoReader.
func Write(ctx context.Context, s *synth.Synthesis, t Targets) (r Rendered, err error) {
	ctx = fsio.Within(ctx, t.Run, RefuseInput)
	// summary.md is streamed to its file beside findings.json, which is
	// rendered, or streamed to its file, meanwhile: both only read s. At
	// 8,000 agents summary.md is 34 MB, findings.json 357 MB, and a watcher
	// rewrites both at every change; one after the other, the summary came
	// before every byte of findings.json. Neither is held whole: summary.md
	// in memory was a fifth of synth's peak heap on a 16 MiB report.
	var mdErr error
	done := make(chan struct{})
	close(done)
	if t.Dir != "" && t.Dir != Stdout {
		done = make(chan struct{})
		go func() {
			defer close(done)
			write := t.Markdown
			if write == nil {
				write = synth.WriteMarkdown
			}
			mdErr = writeTarget(ctx, filepath.Join(t.Dir, "summary.md"), nil, func(w io.Writer) error {
				return write(w, s)
			}, t.Stdout, t.Run)
		}()
	}
	// Never return while the goroutine still reads s.
	defer func() { <-done }()
	if t.KeepJSON {
		if r.FindingsJSON, err = synth.RenderJSON(s); err != nil {
			return r, fmt.Errorf("%w: findings.json: %w", ErrRender, err)
		}
	}
	type target struct {
		path   string
		render func() ([]byte, error)
		stream func(io.Writer) error // instead of render: content too large to hold
	}
	same := func(b []byte) func() ([]byte, error) { return func() ([]byte, error) { return b, nil } }
	var targets []target
	switch t.Dir {
	case "":
	case Stdout:
		targets = append(targets, target{path: Stdout, stream: func(w io.Writer) error { return synth.WriteMarkdown(w, s) }})
	default:
		findings := target{path: filepath.Join(t.Dir, "findings.json"), render: same(r.FindingsJSON)}
		if !t.KeepJSON {
			write := t.JSON
			if write == nil {
				write = synth.WriteJSON
			}
			findings = target{path: findings.path, stream: func(w io.Writer) error { return write(w, s) }}
		}
		targets = append(targets, findings, target{stream: func(io.Writer) error { <-done; return mdErr }})
	}
	for _, f := range FileFormats() {
		targets = append(targets, target{path: t.Files[f.Name], render: func() ([]byte, error) { return f.Render(s, t) }})
	}
	var unread []error // FIFOs with no reader (fsio.WithoutWaiting): the others are still written
	for _, x := range targets {
		if x.path == Stdout && t.SkipStdout {
			continue
		}
		var data []byte
		var err error
		switch {
		case x.path == "" && x.stream != nil: // summary.md, written by the goroutine: its error, in its place
			err = x.stream(nil)
		case x.path == "":
			continue
		case x.stream == nil:
			if data, err = x.render(); err != nil {
				return r, fmt.Errorf("%w: %w", ErrRender, err)
			}
			fallthrough
		default:
			err = writeTarget(ctx, x.path, data, x.stream, t.Stdout, t.Run)
		}
		if errors.Is(err, fsio.ErrNoReader) {
			unread = append(unread, err)
		} else if err != nil {
			return r, err
		}
	}
	return r, errors.Join(unread...)
}

// ErrInput is wrapped by the error of a write that would replace an input
// of the run (SPEC §10).
var ErrInput = errors.New("an input of the run: not replaced")

// RefuseInput is the refusal of Write's targets in the run directory:
// an error wrapping ErrInput for name (slash-separated, relative to the run
// directory) when it is an input of the run (parse.Kind.Input), else nil.
func RefuseInput(name string) error {
	if parse.ClassifyName(name).Kind.Input() {
		return fmt.Errorf("%s is %w", name, ErrInput)
	}
	return nil
}

// writeTarget writes data, or what stream writes when it is not nil, to the
// target path: standard output for Stdout, else by fsio.WriteFile's rules
// (fsio.WriteFileFunc's for a stream), its directory created when missing
// (by the write itself inside the run directory run, which keeps it there).
func writeTarget(ctx context.Context, path string, data []byte, stream func(io.Writer) error, stdout io.Writer, run string) error {
	if path == Stdout {
		var err error
		if stream != nil {
			err = stream(stdout)
		} else {
			_, err = stdout.Write(data)
		}
		if err != nil {
			return fmt.Errorf("write standard output: %w", err)
		}
		return nil
	}
	if dir := filepath.Dir(path); dir != "" && (run == "" || !fsio.Inside(run, path)) {
		if _, err := os.Stat(dir); err != nil {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
	}
	var err error
	if stream != nil {
		_, err = fsio.WriteFileFunc(ctx, path, 0o644, stream)
	} else {
		_, err = fsio.WriteFile(ctx, path, data, 0o644)
	}
	return err
}

// GitHub are the GitHub Actions targets (SPEC §6).
type GitHub struct {
	// Annotations receives the workflow annotations of the top findings
	// (nil: none).
	Annotations io.Writer
	// StepSummary and Output are the paths of $GITHUB_STEP_SUMMARY and
	// $GITHUB_OUTPUT ("": not written).
	StepSummary, Output string
	// SummaryLimit caps what is appended to StepSummary (synth.CapSummary;
	// 0: synth.StepSummaryLimit), and FullReport says, in Markdown, where
	// the full summary.md is, for the note of a cut summary.
	SummaryLimit int
	FullReport   string
}

// Write prints the annotations of s (dir is the run directory), appends
// summary to the step summary, capped under GitHub's limit
// (synth.CapSummary), and verdict= with the counts to the output file. The
// error names the file that could not be written.
func (g GitHub) Write(ctx context.Context, s *synth.Synthesis, summary []byte, dir string) error {
	if g.Annotations != nil {
		if _, err := g.Annotations.Write(synth.RenderAnnotations(s, dir)); err != nil {
			return fmt.Errorf("write annotations: %w", err)
		}
	}
	if g.StepSummary != "" {
		capped := synth.CapSummary(summary, g.SummaryLimit, g.FullReport)
		if err := fsio.AppendFile(ctx, g.StepSummary, capped, 0o644); err != nil {
			return err
		}
	}
	if g.Output != "" {
		var b strings.Builder
		for _, kv := range [][2]string{
			{"verdict", string(s.Verdict)},
			{"findings", strconv.Itoa(s.Counts.Total())},
			{"p0", strconv.Itoa(s.Counts.P0)},
			{"p1", strconv.Itoa(s.Counts.P1)},
			{"agents-completed", strconv.Itoa(len(s.AgentsCompleted))},
			{"agents-failed", strconv.Itoa(len(s.AgentsFailed))},
			{"agents-unreadable", strconv.Itoa(len(s.AgentsUnreadable))},
		} {
			b.WriteString(outputEntry(kv[0], kv[1]))
		}
		if err := fsio.AppendFile(ctx, g.Output, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// outputEntry formats one $GITHUB_OUTPUT entry: name=value, or the heredoc
// form with a delimiter that does not occur in the value when the value
// holds a line break.
func outputEntry(name, value string) string {
	if !strings.ContainsAny(value, "\r\n") {
		return name + "=" + value + "\n"
	}
	sum := sha256.Sum256([]byte(value))
	delim := "ghadelimiter_" + hex.EncodeToString(sum[:8])
	for strings.Contains(value, delim) {
		delim += "_"
	}
	return name + "<<" + delim + "\n" + value + "\n" + delim + "\n"
}

// PageNames returns o with the names the HTML page gives the run directory
// and the repository, unless o has them: base, the run directory relative
// to the repository top as every CI output names it; the repository by its
// directory's name. The working directory of the process that made a page
// means nothing to its reader: a CI artifact is opened elsewhere.
func PageNames(o page.Options, s *synth.Synthesis, base string) page.Options {
	if o.Input == "" {
		o.Input = base
	}
	if o.Repo == "" && s.Evidence != nil && s.Evidence.Repo != "" {
		if abs, err := filepath.Abs(s.Evidence.Repo); err == nil {
			o.Repo = filepath.Base(abs)
		}
	}
	return o
}
