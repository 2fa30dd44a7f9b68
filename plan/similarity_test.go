package plan

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// wantStrings checks f(in) against want for each case; name is f's name in
// the messages.
func wantStrings(t *testing.T, name string, f func(string) string, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
		}
	}
}

func TestTokens(t *testing.T) {
	sorted := func(s string) string { return strings.Join(slices.Sorted(maps.Keys(Tokens(s))), " ") }
	wantStrings(t, "Tokens", sorted, map[string]string{
		"The TanStack Router migration":    "migration router tanstack",
		"tables, Tables; TABLE":            "table",
		"process status analysis":          "analysis process status",
		"a I x-y v7 API's":                 "api v7",
		"rate-limiting for the public API": "api limiting public rate",
		"über-Größe":                       "größe über",
		"":                                 "",
	})
}

func TestSimilarity(t *testing.T) {
	cases := []struct {
		a, b string
		want float64
	}{
		{"TanStack Ecosystem Migration", "review the tanstack migration plan", 2.0 / 3},
		{"tanstack-migration", "review the tanstack migration plan", 1},
		{"rate limiting", "rate limiting", 1},
		{"rate limiting", "search index", 0},
		{"", "anything", 0},
		{"the of and", "the of and", 0}, // only stop words: no tokens
	}
	for _, c := range cases {
		if got := Similarity(c.a, c.b); got != c.want {
			t.Errorf("Similarity(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Similarity(c.b, c.a); got != c.want {
			t.Errorf("Similarity(%q, %q) = %v, want %v (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

// TestSlug: slugs of tasks; each wanted slug is lowercase kebab-case.
func TestSlug(t *testing.T) {
	cases := map[string]string{
		"Migrate the app to TanStack Router; the migration touches every TanStack table": "migrate-tanstack-router",
		"Add rate limiting to the API: per-user rate limits for the API gateway":         "rate-limiting-api",
		"Review the plan":              "feature",
		"":                             "feature",
		"Fix auth":                     "auth",
		"Überarbeitung der Suche 2026": "der-suche",
		"supercalifragilisticexpialidocious word": "supercalifragilistic-word",
	}
	wantStrings(t, "Slug", Slug, cases)
	for in, want := range cases {
		if !slugRe.MatchString(want) {
			t.Errorf("Slug(%q): want %q is not kebab-case", in, want)
		}
	}
}

// FuzzSlug: every slug is lowercase kebab-case of at most three words.
func FuzzSlug(f *testing.F) {
	f.Add("Add rate limiting to the API")
	f.Add("")
	f.Add("--- ::: ---")
	f.Fuzz(func(t *testing.T, task string) {
		s := Slug(task)
		if !slugRe.MatchString(s) || strings.Count(s, "-") > 2 {
			t.Errorf("Slug(%q) = %q", task, s)
		}
		if sim := Similarity(task, s); sim < 0 || sim > 1 {
			t.Errorf("Similarity out of range: %v", sim)
		}
	})
}
