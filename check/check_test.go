package check

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fluxwatch/fluxwatch/parse"
)

// writeFiles writes the files of a txtar archive under dir.
func writeFiles(t *testing.T, dir, archive string) {
	t.Helper()
	fsys, err := txtar.FS(txtar.Parse([]byte(archive)))
	if err == nil {
		err = os.CopyFS(dir, fsys)
	}
	if err != nil {
		t.Fatal(err)
	}
}

const validReport = "### Findings Index\n- P1 | SEC-1 | \"Auth\" | Token compared with == in auth/check.go:3\nVerdict: needs-changes\n"

// TestPathsClassifiesNamedFiles: a file named alone is read as
// parse.NamedFile says, each kind with its summary.
func TestPathsClassifiesNamedFiles(t *testing.T) {
	dir := t.TempDir()
	// notes.txt, named, is read as a report whatever its name.
	writeFiles(t, dir, "-- fd-sec.md --\n"+validReport+"-- notes.txt --\n"+validReport+`-- old-bus.jsonl --
{"severity":"notable","agent":"fd-a","category":"c","summary":"s","timestamp":"2026-11-20T10:00:00Z"}
-- MANIFEST.yaml --
feature_name: Login
-- design/manifest.yaml --
designs:
  - screenshot_file_name: a.png
    description: A
-- findings/api.yaml --
specialist_name: api
notes: n
approaches: []
`)
	var paths []string
	for _, name := range []string{"fd-sec.md", "notes.txt", "old-bus.jsonl", "MANIFEST.yaml", "design/manifest.yaml", "findings/api.yaml"} {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(name)))
	}
	res, err := Paths(context.Background(), paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unreadable) != 0 {
		t.Fatalf("unreadable: %v", res.Unreadable)
	}
	if len(res.Reports) != 2 || res.Reports[0].Agent != "fd-sec" || res.Reports[1].Agent != "notes" {
		t.Fatalf("reports: %+v", res.Reports)
	}
	if r := res.Reports[0]; r.Status != parse.StatusValid || len(r.Findings) != 1 || r.Verdict != parse.NeedsChanges {
		t.Errorf("fd-sec.md: status %s, %d findings, verdict %s", r.Status, len(r.Findings), r.Verdict)
	}
	want := map[string]string{
		"old-bus.jsonl":        "bus, 1 entry (blocking 0, notable 1, stall 0, unknown 0), 0 diagnostics",
		"MANIFEST.yaml":        `feature manifest "Login"`,
		"design/manifest.yaml": "design manifest, 1 design",
		"findings/api.yaml":    `specialist "api", 0 approaches`,
	}
	for _, o := range res.Others {
		rel, _ := filepath.Rel(dir, o.Path)
		if w, ok := want[filepath.ToSlash(rel)]; !ok || o.Summary != w {
			t.Errorf("%s: summary %q, want %q", rel, o.Summary, w)
		}
		delete(want, filepath.ToSlash(rel))
	}
	if len(want) != 0 {
		t.Errorf("not read: %v", want)
	}
}

// TestStrict: --strict passes only when every report is valid; a .partial
// named alone is judged as the report it becomes.
func TestStrict(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "-- fd-a.md.partial --\n"+validReport+"-- fd-b.md --\nno index here, just prose.\n")
	partial := filepath.Join(dir, "fd-a.md.partial")
	for _, c := range []struct {
		name       string
		paths      []string
		asFinished bool
		valid      bool
		says       string
	}{
		{"partial as finished", []string{partial}, true, true, ""},
		{"partial as it is", []string{partial}, false, false, "still being written"},
		{"prose", []string{filepath.Join(dir, "fd-b.md")}, true, false, "not valid"},
		{"nothing", nil, true, false, "no agent report"},
	} {
		res, err := Paths(context.Background(), c.paths, Options{AsFinished: c.asFinished})
		if err != nil {
			t.Fatal(err)
		}
		var w bytes.Buffer
		if got := res.Strict(&w); got != c.valid || !strings.Contains(w.String(), c.says) {
			t.Errorf("%s: Strict = %v, printed %q; want %v saying %q", c.name, got, &w, c.valid, c.says)
		}
	}
}

// TestEvidenceUngrounded: a P1 whose every claim fails is ungrounded (the
// rule synth.Ungrounded states); a P2 is not, whatever its claims.
func TestEvidenceUngrounded(t *testing.T) {
	repo := t.TempDir()
	writeFiles(t, repo, "-- auth/check.go --\npackage auth\n\nfunc ok() bool { return true }\n")
	run := t.TempDir()
	writeFiles(t, run, `-- fd-a.md --
### Findings Index
- P1 | A-1 | "Auth" | Broken in auth/missing.go:3
- P2 | A-2 | "Auth" | Also in auth/gone.go:9
Verdict: needs-changes
-- fd-b.md --
### Findings Index
- P1 | B-1 | "Auth" | Returns true in auth/check.go:3
Verdict: needs-changes
`)
	res, err := Paths(context.Background(), []string{run}, Options{Evidence: true, Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reports) != 2 {
		t.Fatalf("reports: %+v", res.Reports)
	}
	a, b := res.Reports[0], res.Reports[1]
	if a.Evidence == nil || len(a.Evidence.Claims) != 2 || len(a.Evidence.Ungrounded) != 1 || a.Evidence.Ungrounded[0] != 0 {
		t.Errorf("fd-a: evidence %+v; want 2 claims, finding 0 ungrounded", a.Evidence)
	}
	if b.Evidence == nil || len(b.Evidence.Ungrounded) != 0 {
		t.Errorf("fd-b: evidence %+v; want none ungrounded", b.Evidence)
	}
	var out bytes.Buffer
	if err := res.WriteText(&out, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "ungrounded: P1 A-1 Auth") && !strings.Contains(out.String(), "ungrounded: P1 A-1") {
		t.Errorf("text output does not say A-1 is ungrounded:\n%s", &out)
	}
	if _, err := Paths(context.Background(), nil, Options{Evidence: true, Repo: filepath.Join(repo, "none")}); err == nil || !strings.HasPrefix(err.Error(), "--repo: ") {
		t.Errorf("missing --repo: %v", err)
	}
}

// TestWriteJSON: stdout is exactly the array, the other files go to
// stderr; an empty check is [].
func TestWriteJSON(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "-- fd-a.md --\n"+validReport+"-- findings.jsonl --\nnot json\n")
	for _, c := range []struct {
		paths []string
		n     int
	}{{[]string{dir}, 1}, {nil, 0}} {
		res, err := Paths(context.Background(), c.paths, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if err := res.WriteJSON(&stdout, &stderr, false); err != nil {
			t.Fatal(err)
		}
		var got []Report
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil || len(got) != c.n || got == nil {
			t.Errorf("%v: stdout %q: %v", c.paths, &stdout, err)
		}
		if c.n > 0 && !strings.Contains(stderr.String(), "findings.jsonl: bus") {
			t.Errorf("stderr %q: want the bus line", &stderr)
		}
	}
}

// TestResolvedShown: the findings a report marks fixed are listed in
// check --json and counted in its text line, never as findings (SPEC §2.3).
func TestResolvedShown(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, `-- fd-audit.md --
# Audit

## Critical

### 1. ~~Shell command built from the request~~
Fixed in the last commit.

### 2. Session cookie without Secure — FIXED

## High

### 3. Rate limit missing on the login form
`+"`web/login.go:12`"+` accepts unlimited attempts.
`)
	res, err := Paths(context.Background(), []string{filepath.Join(dir, "fd-audit.md")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Reports[0]
	if len(r.Findings) != 1 || r.Findings[0].Severity != parse.P1 || len(r.Resolved) != 2 {
		t.Fatalf("findings %+v resolved %+v: want one P1 finding and two resolved", r.Findings, r.Resolved)
	}
	var text, js, stderr bytes.Buffer
	if err := res.WriteText(&text, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "1 finding (P0 0, P1 1, P2 0, P3 0), 2 resolved,") {
		t.Errorf("text does not count the resolved findings:\n%s", text.String())
	}
	if err := res.WriteJSON(&js, &stderr, true); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Resolved []parse.Finding `json:"resolved"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Resolved) != 2 || got[0].Resolved[0].Severity != parse.P0 {
		t.Errorf("check --json resolved = %+v, want the two P0s", got)
	}
}
