package verify

import (
	"slices"
	"testing"
)

// TestWordsAcronyms: an acronym of two capitals is a word; an English
// word of two letters in capitals, an ID's prefix and "ID" are not.
func TestWordsAcronyms(t *testing.T) {
	for _, c := range []struct {
		text     string
		has, not []string
	}{
		{"any HN submission first", []string{"hn", "submission"}, nil},
		{"(UI) and DB: both", []string{"ui", "db"}, nil},
		{"DO NOT SHIP IT", []string{"ship"}, []string{"do", "it"}},
		{"cites CB-1 and P1-UX-3", nil, []string{"cb", "ux"}},
		{"no arXiv ID yet", []string{"arxiv"}, []string{"id"}},
		{"HNs and XHN and HNX", nil, []string{"hn"}},
	} {
		ws := words(c.text)
		for _, w := range c.has {
			if !slices.Contains(ws, w) {
				t.Errorf("words(%q) = %q, want %q in it", c.text, ws, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(ws, w) {
				t.Errorf("words(%q) = %q, want no %q", c.text, ws, w)
			}
		}
	}
}

// TestSentences splits a line at its sentences' ends only.
func TestSentences(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"one sentence only.", nil},
		{"fd-a wants it before HN. Credentialing takes longer.", []string{"fd-a wants it before HN", "Credentialing takes longer."}},
		{"see docs/verify.md. **Next** step", []string{"see docs/verify.md", "**Next** step"}},
		{"v1.2 ships. e.g. later", nil},
		{"Why? Because! Done", []string{"Why", "Because", "Done"}},
	} {
		if got := sentences(c.line); !slices.Equal(got, c.want) {
			t.Errorf("sentences(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
