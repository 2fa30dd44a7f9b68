package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// corpusRoot is ../shared/corpus seen from the repository root.
const corpusRoot = "../../../shared/corpus"

// runDirs returns every directory under root holding at least one agent file
// (report, partial or abort) by the names of SPEC §1.
func runDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		for _, e := range entries {
			switch parse.ClassifyName(e.Name()).Kind {
			case parse.KindReport, parse.KindPartial, parse.KindAbort:
				dirs = append(dirs, path)
				return nil
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestCorpusSynth runs `fluxwatch synth` on every run directory of the shared
// corpus: it must exit 0 or 1 (never 2 or 3), write a findings.json that
// validates against the schema, and give the verdict implied by the
// severities of the completed reports. Skipped when ../shared is absent.
func TestCorpusSynth(t *testing.T) {
	if _, err := os.Stat(corpusRoot); err != nil {
		t.Skip("no ../shared/corpus beside the repository")
	}
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(synth.Schema()))
	c := jsonschema.NewCompiler()
	if err := c.AddResource("findings.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch := c.MustCompile("findings.schema.json")

	dirs := runDirs(t, corpusRoot)
	if len(dirs) < 50 {
		t.Fatalf("found %d run directories in the corpus, want at least 50", len(dirs))
	}
	verdicts := map[parse.Verdict]int{}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(corpusRoot, dir)
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		e := &env{stdin: bytes.NewReader(nil), stdout: &stdout, stderr: &stderr,
			getenv: func(string) string { return "" }, isTerminal: func(io.Writer) bool { return false }}
		code := exitCode(run(context.Background(), []string{"synth", "-q", "--fail-on", "risky", "--out", out, dir}, e), &stderr)
		if code != exitOK && code != exitGate {
			t.Errorf("%s: exit %d: %s", rel, code, stderr.String())
			continue
		}
		data, err := os.ReadFile(filepath.Join(out, "findings.json"))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err == nil {
			err = sch.Validate(v)
		}
		if err != nil {
			t.Errorf("%s: findings.json does not validate: %v", rel, err)
			continue
		}
		var s struct {
			Verdict parse.Verdict `json:"verdict"`
			Agents  []struct {
				Status parse.Status                 `json:"status"`
				Counts struct{ P0, P1, P2, P3 int } `json:"counts"`
			} `json:"agents"`
		}
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		want, completed := parse.Safe, 0
		for _, a := range s.Agents {
			if !a.Status.Completed() {
				continue
			}
			completed++
			switch {
			case a.Counts.P0 > 0:
				want = parse.Risky
			case a.Counts.P1 > 0 && want == parse.Safe:
				want = parse.NeedsChanges
			}
		}
		if completed == 0 {
			want = parse.Error
		}
		if s.Verdict != want {
			t.Errorf("%s: verdict %s, but the completed reports' severities imply %s", rel, s.Verdict, want)
		}
		if (code == exitGate) != (want == parse.Risky || want == parse.Error) {
			t.Errorf("%s: exit %d for verdict %s with --fail-on risky", rel, code, s.Verdict)
		}
		verdicts[s.Verdict]++
	}
	t.Logf("%d run directories: %v", len(dirs), verdicts)
}
