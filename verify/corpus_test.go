package verify

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/synth"
)

// TestCorpusSyntheses verifies every Markdown synthesis of the shared corpus
// (class "synthesis" in MANIFEST.tsv) against the run in its directory, as
// `fluxwatch verify` does. It asserts no panic and sane bounds (problems per
// claim, missing blockers per P0/P1 of the run, lines inside the file), and
// logs how many claims of each kind it flags, with examples. Skipped when
// ../shared is absent.
func TestCorpusSyntheses(t *testing.T) {
	root := corpustest.Root(t)
	type corpusRun struct {
		s       *synth.Synthesis
		reports map[string][]byte
	}
	runs := map[string]corpusRun{}
	total := map[Kind]int{}
	var files, empty, claims, grounded, ungrounded int
	examples := map[Kind]string{}
	for _, e := range corpustest.Manifest(t, root) {
		if e.Class != "synthesis" || !strings.HasSuffix(e.Path, ".md") {
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(e.Path))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		dir := filepath.Dir(path)
		rd, ok := runs[dir]
		if !ok {
			// Several syntheses share a directory: synthesise it once.
			s, reports := runDir(t, dir)
			rd = corpusRun{s, reports}
			runs[dir] = rd
		}
		s, reports := rd.s, rd.reports
		if len(s.AgentsCompleted) == 0 {
			empty++ // verify refuses it (exit 2): nothing to check against
			continue
		}
		r := Check(Input{Synthesis: src, Run: s, Reports: reports})
		files++
		claims += len(r.Claims)
		grounded += r.Grounded
		if r.Ungrounded() {
			ungrounded++
		}
		lines := strings.Count(string(src), "\n") + 1
		blockers := s.Counts.P0 + s.Counts.P1
		perLine := map[int]int{}
		blockersOut := 0
		for _, p := range r.Problems {
			total[p.Kind]++
			if p.Line < 0 || p.Line > lines {
				t.Errorf("%s: problem at line %d outside 1..%d", path, p.Line, lines)
			}
			if p.Kind == MissingBlocker && p.Line != 0 {
				t.Errorf("%s: missing blocker at line %d", path, p.Line)
			}
			if p.Line == 0 {
				// A blocker the synthesis leaves out: missing, or a note
				// when read from prose only.
				if p.Kind != MissingBlocker && p.Kind != Unverifiable {
					t.Errorf("%s: %s with no line", path, p.Kind)
				}
				blockersOut++
				continue
			}
			perLine[p.Line]++
			if perLine[p.Line] > 3 {
				t.Errorf("%s:%d: %d problems for one claim", path, p.Line, perLine[p.Line])
			}
			if _, ok := examples[p.Kind]; !ok {
				examples[p.Kind] = e.Path + ":" + itoa(p.Line) + ": " + quote(p.Claim) + ": " + p.Message
			}
		}
		if blockersOut > blockers {
			t.Errorf("%s: %d blockers left out, the run has %d P0/P1", path, blockersOut, blockers)
		}
		if r.Grounded > len(r.Claims) {
			t.Errorf("%s: %d grounded of %d claims", path, r.Grounded, len(r.Claims))
		}
	}
	if files == 0 {
		t.Fatal("no synthesis file in the corpus manifest")
	}
	t.Logf("%d syntheses verified (%d more beside no agent report), %d ungrounded; %d claims, %d hold",
		files, empty, ungrounded, claims, grounded)
	for _, k := range Kinds {
		t.Logf("  %-16s %d", k, total[k])
	}
	for _, k := range Kinds {
		if e, ok := examples[k]; ok {
			t.Logf("  e.g. %s: %s", k, e)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
