package parse

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
)

func TestSeverityWords(t *testing.T) {
	tests := []struct {
		tok   string
		slot  bool
		want  Severity
		class sevClass
	}{
		{"P0", false, P0, sevFinding}, {"p1", false, P1, sevFinding}, {"**P2**", false, P2, sevFinding},
		{"P3", false, P3, sevFinding}, {"P4", false, P3, sevFinding}, {"P9", false, P3, sevFinding},
		{"CRITICAL", false, P0, sevFinding}, {"Blocker", false, P0, sevFinding},
		{"HIGH", false, P1, sevFinding}, {"major", false, P1, sevFinding},
		{"MEDIUM", false, P2, sevFinding}, {"Moderate", false, P2, sevFinding},
		{"LOW", false, P3, sevFinding}, {"MINOR", false, P3, sevFinding}, {"info", false, P3, sevFinding},
		{"NIT", false, P3, sevFinding}, {"[HIGH]", false, P1, sevFinding},
		{"IMP", false, "", sevImprovement}, {"IMPROVEMENT", false, "", sevImprovement},
		// Verdict and category words only count in an index's severity slot.
		{"NEEDS-CHANGES", false, "", sevNone}, {"NEEDS-CHANGES", true, P1, sevFinding},
		{"SAFE", true, P3, sevFinding}, {"YAGNI", true, P3, sevFinding}, {"MED", true, P2, sevFinding},
		{"MED", false, "", sevNone}, {"IMP-1", true, "", sevImprovement},
		{"Blind Spot", true, "", sevNone}, {"", true, "", sevNone}, {"PX", false, "", sevNone},
	}
	for _, tt := range tests {
		got, class := severityToken(tt.tok, tt.slot)
		if got != tt.want || class != tt.class {
			t.Errorf("severityToken(%q, slot=%v) = %q, %d; want %q, %d", tt.tok, tt.slot, got, class, tt.want, tt.class)
		}
	}
}

func TestMarkers(t *testing.T) {
	tests := []struct {
		text string
		want Severity // "" = no marker
	}{
		{"P1: title", P1}, {"P1 — title", P1}, {"[P1] title", P1}, {"**P1** title", P1}, {"(P1) title", P1},
		{"[CRITICAL] title", P0}, {"**High** title", P1}, {"(low) title", P3},
		{"P1-1 is an ID", ""}, {"P2P networking", ""}, {"CRITICAL title", ""}, {"critical path", ""},
		{"(Must Fix) title", ""}, {"Priority: P0", ""},
	}
	for _, tt := range tests {
		m, ok := markerAt(tt.text, false)
		if got := m.sev; !ok && tt.want != "" || ok && got != tt.want {
			t.Errorf("markerAt(%q) = %q, %v; want %q", tt.text, got, ok, tt.want)
		}
	}
	trailing := []struct {
		text string
		want Severity
	}{
		{"Finding 1.1: Title (P0)", P0}, {"Title (High)", P1}, {"Title (critical):", P0},
		{"Title (P0, validation)", ""}, {"Title (Low Risk)", ""}, {"Title (Blocks Implementation)", ""},
		{"Title (Must Fix)", ""},
	}
	for _, tt := range trailing {
		m, ok := trailingMarker(tt.text)
		if !ok && tt.want != "" || ok && m.sev != tt.want {
			t.Errorf("trailingMarker(%q) = %q, %v; want %q", tt.text, m.sev, ok, tt.want)
		}
	}
}

func TestGroupHeadings(t *testing.T) {
	tests := []struct {
		text  string
		group bool
		sev   Severity
	}{
		{"P1 findings", true, P1}, {"Critical (P0)", true, P0}, {"Important (P1)", true, P1},
		{"Must fix (P0)", true, P0}, {"P0 Findings (Blocking)", true, P0}, {"P1 (Do soon)", true, P1},
		{"P0 — Findings that break workflows", true, P0},
		{"No P0 findings", false, ""}, {"Technical Debt (Low)", false, ""}, {"P0 — Path traversal", false, ""},
		{"HIGH Severity Findings", false, ""},
	}
	for _, tt := range tests {
		sev, ok := groupHeading(tt.text, false)
		if ok != tt.group || sev != tt.sev {
			t.Errorf("groupHeading(%q) = %q, %v; want %q, %v", tt.text, sev, ok, tt.sev, tt.group)
		}
	}
}

// TestStatuses pins the status of SPEC §2.5 for small reports.
func TestStatuses(t *testing.T) {
	tests := []struct {
		name, report string
		want         Status
	}{
		{"strict", "### Findings Index\n- P1 | AB-001 | \"S\" | T\nVerdict: needs-changes\n", StatusValid},
		{"strict zero", "### Findings Index\nVerdict: safe\n", StatusValid},
		{"run uuid first", "<!-- run-uuid: 0123abcd-0000 -->\n### Findings Index\nVerdict: safe\n", StatusValid},
		{"imp row", "### Findings Index\n- IMP | IMP-1 | \"S\" | T\nVerdict: safe\n", StatusVariant},
		{"level 2", "## Findings Index\n- P1 | AB-001 | \"S\" | T\nVerdict: needs-changes\n", StatusVariant},
		{"title first", "# Review\n### Findings Index\n- P1 | AB-001 | \"S\" | T\nVerdict: needs-changes\n", StatusVariant},
		{"no verdict", "### Findings Index\n- P1 | AB-001 | \"S\" | T\n", StatusVariant},
		{"bold verdict", "### Findings Index\n- P1 | AB-001 | \"S\" | T\n**Verdict: needs-changes**\n", StatusVariant},
		{"unquoted", "### Findings Index\n- P1 | AB-001 | S | T\nVerdict: needs-changes\n", StatusVariant},
		{"legacy", "---\nissues:\n  - {id: A, severity: P1, section: s, title: t}\nverdict: needs-changes\n---\n", StatusVariant},
		{"prose", "# Review\n\n### [P1] Something breaks\n", StatusMalformed},
		{"prose empty", "# Review\n\nAll good.\n", StatusMalformed},
		{"error stub", "### Findings Index\nVerdict: error\n\nAgent failed to produce findings after retry. Error: x\n", StatusError},
		{"footer error", "# x\n\n--- VERDICT ---\nSTATUS: error\n", StatusError},
		{"stall", "# fd-x — stall rescue\n", StatusError},
		{"stalled", "**Status: stalled**\n", StatusError},
		{"legacy error", "---\nissues: []\nverdict: error\n---\n", StatusError},
		{"empty", "\n \n", StatusError},
		{"error in prose", "# Notes\n\nVerdict: error is what stubs say.\n", StatusMalformed},
	}
	for _, tt := range tests {
		if got := ReadReport([]byte(tt.report)).Status; got != tt.want {
			t.Errorf("%s: status %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestLineEndingsAndBOM(t *testing.T) {
	lf := "### Findings Index\n- P1 | AB-001 | \"S\" | T\nVerdict: needs-changes\n"
	for name, in := range map[string]string{
		"crlf": strings.ReplaceAll(lf, "\n", "\r\n"),
		"bom":  "\xef\xbb\xbf" + lf,
	} {
		r := ReadReport([]byte(in))
		if r.Status != StatusValid || len(r.Findings) != 1 || r.Findings[0].Title != "T" {
			t.Errorf("%s: got status %s, findings %+v; want valid with title T", name, r.Status, r.Findings)
		}
	}
}

func TestVerdictForms(t *testing.T) {
	tests := []struct {
		line string
		want Verdict
	}{
		{"Verdict: safe", Safe}, {"**Verdict: risky**", Risky}, {"Verdict: **needs-changes**", NeedsChanges},
		{"**Verdict:** risky", Risky}, {"**Verdict**: safe", Safe}, {"Verdict: needs-attention", NeedsChanges},
		{"Verdict: NEEDS_ATTENTION", NeedsChanges}, {"Verdict: Needs changes", NeedsChanges},
		{"## Executive Summary — Verdict: needs-changes", NeedsChanges},
		{"Verdict: needs-changes (2 P1, 3 P2)", NeedsChanges},
	}
	for _, tt := range tests {
		text, _, ok := verdictLine(tt.line)
		v, nok := NormalizeVerdict(text)
		if !ok || !nok || v != tt.want {
			t.Errorf("verdict of %q = %q (%q, %v, %v); want %q", tt.line, v, text, ok, nok, tt.want)
		}
	}
	if _, _, ok := verdictLine("The overall verdict: fine, mostly."); ok {
		t.Error("a sentence containing 'verdict:' was read as a verdict line")
	}
}

func TestFileRefs(t *testing.T) {
	got := fileRefs("see a.go:12, src/x/b.py:3-9, `c.rs:148–184`, http://host.com:80/x, and v1.2:3 and d.go:7")
	want := []string{"a.go:12", "src/x/b.py:3-9", "c.rs:148-184", "d.go:7"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("fileRefs = %q, want %q", got, want)
	}
}

func TestClassifyName(t *testing.T) {
	tests := []struct {
		rel   string
		kind  Kind
		agent string
		run   string
	}{
		{"fd-safety.md", KindReport, "fd-safety", ""},
		{"fd-safety.2f1c9a7e-5b3d.md", KindReport, "fd-safety", "2f1c9a7e-5b3d"},
		{"fd-safety.md.partial", KindPartial, "fd-safety", ""},
		{"fd-safety.2f1c9a7e.md.partial", KindPartial, "fd-safety", "2f1c9a7e"},
		{"fd-safety.abort", KindAbort, "fd-safety", ""},
		{"fd-safety.md.partial.aborted-1700000000", KindAbort, "fd-safety", ""},
		{"findings.jsonl", KindBus, "", ""}, {"peer-findings.jsonl", KindBus, "", ""},
		{"summary.md", KindOwn, "", ""}, {"findings.json", KindOwn, "", ""},
		{"findings/frontend.yaml", KindSpecialist, "frontend", ""},
		{"findings/_archive/frontend.yaml", KindIgnored, "", ""},
		{"design/manifest.yaml", KindDesign, "", ""},
		{"synthesis.md", KindIgnored, "", ""}, {"synthesis.json", KindIgnored, "", ""},
		{"triage-table.md", KindIgnored, "", ""}, {"input.md", KindIgnored, "", ""},
		{"fd-x.reactions.md", KindIgnored, "", ""}, {"fd-x.reactions.error.md", KindIgnored, "", ""},
		{"peer-findings.jsonl.lock", KindIgnored, "", ""}, {".hidden.md", KindIgnored, "", ""},
		{"x.md.tmp", KindIgnored, "", ""}, {"x.md~", KindIgnored, "", ""}, {".x.md.swp", KindIgnored, "", ""},
		{"#x.md#", KindIgnored, "", ""}, {"2026-04-21-synthesis.md", KindIgnored, "", ""},
		{"fd-tswana-consensus-synthesis.md", KindReport, "fd-tswana-consensus-synthesis", ""},
		{"notes.txt", KindIgnored, "", ""}, {"track-a/fd-x.md", KindIgnored, "", ""},
	}
	for _, tt := range tests {
		n := ClassifyName(tt.rel)
		if n.Kind != tt.kind || n.Agent != tt.agent || n.Run != tt.run {
			t.Errorf("ClassifyName(%q) = %v %q %q; want %v %q %q", tt.rel, n.Kind, n.Agent, n.Run, tt.kind, tt.agent, tt.run)
		}
	}
}

func TestValidName(t *testing.T) {
	for _, bad := range []string{"", ".", "..", "../x", "a/b", `a\b`, "a\x00b", "a\nb", "x..y",
		"fd-\u202egpj.md", "a\u200bb", "a\u2028b", "a\ufeffb", "a\xffb"} {
		if ValidName(bad) == nil {
			t.Errorf("ValidName(%q) accepted a bad name", bad)
		}
	}
	for _, good := range []string{"fd-safety", "backend_1", "frontend", "Ω-agent"} {
		if err := ValidName(good); err != nil {
			t.Errorf("ValidName(%q) = %v", good, err)
		}
	}
}

// TestCorpusConformance parses every Markdown file of the shared corpus: none
// may panic, positions stay inside the file, and every file the manifest
// classes index-ok comes out valid with as many findings and improvements as
// it has index lines.
func TestCorpusConformance(t *testing.T) {
	dir := corpustest.Root(t)
	class := map[string]string{}
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) > 5 {
			class[cols[3]] = cols[5]
		}
	}
	indexLine := regexp.MustCompile(`^- (P[0-3]|IMP) \| `)
	okFiles, parsed := 0, 0
	// The manifest's rough classes of agent reports, and the status each
	// implies under SPEC §2.5.
	implied := map[string]Status{"index-ok": StatusValid, "index-variant": StatusVariant,
		"no-index": StatusMalformed, "error-stub": StatusError}
	confusion := map[string]int{}
	agree, classed := 0, 0
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		parsed++
		r := ReadReport(data)
		checkPositions(t, path, data, r)
		rel, _ := filepath.Rel(dir, path)
		c := class[filepath.ToSlash(rel)]
		if want, ok := implied[c]; ok {
			classed++
			confusion[c+" → "+string(r.Status)]++
			if r.Status == want {
				agree++
			}
		}
		if c != "index-ok" {
			return nil
		}
		okFiles++
		n := 0
		for _, l := range strings.Split(string(data), "\n") {
			if indexLine.MatchString(l) {
				n++
			}
		}
		if r.Status != StatusValid || len(r.Findings)+len(r.Improvements) != n {
			t.Errorf("%s: index-ok file parsed as %s with %d findings + %d improvements, want valid with %d",
				rel, r.Status, len(r.Findings), len(r.Improvements), n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if okFiles == 0 {
		t.Fatal("no index-ok files found in the corpus manifest")
	}
	t.Logf("parsed %d corpus files, %d index-ok", parsed, okFiles)
	keys := make([]string, 0, len(confusion))
	for k := range confusion {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %-28s %d", k, confusion[k])
	}
	pct := 100 * float64(agree) / float64(classed)
	t.Logf("status agrees with the manifest class on %d of %d agent files (%.1f%%)", agree, classed, pct)
	// The classes are rough (a run-uuid comment alone makes a file
	// "index-variant" there, valid here), so this guards against regressions
	// rather than scoring the parser.
	if pct < 95 {
		t.Errorf("status agreement with the manifest classes fell to %.1f%% (was 99.7%%)", pct)
	}
}

// checkPositions fails when a finding or diagnostic points outside the input.
func checkPositions(t testing.TB, name string, data []byte, r *Report) {
	t.Helper()
	_, ls := splitLines(string(data))
	n := len(ls)
	for _, f := range r.Findings {
		if f.Line < 1 || f.Line > n {
			t.Errorf("%s: finding %q at line %d, input has %d lines", name, f.Title, f.Line, n)
		}
		if f.Severity.Rank() > 3 {
			t.Errorf("%s: finding %q has severity %q", name, f.Title, f.Severity)
		}
		for _, c := range f.Evidence {
			if c.Line < 1 || c.Line > n || c.Path == "" || len(c.Excerpt) > maxExcerpt {
				t.Errorf("%s: finding %q has a bad evidence claim %+v (input has %d lines)", name, f.Title, c, n)
			}
			if !slices.Contains(f.FileRefs, c.Ref()) {
				t.Errorf("%s: finding %q: claim %s is not among its file_refs %q", name, f.Title, c.Ref(), f.FileRefs)
			}
		}
	}
	for _, im := range r.Improvements {
		if im.Line < 1 || im.Line > n {
			t.Errorf("%s: improvement %q at line %d, input has %d lines", name, im.Title, im.Line, n)
		}
	}
	for _, d := range r.Diagnostics {
		if d.Line < 0 || d.Line > n {
			t.Errorf("%s: diagnostic %q at line %d, input has %d lines", name, d.Message, d.Line, n)
		}
	}
}

// TestDelimitedID: an unbracketed leading ID counts only when something sets
// it apart from the title.
func TestDelimitedID(t *testing.T) {
	for s, want := range map[string]bool{
		"Q2: Checkpoint lacks turn counts":    true,
		"Q2. Checkpoint lacks turn counts":    true,
		"Q2 — Checkpoint lacks turn counts":   true,
		"Q2\t— Checkpoint lacks turn counts":  true,
		"Q2 | Checkpoint lacks turn counts":   true,
		"[Q2] Checkpoint lacks turn counts":   true,
		"**Q2** Checkpoint lacks turn counts": true,
		"F1 adds no implementation":           false,
		"F1\tadds no implementation":          false,
		"F1":                                  false,
		"":                                    false,
	} {
		if got := delimitedID(s); got != want {
			t.Errorf("delimitedID(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestReadReportNUL: data holding a NUL byte is not a report, whatever it
// would parse to without it (parse/doc.go); the diagnostic names its line.
func TestReadReportNUL(t *testing.T) {
	data := []byte("### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens\nVerdict: needs-changes\nbin\x00ary\n")
	r := ReadReport(data)
	if r.Status != StatusError || r.Verdict() != Error || len(r.Findings) != 0 {
		t.Fatalf("got status %s verdict %s, %d findings; want error, error, 0", r.Status, r.Verdict(), len(r.Findings))
	}
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Line != 4 || r.Diagnostics[0].Level != LevelError {
		t.Fatalf("diagnostics %+v: want one error at line 4", r.Diagnostics)
	}
}
