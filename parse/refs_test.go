package parse

import (
	"slices"
	"strings"
	"testing"
)

// TestFileRefsTable: what is a file reference in agent text, dotfiles included,
// and what only looks like one.
func TestFileRefsTable(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"path with an extension", "see a.go:12", []string{"a.go:12"}},
		{"range", "src/x/b.py:3-9 and `c.rs:148–184`", []string{"src/x/b.py:3-9", "c.rs:148-184"}},
		{"top-level dotfile", "secrets in .env:1", []string{".env:1"}},
		{"dotfile with an extension", "`.gitlab-ci.yml:2-4`", []string{".gitlab-ci.yml:2-4"}},
		{"dotfile at the start", ".env:1 holds a key", []string{".env:1"}},
		{"dot directory", ".github/ci.yml:1", []string{".github/ci.yml:1"}},
		{"dotfile in a directory", "config/.env:3, (.eslintrc.json:7)", []string{"config/.env:3", ".eslintrc.json:7"}},
		{"dotfile after ./", "./.env:2", []string{"./.env:2"}},
		{"ellipsis", "the list goes on...:12 and …:3", nil},
		{"dots then a name", "and so on...env:12", nil},
		{"abbreviation", "etc.:12, e.g.:3, i.e.:4", nil},
		{"dot then a digit", "version .5:3", nil},
		{"a version", "v1.2:3", nil},
		{"a sentence's last word", "see above.:12", nil},
		{"a trailing dot is not a dotfile", "in .env.:1", nil},
		{"URL", "http://host.com:80/x and https://.env:1", nil},
		{"no line", ".env and .github/ci.yml", nil},
	} {
		if got := fileRefs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("%s: fileRefs(%q) = %q; want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestDotfileRefsEverywhere: a dotfile reference is a file_ref in an index
// line, in a finding's description, on an Evidence line, and on the bus.
func TestDotfileRefsEverywhere(t *testing.T) {
	report := strings.Join([]string{
		"### Findings Index",
		"- P1 | S-1 | \"Secrets\" | API key committed in .env:1",
		"- P2 | S-2 | \"CI\" | Pipeline runs unpinned images",
		"Verdict: needs-changes",
		"",
		"### S-2: Pipeline runs unpinned images",
		"",
		"The job in .gitlab-ci.yml:2-4 pulls `node:latest`; see also .github/ci.yml:1.",
		"",
		"**Evidence**: `.github/workflows/ci.yml:5` and .npmrc lines 3-4",
		"",
	}, "\n")
	rep := ReadReport([]byte(report))
	if len(rep.Findings) != 2 {
		t.Fatalf("findings = %+v; want 2", rep.Findings)
	}
	for i, want := range [][]string{
		{".env:1"},
		{".github/workflows/ci.yml:5", ".npmrc:3-4", ".gitlab-ci.yml:2-4", ".github/ci.yml:1"},
	} {
		got := slices.Clone(rep.Findings[i].FileRefs)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("finding %d file_refs = %q; want %q", i, rep.Findings[i].FileRefs, want)
		}
	}
	claims := rep.Findings[1].Evidence
	if len(claims) != 2 || claims[0].Path != ".github/workflows/ci.yml" || claims[1].Path != ".npmrc" || claims[1].End != 4 {
		t.Errorf("evidence claims = %+v; want .github/workflows/ci.yml:5 and .npmrc:3-4", claims)
	}
}
