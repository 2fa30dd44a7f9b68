package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"
)

// action is the part of action.yml's schema the action uses.
type action struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Author      string            `yaml:"author"`
	Branding    map[string]string `yaml:"branding"`
	Inputs      map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string         `yaml:"using"`
		Steps []workflowStep `yaml:"steps"`
	} `yaml:"runs"`
}

// readAction parses action.yml strictly: a key the types do not know (a
// misspelt runs-on, a step's "step") is an error.
func readAction(t *testing.T) *action {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a
}

// TestActionShape checks what GitHub needs of action.yml and what the
// action promises: a composite action whose run steps name their shell and
// take every input through env (a ${{ }} inside a script is text pasted
// into the shell: an injection), the inputs of docs/ci.md, outputs that
// name existing steps.
func TestActionShape(t *testing.T) {
	a := readAction(t)
	if a.Name == "" || a.Description == "" || a.Runs.Using != "composite" {
		t.Fatalf("name %q, description %q, runs.using %q: want a named composite action", a.Name, a.Description, a.Runs.Using)
	}
	for _, in := range []string{"version", "run-dir", "run", "fail-on", "fail-on-new", "baseline", "upload-sarif", "summary-limit"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("no input %s", in)
		}
	}
	if !a.Inputs["run-dir"].Required {
		t.Error("run-dir is not required")
	}
	ids := map[string]bool{}
	for i, st := range a.Runs.Steps {
		if st.ID != "" {
			ids[st.ID] = true
		}
		switch {
		case st.Run != "" && st.Uses != "":
			t.Errorf("step %d (%s): both run and uses", i, st.Name)
		case st.Run != "" && st.Shell != "bash":
			t.Errorf("step %d (%s): a composite run step needs shell: bash, has %q", i, st.Name, st.Shell)
		case st.Run != "" && strings.Contains(st.Run, "${{"):
			t.Errorf("step %d (%s): an expression inside the script; pass it through env", i, st.Name)
		case st.Uses != "" && !regexp.MustCompile(`^[\w.-]+/[\w./-]+@v\d+$`).MatchString(st.Uses):
			t.Errorf("step %d (%s): uses %q, want owner/name@vN", i, st.Name, st.Uses)
		}
	}
	for name, out := range a.Outputs {
		m := regexp.MustCompile(`^\$\{\{ steps\.([\w-]+)\.outputs\.[\w-]+ \}\}$`).FindStringSubmatch(out.Value)
		if m == nil || !ids[m[1]] {
			t.Errorf("output %s = %q: not the output of a step of the action", name, out.Value)
		}
	}
}

// actionRun is one run of the action's steps on this machine, as a runner
// runs a composite action: each run step in bash -eo pipefail with the
// runner's variables and files (one $GITHUB_OUTPUT and one
// $GITHUB_STEP_SUMMARY per step, $GITHUB_PATH for the steps after), the
// inputs and step outputs expanded into its env, its if: evaluated. The
// uses: steps are stood in for: actions/cache restores nothing (a test
// fills the tool cache itself), upload-artifact copies the directory and
// gives a URL, upload-sarif validates the file it is given.
type actionRun struct {
	t         *testing.T
	a         *action
	work      string // the workspace: the job's working directory
	temp      string // $RUNNER_TEMP
	toolCache string // $RUNNER_TOOL_CACHE
	env       []string
	inputs    map[string]string
	outputs   map[string]map[string]string // step id → outputs
	failed    bool
	ran       []string          // names of the steps run
	summaries []string          // each step's job summary, in order
	artifacts map[string]string // artifact name → directory
	uploaded  string            // the SARIF file uploaded
	paths     []string          // $GITHUB_PATH, newest first
}

// runAction runs the action with the inputs with (over their defaults).
func runAction(t *testing.T, a *action, work, toolCache string, env []string, with map[string]string) *actionRun {
	t.Helper()
	r := &actionRun{t: t, a: a, work: work, temp: t.TempDir(), toolCache: toolCache, env: env,
		inputs: map[string]string{}, outputs: map[string]map[string]string{}, artifacts: map[string]string{}}
	for name, in := range a.Inputs {
		r.inputs[name] = r.expand(in.Default)
	}
	for k, v := range with {
		if _, ok := a.Inputs[k]; !ok {
			t.Fatalf("the action has no input %s", k)
		}
		r.inputs[k] = v
	}
	for i, st := range a.Runs.Steps {
		if !r.cond(st.If) {
			continue
		}
		r.ran = append(r.ran, st.Name)
		outputs := map[string]string{}
		var err error
		if st.Uses != "" {
			outputs, err = r.uses(st)
		} else {
			outputs, err = r.run(i, st)
		}
		if err != nil {
			r.failed = true
		}
		if st.ID != "" {
			r.outputs[st.ID] = outputs
		}
	}
	return r
}

// run runs a run: step and returns its outputs.
func (r *actionRun) run(i int, st workflowStep) (map[string]string, error) {
	t := r.t
	dir := t.TempDir()
	outFile, summary, pathFile := filepath.Join(dir, "output"), filepath.Join(dir, "summary"), filepath.Join(dir, "path")
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.Run)
	cmd.Dir = r.work
	path := strings.Join(append(append([]string(nil), r.paths...), os.Getenv("PATH")), string(os.PathListSeparator))
	cmd.Env = append(append(hostEnv(), r.env...), "PATH="+path, "GITHUB_ACTIONS=true", "NO_COLOR=1", "GORACE=atexit_sleep_ms=0",
		"GITHUB_OUTPUT="+outFile, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_PATH="+pathFile,
		"RUNNER_TEMP="+r.temp, "RUNNER_TOOL_CACHE="+r.toolCache, "RUNNER_OS=Linux", "RUNNER_ARCH="+runnerArch(),
		"GITHUB_WORKSPACE="+r.work, "GIT_CEILING_DIRECTORIES="+filepath.Dir(r.work))
	for k, v := range st.Env {
		cmd.Env = append(cmd.Env, k+"="+r.expand(v))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("step %d (%s): %v\nstdout:\n%sstderr:\n%s", i, st.Name, err, stdout.String(), stderr.String())
	if data, _ := os.ReadFile(summary); len(data) > 0 {
		r.summaries = append(r.summaries, string(data))
	}
	if data, _ := os.ReadFile(pathFile); len(data) > 0 {
		for _, p := range strings.Fields(string(data)) {
			r.paths = append([]string{p}, r.paths...)
		}
	}
	return readGitHubOutput(t, outFile), err
}

// uses stands in for a uses: step.
func (r *actionRun) uses(st workflowStep) (map[string]string, error) {
	t := r.t
	with := map[string]string{}
	for k, v := range st.With {
		with[k] = r.expand(v)
	}
	switch name, _, _ := strings.Cut(st.Uses, "@"); name {
	case "actions/cache":
		if with["path"] != r.outputs["resolve"]["dir"] || !strings.Contains(with["key"], r.outputs["resolve"]["version"]) {
			t.Errorf("actions/cache: path %q, key %q; want the resolved directory and a key naming the version", with["path"], with["key"])
		}
		return nil, nil
	case "actions/upload-artifact":
		src := filepath.Join(r.work, with["path"])
		dst := filepath.Join(t.TempDir(), with["name"])
		if err := copyTree(dst, src); err != nil {
			return nil, err
		}
		r.artifacts[with["name"]] = dst
		return map[string]string{"artifact-url": "https://github.invalid/artifacts/" + with["name"]}, nil
	case "github/codeql-action/upload-sarif":
		r.uploaded = with["sarif_file"]
		validateSARIF(t, filepath.Join(r.work, r.uploaded))
		return nil, nil
	}
	t.Fatalf("the test cannot stand in for %s", st.Uses)
	return nil, nil
}

var exprRe = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand replaces each ${{ expression }} of v by its value.
func (r *actionRun) expand(v string) string {
	return exprRe.ReplaceAllStringFunc(v, func(s string) string {
		return r.eval(exprRe.FindStringSubmatch(s)[1])
	})
}

// cond evaluates a step's if:, with GitHub's implied success() when the
// condition names no status function.
func (r *actionRun) cond(expr string) bool {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return !r.failed
	}
	v := r.eval(expr) != ""
	if !regexp.MustCompile(`\b(always|success|failure|cancelled)\(\)`).MatchString(expr) {
		v = v && !r.failed
	}
	return v
}

// eval evaluates the expressions the action uses: ||, &&, !, == and !=
// on strings, parentheses, 'literals', always(), success(), failure() and
// the contexts inputs, steps.ID.outputs and github. A boolean is "true"
// or "" (false).
func (r *actionRun) eval(expr string) string {
	toks := regexp.MustCompile(`\s*('[^']*'|\|\||&&|==|!=|!|\(|\)|[\w.-]+\(\)|[\w.-]+)`).FindAllStringSubmatch(expr, -1)
	var rest strings.Builder
	var list []string
	for _, m := range toks {
		list = append(list, m[1])
		rest.WriteString(m[0])
	}
	if strings.TrimSpace(rest.String()) != strings.TrimSpace(expr) {
		r.t.Fatalf("the test cannot read the expression %q", expr)
	}
	p := &exprParser{r: r, toks: list}
	v := p.or()
	if p.i != len(p.toks) {
		r.t.Fatalf("the test cannot read the expression %q (at %q)", expr, p.toks[p.i])
	}
	return v
}

type exprParser struct {
	r    *actionRun
	toks []string
	i    int
}

func (p *exprParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return ""
}

func (p *exprParser) or() string {
	v := p.and()
	for p.peek() == "||" {
		p.i++
		w := p.and()
		if v == "" {
			v = w
		}
	}
	return v
}

func (p *exprParser) and() string {
	v := p.cmp()
	for p.peek() == "&&" {
		p.i++
		w := p.cmp()
		if v != "" {
			v = w
		}
	}
	return v
}

func (p *exprParser) cmp() string {
	v := p.unary()
	switch op := p.peek(); op {
	case "==", "!=":
		p.i++
		return boolString((v == p.unary()) == (op == "=="))
	}
	return v
}

func (p *exprParser) unary() string {
	switch tok := p.peek(); {
	case tok == "!":
		p.i++
		return boolString(p.unary() == "")
	case tok == "(":
		p.i++
		v := p.or()
		if p.peek() != ")" {
			p.r.t.Fatalf("unbalanced parenthesis in %v", p.toks)
		}
		p.i++
		return v
	case strings.HasPrefix(tok, "'"):
		p.i++
		return strings.Trim(tok, "'")
	default:
		p.i++
		return p.r.value(tok)
	}
}

// value is the value of a function call or a context reference.
func (p *actionRun) value(ref string) string {
	switch ref {
	case "always()":
		return "true"
	case "success()":
		return boolString(!p.failed)
	case "failure()":
		return boolString(p.failed)
	case "github.action_ref":
		return "main" // a branch: the version input must be given
	case "github.token":
		return "test-token"
	case "github.event.repository.default_branch":
		return "main"
	}
	if name, ok := strings.CutPrefix(ref, "inputs."); ok {
		v, known := p.inputs[name]
		if !known {
			p.t.Fatalf("the action reads the unknown input %s", name)
		}
		return v
	}
	if m := regexp.MustCompile(`^steps\.([\w-]+)\.outputs\.([\w-]+)$`).FindStringSubmatch(ref); m != nil {
		return p.outputs[m[1]][m[2]]
	}
	p.t.Fatalf("the test does not know %s", ref)
	return ""
}

// runnerArch is $RUNNER_ARCH for this machine.
func runnerArch() string {
	if runtime.GOARCH == "arm64" {
		return "ARM64"
	}
	return "X64"
}

// fakeRelease serves a release of fluxwatch as GitHub serves one
// (VERSION/ARCHIVE and VERSION/checksums.txt) whose archive holds, as
// fluxwatch, a link to this test binary, which runs as the fluxwatch
// command (TestMain). It counts the archives fetched. corrupt serves a
// checksum that does not match.
func fakeRelease(t *testing.T, version string, corrupt bool) (url string, fetched *atomic.Int32) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary: %v", err)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: "fluxwatch", Typeflag: tar.TypeSymlink, Linkname: exe, Mode: 0o755}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"LICENSE", "README.md"} {
		tw.WriteHeader(&tar.Header{Name: f, Typeflag: tar.TypeReg, Mode: 0o644, Size: 3})
		tw.Write([]byte("...")) // as a release archive holds them
	}
	tw.Close()
	gz.Close()
	archive := fmt.Sprintf("fluxwatch_%s_linux_%s.tar.gz", strings.TrimPrefix(version, "v"), runtime.GOARCH)
	sum := sha256.Sum256(buf.Bytes())
	if corrupt {
		sum[0] ^= 1
	}
	checksums := fmt.Sprintf("%s  fluxwatch_%s_darwin_arm64.tar.gz\n%s  %s\n", strings.Repeat("0", 64), strings.TrimPrefix(version, "v"), hex.EncodeToString(sum[:]), archive)
	fetched = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case "/" + version + "/" + archive:
			fetched.Add(1)
			w.Write(buf.Bytes())
		case "/" + version + "/checksums.txt":
			w.Write([]byte(checksums))
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, fetched
}

// fakeGH writes a gh command that answers what the baseline step asks:
// `gh run list` lists the runs 7 and 8 of the default branch, and `gh run
// download 8 --name NAME --dir DIR` copies artifacts/8/NAME into DIR (run
// 7 kept no artifact). It returns the directory to put on PATH.
func fakeGH(t *testing.T, artifacts string) string {
	t.Helper()
	bin := t.TempDir()
	script := `#!/bin/sh
set -eu
case "$1 $2" in
"run list") printf '7\n8\n' ;;
"run download")
  id=$3; shift 3; name= dir=
  while [ $# -gt 0 ]; do case "$1" in --name) name=$2; shift ;; --dir) dir=$2; shift ;; esac; shift; done
  [ -d "` + artifacts + `/$id/$name" ] || { echo "no artifact $name in run $id" >&2; exit 1; }
  mkdir -p "$dir" && cp -R "` + artifacts + `/$id/$name/." "$dir/" ;;
*) echo "gh: unexpected $*" >&2; exit 1 ;;
esac
`
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestAction runs action.yml's steps on this machine against a copy of
// testdata/example and a release served from here: the binary is fetched,
// checked against checksums.txt and then taken from the tool cache; the
// gate trips on the risky run; SARIF is uploaded even so; the reports are
// kept; the job summary holds summary.md whole, or, for a summary over the
// limit, one synth cut under GitHub's 1 MiB that names the full report;
// fail-on-new compares with the artifact of the default branch, or warns
// when there is none.
func TestAction(t *testing.T) {
	for _, cmd := range []string{"bash", "curl", "tar", "sha256sum"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Skipf("the action's steps need %s", cmd)
		}
	}
	if runtime.GOOS != "linux" {
		t.Skip("the runner stood in for is a Linux one")
	}
	a := readAction(t)
	const version = "v0.3.1"
	url, fetched := fakeRelease(t, version, false)
	toolCache := t.TempDir()
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	workspace := func(t *testing.T) string {
		work := t.TempDir()
		if err := copyTree(filepath.Join(work, "testdata", "example"), example); err != nil {
			t.Fatal(err)
		}
		return work
	}
	with := func(more ...string) map[string]string {
		m := map[string]string{"version": version, "release-url": url, "run-dir": "testdata/example"}
		for i := 0; i+1 < len(more); i += 2 {
			m[more[i]] = more[i+1]
		}
		return m
	}

	t.Run("gate", func(t *testing.T) {
		work := workspace(t)
		r := runAction(t, a, work, toolCache, nil, with())
		if !r.failed {
			t.Error("the job passed: the gate (fail-on needs-changes) should trip on the risky example")
		}
		if got := r.outputs["synth"]; got["verdict"] != "risky" || got["exit-code"] != "1" {
			t.Errorf("synth's outputs %v, want verdict risky, exit-code 1", got)
		}
		if n := fetched.Load(); n != 1 {
			t.Errorf("the archive was fetched %d times, want 1", n)
		}
		if r.uploaded != "fluxwatch-review/review.sarif" {
			t.Errorf("SARIF uploaded: %q, want fluxwatch-review/review.sarif after the gate tripped", r.uploaded)
		}
		kept := r.artifacts["fluxwatch-review"]
		for _, f := range []string{"summary.md", "findings.json", "review.sarif", "review.rdjsonl", "review.html"} {
			if _, err := os.Stat(filepath.Join(kept, f)); err != nil {
				t.Errorf("the artifact lacks %s: %v", f, err)
			}
		}
		md, err := os.ReadFile(filepath.Join(work, "fluxwatch-review", "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(r.summaries, ""); got != string(md) {
			t.Errorf("the job summary is not summary.md whole:\n%s", got)
		}
		// The reports went to out: the run directory is as the agents left it.
		for _, p := range []string{"summary.md", "findings.json"} {
			if _, err := os.Stat(filepath.Join(work, "testdata", "example", p)); err == nil {
				t.Errorf("the action wrote %s into the run directory", p)
			}
		}
	})

	t.Run("cached", func(t *testing.T) {
		before := fetched.Load()
		r := runAction(t, a, workspace(t), toolCache, nil, with("fail-on", "none", "upload-sarif", "false"))
		if r.failed || fetched.Load() != before {
			t.Errorf("second run: failed %v, %d fetches; want a pass from the tool cache, no fetch", r.failed, fetched.Load()-before)
		}
		if r.uploaded != "" {
			t.Errorf("upload-sarif false uploaded %s", r.uploaded)
		}
	})

	t.Run("checksum", func(t *testing.T) {
		bad, _ := fakeRelease(t, version, true)
		r := runAction(t, a, workspace(t), t.TempDir(), nil, with("release-url", bad))
		if !r.failed || r.outputs["synth"] != nil {
			t.Errorf("an archive off its checksum: failed %v, synth ran %v; want the install to fail", r.failed, r.outputs["synth"] != nil)
		}
		if len(r.artifacts) != 0 || r.uploaded != "" || len(r.summaries) != 0 {
			t.Errorf("steps after a failed install ran: %v", r.ran)
		}
	})

	t.Run("no version", func(t *testing.T) {
		w := with()
		delete(w, "version")
		r := runAction(t, a, workspace(t), toolCache, nil, w)
		if !r.failed || len(r.ran) == 0 || r.ran[len(r.ran)-1] != a.Runs.Steps[0].Name {
			t.Errorf("used at a branch without a version: failed %v after %v; want the first step to fail", r.failed, r.ran)
		}
	})

	t.Run("summary limit", func(t *testing.T) {
		// A summary over the limit is cut; a limit a thousandth of
		// GitHub's stands for it, on the example's summary.
		env := []string{"GITHUB_SERVER_URL=https://github.invalid", "GITHUB_REPOSITORY=acme/app", "GITHUB_RUN_ID=9"}
		r := runAction(t, a, workspace(t), toolCache, env, with("fail-on", "none", "summary-limit", "3000"))
		got := strings.Join(r.summaries, "")
		if len(got) > 3000 || !strings.Contains(got, "**The summary is cut here**") ||
			!strings.Contains(got, "The full report is `fluxwatch-review/summary.md`, kept with the artifacts of [this run](https://github.invalid/acme/app/actions/runs/9)") {
			t.Errorf("a cut summary of %d bytes (limit 3000):\n%s", len(got), got)
		}
		if !strings.HasPrefix(got, "# Review Summary") || strings.Count(got, "```")%2 != 0 {
			t.Errorf("the cut summary does not start as summary.md does, or leaves a code block open:\n%s", got)
		}
	})

	t.Run("1000 agents", func(t *testing.T) {
		if testing.Short() {
			t.Skip("a run of 1,000 agents")
		}
		// The job summary of a run of 1,000 agents is over GitHub's 1 MiB:
		// at the default limit it is cut under it.
		work := t.TempDir()
		if _, stderr, code := runIn(t, "demo", "--agents", "1000", "--findings", "20", filepath.Join(work, "run")); code != 0 {
			t.Fatalf("demo: exit %d\n%s", code, stderr)
		}
		r := runAction(t, a, work, toolCache, nil, with("run-dir", "run", "fail-on", "none", "upload-sarif", "false"))
		md, err := os.Stat(filepath.Join(work, "fluxwatch-review", "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(r.summaries, "")
		if md.Size() <= 1<<20 {
			t.Fatalf("summary.md of 1,000 agents is %d bytes: not over 1 MiB, the case this checks", md.Size())
		}
		if len(r.summaries) != 1 || len(got) >= 1<<20 || !strings.Contains(got, "**The summary is cut here**") {
			t.Errorf("job summary: %d step summaries, %d bytes, for summary.md of %d: want one, cut under 1 MiB", len(r.summaries), len(got), md.Size())
		}
		t.Logf("summary.md %d bytes, job summary %d bytes", md.Size(), len(got))
	})

	t.Run("baseline", func(t *testing.T) {
		// The default branch's run 8 kept the example's reports: nothing
		// is new, so fail-on-new P1 passes. Run 7 kept none.
		artifacts := t.TempDir()
		base := workspace(t)
		if _, stderr, code := runIn(t, "synth", "--no-evidence", "--out", filepath.Join(artifacts, "8", "fluxwatch-review"), filepath.Join(base, "testdata", "example")); code != 0 {
			t.Fatalf("synth of the baseline: exit %d\n%s", code, stderr)
		}
		env := []string{"GITHUB_REPOSITORY=acme/app", "GITHUB_WORKFLOW_REF=acme/app/.github/workflows/review.yml@refs/pull/3/merge",
			"GITHUB_RUN_ID=9", "GITHUB_SERVER_URL=https://github.invalid"}
		gh := fakeGH(t, artifacts)
		t.Setenv("PATH", gh+string(os.PathListSeparator)+os.Getenv("PATH"))
		r := runAction(t, a, workspace(t), toolCache, env, with("fail-on", "none", "fail-on-new", "P1"))
		if r.failed || r.outputs["baseline"]["path"] == "" {
			t.Errorf("against the same run: failed %v, baseline %q; want a pass against run 8's findings.json", r.failed, r.outputs["baseline"]["path"])
		}
		// No artifact anywhere: a warning, and the verdict gate alone.
		r = runAction(t, a, workspace(t), toolCache, env, with("fail-on", "none", "fail-on-new", "P1", "artifact", "other-name"))
		if r.failed || r.outputs["baseline"]["path"] != "" {
			t.Errorf("without a baseline: failed %v, baseline %q; want a pass (a warning)", r.failed, r.outputs["baseline"]["path"])
		}
		// A baseline given, with a finding the run does not hold: the
		// example's findings are new, and fail-on-new P1 trips.
		empty := filepath.Join(base, "empty")
		os.MkdirAll(empty, 0o755)
		os.WriteFile(filepath.Join(empty, "fd-a.md"), []byte("### Findings Index\nVerdict: safe\n"), 0o644)
		if _, stderr, code := runIn(t, "synth", "--no-evidence", "--out", filepath.Join(base, "old"), empty); code != 0 {
			t.Fatalf("synth of an empty run: exit %d\n%s", code, stderr)
		}
		r = runAction(t, a, workspace(t), toolCache, env, with("fail-on", "none", "fail-on-new", "P1", "baseline", filepath.Join(base, "old", "findings.json")))
		if !r.failed || r.outputs["synth"]["exit-code"] != "1" || r.outputs["baseline"] != nil {
			t.Errorf("new P0/P1 findings: failed %v, synth %v, baseline step ran %v; want the new-findings gate to trip", r.failed, r.outputs["synth"], r.outputs["baseline"] != nil)
		}
	})
}

// ciBlock returns the fenced block of docs/ci.md after the marker
// <!-- ci: NAME -->.
func ciBlock(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- ci: "+name+" -->\n```yaml\n")
	if !ok {
		t.Fatalf("docs/ci.md has no yaml block marked <!-- ci: %s -->", name)
	}
	block, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatalf("docs/ci.md: the %s block is not closed", name)
	}
	return []byte(block + "\n")
}

func strictYAML(t *testing.T, name string, data []byte, v any) {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("docs/ci.md, the %s block: %v", name, err)
	}
}

// TestCIDocWorkflow checks the workflow docs/ci.md gives to copy into
// another repository against action.yml and itself: it uses the action
// with inputs the action has, the agents' artifact reaches the review
// job's run-dir, the run the agents name is the run synthesised, and the
// review job has the permissions the page says it needs. The reviewdog
// recipe reads the rdjsonl file the action writes; the GitLab job's
// script runs as written on the example run and writes the report it
// declares.
func TestCIDocWorkflow(t *testing.T) {
	a := readAction(t)
	var w workflow
	strictYAML(t, "workflow", ciBlock(t, "workflow"), &w)
	if _, ok := w.On["pull_request"]; !ok {
		t.Error("the workflow does not run on pull_request")
	}
	if push, _ := w.On["push"].(map[string]any); push == nil || fmt.Sprint(push["branches"]) != "[main]" {
		t.Errorf("on.push = %v: the default branch's runs must run it, to keep the baseline", w.On["push"])
	}
	agents, review := w.Jobs["agents"], w.Jobs["review"]
	if review.Needs != "agents" {
		t.Fatalf("jobs: want agents, and review after it (needs %q)", review.Needs)
	}
	for perm, want := range map[string]string{"contents": "read", "actions": "read", "security-events": "write"} {
		if review.Permissions[perm] != want {
			t.Errorf("review: permissions %s: %q, want %q", perm, review.Permissions[perm], want)
		}
	}
	var upload, download, use *workflowStep
	var outputDir, runStep string
	for i, st := range agents.Steps {
		if strings.HasPrefix(st.Uses, "actions/upload-artifact@") {
			upload = &agents.Steps[i]
		}
		if d := st.Env["FLUX_OUTPUT_DIR"]; d != "" {
			outputDir = d
			runStep = st.Env["FLUX_RUN_UUID"]
		}
	}
	for i, st := range review.Steps {
		switch {
		case strings.HasPrefix(st.Uses, "actions/download-artifact@"):
			download = &review.Steps[i]
		case strings.HasPrefix(st.Uses, "fluxwatch/fluxwatch@"):
			use = &review.Steps[i]
		}
	}
	if upload == nil || download == nil || use == nil || outputDir == "" {
		t.Fatalf("want the agents' upload-artifact and FLUX_OUTPUT_DIR, the review's download-artifact and the action")
	}
	if !regexp.MustCompile(`@v\d+\.\d+\.\d+$`).MatchString(use.Uses) {
		t.Errorf("uses %s: pin a release", use.Uses)
	}
	for k := range use.With {
		if _, ok := a.Inputs[k]; !ok {
			t.Errorf("the action has no input %s", k)
		}
	}
	for name, in := range a.Inputs {
		if _, ok := use.With[name]; in.Required && !ok {
			t.Errorf("the required input %s is not given", name)
		}
	}
	if upload.With["name"] != download.With["name"] || strings.TrimSuffix(upload.With["path"], "/") != outputDir ||
		download.With["path"] != outputDir || use.With["run-dir"] != outputDir {
		t.Errorf("the run does not reach the action: agents write %s, upload %s as %s; review downloads %s into %s, run-dir %s",
			outputDir, upload.With["path"], upload.With["name"], download.With["name"], download.With["path"], use.With["run-dir"])
	}
	if use.With["run"] != "${{ needs.agents.outputs.run }}" || agents.Outputs["run"] == "" ||
		!strings.Contains(agents.Outputs["run"], "steps.run.outputs.id") || runStep != "${{ steps.run.outputs.id }}" {
		t.Errorf("the run is not pinned: the agents write run %q, output %q, the action synthesises %q", runStep, agents.Outputs["run"], use.With["run"])
	}

	var steps []workflowStep
	strictYAML(t, "steps", ciBlock(t, "steps"), &steps)
	rdjsonl := a.Inputs["out"].Default + "/review.rdjsonl"
	if len(steps) == 0 || !strings.Contains(steps[len(steps)-1].Run, "-f=rdjsonl") || !strings.Contains(steps[len(steps)-1].Run, "< "+rdjsonl) {
		t.Errorf("the reviewdog step does not read %s with -f=rdjsonl: %+v", rdjsonl, steps)
	}
	synthStep := ""
	for _, st := range a.Runs.Steps {
		if st.ID == "synth" {
			synthStep = st.Run
		}
	}
	if !strings.Contains(synthStep, `--rdjsonl "$OUT/review.rdjsonl"`) {
		t.Error("the action writes no review.rdjsonl")
	}

	var gitlab map[string]struct {
		Stage string   `yaml:"stage"`
		Needs []string `yaml:"needs"`
		Image struct {
			Name       string   `yaml:"name"`
			Entrypoint []string `yaml:"entrypoint"`
		} `yaml:"image"`
		Script    []string `yaml:"script"`
		Artifacts struct {
			When    string            `yaml:"when"`
			Paths   []string          `yaml:"paths"`
			Reports map[string]string `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	strictYAML(t, "gitlab", ciBlock(t, "gitlab"), &gitlab)
	job := gitlab["fluxwatch"]
	if len(job.Script) != 1 || len(job.Image.Entrypoint) != 1 || job.Image.Entrypoint[0] != "" {
		t.Fatalf("gitlab: want one script line and the image's entrypoint cleared: %+v", job)
	}
	args := strings.Fields(job.Script[0])
	if args[0] != "fluxwatch" {
		t.Fatalf("gitlab script %q", job.Script[0])
	}
	work := t.TempDir()
	example, _ := filepath.Abs("../../testdata/example")
	if err := copyTree(filepath.Join(work, "reviews", "run"), example); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	if _, stderr, code := runIn(t, args[1:]...); code != exitGate {
		t.Errorf("gitlab script on the risky example: exit %d, want %d\n%s", code, exitGate, stderr)
	}
	if _, err := os.Stat(job.Artifacts.Reports["junit"]); err != nil {
		t.Errorf("the junit report the job declares: %v", err)
	}
}
