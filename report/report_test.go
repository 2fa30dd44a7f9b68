package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

func synthesis(t *testing.T) *synth.Synthesis {
	t.Helper()
	r := parse.ReadReport([]byte("### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens in localStorage\nVerdict: needs-changes\n"))
	return synth.Synthesize(&synth.Run{Agents: []synth.Agent{{Name: "fd-a", File: "fd-a.md", Status: r.Status, Report: r}}}, synth.Options{})
}

// Each rendering goes to its target: the directory's two files, "-" to
// standard output, nothing for an empty target; a symbolic link target stays
// a link. findings.json is the same streamed or kept.
func TestWriteTargets(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprint("KeepJSON=", keep), func(t *testing.T) { testWriteTargets(t, keep) })
	}
}

func testWriteTargets(t *testing.T, keepJSON bool) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	real := filepath.Join(dir, "real.sarif")
	link := filepath.Join(dir, "link.sarif")
	if err := os.Symlink("real.sarif", link); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	s := synthesis(t)
	r, err := Write(context.Background(), s, Targets{Dir: out, Files: map[string]string{"sarif": link, "junit": Stdout}, Base: dir, Stdout: &stdout, KeepJSON: keepJSON})
	if err != nil {
		t.Fatal(err)
	}
	if kept := r.FindingsJSON != nil; kept != keepJSON {
		t.Errorf("Rendered holds findings.json: %v, want %v", kept, keepJSON)
	}
	if keepJSON && !bytes.Equal(r.FindingsJSON, must(synth.RenderJSON(s))) {
		t.Error("the kept findings.json is not RenderJSON's")
	}
	for name, want := range map[string][]byte{"findings.json": must(synth.RenderJSON(s)), "summary.md": synth.RenderMarkdown(s)} {
		if got, err := os.ReadFile(filepath.Join(out, name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v, content equal %v", name, err, bytes.Equal(got, want))
		}
	}
	if !strings.Contains(stdout.String(), "<testsuites") {
		t.Errorf("stdout %q: want the JUnit report", stdout.String())
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link target was replaced: %v", err)
	}
	if b, _ := os.ReadFile(real); !bytes.Contains(b, []byte(`"version": "2.1.0"`)) {
		t.Errorf("the link's target holds %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "rdjsonl")); err == nil {
		t.Error("an empty target was written")
	}
}

// SkipStdout leaves "-" out; StdoutOnly keeps only it.
func TestStdoutOnly(t *testing.T) {
	tg := Targets{Dir: "out", Files: map[string]string{"sarif": Stdout, "junit": "j.xml"}, SkipStdout: true}
	only := tg.StdoutOnly()
	if only.Dir != "" || only.Files["junit"] != "" || only.Files["sarif"] != Stdout || only.SkipStdout {
		t.Errorf("StdoutOnly = %+v", only)
	}
	if got := tg.OnStdout(); len(got) != 1 || got[0] != "--sarif" {
		t.Errorf("OnStdout = %v", got)
	}
	var stdout bytes.Buffer
	if tg.Files["junit"] != "j.xml" {
		t.Error("StdoutOnly changed the targets it was called on")
	}
	tg.Dir, tg.Files["junit"], tg.Stdout = "", "", &stdout
	if _, err := Write(context.Background(), synthesis(t), tg); err != nil || stdout.Len() != 0 {
		t.Errorf("SkipStdout wrote %d bytes, err %v", stdout.Len(), err)
	}
}

// The GitHub targets: annotations to their writer, the summary and the
// outputs appended (never truncated).
func TestGitHub(t *testing.T) {
	dir := t.TempDir()
	summary, output := filepath.Join(dir, "summary"), filepath.Join(dir, "output")
	os.WriteFile(summary, []byte("before\n"), 0o644)
	var ann bytes.Buffer
	g := GitHub{Annotations: &ann, StepSummary: summary, Output: output}
	if err := g.Write(context.Background(), synthesis(t), []byte("# Review Summary\n"), dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(summary); string(b) != "before\n# Review Summary\n" {
		t.Errorf("step summary %q", b)
	}
	if b, _ := os.ReadFile(output); !bytes.HasPrefix(b, []byte("verdict=needs-changes\n")) {
		t.Errorf("output %q", b)
	}
	if !strings.Contains(ann.String(), "::error") {
		t.Errorf("annotations %q", ann.String())
	}
	if got := outputEntry("x", "a\nb"); !strings.HasPrefix(got, "x<<ghadelimiter_") {
		t.Errorf("multi-line entry %q", got)
	}
}

// TestPageNames: the page names the run directory relative to the
// repository top (the base of every CI output) and the repository by its
// directory's name, whatever the working directory; names given stay.
func TestPageNames(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "acme")
	s := &synth.Synthesis{Input: "../../elsewhere/run", Evidence: &synth.EvidenceTally{Repo: repo}}
	got := PageNames(page.Options{Gate: synth.Gate{FailOn: parse.Risky}}, s, "reviews/run")
	if got.Input != "reviews/run" || got.Repo != "acme" || got.Gate.FailOn != parse.Risky {
		t.Errorf("PageNames = %+v, want input reviews/run, repo acme, the gate kept", got)
	}
	if got := PageNames(page.Options{Input: "x", Repo: "y"}, s, "reviews/run"); got.Input != "x" || got.Repo != "y" {
		t.Errorf("names given were replaced: %+v", got)
	}
	if got := PageNames(page.Options{}, &synth.Synthesis{}, ""); got.Input != "" || got.Repo != "" {
		t.Errorf("no base, no evidence: %+v, want the synthesis's own names (empty options)", got)
	}
}
