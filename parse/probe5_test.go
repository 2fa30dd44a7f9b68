package parse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// probe5Dir holds an independent held-out probe of the general reader
// (SPEC §2.3, §2.5, issue #26): review reports written to imitate how
// agents and people write them in the wild (security audits, pentests,
// PR reviews, design, accessibility, performance, compliance and QA
// reports, postmortems, LLM reviews, a few in other languages), and
// documents that are not reports (templates, prompts, rubrics, a
// changelog, a design doc, an agent definition, a checklist). They were
// written without looking at the reader's rules or at the corpora, so
// that the figures say how the reader does on structures it was not
// shaped by.
const probe5Dir = "testdata/probe5"

// probe5Expect is one line of testdata/probe5/expect.jsonl: what a careful
// reader takes from one file.
type probe5Expect struct {
	File string `json:"file"`
	// Class is "report" or "negative" (not a report: nothing in it is a
	// finding, and it must not come out unreadable).
	Class string `json:"class"`
	// Status is the expected status class: "unsafe" when the report holds
	// a P0/P1 finding that is not resolved, else "safe".
	Status   string           `json:"status"`
	Blocking []probe5Blocking `json:"blocking"`
}

// probe5Blocking is one P0/P1 finding the author labelled.
type probe5Blocking struct {
	// Words must all occur (case-insensitive substrings) in the found
	// finding's ID and title for it to be this finding. "|" separates
	// alternatives (a table row whose title column a reader may take
	// from another cell): any one of them is enough.
	Words    string   `json:"words"`
	Level    Severity `json:"level"`
	Resolved bool     `json:"resolved"`
}

func (b probe5Blocking) matches(f Finding) bool {
	text := strings.ToLower(f.ID + " " + f.Title)
alt:
	for _, a := range strings.Split(b.Words, "|") {
		ws := strings.Fields(strings.ToLower(a))
		if len(ws) == 0 {
			continue
		}
		for _, w := range ws {
			if !strings.Contains(text, w) {
				continue alt
			}
		}
		return true
	}
	return false
}

// probe5Score is what the probe counts over its files.
type probe5Score struct {
	reports, negatives int
	unsafeReports      int // reports holding a P0/P1 not resolved
	labels             int // P0/P1 findings not resolved
	matched            int // of labels: read as a finding that counts
	readResolved       int // of labels: read, but recorded resolved
	exact              int // of matched: at the labelled severity
	foundBlocking      int // P0/P1 findings read that count
	invented           int // of foundBlocking: match no label (or a resolved one)
	resolvedLabels     int // resolved P0/P1 findings
	resolvedCounted    int // of resolvedLabels: read as a finding that counts
	calledSafe         int // unsafe reports whose computed verdict is safe
	calledSafeReadable int // of calledSafe: not unreadable (the target is 0)
	safeReports        int // reports expected safe
	safeFlagged        int // of safeReports: computed verdict not safe, or unreadable
	negativeBad        int // negatives giving a finding or unreadable
}

// TestProbe5 reads each file of testdata/probe5 alone and prints how the
// reader did against expect.jsonl, and each report's misses (with
// PROBE5_FOUND=1, also every finding read from a report with a miss). It
// is a measurement, not a gate: it fails only when the expectation data
// is malformed.
func TestProbe5(t *testing.T) {
	exps := probe5Load(t)
	var s probe5Score
	var misses []string
	for _, e := range exps {
		data, err := os.ReadFile(filepath.Join(probe5Dir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		r := ReadReport(data)
		miss := probe5Grade(&s, e, r)
		if len(miss) > 0 && e.Class == "report" && os.Getenv("PROBE5_FOUND") != "" {
			for _, f := range r.Findings {
				miss = append(miss, fmt.Sprintf("  found %s %q (line %d)", f.Severity, f.Title, f.Line))
			}
			for _, f := range r.Resolved {
				miss = append(miss, fmt.Sprintf("  resolved %s %q (line %d)", f.Severity, f.Title, f.Line))
			}
		}
		if len(miss) > 0 {
			misses = append(misses, fmt.Sprintf("%s [%s, computed %s, declared %q, %d findings, %d resolved]:\n    %s",
				e.File, r.Status, r.Verdict(), r.DeclaredVerdictText, len(r.Findings), len(r.Resolved),
				strings.Join(miss, "\n    ")))
		}
	}
	t.Logf("probe5: %d reports, %d negatives", s.reports, s.negatives)
	t.Logf("probe5: %s", s.summary())
	for _, m := range misses {
		t.Log(m)
	}
}

func (s probe5Score) summary() string {
	return fmt.Sprintf("recall %d/%d (%.1f%%; %d more read but recorded resolved); "+
		"invented %d of %d found P0/P1 (%.1f%%); exact severity %d/%d (%.1f%%); "+
		"unsafe reports called safe %d of %d (%d of them not unreadable); "+
		"resolved P0/P1 counted %d of %d; safe reports flagged %d of %d; "+
		"negatives with a finding or unreadable %d of %d",
		s.matched, s.labels, pct(s.matched, s.labels), s.readResolved,
		s.invented, s.foundBlocking, pct(s.invented, s.foundBlocking),
		s.exact, s.matched, pct(s.exact, s.matched),
		s.calledSafe, s.unsafeReports, s.calledSafeReadable,
		s.resolvedCounted, s.resolvedLabels, s.safeFlagged, s.safeReports,
		s.negativeBad, s.negatives)
}

// probe5Grade adds one file's reading to s and says what it missed.
func probe5Grade(s *probe5Score, e probe5Expect, r *Report) []string {
	var miss []string
	if e.Class == "negative" {
		s.negatives++
		if len(r.Findings)+len(r.Resolved) > 0 || r.Status == StatusUnreadable {
			s.negativeBad++
			miss = append(miss, fmt.Sprintf("not a report, read as %s with %d finding(s), %d resolved",
				r.Status, len(r.Findings), len(r.Resolved)))
			for _, f := range r.Findings {
				miss = append(miss, fmt.Sprintf("  found %s %q (line %d)", f.Severity, f.Title, f.Line))
			}
		}
		probe5Unreadable(&miss, r)
		return miss
	}
	s.reports++
	// Found findings: those that count, then those recorded resolved.
	found := append(slices.Clone(r.Findings), r.Resolved...)
	counts := func(j int) bool { return j < len(r.Findings) }
	// Each label takes a matching finding not yet taken, labels with the
	// fewest candidates first; among candidates, one at the labelled
	// severity, then one whose resolution agrees, then the first.
	order := make([]int, len(e.Blocking))
	cands := make([]int, len(e.Blocking))
	for i, b := range e.Blocking {
		order[i] = i
		for _, f := range found {
			if b.matches(f) {
				cands[i]++
			}
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cands[a] - cands[b] })
	taken := make([]bool, len(found))
	matchOf := make([]int, len(e.Blocking))
	for _, i := range order {
		b := e.Blocking[i]
		matchOf[i] = -1
		best := -1
		for j, f := range found {
			if taken[j] || !b.matches(f) {
				continue
			}
			score := 0
			if f.Severity == b.Level {
				score += 2
			}
			if counts(j) != b.Resolved {
				score++
			}
			if score > best {
				best, matchOf[i] = score, j
			}
		}
		if matchOf[i] >= 0 {
			taken[matchOf[i]] = true
		}
	}
	unsafe := false
	for i, b := range e.Blocking {
		j := matchOf[i]
		if b.Resolved {
			s.resolvedLabels++
			if j >= 0 && counts(j) {
				s.resolvedCounted++
				miss = append(miss, fmt.Sprintf("resolved %s %q read as a finding that counts (%s, line %d)",
					b.Level, b.Words, found[j].Severity, found[j].Line))
			}
			continue
		}
		unsafe = true
		s.labels++
		switch {
		case j < 0:
			miss = append(miss, fmt.Sprintf("missed %s %q", b.Level, b.Words))
			continue
		case !counts(j):
			s.readResolved++
			miss = append(miss, fmt.Sprintf("%s %q read but recorded resolved (line %d)", b.Level, b.Words, found[j].Line))
			continue
		}
		s.matched++
		if found[j].Severity == b.Level {
			s.exact++
		} else {
			miss = append(miss, fmt.Sprintf("read %s %q as %s (line %d)", b.Level, b.Words, found[j].Severity, found[j].Line))
		}
	}
	for j, f := range r.Findings {
		if f.Severity != P0 && f.Severity != P1 {
			continue
		}
		s.foundBlocking++
		if !taken[j] {
			s.invented++
			miss = append(miss, fmt.Sprintf("invented %s %q (line %d)", f.Severity, f.Title, f.Line))
		}
	}
	if unsafe {
		s.unsafeReports++
		if r.Verdict() == Safe {
			s.calledSafe++
			if r.Status != StatusUnreadable {
				s.calledSafeReadable++
				miss = append(miss, "holds a P0/P1, called safe")
			} else {
				miss = append(miss, "holds a P0/P1, computed safe but unreadable")
			}
		}
	} else {
		s.safeReports++
		if r.Verdict() != Safe || r.Status == StatusUnreadable {
			s.safeFlagged++
			miss = append(miss, fmt.Sprintf("holds no P0/P1 that counts, read as %s (%s)", r.Verdict(), r.Status))
		}
	}
	probe5Unreadable(&miss, r)
	return miss
}

// probe5Unreadable lists the warnings of an unreadable report, so that a
// miss shows the line the reader stumbled on.
func probe5Unreadable(miss *[]string, r *Report) {
	if r.Status != StatusUnreadable || len(*miss) == 0 {
		return
	}
	for _, d := range r.Diagnostics {
		if d.Level == LevelWarning || d.Level == LevelError {
			*miss = append(*miss, fmt.Sprintf("  diag %d: %s", d.Line, d.Message))
		}
	}
}

// probe5Load reads and checks expect.jsonl: every file of the directory
// has exactly one line, every line names a file, and each line agrees
// with itself.
func probe5Load(t *testing.T) []probe5Expect {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(probe5Dir, "expect.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var exps []probe5Expect
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var e probe5Expect
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("expect.jsonl:%d: %v", n, err)
		}
		if err := e.check(); err != nil {
			t.Fatalf("expect.jsonl:%d: %s: %v", n, e.File, err)
		}
		if seen[e.File] {
			t.Fatalf("expect.jsonl:%d: %s listed twice", n, e.File)
		}
		seen[e.File] = true
		exps = append(exps, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(probe5Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range ents {
		if ent.Name() != "expect.jsonl" && !seen[ent.Name()] {
			t.Fatalf("%s has no line in expect.jsonl", ent.Name())
		}
		delete(seen, ent.Name())
	}
	for f := range seen {
		t.Fatalf("expect.jsonl names %s, which is not in %s", f, probe5Dir)
	}
	return exps
}

func (e probe5Expect) check() error {
	if e.File == "" || strings.ContainsAny(e.File, `/\`) {
		return fmt.Errorf("bad file name %q", e.File)
	}
	unsafe := false
	for _, b := range e.Blocking {
		if b.Level != P0 && b.Level != P1 {
			return fmt.Errorf("level %q is not P0 or P1", b.Level)
		}
		for _, a := range strings.Split(b.Words, "|") {
			if len(strings.Fields(a)) == 0 {
				return fmt.Errorf("a finding has an empty alternative in %q", b.Words)
			}
		}
		unsafe = unsafe || !b.Resolved
	}
	switch {
	case e.Class == "negative" && len(e.Blocking) > 0:
		return fmt.Errorf("a negative lists findings")
	case e.Class != "negative" && e.Class != "report":
		return fmt.Errorf("class %q is not report or negative", e.Class)
	case e.Status != "safe" && e.Status != "unsafe":
		return fmt.Errorf("status %q is not safe or unsafe", e.Status)
	case unsafe != (e.Status == "unsafe"):
		return fmt.Errorf("status %q disagrees with its findings", e.Status)
	}
	return nil
}
