package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// strictLine is a finding line of the strict grammar (SPEC §2.1).
var strictLine = regexp.MustCompile(`^- P[0-3] \| `)

// codeRef is a file:line or file:line-line reference.
var codeRef = regexp.MustCompile(`\b([A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z0-9]+):([0-9]+)(?:-([0-9]+))?\b`)

// reformat rewrites an agent report as a rerun might: the strict index
// lines (SPEC §2.1) as a Markdown table (table) or as "- [Pn] Title —
// Section" lines (the ID lost), every line of the report moved down, every
// cited line of code moved down by 7. A line is rewritten from what the
// parser read of it, and only where the new form cannot read differently:
// no '|' in its title or section, nor, for a variant line, " — " (and, for
// a table, a whole run of such lines).
func reformat(text string, table bool) (string, int) {
	rewritten := 0
	read := map[int]parse.Finding{} // by line
	for _, f := range parse.ReadReport([]byte(text)).Findings {
		read[f.Line] = f
	}
	lines := strings.Split(text, "\n")
	plain := func(i int) (parse.Finding, bool) {
		f, ok := read[i+1]
		bad := "|—" // " — " would end a variant line's title
		if table {
			bad = "|"
		}
		if !ok || !strictLine.MatchString(lines[i]) || f.ID == "" || f.Section == "" ||
			strings.ContainsAny(f.Title+f.Section, bad) {
			return f, false
		}
		return f, true
	}
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		if _, ok := plain(i); !ok {
			b.WriteString(lines[i] + "\n")
			continue
		}
		if !table {
			f, _ := plain(i)
			b.WriteString("- [" + string(f.Severity) + "] " + f.Title + " — " + f.Section + "\n")
			rewritten++
			continue
		}
		j := i
		all := true
		for ; j < len(lines) && strictLine.MatchString(lines[j]); j++ {
			if _, ok := plain(j); !ok {
				all = false
			}
		}
		if !all {
			for ; i < j; i++ {
				b.WriteString(lines[i] + "\n")
			}
			i--
			continue
		}
		b.WriteString("| ID | Severity | Section | Title |\n|---|---|---|---|\n")
		for ; i < j; i++ {
			f, _ := plain(i)
			b.WriteString("| " + f.ID + " | " + string(f.Severity) + " | " + f.Section + " | " + f.Title + " |\n")
			rewritten++
		}
		i--
	}
	out := strings.TrimSuffix(b.String(), "\n")
	out = codeRef.ReplaceAllStringFunc(out, func(s string) string {
		m := codeRef.FindStringSubmatch(s)
		n, _ := strconv.Atoi(m[2])
		r := m[1] + ":" + strconv.Itoa(n+7)
		if m[3] != "" {
			e, _ := strconv.Atoi(m[3])
			r += "-" + strconv.Itoa(e+7)
		}
		return r
	})
	if !strings.HasPrefix(out, "---") { // YAML front matter must stay first
		out = "\n\n\n" + out
	}
	return out, rewritten
}

// copyRun copies the top-level files of run dir src into dst, keeping their
// modification times (they select the run), rewriting agent reports with
// edit (which also says how many index lines it rewrote: copyRun returns
// their sum) and leaving out the reports of agents that drop says.
func copyRun(t *testing.T, src, dst string, edit func(string) (string, int), drop func(agent string) bool) int {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	rewritten := 0
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if n := parse.ClassifyName(e.Name()); n.Kind == parse.KindReport {
			if drop != nil && drop(n.Agent) {
				continue
			}
			if edit != nil {
				text, n := edit(string(data))
				data, rewritten = []byte(text), rewritten+n
			}
		}
		p := filepath.Join(dst, e.Name())
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fi, _ := e.Info()
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
	}
	return rewritten
}

var baselineAll = flag.Bool("baseline.all", false, "TestCorpusBaselineStability: every corpus run, not every 8th (make baseline-stability)")

// TestCorpusBaselineStability measures how many findings of a re-formatted
// rerun of each corpus run match the original run as unchanged (the
// figures of issue 16; go test -run CorpusBaseline -v prints them):
//   - table: strict index lines as a table, report lines and cited code
//     lines moved;
//   - variant: strict lines as "- [Pn] Title — Section" (IDs lost), lines
//     moved;
//   - fewer agents: the first completed agent of each run left out (every
//     finding left must still match).
//
// Each run is compared with its own synthesis, through findings.json. It
// takes every 8th run (make test runs it under -race); -baseline.all takes
// them all. Skipped when ../shared is absent.
func TestCorpusBaselineStability(t *testing.T) {
	root := corpustest.Root(t)
	scan := watcher.ScanOptions{MaxLine: bus.DefaultMaxLine, Jobs: 4}
	synthesize := func(dir string, opts synth.Options) *synth.Synthesis {
		s, err := watcher.Synthesize(context.Background(), dir, scan, opts)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		return s
	}
	type tally struct{ runs, findings, unchanged, byFP, byKey, byTitle, new, absent, reformatted int }
	scenarios := []string{"table", "variant", "fewer agents"}
	totals := map[string]*tally{}
	for _, sc := range scenarios {
		totals[sc] = &tally{}
	}
	dirs := runDirs(t, root)
	step, minRuns, minLines := 8, 10, 40
	if *baselineAll {
		step, minRuns, minLines = 1, 80, 300
	}
	for i, dir := range dirs {
		if i%step != 0 {
			continue
		}
		rel, _ := filepath.Rel(root, dir)
		orig := t.TempDir()
		copyRun(t, dir, orig, nil, nil)
		base := synthesize(orig, synth.Options{})
		js, err := synth.RenderJSON(base)
		if err != nil {
			t.Fatal(err)
		}
		b, err := synth.DecodeBaseline("findings.json", js)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range scenarios {
			rerun := t.TempDir()
			var edit func(string) (string, int)
			var drop func(string) bool
			switch sc {
			case "table":
				edit = func(s string) (string, int) { return reformat(s, true) }
			case "variant":
				edit = func(s string) (string, int) { return reformat(s, false) }
			default:
				if len(base.AgentsCompleted) < 2 {
					continue
				}
				first := base.AgentsCompleted[0]
				drop = func(a string) bool { return a == first }
			}
			rewritten := copyRun(t, dir, rerun, edit, drop)
			s := synthesize(rerun, synth.Options{Baseline: b})
			tl := totals[sc]
			tl.runs++
			tl.reformatted += rewritten
			tl.findings += len(s.Findings)
			tl.unchanged += s.Baseline.Unchanged
			tl.new += s.Baseline.New
			tl.absent += len(s.Baseline.Absent)
			for _, f := range s.Findings {
				switch f.Baseline().MatchedBy {
				case synth.MatchFingerprint:
					tl.byFP++
				case synth.MatchKey:
					tl.byKey++
				case synth.MatchTitle:
					tl.byTitle++
				default:
					t.Logf("%s (%s): new: %s %q", rel, sc, f.Severity, f.Title)
				}
			}
		}
	}
	for _, sc := range scenarios {
		tl := totals[sc]
		t.Logf("%-12s %3d runs, %4d index lines re-formatted: %4d of %4d findings unchanged (%.1f%%; fingerprint %d, key %d, title %d), %d new, %d baseline findings absent",
			sc, tl.runs, tl.reformatted, tl.unchanged, tl.findings, 100*float64(tl.unchanged)/float64(max(1, tl.findings)),
			tl.byFP, tl.byKey, tl.byTitle, tl.new, tl.absent)
		if tl.runs < minRuns || tl.findings == 0 || (sc != "fewer agents" && tl.reformatted < minLines) {
			t.Errorf("%s: %d runs, %d findings, %d lines re-formatted: the corpus did not exercise the baseline", sc, tl.runs, tl.findings, tl.reformatted)
		}
		if tl.new != 0 {
			t.Errorf("%s: %d findings of the rerun are new; every one was in the original run", sc, tl.new)
		}
	}
}
