package main

import (
	"encoding/json"
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
		if ev := s.Evidence; ev == nil {
			t.Errorf("%s: evidence not checked with --repo", rel)
		} else {
			if sum := ev.Verified + ev.Moved + ev.Mismatch + ev.MissingFile + ev.OutOfRange + ev.Skipped; sum != ev.Claims {
				t.Errorf("%s: evidence tally %+v does not add up", rel, *ev)
			}
			n, ungrounded := 0, 0
			for _, f := range s.Findings {
				if f.Evidence != nil {
					n += len(f.Evidence.Claims)
					if f.Evidence.Ungrounded {
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
