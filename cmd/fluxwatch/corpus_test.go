package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/internal/schematest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

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
// severities of the completed reports. Evidence is checked against the
// corpus's copy of each repository (flux-drive/OWNER__REPO, which holds only
// the published review files, so most cited files are missing): the claims
// are tallied consistently and never move the verdict. Skipped when
// ../shared is absent.
func TestCorpusSynth(t *testing.T) {
	root := corpustest.Root(t)
	sch := schematest.Compile(t, "findings.schema.json", synth.Schema())

	dirs := runDirs(t, root)
	if len(dirs) < 50 {
		t.Fatalf("found %d run directories in the corpus, want at least 50", len(dirs))
	}
	verdicts := map[parse.Verdict]int{}
	var total synth.EvidenceTally
	empty := t.TempDir()
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		repo := empty
		if parts := strings.Split(filepath.ToSlash(rel), "/"); len(parts) > 2 && parts[0] == "flux-drive" {
			repo = filepath.Join(root, parts[0], parts[1])
		}
		out := t.TempDir()
		_, stderr, code := runIn(t, "synth", "-q", "--fail-on", "risky", "--repo", repo, "--out", out, dir)
		if code != exitOK && code != exitGate {
			t.Errorf("%s: exit %d: %s", rel, code, stderr)
			continue
		}
		data, err := os.ReadFile(filepath.Join(out, "findings.json"))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if err := schematest.Validate(sch, data); err != nil {
			t.Errorf("%s: findings.json does not validate: %v", rel, err)
			continue
		}
		var s struct {
			Verdict  parse.Verdict        `json:"verdict"`
			Evidence *synth.EvidenceTally `json:"evidence"`
			Findings []synth.Finding      `json:"findings"`
			Agents   []struct {
				Status parse.Status                 `json:"status"`
				Counts struct{ P0, P1, P2, P3 int } `json:"counts"`
			} `json:"agents"`
		}
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		want, completed, unread := parse.Safe, 0, 0
		for _, a := range s.Agents {
			if !a.Status.Completed() {
				continue
			}
			completed++
			if a.Status == parse.StatusUnreadable {
				unread++
			}
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
		// A report that could not be fully read trips the gate too (SPEC §2.3).
		if (code == exitGate) != (want == parse.Risky || want == parse.Error || unread > 0) {
			t.Errorf("%s: exit %d for verdict %s, %d unreadable, with --fail-on risky", rel, code, s.Verdict, unread)
		}
		verdicts[s.Verdict]++
		if ev := s.Evidence; ev == nil {
			t.Errorf("%s: evidence not checked with --repo", rel)
		} else {
			if sum := ev.Verified + ev.Moved + ev.Mismatch + ev.MissingFile + ev.OutOfRange + ev.Skipped; sum != ev.Claims {
				t.Errorf("%s: evidence tally %+v does not add up", rel, *ev)
			}
			n, ungrounded := 0, 0
			for _, f := range s.Findings {
				if f.Evidence() != nil {
					n += len(f.Evidence().Claims)
					if f.Evidence().Ungrounded {
						ungrounded++
					}
				}
			}
			if n != ev.Claims || ungrounded != ev.Ungrounded {
				t.Errorf("%s: findings hold %d claims, %d ungrounded; the tally says %+v", rel, n, ungrounded, *ev)
			}
			total.Claims += ev.Claims
			total.Verified += ev.Verified
			total.Moved += ev.Moved
			total.Mismatch += ev.Mismatch
			total.MissingFile += ev.MissingFile
			total.OutOfRange += ev.OutOfRange
			total.Skipped += ev.Skipped
			total.Ungrounded += ev.Ungrounded
		}
	}
	t.Logf("%d run directories: %v", len(dirs), verdicts)
	t.Logf("evidence: %+v", total)
}

// TestCorpusNeverSilentlySafe: every report of both shared corpora alone in
// a run (the home corpus's reports, and ../shared/corpus-wild's files by
// other authors): whatever status the reader gives it, one that could not
// be fully read trips every gate (--fail-on risky, even when the verdict is
// safe) and not with --allow-unreadable, and its summary.md, SARIF and
// one-line summary say so; one that was read in full never says it.
// Skipped when ../shared is absent. The figures it prints are how many
// reports the reader could not fully read.
func TestCorpusNeverSilentlySafe(t *testing.T) {
	root := corpustest.Root(t)
	var files []string
	for _, e := range corpustest.Manifest(t, root) {
		if strings.HasSuffix(e.Path, ".md") && parse.ClassifyName(filepath.Base(e.Path)).Kind == parse.KindReport {
			files = append(files, filepath.Join(root, filepath.FromSlash(e.Path)))
		}
	}
	wild := filepath.Join(filepath.Dir(root), "corpus-wild")
	if fs, err := filepath.Glob(filepath.Join(wild, "*", "*")); err == nil {
		files = append(files, fs...)
	}
	unread, read := 0, 0
	for i, file := range files {
		run := filepath.Join(t.TempDir(), "run")
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// The file alone, under a report's name (SPEC §1).
		if err := os.WriteFile(filepath.Join(run, fmt.Sprintf("agent-%d.md", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		stdout, _, code := runIn(t, "synth", "--fail-on", "risky", "--no-evidence", "--sarif", filepath.Join(out, "r.sarif"), "--out", out, run)
		rel, _ := filepath.Rel(filepath.Dir(root), file)
		js, err := os.ReadFile(filepath.Join(out, "findings.json"))
		if err != nil {
			t.Errorf("%s: exit %d, %v", rel, code, err)
			continue
		}
		var s struct {
			Verdict          parse.Verdict `json:"verdict"`
			AgentsUnreadable []string      `json:"agents_unreadable"`
		}
		if err := json.Unmarshal(js, &s); err != nil {
			t.Fatal(err)
		}
		summary, _ := os.ReadFile(filepath.Join(out, "summary.md"))
		sarif, _ := os.ReadFile(filepath.Join(out, "r.sarif"))
		said := strings.Contains(string(summary), "**Verdict:** "+string(s.Verdict)+" — 1 report could not be fully read (") &&
			strings.Contains(stdout, " — 1 report could not be fully read: ") && strings.Contains(string(sarif), `"ruleId": "unreadable"`)
		if len(s.AgentsUnreadable) == 0 {
			read++
			if strings.Contains(string(summary)+stdout, "could not be fully read") {
				t.Errorf("%s: read in full, yet the reports say it could not be", rel)
			}
			continue
		}
		unread++
		if code != exitGate || !said {
			t.Errorf("%s: unreadable, verdict %s: exit %d with --fail-on risky (want %d), said so in every report: %v", rel, s.Verdict, code, exitGate, said)
		}
		_, _, code = runIn(t, "synth", "-q", "--fail-on", "risky", "--allow-unreadable", "--no-evidence", "--out", out, run)
		if want := map[bool]int{true: exitGate, false: exitOK}[s.Verdict == parse.Risky]; code != want {
			t.Errorf("%s: unreadable, verdict %s: exit %d with --allow-unreadable, want %d", rel, s.Verdict, code, want)
		}
	}
	t.Logf("%d reports alone in a run: %d could not be fully read (every one trips the gate), %d read in full", len(files), unread, read)
}
