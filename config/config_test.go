package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/report"
)

const full = `# every key
gate:
  fail-on: needs-changes
  fail-on-new: P1
  allow-unreadable: true
baseline: reviews/main/findings.json
output:
  out: review-out
  sarif: fluxwatch.sarif
  rdjsonl: fluxwatch.rdjsonl
  junit: fluxwatch.xml
evidence:
  repo: .
  check: false
agents:
  expect: [fd-safety, fd-architecture]
  strict-run: true
  dedup: exact
suppressions:
  - fingerprint: 23ee7a8151072506602eaaec6f45cd0e
    reason: tokens move to cookies in 2.1
    expires: 2026-12-31
  - match: {title: "rate limit", file: "api/**", severity: P2}
    reason: the gateway limits rates
`

func TestParseFull(t *testing.T) {
	c, err := Parse("repo/.fluxwatch.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if c.Gate.FailOn != "needs-changes" || c.Gate.FailOnNew != "P1" || c.Baseline != "reviews/main/findings.json" ||
		c.Output.Files["sarif"] != "fluxwatch.sarif" || c.Output.Files["junit"] != "fluxwatch.xml" || c.Evidence.Check == nil || *c.Evidence.Check ||
		len(c.Agents.Expect) != 2 || c.Agents.StrictRun == nil || !*c.Agents.StrictRun || c.Agents.Dedup != "exact" ||
		c.Gate.AllowUnreadable == nil || !*c.Gate.AllowUnreadable {
		t.Errorf("config = %+v", c)
	}
	if len(c.Suppressions) != 2 || c.Suppressions[0].Line != 20 || c.Suppressions[1].Line != 23 ||
		c.Suppressions[1].Match.File != "api/**" || c.Suppressions[0].Expires != "2026-12-31" {
		t.Errorf("suppressions = %+v", c.Suppressions)
	}
	s := c.SynthSuppressions()
	if s[1].By() != "repo/.fluxwatch.yaml:23" || s[1].Match.Severity != "P2" {
		t.Errorf("synth suppressions = %+v", s)
	}
	if got := c.Resolve("reviews/x.json"); got != filepath.Join("repo", "reviews/x.json") {
		t.Errorf("Resolve = %q", got)
	}
	for _, p := range []string{"", "-", "/abs/x"} {
		if got := c.Resolve(p); got != p {
			t.Errorf("Resolve(%q) = %q", p, got)
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for _, data := range []string{"", "\n# nothing\n", "---\n", "~\n"} {
		c, err := Parse("c.yaml", []byte(data))
		if err != nil || c.Gate.FailOn != "" || len(c.Suppressions) != 0 {
			t.Errorf("%q: %+v, %v; want the zero config", data, c, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, data string
		want       string // the whole message's start: "c.yaml:LINE: …"
	}{
		{"unknown top key", "gate: {}\nbaselines: x\n", `c.yaml:2: unknown key "baselines" in the top level`},
		{"unknown nested key", "gate:\n  fail-on: risky\n  fail_on_new: P1\n", `c.yaml:3: unknown key "fail_on_new" in gate (want allow-unreadable, fail-on, fail-on-new)`},
		{"unknown key in a suppression", "suppressions:\n  - fingerprint: ab\n    reason: r\n    why: x\n", `c.yaml:4: unknown key "why" in suppressions[1]`},
		{"unknown match key", "suppressions:\n  - match: {path: a}\n    reason: r\n", `c.yaml:2: unknown key "path" in suppressions[1].match`},
		{"no reason", "suppressions:\n  - fingerprint: ab\n  - match: {title: x}\n", `c.yaml:2: suppression (fingerprint ab) has no reason`},
		{"second without reason", "suppressions:\n  - fingerprint: ab\n    reason: ok\n  - match: {title: x}\n", `c.yaml:4: suppression (match title "x") has no reason`},
		{"both", "suppressions:\n  - fingerprint: ab\n    match: {title: x}\n    reason: r\n", `c.yaml:2: suppression (fingerprint ab; match title "x") names both`},
		{"bad expiry", "suppressions:\n  - fingerprint: ab\n    reason: r\n    expires: tomorrow\n", `c.yaml:2: suppression (fingerprint ab) expires "tomorrow"`},
		{"bad regexp", "suppressions:\n  - match: {title: \"(\"}\n    reason: r\n", `c.yaml:2: suppression (match title "(") match.title`},
		{"list where a value belongs", "gate:\n  fail-on: [risky]\n", `c.yaml:2: gate.fail-on: want a single value`},
		{"mapping where a list belongs", "suppressions: {a: b}\n", `c.yaml:1: suppressions: want a list`},
		{"scalar where a mapping belongs", "gate: risky\n", `c.yaml:1: gate: want a mapping of allow-unreadable, fail-on, fail-on-new`},
		// The keys of every mapping, as read from Config's yaml tags.
		{"keys of the top level", "- a\n", "c.yaml:1: the top level: want a mapping of agents, baseline, evidence, gate, output, suppressions"},
		{"keys of output", "output: x\n", "c.yaml:1: output: want a mapping of " + outputKeys()},
		{"keys of evidence", "evidence: x\n", "c.yaml:1: evidence: want a mapping of check, repo"},
		{"keys of agents", "agents: x\n", "c.yaml:1: agents: want a mapping of dedup, expect, ignore, include, strict-run"},
		{"keys of a suppression", "suppressions: [x]\n", "c.yaml:1: suppressions[1]: want a mapping of expires, fingerprint, match, reason"},
		{"keys of a match", "suppressions:\n  - match: x\n", "c.yaml:2: suppressions[1].match: want a mapping of file, severity, title"},
		{"mapping where a list of values belongs", "agents:\n  expect: {a: b}\n", "c.yaml:2: agents.expect: want a list of values, not a mapping"},
		{"not a bool", "agents:\n  strict-run: maybe\n", "c.yaml:2: cannot unmarshal"},
		{"bad fail-on", "gate:\n  fail-on: always\n", `c.yaml:2: gate.fail-on "always"`},
		{"bad fail-on-new", "gate:\n  fail-on-new: high\n", `c.yaml:2: gate.fail-on-new "high"`},
		{"bad dedup", "agents:\n  dedup: maybe\n", `c.yaml:2: agents.dedup "maybe"`},
		{"bad agent name", "agents:\n  expect: [../x]\n", `c.yaml:2: agents.expect "../x"`},
		{"syntax", "gate: [\n", "c.yaml:1: "},
		{"alias", "gate: &g\n  fail-on: risky\nagents: *g\n", "c.yaml:1: gate: YAML anchors and aliases are not allowed"},
		{"top is a list", "- a\n", "c.yaml:1: the top level: want a mapping"},
		{"duplicate key", "baseline: a\nbaseline: b\n", "c.yaml:2: "},
		{"second document", "gate:\n  fail-on: risky\n---\nbogus: 1\n", "c.yaml:3: a second YAML document"},
		{"bad second document", "gate:\n  fail-on: risky\n---\n[\n", "c.yaml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tt.data))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to start with %q", err, tt.want)
			}
		})
	}
}

func TestFind(t *testing.T) {
	top := t.TempDir()
	sub := filepath.Join(top, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, _, err := Find(sub, top, ""); p != "" || err != nil {
		t.Errorf("no file: %q, %v", p, err)
	}
	topFile := filepath.Join(top, Name)
	os.WriteFile(topFile, []byte("gate: {}\n"), 0o644)
	if p, _, err := Find(sub, top, ""); p != topFile || err != nil {
		t.Errorf("from a subdirectory: %q, %v; want %q", p, err, topFile)
	}
	// Outside a work tree (top ""), only the directory itself counts.
	if p, _, err := Find(sub, "", ""); p != "" || err != nil {
		t.Errorf("outside a work tree: %q, %v; want none", p, err)
	}
	// The nearest file wins.
	near := filepath.Join(top, "a", Name)
	os.WriteFile(near, []byte("gate: {}\n"), 0o644)
	if p, _, _ := Find(sub, top, ""); p != near {
		t.Errorf("nearest: %q, want %q", p, near)
	}
	// Never above the top.
	inner := filepath.Join(top, "a")
	os.Remove(near)
	if p, _, _ := Find(sub, filepath.Join(top, "a"), ""); p != "" {
		t.Errorf("with top %s: %q, want none (the file above the top does not count)", inner, p)
	}
	// A directory of that name is an error, not skipped.
	os.Remove(topFile)
	os.Mkdir(topFile, 0o755)
	if _, _, err := Find(sub, top, ""); err == nil {
		t.Errorf("a directory named %s: no error", Name)
	}
}

// A .fluxwatch.yaml in the run directory (or below it, or a link into it)
// is never the configuration: the search passes over it to the next one
// up, and names it, with the run's own file, as ignored (SPEC §10).
func TestFindSkipsRun(t *testing.T) {
	top := t.TempDir()
	run := filepath.Join(top, "reviews", "run")
	deep := filepath.Join(run, "findings")
	os.MkdirAll(deep, 0o755)
	topFile := filepath.Join(top, Name)
	os.WriteFile(topFile, []byte("gate: {fail-on: risky}\n"), 0o644)
	planted := filepath.Join(run, Name)
	os.WriteFile(planted, []byte("gate: {fail-on: none}\n"), 0o644)
	os.WriteFile(filepath.Join(deep, Name), []byte("gate: {fail-on: none}\n"), 0o644)
	for _, tc := range []struct {
		name, from  string
		want        string
		wantIgnored []string
	}{
		{"inside the run", run, topFile, []string{planted}},
		{"below the run", deep, topFile, []string{planted, filepath.Join(deep, Name)}},
		{"beside the run", top, topFile, []string{planted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ignored, err := Find(tc.from, top, run)
			if err != nil || got != tc.want {
				t.Fatalf("Find = %q, %v; want %q", got, err, tc.want)
			}
			if strings.Join(ignored, " ") != strings.Join(tc.wantIgnored, " ") {
				t.Errorf("ignored = %q, want %q", ignored, tc.wantIgnored)
			}
		})
	}
	// Without a run, the nearest file is the configuration, as ever.
	if got, ignored, _ := Find(run, top, ""); got != planted || len(ignored) != 0 {
		t.Errorf("no run: %q, %q; want %q", got, ignored, planted)
	}
	// A link beside the work directory that leads into the run: ignored.
	os.Remove(topFile)
	if err := os.Symlink(planted, topFile); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	if got, ignored, _ := Find(top, top, run); got != "" || len(ignored) != 1 {
		t.Errorf("a link into the run: %q, %q; want none, the run's file ignored", got, ignored)
	}
}

// Local keeps every path of the file inside its repository, links
// followed, and says which setting and line did not.
func TestLocal(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	os.MkdirAll(filepath.Join(top, "elsewhere"), 0o755)
	os.Symlink(filepath.Join(top, "elsewhere"), filepath.Join(repo, "out-link"))
	os.Symlink("../../elsewhere/new.xml", filepath.Join(repo, "sub", "dangling.xml"))
	data := "baseline: ../outside.json\noutput:\n  html: ../../x.html\n  sarif: out/r.sarif\n  junit: /etc/passwd\n  out: ../out-link/new\n  rdjsonl: \"-\"\nevidence:\n  repo: /\n"
	c, err := Parse(filepath.Join(repo, "sub", Name), []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	c.Root = repo
	for _, tc := range []struct{ key, want string }{
		{"output.sarif", filepath.Join(repo, "sub", "out", "r.sarif")},
		{"output.rdjsonl", "-"},
		{"baseline", filepath.Join(repo, "outside.json")}, // ../ of sub: still in the repository
		{"output.html", ""},
		{"output.junit", ""},
		{"output.out", ""},
		{"evidence.repo", ""},
		{"dangling", ""}, // a link out that a write would create a file through
	} {
		v := c.Get(tc.key)
		if tc.key == "dangling" {
			v = "dangling.xml"
		}
		got, err := c.Local(tc.key, v)
		switch {
		case tc.want != "" && (err != nil || got != tc.want):
			t.Errorf("Local(%s) = %q, %v; want %q", tc.key, got, err, tc.want)
		case tc.want == "" && (err == nil || !strings.Contains(err.Error(), tc.key) || !strings.Contains(err.Error(), "leads outside")):
			t.Errorf("Local(%s) = %q, %v; want an error naming it", tc.key, got, err)
		}
	}
	if _, err := c.Local("output.html", c.Output.Files["html"]); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(repo, "sub", Name)+":3: ") {
		t.Errorf("err = %v, want it to name the file and line 3", err)
	}
	// Without a Root, the file's own directory is the limit.
	c.Root = ""
	if _, err := c.Local("baseline", c.Baseline); err == nil {
		t.Errorf("baseline ../outside.json with no Root: no error")
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, Name)
	os.WriteFile(p, []byte(full), 0o644)
	c, err := Load(p)
	if err != nil || c.Path != p {
		t.Fatalf("Load: %+v, %v", c, err)
	}
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxSize)+"\n"), 0o644)
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized: %v", err)
	}
	if _, err := Load(dir); err == nil {
		t.Errorf("a directory: no error")
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Errorf("missing: no error")
	}
}

// outputKeys are the keys of output:, sorted: out and the Config key of
// every file format of report.Formats.
func outputKeys() string {
	keys := []string{"out"}
	for _, f := range report.FileFormats() {
		keys = append(keys, f.Config)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// Every file format of report.Formats has its key under output:, a path
// setting.
func TestOutputKeysAreTheFormats(t *testing.T) {
	for _, f := range report.FileFormats() {
		c, err := Parse("x.yaml", []byte("output:\n  "+f.Config+": r/out\n"))
		if err != nil {
			t.Errorf("output.%s: %v", f.Config, err)
			continue
		}
		if got := c.Get("output." + f.Config); got != "r/out" {
			t.Errorf("Get(output.%s) = %q", f.Config, got)
		}
		if !slices.Contains(PathKeys, "output."+f.Config) {
			t.Errorf("output.%s is not a path setting", f.Config)
		}
	}
	if _, err := Parse("x.yaml", []byte("output:\n  xml: r/out\n")); err == nil || !strings.Contains(err.Error(), `unknown key "xml"`) {
		t.Errorf("an output key of no format: %v", err)
	}
}
