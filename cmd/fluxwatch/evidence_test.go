package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// ownSources are files of this project that the realistic evidence test
// cites. Their current content is read at test time, so the test stays right
// as the project changes.
var ownSources = []string{"parse/refs.go", "synth/normalize.go", "evidence/match.go", "cmd/fluxwatch/main.go"}

// citable returns the first 3-line block of lines that opens a func and
// occurs once in the file: its first line (from 1) and its text.
func citable(t *testing.T, name string, lines []string) (int, string) {
	t.Helper()
	whole := strings.Join(lines, "\n")
	for i := 0; i+3 <= len(lines); i++ {
		if !strings.HasPrefix(lines[i], "func ") {
			continue
		}
		block := strings.Join(lines[i:i+3], "\n")
		if strings.Count(whole, block) == 1 && !strings.Contains(block, "~~~") {
			return i + 1, block
		}
	}
	t.Fatalf("%s: no func block to cite", name)
	return 0, ""
}

func evidenceReport(findings ...string) string {
	var index, body strings.Builder
	index.WriteString("### Findings Index\n")
	for _, f := range findings {
		id, rest, _ := strings.Cut(f, "\x00")
		title, prose, _ := strings.Cut(rest, "\x00")
		fmt.Fprintf(&index, "- P1 | %s | \"Own source\" | %s\n", id, title)
		fmt.Fprintf(&body, "\n### %s: %s\n\n%s\n", id, title, prose)
	}
	index.WriteString("Verdict: needs-changes\n")
	return index.String() + body.String()
}

func evidenceFinding(id, title, ref, excerpt string) string {
	prose := "**Evidence**: `" + ref + "`\n"
	if excerpt != "" {
		prose += "\n~~~~go\n" + excerpt + "\n~~~~\n"
	}
	return id + "\x00" + title + "\x00" + prose
}

// TestEvidenceOwnSource is the realistic case of SPEC §5.7: a run directory
// inside a git work tree whose files are this project's own sources; four
// agents cite them exactly, shifted by a few lines, with an altered excerpt,
// and as files that do not exist, past the end of a file, and through a
// symlink that leaves the repository (to a file holding the very excerpt
// cited). synth, with the repository found from the run directory, and
// check --evidence must give every status exactly.
func TestEvidenceOwnSource(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	type source struct {
		lines []string
		start int
		block string
	}
	src := map[string]source{}
	for _, name := range ownSources {
		data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		start, block := citable(t, name, lines)
		src[name] = source{lines, start, block}
	}
	// A file outside the repository, reached through a symlink inside it,
	// holding exactly the excerpt the agent cites.
	leaked := src["parse/refs.go"]
	if err := os.MkdirAll(filepath.Join(base, "outside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "outside", "secret.go"), []byte(strings.Join(leaked.lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "internal"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../outside/secret.go", filepath.Join(repo, "internal", "leak.go")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}

	type want struct{ status, found string }
	expect := map[string]want{} // "agent ref" → result
	var exact, shifted, altered []string
	for i, name := range ownSources {
		s := src[name]
		ref := fmt.Sprintf("%s:%d-%d", name, s.start, s.start+2)
		exact = append(exact, evidenceFinding(fmt.Sprintf("EX-%03d", i+1), "Exact citation of "+name, ref, s.block))
		expect["fd-exact "+ref] = want{parse.EvidenceVerified, ""}

		moved := fmt.Sprintf("%s:%d-%d", name, s.start+4, s.start+6)
		shifted = append(shifted, evidenceFinding(fmt.Sprintf("SH-%03d", i+1), "Shifted citation of "+name, moved, s.block))
		expect["fd-shifted "+moved] = want{parse.EvidenceMoved, ref}

		wrong := strings.Replace(s.block, "func ", "func Bogus", 1)
		altered = append(altered, evidenceFinding(fmt.Sprintf("AL-%03d", i+1), "Altered excerpt of "+name, ref, wrong))
		expect["fd-altered "+ref] = want{parse.EvidenceMismatch, ""}
	}
	past := fmt.Sprintf("evidence/match.go:%d", len(src["evidence/match.go"].lines)+5)
	leakRef := fmt.Sprintf("internal/leak.go:%d-%d", leaked.start, leaked.start+2)
	missing := []string{
		evidenceFinding("MI-001", "Citation of a file that does not exist", "parse/no_such_file.go:10-12", "func invented() {\n}\n}"),
		evidenceFinding("MI-002", "Citation through a symlink out of the repository", leakRef, leaked.block),
		evidenceFinding("MI-003", "Citation past the end of a file", past, ""),
	}
	expect["fd-missing parse/no_such_file.go:10-12"] = want{parse.EvidenceMissingFile, ""}
	expect["fd-missing "+leakRef] = want{parse.EvidenceMissingFile, ""}
	expect["fd-missing "+past] = want{parse.EvidenceOutOfRange, ""}

	runDir := filepath.Join(repo, ".claude", "reviews", "run")
	for agent, fs := range map[string][]string{"fd-exact": exact, "fd-shifted": shifted, "fd-altered": altered, "fd-missing": missing} {
		if err := os.MkdirAll(runDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(runDir, agent+".md"), []byte(evidenceReport(fs...)), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	out := t.TempDir()
	stdout, stderr, code := runIn(t, "synth", "--dedup", "exact", "--out", out, runDir)
	if code != exitOK {
		t.Fatalf("synth: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "; evidence: 8/15 claims hold, 7 ungrounded →") {
		t.Errorf("one-line summary: %s", stdout)
	}
	data, err := os.ReadFile(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s synth.Synthesis
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	got := map[string]want{}
	for _, f := range s.Findings {
		if f.Evidence() == nil {
			t.Errorf("%s: no evidence", f.ID)
			continue
		}
		ungrounded := !strings.HasPrefix(f.ID, "EX-") && !strings.HasPrefix(f.ID, "SH-")
		if f.Evidence().Ungrounded != ungrounded {
			t.Errorf("%s: ungrounded = %v, want %v", f.ID, f.Evidence().Ungrounded, ungrounded)
		}
		for _, c := range f.Evidence().Claims {
			got[c.Agent+" "+c.Ref()] = want{c.Status, c.Found}
			if strings.HasPrefix(c.Path, "internal/leak.go") && c.Note != "symlink leads out of the repository: not followed" {
				t.Errorf("%s: note %q", c.Ref(), c.Note)
			}
		}
	}
	for k, w := range expect {
		if got[k] != w {
			t.Errorf("%s: got %+v, want %+v", k, got[k], w)
		}
	}
	if len(got) != len(expect) {
		t.Errorf("%d claims checked, want %d: %v", len(got), len(expect), got)
	}
	// The run directory was given as an absolute path: so is the repository.
	wantTally := synth.EvidenceTally{Repo: repo, Claims: 15, Verified: 4, Moved: 4, Mismatch: 4, MissingFile: 2, OutOfRange: 1, Ungrounded: 7}
	if s.Evidence == nil || *s.Evidence != wantTally {
		t.Errorf("tally %+v, want %+v", s.Evidence, wantTally)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(summary), "· **ungrounded**"); n != 7 {
		t.Errorf("summary.md flags %d findings ungrounded, want 7", n)
	}

	// check --evidence lists every claim with its status, in report order.
	stdout, stderr, code = runIn(t, "check", "--evidence", filepath.Join(runDir, "fd-shifted.md"), filepath.Join(runDir, "fd-missing.md"))
	if code != exitOK {
		t.Fatalf("check --evidence: exit %d: %s", code, stderr)
	}
	for k, w := range expect {
		agent, ref, _ := strings.Cut(k, " ")
		if agent != "fd-shifted" && agent != "fd-missing" {
			continue
		}
		line := ": " + w.status + ": " + ref
		if w.found != "" {
			line += " → " + w.found
		}
		if !strings.Contains(stdout, line) {
			t.Errorf("check --evidence lacks %q:\n%s", line, stdout)
		}
	}
	if !strings.Contains(stdout, "fd-missing.md: evidence against "+repo+": 3 claims (0 verified, 0 moved, 0 mismatch, 2 missing file, 1 out of range, 0 skipped), 3 ungrounded") {
		t.Errorf("check --evidence tally:\n%s", stdout)
	}
}

// runIn runs fluxwatch in-process.
func runIn(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := exitCode(run(context.Background(), args, bareEnv(&stdout, &stderr)), &stderr)
	return stdout.String(), stderr.String(), code
}
