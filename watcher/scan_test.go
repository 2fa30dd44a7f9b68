package watcher

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

var base = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// write creates dir/rel with content and a modification time of base+at.
func write(t *testing.T, dir, rel, content string, at time.Duration) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, base.Add(at), base.Add(at)); err != nil {
		t.Fatal(err)
	}
}

// fakeReport reads a report the simple way: a first line "<!-- run-uuid: X -->"
// sets RunUUID, a line "P1 title" is a finding, "ERROR" makes an error stub.
func fakeReport(calls *atomic.Int32) func(context.Context, string) (*parse.Report, error) {
	return func(_ context.Context, data string) (*parse.Report, error) {
		if calls != nil {
			calls.Add(1)
		}
		r := &parse.Report{Status: parse.StatusValid, Complete: true}
		for i, line := range strings.Split(data, "\n") {
			switch {
			case strings.HasPrefix(line, "<!-- run-uuid: "):
				r.RunUUID = strings.TrimSuffix(strings.TrimPrefix(line, "<!-- run-uuid: "), " -->")
			case line == "ERROR":
				r.Status = parse.StatusError
			case len(line) > 3 && line[0] == 'P':
				r.Findings = append(r.Findings, parse.Finding{Severity: parse.Severity(line[:2]), Title: line[3:], Line: i + 1})
			}
		}
		return r, nil
	}
}

func scan(t *testing.T, dir string, opts ScanOptions) *synth.Run {
	t.Helper()
	s := NewScanner(opts)
	s.readReport = fakeReport(nil)
	run, err := s.Scan(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

type agentStatus struct {
	name, file string
	status     parse.Status
}

// wantAgents fails t unless the agents of run are want, in order.
func wantAgents(t *testing.T, run *synth.Run, want []agentStatus) {
	t.Helper()
	var got []agentStatus
	for _, a := range run.Agents {
		got = append(got, agentStatus{a.Name, a.File, a.Status})
	}
	if !slices.Equal(got, want) {
		t.Errorf("agents =\n%v\nwant\n%v", got, want)
	}
}

// diagLines returns each diagnostic as its one line, in order.
func diagLines(ds []parse.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}

// wantDiagnostics fails t unless the diagnostics of run are want, each as
// its one line, in order.
func wantDiagnostics(t *testing.T, run *synth.Run, want ...string) {
	t.Helper()
	if got := diagLines(run.Diagnostics); !slices.Equal(got, want) {
		t.Errorf("diagnostics =\n%q\nwant\n%q", got, want)
	}
}

func TestScanLayout(t *testing.T) {
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"fd-a.md":                          "P1 broken thing\n",
		"fd-b.md.partial":                  "P0 not yet\n",
		"fd-c.abort":                       "",
		"fd-d.md.partial.aborted-20261120": "P0 half\n",
		"fd-e.md":                          "ERROR\n",
		"fd-empty.md":                      "",
		"summary.md":                       "# Review Summary\n",
		"findings.json":                    "{}",
		"synthesis.md":                     "P0 not an agent\n",
		"input.md":                         "P0 not an agent\n",
		"fd-a.reactions.md":                "P0 not an agent\n",
		".hidden.md":                       "P0 not an agent\n",
		"fd-a.md~":                         "P0 not an agent\n",
		"#fd-a.md#":                        "P0 not an agent\n",
		"notes/fd-z.md":                    "P0 nested: not an agent\n",
		"findings/frontend.yaml":           "specialist_name: frontend\n",
		"findings/notes.txt":               "ignored",
		"design/manifest.yaml":             "designs: []\n",
	} {
		write(t, dir, rel, content, 0)
	}
	write(t, dir, "peer-findings.jsonl", "", time.Minute)
	write(t, dir, "findings.jsonl", "", 2*time.Minute)
	run := scan(t, dir, ScanOptions{})
	wantAgents(t, run, []agentStatus{
		{"fd-a", "fd-a.md", parse.StatusValid},
		{"fd-b", "fd-b.md.partial", parse.StatusPartial},
		{"fd-c", "fd-c.abort", parse.StatusError},
		{"fd-d", "fd-d.md.partial.aborted-20261120", parse.StatusError},
		{"fd-e", "fd-e.md", parse.StatusError},
		{"fd-empty", "fd-empty.md", parse.StatusError},
	})
	var bus []string
	for _, b := range run.Bus {
		bus = append(bus, b.Name)
	}
	if !slices.Equal(bus, []string{"findings.jsonl", "peer-findings.jsonl"}) {
		t.Errorf("bus files = %q, want both in SPEC order", bus)
	}
	if len(run.Specialists) != 1 || run.Specialists[0].File != "findings/frontend.yaml" || run.Design == nil {
		t.Errorf("specialists = %+v, design = %+v", run.Specialists, run.Design)
	}
	if !run.Newest.Equal(base.Add(2 * time.Minute)) {
		t.Errorf("newest = %v, want the bus's mtime", run.Newest)
	}
	if run.ID != "" {
		t.Errorf("run = %q for an unscoped directory", run.ID)
	}
}

func TestScanNoBus(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-a.md", "P1 a\n", 0)
	write(t, dir, "findings.jsonl", `{"severity":"blocking","agent":"fd-a","summary":"x","file_refs":[]}`+"\n", time.Minute)
	run := scan(t, dir, ScanOptions{NoBus: true})
	if len(run.Bus) != 1 || run.Bus[0].Name != "findings.jsonl" || len(run.Bus[0].Entries) != 0 {
		t.Errorf("NoBus: bus = %+v, want findings.jsonl listed and not read", run.Bus)
	}
	run = scan(t, dir, ScanOptions{})
	if len(run.Bus) != 1 || len(run.Bus[0].Entries) != 1 {
		t.Errorf("bus = %+v, want one entry", run.Bus)
	}
}

func TestScanRunSelection(t *testing.T) {
	const old, cur = "0badc0de-0000", "c909ce00-1111"
	dir := t.TempDir()
	write(t, dir, "fd-a."+old+".md", "P0 old\n", 0)
	write(t, dir, "fd-b."+old+".md", "P0 old\n", 10*time.Minute)
	write(t, dir, "fd-a."+cur+".md", "P2 new\n", 5*time.Minute)
	write(t, dir, "fd-c."+cur+".md.partial", "", 20*time.Minute) // makes cur the newest
	write(t, dir, "fd-legacy.md", "P3 legacy\n", time.Minute)
	write(t, dir, "fd-stamped.md", "<!-- run-uuid: "+old+" -->\nP0 stamped\n", time.Minute)
	write(t, dir, "fd-liar."+cur+".md", "<!-- run-uuid: ffffffff-9999 -->\nP0 lies\n", time.Minute)

	// Each file's status with the newest run selected, and with --run old.
	files := []struct {
		agent, file   string
		newest, atOld parse.Status
	}{
		{"fd-a", "fd-a." + old + ".md", parse.StatusForeign, parse.StatusValid},
		{"fd-a", "fd-a." + cur + ".md", parse.StatusValid, parse.StatusForeign},
		{"fd-b", "fd-b." + old + ".md", parse.StatusForeign, parse.StatusValid},
		{"fd-c", "fd-c." + cur + ".md.partial", parse.StatusPartial, parse.StatusForeign},
		{"fd-legacy", "fd-legacy.md", parse.StatusValid, parse.StatusValid},
		{"fd-liar", "fd-liar." + cur + ".md", parse.StatusForeign, parse.StatusForeign},
		{"fd-stamped", "fd-stamped.md", parse.StatusForeign, parse.StatusValid},
	}
	run := scan(t, dir, ScanOptions{})
	if run.ID != cur {
		t.Fatalf("selected run %q, want the newest %q", run.ID, cur)
	}
	for _, sel := range []string{"", old} {
		var want []agentStatus
		for _, f := range files {
			st := f.newest
			if sel == old {
				st = f.atOld
			}
			want = append(want, agentStatus{f.agent, f.file, st})
		}
		t.Run("--run="+sel, func(t *testing.T) {
			wantAgents(t, scan(t, dir, ScanOptions{Run: sel}), want)
		})
	}

	run = scan(t, dir, ScanOptions{StrictRun: true})
	for _, a := range run.Agents {
		if a.Name == "fd-legacy" && a.Status != parse.StatusForeign {
			t.Errorf("--strict-run kept the unscoped file: %s", a.Status)
		}
	}
}

// A directory whose agent files name several runs by their names lists them in Run.Runs and, with no run selected, says that it
// picked one by file times; with a run selected, it says nothing of it.
func TestScanSeveralRuns(t *testing.T) {
	const a, b = "aaaaaaaa-1111", "BBBBBBBB-2222"
	for _, tc := range []struct {
		name  string
		files map[string]string
		run   string
		want  []string
		warn  string // "" for none
	}{
		{"one run", map[string]string{"fd-a." + a + ".md": "P1 x\n", "fd-legacy.md": "P3 y\n"}, "", []string{a}, ""},
		{"no run", map[string]string{"fd-a.md": "P1 x\n"}, "", nil, ""},
		{"a newer foreign report", map[string]string{"fd-a." + a + ".md": "P0 x\n", "fd-x." + b + ".md": "safe\n"}, "",
			[]string{a, strings.ToLower(b)}, "holds reports of 2 runs (aaaaaaaa-1111, bbbbbbbb-2222); read: " + b + ", the newest by finish times (declared, else file times)"},
		{"selected", map[string]string{"fd-a." + a + ".md": "P0 x\n", "fd-x." + b + ".md": "safe\n"}, a,
			[]string{a, strings.ToLower(b)}, ""},
		// A run-uuid comment makes a file foreign, never a run to pick:
		// the selection does not depend on file times.
		{"a stamped unscoped report", map[string]string{"fd-a." + a + ".md": "P0 x\n", "fd-x.md": "<!-- run-uuid: " + b + " -->\nsafe\n"}, "",
			[]string{a}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			at := time.Duration(0)
			for _, name := range slices.Sorted(maps.Keys(tc.files)) {
				write(t, dir, name, tc.files[name], at)
				at += time.Minute // the last by name is the newest: fd-x
			}
			run := scan(t, dir, ScanOptions{Run: tc.run})
			if !slices.Equal(run.Runs, tc.want) {
				t.Errorf("Runs = %q, want %q", run.Runs, tc.want)
			}
			got := hasWarning(run.Diagnostics, "holds reports of")
			switch {
			case tc.warn == "" && got:
				t.Errorf("a warning of several runs: %v", diagLines(run.Diagnostics))
			case tc.warn != "" && !hasWarning(run.Diagnostics, tc.warn):
				t.Errorf("diagnostics %v, want a warning saying %q", diagLines(run.Diagnostics), tc.warn)
			}
		})
	}
}

func TestRunComment(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<!-- run-uuid: abc-123 -->\n### Findings Index\n", "abc-123"},
		{"\n\n  <!--run-uuid:abc-->  \n", "abc"},
		{"# Title\n<!-- run-uuid: abc -->\n", ""},
		{"<!-- flux-drive:complete -->\n<!-- run-uuid: abc -->\n", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := runComment([]byte(tt.in)); got != tt.want {
			t.Errorf("runComment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestScanOneFilePerAgent(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-a.md.partial", "P0 draft\n", 2*time.Minute)
	write(t, dir, "fd-a.md", "P2 final\n", time.Minute)
	write(t, dir, "fd-b.abort", "", time.Minute)
	write(t, dir, "fd-b.md.partial", "P0 draft\n", 2*time.Minute)
	run := scan(t, dir, ScanOptions{})
	wantAgents(t, run, []agentStatus{{"fd-a", "fd-a.md", parse.StatusValid}, {"fd-b", "fd-b.abort", parse.StatusError}})
	wantDiagnostics(t, run, "fd-a.md.partial: info: superseded by fd-a.md", "fd-b.md.partial: info: superseded by fd-b.abort")
}

// Symbolic links are followed while they stay inside the directory, also
// absolute ones (which os.Root refuses) and a directory reached by one; a
// link out of it, also one through a directory linked out, is not, nor a
// loop, each said so.
func TestScanSymlinks(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "secret.md", "P0 from outside\n", 0)
	write(t, outside, "findings/evil.yaml", "specialist_name: evil\n", 0)
	dir := t.TempDir()
	write(t, dir, "fd-real.md", "P2 real\n", 0)
	write(t, dir, "real-design/manifest.yaml", "designs: []\n", 0)
	for link, target := range map[string]string{
		"fd-out.md":  filepath.Join(outside, "secret.md"),
		"fd-in.md":   "fd-real.md",
		"fd-abs.md":  filepath.Join(dir, "fd-real.md"),
		"findings":   filepath.Join(outside, "findings"),
		"design":     filepath.Join(dir, "real-design"),
		"fd-loop.md": "fd-loop.md",
		"out":        outside,
		"fd-via.md":  filepath.Join(dir, "out", "secret.md"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	run := scan(t, dir, ScanOptions{})
	wantAgents(t, run, []agentStatus{
		{"fd-abs", "fd-abs.md", parse.StatusValid},
		{"fd-in", "fd-in.md", parse.StatusValid},
		{"fd-real", "fd-real.md", parse.StatusValid},
	})
	if len(run.Specialists) != 0 {
		t.Errorf("followed a findings/ symlink out of the directory")
	}
	if run.Design == nil || run.Design.File != "design/manifest.yaml" {
		t.Errorf("design = %+v, want design/manifest.yaml read through its absolute link", run.Design)
	}
	wantDiagnostics(t, run,
		"fd-loop.md: warning: symlink loop: not followed",
		"fd-out.md: warning: symlink resolves outside the output directory: not followed",
		"fd-via.md: warning: symlink resolves outside the output directory: not followed",
		"findings: warning: symlink resolves outside the output directory: not followed",
		"out: warning: symlink resolves outside the output directory: not followed")
}

func TestScanOddFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"fd-dir.md", "fd-dir2.md.partial", "fd-dir3.abort", "peer-findings.jsonl", "other", "design"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, dir, "findings/big.yaml/x", "", 0) // a directory named like a specialist file: skipped
	write(t, dir, "fd-big.md", strings.Repeat("P2 x\n", 100), 0)
	write(t, dir, "fd\x01bad.md", "P0 x\n", 0)
	testfault.Mkfifo(t, filepath.Join(dir, "fd-fifo.md"))
	run := scan(t, dir, ScanOptions{MaxFile: 64})
	wantAgents(t, run, []agentStatus{{"fd-big", "fd-big.md", parse.StatusError}})
	if d := run.Agents[0].Diagnostics; len(d) != 1 || !strings.Contains(d[0].Message, "larger than 64 bytes") {
		t.Errorf("big file diagnostics = %v", d)
	}
	wantDiagnostics(t, run,
		`"fd\x01bad.md": warning: agent name rejected: invalid name: name contains a control character`,
		"fd-dir.md: warning: not a regular file (a directory): skipped",
		"fd-dir2.md.partial: warning: not a regular file (a directory): skipped",
		"fd-dir3.abort: warning: not a regular file (a directory): skipped",
		"fd-fifo.md: warning: not a regular file (a FIFO): skipped",
		"peer-findings.jsonl: warning: not a regular file (a directory): skipped")
}

func TestScanErrors(t *testing.T) {
	if _, err := Scan(context.Background(), filepath.Join(t.TempDir(), "missing"), ScanOptions{}); err == nil ||
		!strings.Contains(err.Error(), "missing") {
		t.Errorf("missing directory: err = %v, want one naming it", err)
	}
	f := filepath.Join(t.TempDir(), "file")
	write(t, filepath.Dir(f), "file", "x", 0)
	if _, err := Scan(context.Background(), f, ScanOptions{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file as directory: err = %v", err)
	}
}

func TestScanCache(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-a.md", "P1 a\n", 0)
	write(t, dir, "fd-b.md", "P2 b\n", 0)
	var calls atomic.Int32
	s := NewScanner(ScanOptions{})
	s.readReport = fakeReport(&calls)
	scanOnce := func() *synth.Run {
		run, err := s.Scan(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	scanOnce()
	if calls.Load() != 2 {
		t.Fatalf("first scan parsed %d files, want 2", calls.Load())
	}
	scanOnce()
	if calls.Load() != 2 {
		t.Errorf("an unchanged directory was re-parsed: %d parses", calls.Load())
	}
	write(t, dir, "fd-b.md", "P0 b changed\n", time.Minute)
	run := scanOnce()
	if calls.Load() != 3 {
		t.Errorf("after one change: %d parses, want 3", calls.Load())
	}
	if run.Agents[1].Report.Findings[0].Severity != parse.P0 {
		t.Errorf("the changed file's new parse is not used")
	}
	os.Remove(filepath.Join(dir, "fd-a.md"))
	if run := scanOnce(); len(run.Agents) != 1 || len(s.cache) != 1 {
		t.Errorf("a removed file stays: %d agents, %d cached", len(run.Agents), len(s.cache))
	}
}

// TestScanRacyCache: a file rewritten with the same size within the
// granularity of modification times is read again, and re-parsed only when
// its content changed.
func TestScanRacyCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().Truncate(time.Second)
	put := func(content string) {
		path := filepath.Join(dir, "fd-a.md")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, now, now); err != nil {
			t.Fatal(err)
		}
	}
	var calls atomic.Int32
	s := NewScanner(ScanOptions{})
	s.readReport = fakeReport(&calls)
	put("P1 a\n")
	if _, err := s.Scan(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	put("P2 b\n") // same size, same modification time
	run, err := s.Scan(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Agents[0].Report.Findings[0].Severity; got != parse.P2 || calls.Load() != 2 {
		t.Errorf("after a same-size rewrite: severity %s after %d parses, want P2 after 2", got, calls.Load())
	}
	put("P2 b\n") // the same content again
	if _, err := s.Scan(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 {
		t.Errorf("unchanged content was re-parsed: %d parses, want 2", calls.Load())
	}
}

// TestScanKeepGood: with KeepGood, a YAML file that stops parsing and a
// report that turns empty keep their last good parse, with a warning, until
// they parse again or stay unchanged for KeepGood.
func TestScanKeepGood(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "findings/frontend.yaml", "specialist_name: frontend\nnotes: good\n", 0)
		write(t, dir, "fd-a.md", "P1 a\n", 0)
		s := NewScanner(ScanOptions{KeepGood: 2 * time.Second})
		s.readReport = fakeReport(nil)
		scanOnce := func() *synth.Run {
			t.Helper()
			run, err := s.Scan(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			return run
		}
		scanOnce()
		if !s.Expiry().IsZero() {
			t.Errorf("expiry %v with nothing kept", s.Expiry())
		}
		write(t, dir, "findings/frontend.yaml", "specialist_name: [frontend\n", time.Minute)
		write(t, dir, "fd-a.md", "", time.Minute)
		run := scanOnce()
		sp, a := run.Specialists[0], run.Agents[0]
		if sp.Specialist == nil || sp.Specialist.Notes != "good\n" && sp.Specialist.Notes != "good" {
			t.Errorf("broken YAML: specialist %+v, want the last good parse", sp.Specialist)
		}
		if !hasWarning(sp.Diagnostics, "showing its last good parse") {
			t.Errorf("broken YAML: diagnostics %v, want a warning", sp.Diagnostics)
		}
		if a.Status != parse.StatusValid || !hasWarning(a.Diagnostics, "empty: showing its last good parse") {
			t.Errorf("emptied report: status %s, diagnostics %v; want valid with a warning", a.Status, a.Diagnostics)
		}
		if want := time.Now().Add(2 * time.Second); !s.Expiry().Equal(want) {
			t.Errorf("expiry %v, want %v", s.Expiry(), want)
		}
		time.Sleep(time.Second)
		// Broken again, differently: still the last good parse, for KeepGood
		// from now.
		write(t, dir, "findings/frontend.yaml", "specialist_name: {frontend\n", 2*time.Minute)
		if run := scanOnce(); run.Agents[0].Status != parse.StatusValid || run.Specialists[0].Specialist == nil {
			t.Errorf("within KeepGood: status %s, specialist %+v; want the last good parses", run.Agents[0].Status, run.Specialists[0].Specialist)
		}
		time.Sleep(time.Second)
		if run := scanOnce(); run.Agents[0].Status != parse.StatusError || run.Specialists[0].Specialist == nil {
			t.Errorf("report past KeepGood, YAML within: status %s, specialist %+v", run.Agents[0].Status, run.Specialists[0].Specialist)
		}
		time.Sleep(time.Second)
		run = scanOnce()
		if run.Specialists[0].Specialist != nil || run.Agents[0].Status != parse.StatusError {
			t.Errorf("after KeepGood: specialist %+v, agent %s; want the failures", run.Specialists[0].Specialist, run.Agents[0].Status)
		}
		if !s.Expiry().IsZero() {
			t.Errorf("expiry %v after every kept parse expired", s.Expiry())
		}
		write(t, dir, "findings/frontend.yaml", "specialist_name: frontend\nnotes: fixed\n", 3*time.Minute)
		if run := scanOnce(); run.Specialists[0].Specialist == nil || len(run.Specialists[0].Diagnostics) != 0 {
			t.Errorf("fixed YAML: %+v", run.Specialists[0])
		}
	})
}

func hasWarning(ds []parse.Diagnostic, text string) bool {
	for _, d := range ds {
		if d.Level == parse.LevelWarning && strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

func hasPathDiag(ds []parse.Diagnostic, path, text string) bool {
	for _, d := range ds {
		if d.Path == path && strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

// A .partial renamed to its .md between the listing and its reading (the
// agent finished meanwhile) is not left out of the Run: the directory is
// listed again, and the files already read are not read again.
func TestScanRenamedWhileRead(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-a.md", "P1 a\n", 0)
	write(t, dir, "fd-b.md.partial", "P2 b\n", 0)
	var calls atomic.Int32
	s := NewScanner(ScanOptions{Jobs: 1}) // fd-a.md is read first, then fd-b.md.partial
	read := fakeReport(&calls)
	s.readReport = func(ctx context.Context, data string) (*parse.Report, error) {
		if calls.Load() == 0 { // the agent of fd-b finishes while fd-a is read
			if err := os.Rename(filepath.Join(dir, "fd-b.md.partial"), filepath.Join(dir, "fd-b.md")); err != nil {
				t.Error(err)
			}
		}
		return read(ctx, data)
	}
	run, err := s.Scan(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	wantAgents(t, run, []agentStatus{{"fd-a", "fd-a.md", parse.StatusValid}, {"fd-b", "fd-b.md", parse.StatusValid}})
	if n := calls.Load(); n != 2 {
		t.Errorf("%d reports parsed, want 2: fd-a.md once, fd-b.md", n)
	}
}

// TestScanSelectsByDeclaredTimes: with no run selected, the newest run is
// the one whose reports declare the latest finished:, whatever the file
// times of the copy; file times decide only for reports that declare none.
func TestScanSelectsByDeclaredTimes(t *testing.T) {
	const a, b = "aaaaaaaa-1111", "bbbbbbbb-2222"
	report := func(finished string) string {
		return "---\nfinished: " + finished + "\n---\n### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens in localStorage\nVerdict: needs-changes\n"
	}
	dir := t.TempDir()
	// Run b finished later, but run a's file is the newer copy (checked
	// out two days after the run).
	write(t, dir, "fd-x."+b+".md", report("2026-11-20T12:00:00Z"), 48*time.Hour)
	write(t, dir, "fd-x."+a+".md", report("2026-11-20T10:00:00Z"), 48*time.Hour+time.Minute)
	read := func() string {
		run, err := Scan(context.Background(), dir, ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return run.ID
	}
	if got := read(); got != b {
		t.Errorf("selected %q, want %q: its report declares the later finish", got, b)
	}
	// Without declared times the file times decide.
	undeclared := report("")[len("---\nfinished: \n---\n"):]
	write(t, dir, "fd-x."+b+".md", undeclared, 48*time.Hour)
	write(t, dir, "fd-x."+a+".md", undeclared, 48*time.Hour+time.Minute)
	if got := read(); got != a {
		t.Errorf("undeclared: selected %q, want %q, the newer file", got, a)
	}
}
