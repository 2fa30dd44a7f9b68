package parse

import (
	"fmt"
	"math/rand/v2"
	"regexp"
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

// refRe is the reference fileRefs implements by hand: a refPath, a colon, a
// line, an optional range end.
var refRe = regexp.MustCompile(refPath + `:(\d{1,7})(?:\s?[-–]\s?(\d{1,7}))?\b`)

// fileRefsRegexp is fileRefs as the regular expression finds references.
func fileRefsRegexp(s string) []string {
	var refs []string
	seen := map[string]bool{}
	for _, m := range refRe.FindAllStringSubmatchIndex(s, -1) {
		path := s[m[2]:m[3]]
		if m[2] >= 3 && strings.HasSuffix(s[:m[2]], "://") {
			continue
		}
		ref := path + ":" + s[m[4]:m[5]]
		if m[6] >= 0 && s[m[6]:m[7]] != s[m[4]:m[5]] {
			ref += "-" + s[m[6]:m[7]]
		}
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	return refs
}

// refCases are inputs where the scanner could part from the expression:
// boundaries, "@" and "+" inside paths, empty directories, extensions, line
// lengths, ranges and their spaces, word boundaries, UTF-8, repeats.
var refCases = []string{
	"a.go:1", ":1", "a:1", ".a:1", "a.:1", "a..b.go:1", "./a.go:1", "../x/a.go:2", "/etc/a.conf:3",
	"x//a.go:1", "a/b/:1", "a/.b:1", "a/.1:1", "a~/b.go:1", "~/b.go:1", "b~.go:1", "a.b~:1",
	"x@a.go:1", "x+a.go:1", "@a.go:1", "+.env:1", "a~@b.go:1", "a~+b~+c.go:1", "x/y~@z/a.go:1",
	"a.go:1@b.go:2", "a.go:1+b.go:2", "a.go:1-2:3", "a.go:1:2", "a.go:12345678", "a.go:1234567",
	"a.go:1-12345678", "a.go:1 - 2", "a.go:1 -2", "a.go:1- 2", "a.go:1  -2", "a.go:1–2", "a.go:1 – 2",
	"a.go:1-2x", "a.go:1-x", "a.go:1x", "a.go:1_", "a.go:1é", "é.env:1", "éa.go:1", "\xffa.go:1",
	"a.abcdefghij:1", "a.abcdefghijk:1", "a.b1:1", "a.1b:1", "a.b_c:1", "a.go:1 a.go:1 a.go:1",
	"a.go:01-1", "a.go:1-01", "a.go:3-3", "x:a.go:1", "x-a.go:1", "x.a.go:1", "x_a.go:1", "(a.go:1)",
	"`a.go:1`", "http://a.go:1", "s://a.go:1", "a.go:\t1", "a.go:1\t-\t2", "a.go:1\v-2", "Makefile.am:4",
}

// TestFileRefsMatchesRegexp: the scanner finds what the expression finds.
func TestFileRefsMatchesRegexp(t *testing.T) {
	for _, in := range refCases {
		for _, s := range []string{in, "see " + in, in + " and " + in, "x " + in + ", y"} {
			if got, want := fileRefs(s), fileRefsRegexp(s); !slices.Equal(got, want) {
				t.Errorf("fileRefs(%q) = %q; the expression finds %q", s, got, want)
			}
		}
	}
	// Many references on one line: past the linear duplicate check.
	var b strings.Builder
	for i := range 100 {
		b.WriteString("f" + strings.Repeat("x", i%7) + ".go:" + string(rune('1'+i%9)) + " ")
	}
	if got, want := fileRefs(b.String()), fileRefsRegexp(b.String()); !slices.Equal(got, want) {
		t.Errorf("many references: %q; the expression finds %q", got, want)
	}
}

// FuzzFileRefs: on any input, the scanner and the expression agree.
func FuzzFileRefs(f *testing.F) {
	for _, in := range refCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := fileRefs(s), fileRefsRegexp(s); !slices.Equal(got, want) {
			t.Fatalf("fileRefs(%q) = %q; the expression finds %q", s, got, want)
		}
	})
}

// TestMergeRefsIsPlain holds mergeRefs, which looks refs up in a set past a
// few, to the plain reading: each ref of b not in a nor earlier in b is
// appended, in b's order (a's own repeats kept).
func TestMergeRefsIsPlain(t *testing.T) {
	plain := func(a, b []string) []string {
		for _, r := range b {
			if !slices.Contains(a, r) {
				a = append(a, r)
			}
		}
		return a
	}
	r := rand.New(rand.NewPCG(5, 6))
	refs := func(n, kinds int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("src/f%d.go:%d", r.IntN(kinds), 1+r.IntN(3))
		}
		return out
	}
	for trial := range 500 {
		kinds := 1 + r.IntN(40)
		a, b := refs(r.IntN(30), kinds), refs(r.IntN(60), kinds)
		want := plain(slices.Clone(a), b)
		if got := mergeRefs(slices.Clone(a), b); !slices.Equal(got, want) {
			t.Fatalf("trial %d: mergeRefs(%q, %q) = %q, want %q", trial, a, b, got, want)
		}
	}
}
