package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
)

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

func fnd(sev parse.Severity, id, section, title string, refs ...string) parse.Finding {
	return parse.Finding{Severity: sev, ID: id, Section: section, Title: title, Confidence: parse.ConfidenceHigh, FileRefs: refs}
}

func agentOf(name string, st parse.Status, fs ...parse.Finding) Agent {
	for i := range fs {
		if fs[i].Line == 0 {
			fs[i].Line = i + 2
		}
	}
	return Agent{
		Name: name, File: name + ".md", Status: st, ModTime: t0.Add(time.Hour),
		Report: &parse.Report{Status: st, Findings: fs, Improvements: []parse.Improvement{}},
	}
}

func synthOf(t *testing.T, run *Run, opts Options) *Synthesis {
	t.Helper()
	return Synthesize(run, opts)
}

func findingByID(s *Synthesis, id string) *Finding {
	for i := range s.Findings {
		if s.Findings[i].ID == id {
			return &s.Findings[i]
		}
	}
	return nil
}

func TestAgentAccounting(t *testing.T) {
	run := &Run{Agents: []Agent{
		agentOf("fd-a", parse.StatusValid, fnd(parse.P2, "A-001", "S", "x")),
		agentOf("fd-b", parse.StatusVariant),
		agentOf("fd-c", parse.StatusMalformed),
		agentOf("fd-d", parse.StatusError),
		{Name: "fd-e", File: "fd-e.md.partial", Status: parse.StatusPartial},
		{Name: "fd-f", File: "fd-f.1234abcd.md", Run: "1234abcd", Status: parse.StatusForeign},
	}}
	s := synthOf(t, run, Options{Expect: []string{"fd-a", "fd-g"}})
	check := func(name string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	check("launched", s.AgentsLaunched, []string{"fd-a", "fd-b", "fd-c", "fd-d", "fd-e", "fd-g"})
	check("completed", s.AgentsCompleted, []string{"fd-a", "fd-b", "fd-c"})
	check("failed", s.AgentsFailed, []string{"fd-d", "fd-g"})
	check("foreign", s.AgentsForeign, []string{"fd-f"})
	check("partial", s.AgentsPartial, []string{"fd-e"})
	if s.Verdict != parse.Safe {
		t.Errorf("verdict = %s, want safe", s.Verdict)
	}
	if len(s.Agents) != 7 || s.Agents[6].Name != "fd-g" || s.Agents[6].File != nil {
		t.Errorf("expected-but-missing agent not listed with a null file: %+v", s.Agents)
	}
	if f := s.Findings[0]; f.ConvergenceDisplay != "1/3" {
		t.Errorf("convergence_display = %s, want 1/3", f.ConvergenceDisplay)
	}
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		name     string
		agents   []Agent
		watching bool
		want     parse.Verdict
	}{
		{"P0 is risky", []Agent{agentOf("a", parse.StatusValid, fnd(parse.P0, "X-1", "S", "boom"), fnd(parse.P1, "X-2", "S", "bad"))}, false, parse.Risky},
		{"P1 needs changes", []Agent{agentOf("a", parse.StatusValid, fnd(parse.P1, "X-2", "S", "bad"), fnd(parse.P3, "X-3", "S", "nit"))}, false, parse.NeedsChanges},
		{"P2 and P3 are safe", []Agent{agentOf("a", parse.StatusValid, fnd(parse.P2, "X-2", "S", "meh"))}, false, parse.Safe},
		{"none completed is error", []Agent{agentOf("a", parse.StatusError)}, false, parse.Error},
		{"nothing at all is error", nil, false, parse.Error},
		{"none completed while watching is pending", []Agent{{Name: "a", File: "a.md.partial", Status: parse.StatusPartial}}, true, parse.Pending},
		{"foreign P0 does not count", []Agent{agentOf("a", parse.StatusValid), func() Agent {
			a := agentOf("b", parse.StatusForeign, fnd(parse.P0, "X-1", "S", "boom"))
			return a
		}()}, false, parse.Safe},
		{"error agent's findings do not count", []Agent{agentOf("a", parse.StatusValid), agentOf("b", parse.StatusError, fnd(parse.P0, "X-1", "S", "boom"))}, false, parse.Safe},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := synthOf(t, &Run{Agents: tt.agents}, Options{Watching: tt.watching})
			if s.Verdict != tt.want {
				t.Errorf("verdict = %s, want %s", s.Verdict, tt.want)
			}
		})
	}
}

func TestImprovementsNeverCount(t *testing.T) {
	a := agentOf("a", parse.StatusVariant)
	a.Report.Improvements = []parse.Improvement{{ID: "IMP-1", Section: "Docs", Title: "Add examples", Line: 3}}
	b := agentOf("b", parse.StatusVariant)
	b.Report.Improvements = []parse.Improvement{{ID: "GS-I1", Section: "docs", Title: "add examples!", Line: 9}}
	s := synthOf(t, &Run{Agents: []Agent{a, b}}, Options{})
	if s.Verdict != parse.Safe || len(s.Findings) != 0 {
		t.Fatalf("improvements moved the verdict: %s, %d findings", s.Verdict, len(s.Findings))
	}
	if len(s.Improvements) != 1 || !slices.Equal(s.Improvements[0].Agents, []string{"a", "b"}) || s.Improvements[0].ID != "IMP-1" {
		t.Errorf("improvements = %+v, want one merged IMP-1 from a and b", s.Improvements)
	}
}

func TestDedup(t *testing.T) {
	run := &Run{Agents: []Agent{
		agentOf("fd-arch", parse.StatusValid,
			fnd(parse.P1, "AR-001", "Authentication", "Session tokens stored in localStorage", "src/auth.ts:12"),
			fnd(parse.P2, "AR-002", "API Design", "Missing rate limiting on login", "src/api.ts:40"),
			fnd(parse.P2, "AR-003", "Storage", "Cache key collides across tenants", "src/cache.ts:7"),
		),
		agentOf("fd-safety", parse.StatusValid,
			fnd(parse.P0, "SAF-01", "authentication", "Session tokens stored in localStorage!", "src/auth.ts:30"),
			fnd(parse.P2, "SAF-02", "Rate Limits", "Login has no rate limiting", "src/api.ts:40"),
			fnd(parse.P3, "SAF-03", "Logging", "Tenant id logged in clear", "src/cache.ts:7"),
		),
		agentOf("fd-quality", parse.StatusValid,
			fnd(parse.P1, "QU-001", "Authentication", "Session token stored in local storage", "src/auth.ts:12"),
			fnd(parse.P2, "QU-002", "API Design", "Rate limiting missing for the login endpoint"),
		),
	}}
	t.Run("fuzzy", func(t *testing.T) {
		s := synthOf(t, run, Options{})
		auth := findingByID(s, "SAF-01")
		if auth == nil {
			t.Fatalf("no finding with the representative id SAF-01: %+v", s.Findings)
		}
		if auth.Severity != parse.P0 || auth.Convergence != 3 || auth.Confidence != "high" || auth.ConvergenceDisplay != "3/3" {
			t.Errorf("auth finding = %s %d %s %s, want P0 3 high 3/3", auth.Severity, auth.Convergence, auth.Confidence, auth.ConvergenceDisplay)
		}
		wantConflict := map[string]parse.Severity{"fd-arch": parse.P1, "fd-quality": parse.P1, "fd-safety": parse.P0}
		if fmt.Sprint(auth.SeverityConflict()) != fmt.Sprint(wantConflict) {
			t.Errorf("severity_conflict = %v, want %v", auth.SeverityConflict(), wantConflict)
		}
		// fd-arch and fd-safety share the key but cite different lines; fd-quality's title differs.
		if len(auth.CrossReferences()) != 2 || auth.CrossReferences()[0].Ref != "src/auth.ts:12" ||
			!slices.Equal(auth.CrossReferences()[0].Agents, []string{"fd-arch"}) || auth.CrossReferences()[1].Ref != "src/auth.ts:30" {
			t.Errorf("cross_references = %+v", auth.CrossReferences())
		}
		// Cross-section merge by file:line: "Rate Limits" and "API Design" share src/api.ts:40 and the titles
		// match; QU-002 (same section as AR-002, shares keywords) joins too.
		rate := findingByID(s, "AR-002")
		if rate == nil || rate.Convergence != 3 || !slices.Equal(rate.Agents, []string{"fd-arch", "fd-quality", "fd-safety"}) {
			t.Errorf("rate limiting finding = %+v, want AR-002 from 3 agents", rate)
		}
		// Same file:line, different issue: co-located, not merged.
		cache, logged := findingByID(s, "AR-003"), findingByID(s, "SAF-03")
		if cache == nil || logged == nil {
			t.Fatalf("co-located findings merged: %+v", s.Findings)
		}
		if len(cache.CoLocatedWith()) != 1 || cache.CoLocatedWith()[0].ID != "SAF-03" || cache.CoLocatedWith()[0].Ref != "src/cache.ts:7" {
			t.Errorf("co_located_with = %+v, want SAF-03 at src/cache.ts:7", cache.CoLocatedWith())
		}
		if len(s.Findings) != 4 {
			t.Errorf("%d findings, want 4", len(s.Findings))
		}
		if s.Verdict != parse.Risky {
			t.Errorf("verdict = %s, want risky", s.Verdict)
		}
	})
	t.Run("exact", func(t *testing.T) {
		s := synthOf(t, run, Options{Dedup: DedupExact})
		// AR-001 and SAF-01 have the same key; nothing else merges.
		if len(s.Findings) != 7 {
			for _, f := range s.Findings {
				t.Logf("%s %s", f.ID, f.Key)
			}
			t.Errorf("%d findings with exact dedup, want 7", len(s.Findings))
		}
	})
}

// Sections are weak evidence (SPEC §5.2): findings of different sections
// whose words match a little merge when they cite one place, not when they
// cite two; the same words merge in any sections.
func TestCrossSectionNeedsSharedRef(t *testing.T) {
	run := &Run{Agents: []Agent{
		agentOf("a", parse.StatusValid, fnd(parse.P2, "A-1", "Security", "Auth token written to the request log", "a.go:3")),
		agentOf("b", parse.StatusValid, fnd(parse.P2, "B-1", "Observability", "Request log leaks", "a.go:40")),
	}}
	if s := synthOf(t, run, Options{}); len(s.Findings) != 2 {
		t.Errorf("findings of different sections citing two places merged")
	}
	run.Agents[1].Report.Findings[0].FileRefs = []string{"a.go:4-9"}
	if s := synthOf(t, run, Options{}); len(s.Findings) != 1 {
		t.Errorf("findings of different sections citing a.go:3 and a.go:4-9 did not merge")
	}
	run.Agents[1].Report.Findings[0].FileRefs = []string{"a.go:40"}
	run.Agents[1].Report.Findings[0].Title = "Auth tokens written to request logs"
	if s := synthOf(t, run, Options{}); len(s.Findings) != 1 {
		t.Errorf("findings of different sections with the same keywords did not merge")
	}
}

func TestRepresentative(t *testing.T) {
	run := &Run{Agents: []Agent{
		agentOf("zeta", parse.StatusValid, fnd(parse.P1, "Z-1", "S", "Same title")),
		agentOf("alpha", parse.StatusValid, fnd(parse.P3, "A-9", "S", "Same title"), fnd(parse.P1, "A-1", "S", "same title")),
	}}
	s := synthOf(t, run, Options{})
	if len(s.Findings) != 1 {
		t.Fatalf("%d findings, want 1", len(s.Findings))
	}
	// Highest severity (P1), then agent name (alpha before zeta).
	if f := s.Findings[0]; f.ID != "A-1" || f.Convergence != 2 || len(f.Sources) != 3 {
		t.Errorf("representative = %s (convergence %d, %d sources), want A-1, 2, 3", f.ID, f.Convergence, len(f.Sources))
	}
	// An agent reporting it twice at P1 and P3 counts at its highest: no conflict with zeta's P1.
	if s.Findings[0].SeverityConflict() != nil {
		t.Errorf("severity_conflict = %v, want none", s.Findings[0].SeverityConflict())
	}
}

func TestProseOnlyIsLowConfidence(t *testing.T) {
	low := func(f parse.Finding) parse.Finding { f.Confidence = parse.ConfidenceLow; return f }
	run := &Run{Agents: []Agent{
		agentOf("a", parse.StatusMalformed, low(fnd(parse.P0, "", "", "Secrets committed to the repo"))),
		agentOf("b", parse.StatusMalformed, low(fnd(parse.P0, "", "", "Secrets committed to repo"))),
		agentOf("c", parse.StatusMalformed, low(fnd(parse.P0, "", "", "secrets committed to the repo"))),
	}}
	s := synthOf(t, run, Options{})
	if len(s.Findings) != 1 || s.Findings[0].Confidence != "low" || s.Findings[0].Convergence != 3 {
		t.Fatalf("prose findings = %+v, want one low-confidence finding from 3 agents", s.Findings)
	}
	if s.Verdict != parse.Risky {
		t.Errorf("a prose P0 was lost: verdict %s", s.Verdict)
	}
}

func TestFingerprintStableAcrossLineShifts(t *testing.T) {
	a := synthOf(t, &Run{Agents: []Agent{agentOf("a", parse.StatusValid, fnd(parse.P1, "A-1", "S", "T", "x/y.go:10"))}}, Options{})
	b := synthOf(t, &Run{Agents: []Agent{agentOf("b", parse.StatusValid, fnd(parse.P1, "B-7", "S", "T", "x/y.go:99"))}}, Options{})
	c := synthOf(t, &Run{Agents: []Agent{agentOf("b", parse.StatusValid, fnd(parse.P1, "B-7", "S", "T", "x/z.go:10"))}}, Options{})
	if a.Findings[0].Fingerprint != b.Findings[0].Fingerprint {
		t.Errorf("fingerprint changed with the line")
	}
	if a.Findings[0].Fingerprint == c.Findings[0].Fingerprint {
		t.Errorf("fingerprint did not change with the path")
	}
}

// randomRun makes a run of n completed agents whose findings are drawn from a
// small pool of titles, sections and refs, so that many of them merge.
func randomRun(r *rand.Rand, n int) *Run {
	titles := []string{"Session tokens stored in localStorage", "Session token stored in local storage",
		"Missing rate limiting on login", "Login has no rate limiting", "Unbounded retry loop exhausts pool",
		"Retry loop exhausts connection pool", "Deadlock", "Deadlocks", "SQL injection in search",
		"Cache key collides across tenants", "Docs out of date", "Error ignored on close"}
	sections := []string{"Auth", "API", "Storage", "Docs"}
	refs := []string{"a.go:1", "a.go:2", "b.go:10", "c.go:5-9", ""}
	sevs := []parse.Severity{parse.P0, parse.P1, parse.P2, parse.P3}
	run := &Run{}
	for i := range n {
		a := agentOf(fmt.Sprintf("fd-%02d", i), parse.StatusValid)
		for j := range r.IntN(6) {
			var fr []string
			if ref := refs[r.IntN(len(refs))]; ref != "" {
				fr = []string{ref}
			}
			f := fnd(sevs[r.IntN(4)], fmt.Sprintf("X-%03d", r.IntN(20)), sections[r.IntN(len(sections))],
				titles[r.IntN(len(titles))], fr...)
			f.Line = j + 3
			a.Report.Findings = append(a.Report.Findings, f)
		}
		run.Agents = append(run.Agents, a)
	}
	return run
}

func shuffled(r *rand.Rand, run *Run) *Run {
	out := &Run{Input: run.Input, ID: run.ID, Bus: run.Bus, Newest: run.Newest}
	for _, i := range r.Perm(len(run.Agents)) {
		a := run.Agents[i]
		rep := *a.Report
		rep.Findings = nil
		for _, j := range r.Perm(len(a.Report.Findings)) {
			rep.Findings = append(rep.Findings, a.Report.Findings[j])
		}
		a.Report = &rep
		out.Agents = append(out.Agents, a)
	}
	return out
}

func TestPropertyOrderIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		run := randomRun(r, 1+r.IntN(8))
		for _, mode := range []Dedup{DedupFuzzy, DedupExact} {
			want := must(RenderJSON(Synthesize(run, Options{Dedup: mode})))
			got := must(RenderJSON(Synthesize(shuffled(r, run), Options{Dedup: mode})))
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: synthesis depends on input order:\n%s", i, txtartest.FirstDiff(want, got))
			}
		}
	}
}

// Dedup is idempotent where keyword weights cannot change: every agent
// reports one finding (so no agent repeats a keyword), before and after.
func TestPropertyDedupIdempotent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		run := &Run{}
		for _, a := range randomRun(r, 1+r.IntN(8)).Agents {
			for j, f := range a.Report.Findings {
				run.Agents = append(run.Agents, agentOf(fmt.Sprintf("%s-%d", a.Name, j), parse.StatusValid, f))
			}
		}
		s := Synthesize(run, Options{})
		// Feed the representatives back as findings of one agent each: nothing
		// merges further.
		again := &Run{}
		for j, f := range s.Findings {
			rep := f.Sources[0]
			again.Agents = append(again.Agents, agentOf(fmt.Sprintf("r%04d", j), parse.StatusValid,
				parse.Finding{Severity: f.Severity, ID: f.ID, Section: rep.Section, Title: rep.Title, Line: 1,
					Confidence: parse.ConfidenceHigh, FileRefs: rep.FileRefs}))
		}
		if s2 := Synthesize(again, Options{}); len(s2.Findings) != len(s.Findings) {
			t.Fatalf("case %d: dedup of %d representatives gave %d findings", i, len(s.Findings), len(s2.Findings))
		}
	}
}

func TestPropertyAddingP0NeverLowersVerdict(t *testing.T) {
	rank := map[parse.Verdict]int{parse.Safe: 0, parse.NeedsChanges: 1, parse.Risky: 2}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 200 {
		run := randomRun(r, 1+r.IntN(6))
		before := Synthesize(run, Options{}).Verdict
		k := r.IntN(len(run.Agents))
		run.Agents[k].Report.Findings = append(run.Agents[k].Report.Findings, fnd(parse.P0, "NEW-1", "Auth", "Brand new critical issue"))
		after := Synthesize(run, Options{}).Verdict
		if rank[after] < rank[before] || after != parse.Risky {
			t.Fatalf("case %d: adding a P0 took the verdict from %s to %s", i, before, after)
		}
	}
}

func TestPropertyErrorAgentChangesNoFinding(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 200 {
		run := randomRun(r, 1+r.IntN(6))
		before := Synthesize(run, Options{})
		failed := randomRun(r, 1).Agents[0]
		failed.Name, failed.File, failed.Status = "zz-failed", "zz-failed.md", parse.StatusError
		run.Agents = append(run.Agents, failed)
		after := Synthesize(run, Options{})
		if !slices.EqualFunc(before.Findings, after.Findings, func(a, b Finding) bool {
			return reflect.DeepEqual(a, b) // through pointers: the findings share their provenance
		}) {
			t.Fatalf("case %d: an error agent changed the findings", i)
		}
	}
}

// fakeVerifier gives claims on good.go verified, on bin.dat skipped, on
// moved.go moved, and everything else missing-file, recording what it was
// asked.
type fakeVerifier struct{ asked []parse.EvidenceClaim }

func (v *fakeVerifier) Verify(claims []parse.EvidenceClaim) []parse.ClaimResult {
	v.asked = append(v.asked, claims...)
	out := make([]parse.ClaimResult, len(claims))
	for i, c := range claims {
		out[i] = parse.ClaimResult{EvidenceClaim: c, Status: parse.EvidenceMissingFile, Note: "no such file"}
		switch c.Path {
		case "good.go":
			out[i].Status, out[i].Note = parse.EvidenceVerified, ""
		case "bin.dat":
			out[i].Status, out[i].Note = parse.EvidenceSkipped, "binary file"
		case "moved.go":
			out[i].Status, out[i].Note, out[i].Found = parse.EvidenceMoved, "", "moved.go:20-21"
		}
	}
	return out
}

func TestEvidenceSeam(t *testing.T) {
	withClaim := fnd(parse.P0, "A-1", "S", "Grounded", "good.go:3", "good.go:4", "good.go:9")
	withClaim.Evidence = []parse.Claim{{Path: "good.go", Start: 3, End: 4, Excerpt: "x := 1", Line: 7}}
	skippedOnly := fnd(parse.P1, "A-5", "W", "Only a binary file", "bin.dat:2")
	mixed := fnd(parse.P1, "A-6", "X", "A binary file and a missing one", "bin.dat:2", "gone.go:3")
	moved := fnd(parse.P1, "A-7", "Y", "Moved is grounded", "gone.go:5")
	moved.Evidence = []parse.Claim{{Path: "moved.go", Start: 3, End: 4, Excerpt: "y := 2", Line: 12}}
	run := &Run{Agents: []Agent{agentOf("a", parse.StatusValid,
		withClaim,
		fnd(parse.P1, "A-2", "T", "Ungrounded", "gone.go:9", "gone.go"),
		fnd(parse.P2, "A-3", "U", "Low severity, bad ref", "gone.go:1"),
		fnd(parse.P1, "A-4", "V", "No refs at all"),
		skippedOnly, mixed, moved,
	)}}
	if s := Synthesize(run, Options{EvidenceNote: "--no-evidence"}); s.Evidence != nil || s.Findings[0].Evidence() != nil {
		t.Fatalf("evidence reported without a verifier")
	} else if md := string(RenderMarkdown(s)); !strings.Contains(md, "## Evidence\n\nNot checked: --no-evidence.\n") {
		t.Errorf("summary.md does not say why evidence was not checked:\n%s", md[strings.Index(md, "## Evidence"):])
	}
	v := &fakeVerifier{}
	s := Synthesize(run, Options{Evidence: v, EvidenceRepo: "repo"})
	// good.go:3 and good.go:4 lie inside the excerpt claim good.go:3-4: its
	// excerpt says more about those lines, so they are not asked again.
	// good.go:9 is; "gone.go" has no line and is no claim.
	var asked []string
	for _, c := range v.asked {
		asked = append(asked, c.Ref())
	}
	slices.Sort(asked)
	want := []string{"bin.dat:2", "bin.dat:2", "gone.go:1", "gone.go:3", "gone.go:5", "gone.go:9", "good.go:3-4", "good.go:9", "moved.go:3-4"}
	if !slices.Equal(asked, want) {
		t.Errorf("verifier asked %q, want %q", asked, want)
	}
	wantTally := EvidenceTally{Repo: "repo", Claims: 9, Verified: 2, Moved: 1, MissingFile: 4, Skipped: 2, Ungrounded: 1}
	if *s.Evidence != wantTally {
		t.Errorf("tally = %+v, want %+v", *s.Evidence, wantTally)
	}
	for _, f := range s.Findings {
		ungrounded := f.Evidence() != nil && f.Evidence().Ungrounded
		// Only A-2 fails every claim; A-3 is P2; hold a skipped
		// claim (neither grounds nor fails); A-7's moved excerpt grounds it.
		if ungrounded != (f.ID == "A-2") {
			t.Errorf("%s: ungrounded = %v", f.ID, ungrounded)
		}
		if (f.Evidence() == nil) != (f.ID == "A-4") {
			t.Errorf("%s: evidence %+v", f.ID, f.Evidence())
		}
	}
	wantAll(t, "summary.md", string(RenderMarkdown(s)),
		"**A-2** Ungrounded (1/1 agents: a) — T · `gone.go`, `gone.go:9` · confidence low · **ungrounded**\n",
		"Checked 9 claims against `repo`: 2 verified, 1 moved, 0 mismatch, 4 missing file, 0 out of range, 2 skipped; 1 ungrounded P0/P1 finding.\n",
		"**Ungrounded** (P0/P1 findings whose every claim failed):\n\n- P1 **A-2** Ungrounded (a)\n",
		"| P1 A-7 | a | `moved.go:3-4` | moved | now at `moved.go:20-21` |\n",
		"| P1 A-5 | a | `bin.dat:2` | skipped | binary file |\n")
	validateFindingsJSON(t, must(RenderJSON(s)))
	sarifLog, err := RenderSARIF(s, "run")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(sarifLog), `"ungrounded": true`); n != 1 {
		t.Errorf("SARIF marks %d results ungrounded, want 1", n)
	}

	// Nothing cited exists: the summary asks whether the repository is right.
	v2 := &fakeVerifier{}
	gone := &Run{Agents: []Agent{agentOf("a", parse.StatusValid, fnd(parse.P1, "B-1", "T", "Gone", "gone.go:1"))}}
	s = Synthesize(gone, Options{Evidence: v2, EvidenceRepo: "elsewhere"})
	wantAll(t, "summary.md", string(RenderMarkdown(s)), "None of the cited files exists there")
}

func TestClaimsOf(t *testing.T) {
	f := fnd(parse.P1, "C-1", "S", "T", "./a.go:10", "a.go:12", "a.go:30-31", "b.go", "c.go:20-12", "./a.go:30")
	f.Line = 4
	f.Evidence = []parse.Claim{
		{Path: "./a.go", Start: 10, End: 12, Excerpt: "x", Line: 9},
		{Path: "a.go", Start: 30, End: 30, Line: 11}, // no excerpt: covers only the same reference
	}
	var got []string
	for _, c := range ClaimsOf("fd-a", &f) {
		got = append(got, fmt.Sprintf("%s:%s@%d", c.Agent, c.Ref(), c.Line))
	}
	want := []string{"fd-a:./a.go:10-12@9", "fd-a:a.go:30@11", "fd-a:a.go:30-31@4"}
	if !slices.Equal(got, want) {
		t.Errorf("ClaimsOf = %q, want %q", got, want)
	}
}

func TestEnvelopeInReports(t *testing.T) {
	a := agentOf("fd-a", parse.StatusValid, fnd(parse.P2, "E-1", "S", "T"))
	a.Report.Envelope = map[string]string{"message_id": "m-1", "zeta": "last", "correlation_id": "run-42",
		"source_document": "docs/plan.md", "alpha": "a | b"}
	s := Synthesize(&Run{Agents: []Agent{a, agentOf("fd-b", parse.StatusValid)}}, Options{})
	if got := s.Agents[0].Envelope; len(got) != 5 || got["message_id"] != "m-1" {
		t.Errorf("findings.json envelope = %v", got)
	}
	if s.Agents[1].Envelope != nil {
		t.Errorf("an agent without an envelope got %v", s.Agents[1].Envelope)
	}
	wantAll(t, "summary.md", string(RenderMarkdown(s)),
		"### Message envelopes\n\n- fd-a: message_id `m-1`, correlation_id `run-42`, source_document `docs/plan.md`, alpha `a | b`, zeta `last`\n")
	validateFindingsJSON(t, must(RenderJSON(s)))
}
