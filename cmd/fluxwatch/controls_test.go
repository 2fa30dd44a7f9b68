package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestOutputsShowNoControls: a run whose agents wrote control characters
// and a right-to-left override in every field (SPEC §10: agent text never
// drives a terminal) gives no raw control character in any output of
// synth (summary.md, the page, the job summary, the annotations, the SARIF,
// rdjsonl and JUnit reports, findings.json, its lines on stdout and
// stderr), check (text and --json), verify, watch's lines and finding read.
// The people's outputs show the stand-ins; findings.json keeps the text.
func TestOutputsShowNoControls(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	testfault.ControlRun(t, dir)
	out := filepath.Join(root, "out")
	os.Mkdir(out, 0o755)
	files := map[string]string{}
	for _, name := range []string{"page.html", "x.sarif", "x.rdjsonl", "x.xml", "step-summary.md", "github-output"} {
		files[name] = filepath.Join(out, name)
	}
	runIt := func(args ...string) (stdout, stderr string) {
		t.Helper()
		var o, e syncBuffer
		en := bareEnv(&o, &e)
		en.getenv = func(k string) string {
			return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": files["step-summary.md"],
				"GITHUB_OUTPUT": files["github-output"], "SOURCE_DATE_EPOCH": "1795000000"}[k]
		}
		err := run(context.Background(), args, en)
		if code := exitCode(err, &e); code > 1 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, e.String())
		}
		return o.String(), e.String()
	}
	check := func(what, text string) {
		t.Helper()
		if bad := testfault.ShowRawControl([]byte(text)); bad != "" {
			t.Errorf("%s: a raw control character %s", what, bad)
		}
	}

	so, se := runIt("synth", "--no-evidence", "--html", files["page.html"], "--sarif", files["x.sarif"],
		"--rdjsonl", files["x.rdjsonl"], "--junit", files["x.xml"], dir)
	check("synth stdout (annotations, summary line)", so)
	check("synth stderr", se)
	if !strings.Contains(so, "::error ") || !strings.Contains(so, "␛[2J") {
		t.Errorf("synth on GitHub Actions printed no annotation with a stand-in:\n%s", so)
	}
	files["summary.md"], files["findings.json"] = filepath.Join(dir, "summary.md"), filepath.Join(dir, "findings.json")
	for name, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		check(name, string(b))
	}
	summary, _ := os.ReadFile(files["summary.md"])
	if !strings.Contains(string(summary), "Token x␛\\[2J␇⟨U+009B⟩31m⟨U+202E⟩y leaks") {
		t.Errorf("summary.md does not show the stand-ins:\n%s", summary)
	}
	var doc struct{ Findings []struct{ Title string } }
	data, _ := os.ReadFile(files["findings.json"])
	if err := json.Unmarshal(data, &doc); err != nil || !strings.Contains(string(data), `\u202e`) ||
		!strings.Contains(strings.Join(func() (ts []string) {
			for _, f := range doc.Findings {
				ts = append(ts, f.Title)
			}
			return
		}(), "|"), testfault.ControlText) {
		t.Errorf("findings.json does not keep the agents' text, escaped (%v):\n%s", err, data)
	}

	for _, args := range [][]string{
		{"check", dir},
		{"check", filepath.Join(dir, "fd-safety.md"), filepath.Join(dir, "fd-prose.md"), filepath.Join(dir, "peer-findings.jsonl"),
			filepath.Join(dir, "findings", "frontend.yaml")},
		{"check", "--json", dir},
		{"verify", files["summary.md"], dir},
		{"watch", "--until-complete", "--settle", "10ms", "--no-evidence", "--out", out, dir},
		{"finding", "read", "--dir", dir},
		{"finding", "read", "--bus", filepath.Join(dir, "peer-findings.jsonl"), "--severity", "blocking"},
	} {
		so, se := runIt(args...)
		check(strings.Join(args[:2], " ")+" stdout", so)
		check(strings.Join(args[:2], " ")+" stderr", se)
		if args[0] == "watch" && !strings.Contains(so, "␛[2J") {
			t.Errorf("watch printed no line with a stand-in:\n%s", so)
		}
	}
}
