package parse

import (
	"slices"
	"strings"
	"testing"
)

// TestPraised: an item whose judgement is that the thing is fine is
// praise; a judgement that negates, hedges or limits it, or a praise
// word that is part of a defect's description, is a finding.
func TestPraised(t *testing.T) {
	tests := []struct {
		title string
		want  bool
	}{
		// Praise: the item's judgement.
		{"Address scheme is clean and directly portable", true},
		{"Error isolation is correct — handler exceptions never block the pipeline", true},
		{"Mutex not held across await — SAFE", true},
		{"✅ Good", true},
		{"Good", true},
		{"Input validation: PASS", true},
		{"No issues found", true},
		{"Retry budget — no action needed", true},
		{"Token refresh: not a concern", true},
		{"Plugin loader is a clean plugin pattern", true},
		{"Pairing flow is sound", true},
		{"Config schema is well designed", true},
		{"Lock ordering is exemplary", true},
		{"**Session store is safe**", true},
		// Defects: the praise word is negated, hedged or limited, or
		// describes the defect's subject.
		{"Mutex is not safe across await", false},
		{"Unsafe pointer cast in the decoder", false},
		{"Cache key appears correct but ignores the tenant", false},
		{"Handler is safe only if the queue is bounded", false},
		{"Retry is correct for GET but duplicates POST", false},
		{"Shutdown is clean, but in-flight jobs are dropped", false},
		{"Clean up temp files after upload", false},
		{"Clean shutdown path drops in-flight jobs", false},
		{"Safe mode is disabled by default", false},
		{"Storage: clean up temp files", false},
		{"The rollout order in the plan is sound — the review should build on it, not ignore it", false},
		{"Retry policy is correct — but the budget resets on every deploy", false},
		{"Token storage is insecure", false},
		{"Lock ordering is unsound under reentry", false},
		{"Validation is good enough for now", false},
		{"Handler has no timeout", false},
		{"No timeout on the upstream call", false},
		{"Migration is incorrect — drops the index", false},
		{"Session cookie lacks the Secure flag", false},
		{"Path traversal through the upload name", false},
		{"Exclude values are passed unvalidated to Docker --mount destination", false},
		{"Signatures are verified against the wrong key", false},
		{"Dependency audit — OK", true},
		{"", false},
	}
	for _, tt := range tests {
		if got := praised(tt.title); got != tt.want {
			t.Errorf("praised(%q) = %v, want %v", tt.title, got, tt.want)
		}
	}
}

// TestPraisedTail: the judgement the reader cut from a title counts when
// it is the whole rest of the line, not a sentence of a description.
func TestPraisedTail(t *testing.T) {
	tests := []struct {
		text, title string
		want        bool
	}{
		{"- **[P0]** Mutex not held across await — SAFE", "Mutex not held across await", true},
		{"### P1: Input validation — ✅ PASS", "Input validation", true},
		{"- **[P0]** Mutex held across await — deadlock under load", "Mutex held across await", false},
		{"**[P0] Race in the cache.** The handler is fine for reads — OK", "Race in the cache", false},
		{"- **[P0]** Mutex not held across await", "Mutex not held across await", false},
		{"- **[P0]** Something else — SAFE", "Mutex not held across await", false},
	}
	for _, tt := range tests {
		if got := praisedTail(tt.text, tt.title); got != tt.want {
			t.Errorf("praisedTail(%q, %q) = %v, want %v", tt.text, tt.title, got, tt.want)
		}
	}
}

// FuzzPraised: the praise rule never panics, and a line with no title
// gives no praise of it.
func FuzzPraised(f *testing.F) {
	for _, s := range []string{"Mutex not held across await — SAFE", "Address scheme is clean", "✅ Good",
		"Retry is correct for GET but duplicates POST", "Input validation: PASS", "", "—", ": ", "is a"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, text, title string) {
		praised(text)
		praisedTail(text, title)
		if praisedTail(text, "") {
			t.Errorf("praisedTail(%q, \"\") = true, want false", text)
		}
	})
}

// The word lists are split once (praiseWordFields, verdictWordFields): each
// entry must be the plain strings.Fields of its list's, in its order.
func TestPraiseWordFields(t *testing.T) {
	for _, c := range []struct {
		list   []string
		fields [][]string
	}{{praiseWords, praiseWordFields}, {verdictWords, verdictWordFields}} {
		if len(c.fields) != len(c.list) {
			t.Fatalf("%d lists of fields for %d words", len(c.fields), len(c.list))
		}
		for i, p := range c.list {
			if !slices.Equal(c.fields[i], strings.Fields(p)) {
				t.Errorf("%q: fields %q, want %q", p, c.fields[i], strings.Fields(p))
			}
		}
	}
}
