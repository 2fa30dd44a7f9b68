package plan

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/parse"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	return &Store{Root: t.TempDir()}
}

func errType(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	typ := ErrorType(err)
	if typ == "" {
		t.Fatalf("error %v is not a *plan.Error", err)
	}
	return typ
}

func mustWrite(t *testing.T, s *Store, name string, in ApproachInput) WriteApproachResult {
	t.Helper()
	res, err := s.WriteApproach(name, in)
	if err != nil {
		t.Fatalf("WriteApproach(%s, %+v): %v", name, in, err)
	}
	return res
}

func approachIDs(t *testing.T, s *Store, name string) string {
	t.Helper()
	sp, _, err := s.Read(name)
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return strings.Join(ids(sp.Approaches), ",")
}

func TestWriteApproach(t *testing.T) {
	s := newStore(t)
	r := mustWrite(t, s, "frontend", ApproachInput{Number: 2, Description: "two", Files: []string{"a.ts"}, Questions: []string{"q1?", "q2?"}})
	if !r.Created || r.Updated || r.ApproachID != "2" || r.Variant != nil || r.IsVariant {
		t.Errorf("first write: got %+v, want created standalone 2", r)
	}
	mustWrite(t, s, "frontend", ApproachInput{Number: 1, Description: "one"})
	mustWrite(t, s, "frontend", ApproachInput{Number: 3, NextVariant: true, Description: "3A"})
	mustWrite(t, s, "frontend", ApproachInput{Number: 3, Variant: "C", Description: "3C"})
	r = mustWrite(t, s, "frontend", ApproachInput{Number: 3, NextVariant: true, Description: "3B"})
	if r.ApproachID != "3_B" || r.Variant == nil || *r.Variant != "B" || !r.IsVariant {
		t.Errorf("next free variant: got %+v, want 3_B", r)
	}
	if got, want := approachIDs(t, s, "frontend"), "1,2,3_A,3_B,3_C"; got != want {
		t.Errorf("approaches %s, want sorted %s", got, want)
	}

	// Refine, then rewrite: the rewrite replaces the approach and clears the
	// refinement.
	if _, err := s.Refine("frontend", 2, "", "use server validation"); err != nil {
		t.Fatal(err)
	}
	_, got, _, err := s.Approaches("frontend", 2, "")
	if err != nil || got[0].PendingRefinement != "use server validation" {
		t.Fatalf("after refine: %+v, %v", got, err)
	}
	r = mustWrite(t, s, "frontend", ApproachInput{Number: 2, Description: "two, revised", Files: []string{"b.ts"}})
	if r.Created || !r.Updated || r.ClearedRefinement != "use server validation" {
		t.Errorf("rewrite: got %+v, want updated with the refinement cleared", r)
	}
	_, got, _, _ = s.Approaches("frontend", 2, "")
	if a := got[0]; a.PendingRefinement != "" || a.Description != "two, revised" || strings.Join(a.RelevantFiles, ",") != "b.ts" || len(a.Questions) != 0 {
		t.Errorf("rewritten approach: %+v", a)
	}

	errCases := []struct {
		name string
		spec string
		in   ApproachInput
		want string
	}{
		{"variant over standalone", "frontend", ApproachInput{Number: 2, Variant: "A"}, ErrStandaloneExists},
		{"next variant over standalone", "frontend", ApproachInput{Number: 2, NextVariant: true}, ErrStandaloneExists},
		{"standalone over variants", "frontend", ApproachInput{Number: 3}, ErrVariantsExist},
		{"number zero", "frontend", ApproachInput{Number: 0}, ErrInvalidNumber},
		{"lowercase variant", "frontend", ApproachInput{Number: 4, Variant: "a"}, ErrInvalidVariant},
		{"two-letter variant", "frontend", ApproachInput{Number: 4, Variant: "AB"}, ErrInvalidVariant},
		{"dot-dot name", "../x", ApproachInput{Number: 1}, ErrInvalidSpecialist},
		{"slash name", "a/b", ApproachInput{Number: 1}, ErrInvalidSpecialist},
		{"empty name", "", ApproachInput{Number: 1}, ErrInvalidSpecialist},
		{"hidden name", ".x", ApproachInput{Number: 1}, ErrInvalidSpecialist},
		{"control character", "a\x1b[31m", ApproachInput{Number: 1}, ErrInvalidSpecialist},
	}
	before, _ := os.ReadFile(s.File("frontend"))
	for _, c := range errCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.WriteApproach(c.spec, c.in)
			if got := errType(t, err); got != c.want {
				t.Errorf("error %v (type %q), want type %q", err, got, c.want)
			}
		})
	}
	after, _ := os.ReadFile(s.File("frontend"))
	if !bytes.Equal(before, after) {
		t.Error("a refused write changed the file")
	}
	if entries, _ := os.ReadDir(s.Root); len(entries) != 1 {
		t.Errorf("plan root holds %d entries, want only findings/ (no file escaped it)", len(entries))
	}
	// The conflict messages name clear-approach.
	_, err = s.WriteApproach("frontend", ApproachInput{Number: 3})
	if e := err.(*Error); !strings.Contains(e.Suggestion, "clear-approach frontend 3") || !strings.Contains(e.Message, "3_A, 3_B, 3_C") {
		t.Errorf("variants_exist: %q / %q", e.Message, e.Suggestion)
	}
}

func TestWriteApproachKeepsUserData(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(s.FindingsDir(), 0o755)
	os.WriteFile(s.File("backend"), []byte(`specialist_name: backend
notes: keep me
reviewer: alice
approaches:
  - number: 1
    variant: null
    description: old
    required_clarifying_questions:
      - question: Per user?
        answer: "Yes"
    user_requested_changes: use a token bucket
    gate_status: reviewed
`), 0o644)
	r := mustWrite(t, s, "backend", ApproachInput{Number: 1, Description: "new", Questions: []string{"Per user?"}})
	if r.ClearedRefinement != "use a token bucket" {
		t.Errorf("cleared refinement %q, want the envoy user_requested_changes", r.ClearedRefinement)
	}
	data, _ := os.ReadFile(s.File("backend"))
	for _, want := range []string{"notes: keep me", "reviewer: alice", "gate_status: reviewed", "answer: \"Yes\"", "pending_refinement: \"\"", "description: new"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("rewritten file lacks %q:\n%s", want, data)
		}
	}
	if bytes.Contains(data, []byte("user_requested_changes")) {
		t.Errorf("rewritten file keeps the envoy field name:\n%s", data)
	}
	_, got, _, _ := s.Approaches("backend", 1, "")
	if u := got[0].Unanswered(); len(u) != 0 {
		t.Errorf("unanswered %v, want none (the answer was kept)", u)
	}
}

func TestMalformedNeverOverwritten(t *testing.T) {
	inputs := map[string]string{
		"syntax":       "specialist_name: x\napproaches:\n  - number: 1\n    description: \"open\n",
		"wrong type":   "specialist_name: x\napproaches:\n  - number: one\n",
		"alias bomb":   "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n",
		"two docs":     "specialist_name: x\n---\nspecialist_name: y\n",
		"binary":       "\x00\x01\x02\xfe",
		"over the cap": "notes: \"" + strings.Repeat("x", parse.MaxYAMLSize) + "\"\n",
	}
	for name, content := range inputs {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			os.MkdirAll(s.FindingsDir(), 0o755)
			os.WriteFile(s.File("x"), []byte(content), 0o644)
			ops := map[string]func() error{
				"write-approach": func() error { _, err := s.WriteApproach("x", ApproachInput{Number: 1}); return err },
				"write-finding": func() error {
					notes := "n"
					_, err := s.WriteFinding("x", &notes, nil)
					return err
				},
				"clear":   func() error { _, err := s.ClearApproach("x", 1, ""); return err },
				"refine":  func() error { _, err := s.Refine("x", 1, "", "t"); return err },
				"get":     func() error { _, _, _, err := s.Approaches("x", 1, ""); return err },
				"get-all": func() error { _, _, err := s.All(); return err },
			}
			for op, f := range ops {
				err := f()
				if typ := errType(t, err); typ != ErrMalformedYAML {
					t.Errorf("%s: error %v, want %s", op, err, ErrMalformedYAML)
				}
				if !strings.Contains(err.Error(), "findings/x.yaml:") {
					t.Errorf("%s: error %q does not name the file", op, err)
				}
				if data, _ := os.ReadFile(s.File("x")); string(data) != content {
					t.Fatalf("%s overwrote the malformed file", op)
				}
			}
		})
	}
}

func TestClearApproach(t *testing.T) {
	s := newStore(t)
	mustWrite(t, s, "fe", ApproachInput{Number: 1})
	mustWrite(t, s, "fe", ApproachInput{Number: 2, Variant: "A"})
	mustWrite(t, s, "fe", ApproachInput{Number: 2, Variant: "B"})
	mustWrite(t, s, "fe", ApproachInput{Number: 3, Variant: "A"})

	r, err := s.ClearApproach("fe", 2, "B")
	if err != nil || strings.Join(r.Cleared, ",") != "2_B" || r.RemainingCount != 3 {
		t.Errorf("clear 2 B: %+v, %v", r, err)
	}
	r, err = s.ClearApproach("fe", 3, "")
	if err != nil || strings.Join(r.Cleared, ",") != "3_A" {
		t.Errorf("clear 3 (every variant): %+v, %v", r, err)
	}
	_, err = s.ClearApproach("fe", 9, "")
	if errType(t, err) != ErrNotFound || !strings.Contains(err.(*Error).Suggestion, "1, 2_A") {
		t.Errorf("clear 9: %v (%+v)", err, err)
	}
	_, err = s.ClearApproach("nobody", 1, "")
	if errType(t, err) != ErrNotFound {
		t.Errorf("clear on a missing specialist: %v", err)
	}
	if _, err := os.Stat(s.File("nobody")); err == nil {
		t.Error("clear on a missing specialist created its file")
	}
	// Clearing the standalone makes room for variants.
	s.ClearApproach("fe", 1, "")
	if _, err := s.WriteApproach("fe", ApproachInput{Number: 1, NextVariant: true}); err != nil {
		t.Errorf("variant after clearing the standalone: %v", err)
	}
	if got := approachIDs(t, s, "fe"); got != "1_A,2_A" {
		t.Errorf("approaches %s, want 1_A,2_A", got)
	}
}

func TestRefineAndApproaches(t *testing.T) {
	s := newStore(t)
	mustWrite(t, s, "fe", ApproachInput{Number: 1, Variant: "A", Detail: "detail A"})
	mustWrite(t, s, "fe", ApproachInput{Number: 1, Variant: "B", Detail: "detail B"})

	_, err := s.Refine("fe", 1, "", "text")
	if errType(t, err) != ErrNotFound || !strings.Contains(err.(*Error).Suggestion, "1_A, 1_B") {
		t.Errorf("refine 1 when 1 has variants: %v / %+v", err, err)
	}
	if _, err := s.Refine("fe", 1, "B", "split the hook"); err != nil {
		t.Fatal(err)
	}
	_, all, _, err := s.Approaches("fe", 1, "")
	if err != nil || len(all) != 2 || all[0].ID() != "1_A" || all[1].PendingRefinement != "split the hook" {
		t.Errorf("approaches of 1: %+v, %v", all, err)
	}
	_, one, _, err := s.Approaches("fe", 1, "B")
	if err != nil || len(one) != 1 || one[0].Detail != "detail B" {
		t.Errorf("approach 1_B: %+v, %v", one, err)
	}
	if _, _, _, err := s.Approaches("fe", 1, "C"); errType(t, err) != ErrNotFound {
		t.Errorf("approach 1_C: %v", err)
	}
	if _, _, _, err := s.Approaches("nobody", 1, ""); errType(t, err) != ErrNotFound {
		t.Errorf("approach of a missing specialist: %v", err)
	}
	// An empty text clears the refinement.
	s.Refine("fe", 1, "B", "")
	_, one, _, _ = s.Approaches("fe", 1, "B")
	if one[0].PendingRefinement != "" {
		t.Errorf("refinement %q after clearing", one[0].PendingRefinement)
	}
}

func TestWriteFinding(t *testing.T) {
	s := newStore(t)
	notes := "React 18"
	approaches, err := ParseApproachesJSON([]byte(`[
		{"number": 2, "description": "two", "context": "ctx", "relevant_files": ["a.ts"], "questions": ["q?"]},
		{"number": 1, "variant": "B", "description": "1B"},
		{"number": 1, "is_variant": true, "description": "1 next free"},
		{"number": 3, "approach_detail": "d", "required_clarifying_questions": [{"question": "q3?"}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.WriteFinding("fe", &notes, approaches)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Created || r.ApproachCount != 4 || strings.Join(r.ApproachIDs, ",") != "1_A,1_B,2,3" {
		t.Errorf("write-finding: %+v", r)
	}
	sp, diags, err := s.Read("fe")
	if err != nil || len(diags) != 0 {
		t.Fatalf("read back: %v %v", diags, err)
	}
	if sp.Notes != "React 18" || sp.Approaches[2].Detail != "ctx" || sp.Approaches[3].Questions[0] != "q3?" {
		t.Errorf("read back: %+v", sp)
	}
	// Without approaches the existing ones stay; without notes the notes stay.
	newNotes := "React 19"
	if _, err := s.WriteFinding("fe", &newNotes, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteFinding("fe", nil, nil); err != nil {
		t.Fatal(err)
	}
	sp, _, _ = s.Read("fe")
	if sp.Notes != "React 19" || len(sp.Approaches) != 4 {
		t.Errorf("notes-only write: notes %q, %d approaches", sp.Notes, len(sp.Approaches))
	}

	bad := []struct {
		name, json, want string
	}{
		{"not an array", `{"number": 1}`, ErrInvalidJSON},
		{"not JSON", `[{number: 1}]`, ErrInvalidJSON},
		{"unknown field", `[{"number": 1, "colour": "red"}]`, ErrInvalidJSON},
		{"no number", `[{"description": "x"}]`, ErrInvalidNumber},
		{"number zero", `[{"number": 0}]`, ErrInvalidNumber},
		{"fractional number", `[{"number": 1.5}]`, ErrInvalidNumber},
		{"bad question", `[{"number": 1, "questions": [3]}]`, ErrInvalidJSON},
		{"context and detail", `[{"number": 1, "context": "a", "approach_detail": "b"}]`, ErrInvalidJSON},
		{"bad variant", `[{"number": 1, "variant": "x"}]`, ErrInvalidVariant},
		{"id twice", `[{"number": 1}, {"number": 1}]`, ErrInvalidJSON},
		{"standalone and variant", `[{"number": 1}, {"number": 1, "variant": "A"}]`, ErrVariantsExist},
		{"variant then standalone", `[{"number": 1, "variant": "A"}, {"number": 1}]`, ErrStandaloneExists},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			as, err := ParseApproachesJSON([]byte(c.json))
			if err == nil {
				_, err = s.WriteFinding("fe", nil, as)
			}
			if got := errType(t, err); got != c.want {
				t.Errorf("error %v (%s), want %s", err, got, c.want)
			}
		})
	}
}

func TestAllAndDesign(t *testing.T) {
	s := newStore(t)
	if all, _, err := s.All(); err != nil || len(all) != 0 {
		t.Errorf("All on an empty root: %v, %v", all, err)
	}
	mustWrite(t, s, "frontend", ApproachInput{Number: 1})
	mustWrite(t, s, "backend", ApproachInput{Number: 1})
	os.MkdirAll(filepath.Join(s.FindingsDir(), "_archive"), 0o755)
	os.WriteFile(filepath.Join(s.FindingsDir(), "_archive", "old.yaml"), []byte("specialist_name: old\n"), 0o644)
	os.WriteFile(filepath.Join(s.FindingsDir(), "notes.txt"), []byte("not yaml"), 0o644)
	os.WriteFile(filepath.Join(s.FindingsDir(), ".hidden.yaml"), []byte("specialist_name: hidden\n"), 0o644)
	os.WriteFile(filepath.Join(s.FindingsDir(), "renamed.yaml"), []byte("specialist_name: other\n"), 0o644)
	all, diags, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range all {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "backend,frontend,renamed" {
		t.Errorf("All: %s, want backend,frontend,renamed", got)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].String(), `specialist_name "other" differs`) {
		t.Errorf("diagnostics %v, want one about renamed.yaml", diags)
	}

	m, _, exists, err := s.DesignManifest()
	if err != nil || exists || len(m.Designs) != 0 {
		t.Errorf("no design manifest: %+v %v %v", m, exists, err)
	}
	os.MkdirAll(filepath.Join(s.Root, "design"), 0o755)
	os.WriteFile(filepath.Join(s.Root, "design", "manifest.yaml"), []byte("designs:\n  - screenshot_file_name: a.png\n    description: A\n"), 0o644)
	m, _, exists, err = s.DesignManifest()
	if err != nil || !exists || len(m.Designs) != 1 || m.Designs[0].ScreenshotFileName != "a.png" {
		t.Errorf("design manifest: %+v %v %v", m, exists, err)
	}
}

// TestConcurrentWriters has 8 goroutines write 10 approaches each to one
// specialist file at once: every approach must be there afterwards. (The
// command-line test plan_concurrent.txtar does the same with 8 processes.)
func TestConcurrentWriters(t *testing.T) {
	s := newStore(t)
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				n := w*each + i + 1
				if _, err := s.WriteApproach("shared", ApproachInput{Number: n, Description: fmt.Sprintf("by writer %d", w)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	sp, _, err := s.Read("shared")
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Approaches) != writers*each {
		t.Errorf("%d approaches, want %d", len(sp.Approaches), writers*each)
	}
	for i, a := range sp.Approaches {
		if a.Number != i+1 {
			t.Fatalf("approach %d is number %d: lost or out of order", i+1, a.Number)
		}
	}
}

func TestParseApproachID(t *testing.T) {
	cases := []struct {
		in      string
		n       int
		v, want string
	}{
		{"3", 3, "", ""},
		{"3_B", 3, "B", ""},
		{"0", 0, "", ErrInvalidNumber},
		{"x", 0, "", ErrInvalidNumber},
		{"3_", 0, "", ErrInvalidVariant},
		{"3_b", 0, "", ErrInvalidVariant},
		{"3_AB", 0, "", ErrInvalidVariant},
	}
	for _, c := range cases {
		n, v, err := ParseApproachID(c.in)
		if got := ErrorType(err); got != c.want || (err == nil && (n != c.n || v != c.v)) {
			t.Errorf("ParseApproachID(%q) = %d, %q, %v; want %d, %q, %q", c.in, n, v, err, c.n, c.v, c.want)
		}
	}
}

func TestBranchDir(t *testing.T) {
	wantStrings(t, "BranchDir", BranchDir, map[string]string{
		"main":           "main",
		"feat/auth":      "feat-auth",
		"user/x.y@z":     "user-x-y-z",
		"fix_1-2":        "fix_1-2",
		"../../etc":      "------etc",
		"ünïcode/branch": "-n-code-branch",
	})
}

func TestSymlinks(t *testing.T) {
	s := newStore(t)
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	os.WriteFile(outside, []byte("specialist_name: secret\n"), 0o644)
	os.MkdirAll(s.FindingsDir(), 0o755)
	if err := os.Symlink(outside, s.File("leak")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if _, _, err := s.Read("leak"); errType(t, err) != ErrUnsafePath {
		t.Errorf("read through a link leaving the root: %v", err)
	}
	if _, err := s.WriteApproach("leak", ApproachInput{Number: 1}); errType(t, err) != ErrUnsafePath {
		t.Errorf("write through a link leaving the root: %v", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "specialist_name: secret\n" {
		t.Error("the file outside the root was changed")
	}
	// A lock file planted as a link is not followed either.
	target := filepath.Join(t.TempDir(), "created-elsewhere")
	os.Symlink(target, s.File("planted")+".lock")
	if _, err := s.WriteApproach("planted", ApproachInput{Number: 1}); err == nil {
		t.Error("write with a planted lock link succeeded")
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the planted lock link created a file outside the root")
	}
	// A link inside the root is fine.
	mustWrite(t, s, "real", ApproachInput{Number: 1})
	os.Symlink("real.yaml", s.File("alias"))
	if sp, _, err := s.Read("alias"); err != nil || len(sp.Approaches) != 1 {
		t.Errorf("read through a link inside the root: %v", err)
	}
}

func TestOversizedFile(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(s.FindingsDir(), 0o755)
	f, _ := os.Create(s.File("huge"))
	f.Truncate(64 << 20) // sparse: 64 MiB without writing them
	f.Close()
	_, _, err := s.Read("huge")
	if errType(t, err) != ErrMalformedYAML || !strings.Contains(err.Error(), "file is 67108864 bytes, over the 1048576-byte limit") {
		t.Errorf("oversized file: %v", err)
	}
}

// A findings/ or design/ directory that is a link out of the root is not
// followed: reads, writes and listings are refused, and nothing is read or
// written outside.
func TestSymlinkedDirectoryOutOfRoot(t *testing.T) {
	s := newStore(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("specialist_name: secret\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "manifest.yaml"), []byte("designs: []\n"), 0o644)
	os.MkdirAll(s.Root, 0o755)
	if err := os.Symlink(outside, s.FindingsDir()); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.Symlink(outside, filepath.Join(s.Root, "design"))
	if _, _, err := s.Read("secret"); errType(t, err) != ErrUnsafePath {
		t.Errorf("read through findings/ out of the root: %v", err)
	}
	if _, err := s.WriteApproach("new", ApproachInput{Number: 1}); errType(t, err) != ErrUnsafePath {
		t.Errorf("write through findings/ out of the root: %v", err)
	}
	if _, _, err := s.All(); errType(t, err) != ErrUnsafePath {
		t.Errorf("list findings/ out of the root: %v", err)
	}
	if _, _, _, err := s.DesignManifest(); errType(t, err) != ErrUnsafePath {
		t.Errorf("design/ out of the root: %v", err)
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 2 {
		t.Errorf("outside the root now holds %d files", len(ents))
	}
}

// A FIFO where a specialist file should be is refused at once.
func TestFIFOSpecialistFile(t *testing.T) {
	s := newStore(t)
	testfault.Mkfifo(t, s.File("pipe"))
	testfault.Within(t, 5*time.Second, "reading a FIFO specialist file", func() {
		if _, _, err := s.Read("pipe"); err == nil || !strings.Contains(err.Error(), "a FIFO") {
			t.Errorf("err = %v, want one naming a FIFO", err)
		}
	})
}

// "ok.yaml" is a file name typed for a specialist name: refused, with the
// name to use, and nothing is written.
func TestSpecialistNameWithYAMLSuffix(t *testing.T) {
	s := newStore(t)
	for _, name := range []string{"ok.yaml", "ok.yml"} {
		_, err := s.WriteApproach(name, ApproachInput{Number: 1})
		if errType(t, err) != ErrInvalidSpecialist {
			t.Fatalf("%s: err = %v", name, err)
		}
		var e *Error
		errors.As(err, &e)
		if !strings.Contains(e.Suggestion, "use ok:") {
			t.Errorf("%s: suggestion %q", name, e.Suggestion)
		}
	}
	if _, err := os.Stat(s.FindingsDir()); err == nil {
		ents, _ := os.ReadDir(s.FindingsDir())
		if len(ents) != 0 {
			t.Errorf("written: %v", ents)
		}
	}
}
