package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"go.yaml.in/yaml/v3"
)

// workflow is the part of a GitHub Actions workflow the examples use
// (docs/github-actions.yml, the workflow of docs/ci.md).
type workflow struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		RunsOn      string            `yaml:"runs-on"`
		Needs       string            `yaml:"needs"`
		Outputs     map[string]string `yaml:"outputs"`
		Permissions map[string]string `yaml:"permissions"`
		Env         map[string]string `yaml:"env"`
		Steps       []workflowStep    `yaml:"steps"`
	} `yaml:"jobs"`
}

// workflowStep is a step of a workflow's job or of a composite action
// (action.yml, where a run step names its shell).
type workflowStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	With  map[string]string `yaml:"with"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

// readWorkflow parses a workflow strictly: a key the example's types do
// not know is an error, so a misspelt key (runs_on, step) cannot pass.
func readWorkflow(data []byte) (*workflow, error) {
	var w workflow
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&w); err != nil {
		return nil, err
	}
	return &w, nil
}

// stepShape finds, in the steps of the example's one job, each step the
// documentation promises and says which is missing.
type stepShape struct {
	checkout, setupGo, install, synth, upload int
	sarif                                     string // the --sarif path of the synth step
}

var (
	sarifFlag = regexp.MustCompile(`--sarif[ =](\S+)`)
	runFlag   = regexp.MustCompile(`--run[ =]\S+`)
)

func shapeOf(steps []workflowStep) (stepShape, error) {
	s := stepShape{-1, -1, -1, -1, -1, ""}
	for i, st := range steps {
		switch {
		case strings.HasPrefix(st.Uses, "actions/checkout@"):
			s.checkout = i
		case strings.HasPrefix(st.Uses, "actions/setup-go@"):
			s.setupGo = i
		case strings.Contains(st.Run, "go install github.com/fluxwatch/fluxwatch/cmd/fluxwatch@"):
			s.install = i
		case strings.Contains(st.Run, "fluxwatch synth"):
			s.synth = i
			if m := sarifFlag.FindStringSubmatch(st.Run); m != nil {
				s.sarif = m[1]
			}
		case strings.HasPrefix(st.Uses, "github/codeql-action/upload-sarif@"):
			s.upload = i
		}
	}
	var missing []string
	for _, m := range []struct {
		at   int
		what string
	}{{s.checkout, "actions/checkout"}, {s.setupGo, "actions/setup-go"}, {s.install, "go install of fluxwatch"},
		{s.synth, "fluxwatch synth"}, {s.upload, "upload-sarif"}} {
		if m.at < 0 {
			missing = append(missing, m.what)
		}
	}
	if len(missing) > 0 {
		return s, fmt.Errorf("no step for %s", strings.Join(missing, ", "))
	}
	if !(s.checkout < s.setupGo && s.setupGo < s.install && s.install < s.synth && s.synth < s.upload) {
		return s, fmt.Errorf("steps out of order: checkout %d, setup-go %d, install %d, synth %d, upload %d",
			s.checkout, s.setupGo, s.install, s.synth, s.upload)
	}
	if s.sarif == "" {
		return s, errors.New("the synth step writes no --sarif file")
	}
	if !runFlag.MatchString(steps[s.synth].Run) {
		return s, errors.New("the synth step does not pin the run (--run): a newer report of another run would be read")
	}
	return s, nil
}

func TestWorkflowShapeCanFail(t *testing.T) {
	ok := []workflowStep{{Uses: "actions/checkout@v4"}, {Uses: "actions/setup-go@v5"},
		{Run: "go install github.com/fluxwatch/fluxwatch/cmd/fluxwatch@latest"},
		{Run: "fluxwatch synth --run R --sarif r.sarif d"}, {Uses: "github/codeql-action/upload-sarif@v3"}}
	if _, err := shapeOf(ok); err != nil {
		t.Fatalf("a complete job: %v", err)
	}
	noSarif := append([]workflowStep(nil), ok...)
	noSarif[3].Run = "fluxwatch synth --run R d"
	noRun := append([]workflowStep(nil), ok...)
	noRun[3].Run = "fluxwatch synth --sarif r.sarif d"
	swapped := append([]workflowStep(nil), ok...)
	swapped[3], swapped[4] = swapped[4], swapped[3]
	for name, steps := range map[string][]workflowStep{"no upload": ok[:4], "no sarif": noSarif, "no run": noRun, "upload first": swapped} {
		if _, err := shapeOf(steps); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := readWorkflow([]byte("jobs:\n  r:\n    runs_on: x\n")); err == nil {
		t.Error("a misspelt key (runs_on) is accepted")
	}
}

// TestWorkflowExample checks docs/github-actions.yml: it is valid YAML of
// the expected shape, and its run: steps, run locally in order against a
// copy of testdata/example as GitHub would run them (GITHUB_ACTIONS=true,
// a job summary file, one output file per step, if: always() after a
// failure, ${{ steps.ID.outputs.NAME }} in a step's env), trip the gate on
// the risky example run, write SARIF that validates, append the summary
// and write verdict= to the step's outputs, also with a newer report of
// another run planted in the run directory. The install step is checked,
// not run (it needs the network): the fluxwatch under test is on PATH.
func TestWorkflowExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	w, err := readWorkflow(data)
	if err != nil {
		t.Fatalf("docs/github-actions.yml: %v", err)
	}
	if _, ok := w.On["pull_request"]; !ok {
		t.Error("the workflow does not run on pull_request")
	}
	if w.Permissions["security-events"] != "write" {
		t.Error("upload-sarif needs permissions: security-events: write")
	}
	if len(w.Jobs) != 1 {
		t.Fatalf("want one job, got %d", len(w.Jobs))
	}
	var job = w.Jobs["review"]
	if len(job.Steps) == 0 {
		t.Fatal("no job named review, or it has no steps")
	}
	shape, err := shapeOf(job.Steps)
	if err != nil {
		t.Fatal(err)
	}
	if v, want := job.Steps[shape.setupGo].With["go-version"], goVersion(t); v != want {
		t.Errorf("setup-go installs Go %q, go.mod says %q", v, want)
	}
	if st := job.Steps[shape.upload]; st.If != "always()" || st.With["sarif_file"] != shape.sarif {
		t.Errorf("upload-sarif: if %q, sarif_file %q; want always() and the synth step's %q", st.If, st.With["sarif_file"], shape.sarif)
	}

	work := t.TempDir()
	runDir := job.Env["RUN_DIR"]
	if runDir != "testdata/example" {
		t.Fatalf("RUN_DIR is %q: the test runs the workflow against testdata/example", runDir)
	}
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	if err := copyTree(filepath.Join(work, runDir), example); err != nil {
		t.Fatal(err)
	}
	// A stranger's report, of another run and newer than every real one,
	// declaring the run safe (SPEC §10): the pinned run still gates.
	stranger := filepath.Join(work, runDir, "fd-stranger.0bad0000-0000-4000-8000-000000000000.md")
	if err := os.WriteFile(stranger, []byte("### Findings Index\nVerdict: safe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(stranger, future, future); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(t.TempDir(), "step_summary.md")
	outputs := map[string]map[string]string{} // step id → its outputs
	failed := false
	var synthOut string
	for i, st := range job.Steps {
		if st.Run == "" || i == shape.install {
			continue
		}
		switch st.If {
		case "", "success()":
			if failed {
				t.Logf("step %d (%s) skipped: an earlier step failed", i, st.Name)
				continue
			}
		case "always()":
		case "failure()":
			if !failed {
				continue
			}
		default:
			t.Fatalf("step %d: the test does not know the condition %q", i, st.If)
		}
		outFile := filepath.Join(t.TempDir(), "github_output")
		cmd := exec.Command("sh", "-e", "-c", st.Run)
		cmd.Dir = work
		cmd.Env = append(hostEnv(), "GITHUB_ACTIONS=true", "NO_COLOR=1", "GORACE=atexit_sleep_ms=0",
			"GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+outFile,
			"GIT_CEILING_DIRECTORIES="+filepath.Dir(work))
		for k, v := range job.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+expandOutputs(t, v, outputs))
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		t.Logf("step %d (%s): %v\nstdout:\n%sstderr:\n%s", i, st.Name, err, stdout.String(), stderr.String())
		if i == shape.synth {
			var x *exec.ExitError
			if !errors.As(err, &x) || x.ExitCode() != exitGate {
				t.Fatalf("synth on the risky example run: %v, want exit %d (the gate)", err, exitGate)
			}
			synthOut = stdout.String()
		} else if err != nil {
			t.Fatalf("step %d (%s): %v", i, st.Name, err)
		}
		if err != nil {
			failed = true
		}
		if st.ID != "" {
			outputs[st.ID] = readGitHubOutput(t, outFile)
		}
	}

	synthStep := job.Steps[shape.synth]
	if got := outputs[synthStep.ID]["verdict"]; got != "risky" {
		t.Errorf("synth's step outputs: verdict=%q, want risky (outputs %v)", got, outputs[synthStep.ID])
	}
	if !regexp.MustCompile(`(?m)^::error file=`).MatchString(synthOut) {
		t.Errorf("synth printed no ::error annotation on GitHub Actions:\n%s", synthOut)
	}
	sum, err := os.ReadFile(summary)
	if err != nil {
		t.Fatalf("job summary: %v", err)
	}
	for _, want := range []string{"# Review Summary", "**Verdict:** risky", "_fluxwatch verdict: **risky**_"} {
		if !bytes.Contains(sum, []byte(want)) {
			t.Errorf("the job summary lacks %q:\n%s", want, sum)
		}
	}
	validateSARIF(t, filepath.Join(work, shape.sarif))
}

// hostEnv is the test's environment without what would change a step's
// outcome from outside: fluxwatch's variables and GitHub's.
func hostEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLUX") && !strings.HasPrefix(kv, "GITHUB_") && !strings.HasPrefix(kv, "SOURCE_DATE_EPOCH=") {
			env = append(env, kv)
		}
	}
	return env
}

// expandOutputs replaces ${{ steps.ID.outputs.NAME }} by what step ID wrote
// to its output file; any other expression fails the test.
func expandOutputs(t *testing.T, v string, outputs map[string]map[string]string) string {
	re := regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	return re.ReplaceAllStringFunc(v, func(expr string) string {
		m := regexp.MustCompile(`^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$`).FindStringSubmatch(re.FindStringSubmatch(expr)[1])
		if m == nil {
			t.Fatalf("the test does not know the expression %s", expr)
		}
		return outputs[m[1]][m[2]]
	})
}

// readGitHubOutput reads a $GITHUB_OUTPUT file: name=value lines and
// name<<DELIMITER heredocs.
func readGitHubOutput(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return out
	} else if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: not an output line: %q", path, line)
		}
		out[name] = val
	}
	return out
}

// goVersion is the go directive of go.mod without its patch ("1.26").
func goVersion(t *testing.T) string {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	return string(m[1])
}

// validateSARIF checks the file against the OASIS SARIF 2.1.0 schema that
// synth's tests use, and that it holds results.
func validateSARIF(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("SARIF: %v", err)
	}
	sch := schematest.CompileFile(t, "../../synth/testdata/sarif-schema-2.1.0.json")
	if err := schematest.Validate(sch, data); err != nil {
		t.Fatalf("%s does not validate against SARIF 2.1.0: %v", path, err)
	}
	var log struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("%s: want one run with results (err %v)", path, err)
	}
}
