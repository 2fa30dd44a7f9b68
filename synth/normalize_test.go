package synth

import (
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

func TestParseRef(t *testing.T) {
	tests := []struct {
		in   string
		want Ref
		str  string
	}{
		{"src/a.go:12", Ref{"src/a.go", 12, 12}, "src/a.go:12"},
		{"./src/a.go:12-14", Ref{"src/a.go", 12, 14}, "src/a.go:12-14"},
		{"`lib/x.ts:7`", Ref{"lib/x.ts", 7, 7}, "lib/x.ts:7"},
		{"README.md", Ref{"README.md", 0, 0}, "README.md"},
		{"a.go:14-12", Ref{"a.go:14-12", 0, 0}, "a.go:14-12"},
		{"C:/x", Ref{"C:/x", 0, 0}, "C:/x"},
		{"a.go:0", Ref{"a.go:0", 0, 0}, "a.go:0"},
	}
	for _, tt := range tests {
		got := ParseRef(tt.in)
		if got != tt.want {
			t.Errorf("ParseRef(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		if got.String() != tt.str {
			t.Errorf("ParseRef(%q).String() = %q, want %q", tt.in, got.String(), tt.str)
		}
	}
}

func TestRefOverlaps(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"a.go:10-20", "a.go:15", true},
		{"a.go:10-20", "a.go:21", false},
		{"a.go", "a.go:99", true},
		{"a.go:1", "b.go:1", false},
	}
	for _, tt := range tests {
		if got := ParseRef(tt.a).Overlaps(ParseRef(tt.b)); got != tt.want {
			t.Errorf("%s overlaps %s = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestMentions(t *testing.T) {
	text := []byte("Per fd-safety: see `./src/auth.go:42`. Also AR-001, and fd-perf-2 (not fd-perf).\nfd-arch's note")
	needles := map[string]struct{}{
		"fd-safety": {}, "src/auth.go:42": {}, "AR-001": {}, "fd-perf": {}, "fd-arch": {}, "missing": {},
	}
	got := mentions(text, needles)
	for _, w := range []string{"fd-safety", "src/auth.go:42", "AR-001", "fd-arch", "fd-perf"} {
		if !got[w] {
			t.Errorf("mentions misses %q", w)
		}
	}
	if got["missing"] {
		t.Errorf("mentions finds %q, which is not in the text", "missing")
	}
	// A dotfile ref is named with or without sentence punctuation after it.
	dot := map[string]struct{}{".env:1": {}, ".gitlab-ci.yml:2-4": {}, ".github/ci.yml:1": {}}
	if m := mentions([]byte("Fixed .env:1. Also (.gitlab-ci.yml:2-4), see .github/ci.yml:1"), dot); len(m) != 3 {
		t.Errorf("dotfile refs named: %v; want all three", m)
	}
	// "fd-perf-2" alone does not name fd-perf.
	if m := mentions([]byte("see fd-perf-2 only"), map[string]struct{}{"fd-perf": {}}); m["fd-perf"] {
		t.Errorf("fd-perf-2 names fd-perf")
	}
}

func TestDropRefLines(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1.3 `distill` tool (mcp_server.py:699-735)", "1.3 `distill` tool (mcp_server.py)"},
		{"sync.sh:87", "sync.sh"},
		{"src/a.go:12, lib/b.ts:7-9", "src/a.go, lib/b.ts"},
		{"a.go:12,14 and more", "a.go and more"},
		{"Phase 2: 3 steps", "Phase 2: 3 steps"},
		{"Meeting at 10:30", "Meeting at 10:30"},
		{"v1.2:3", "v1.2:3"},
		{"Uploads", "Uploads"},
		{"Makefile/x:", "Makefile/x:"},
		{"", ""},
	} {
		if got := dropRefLines(c.in); got != c.want {
			t.Errorf("dropRefLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestFingerprintLineShiftInSection: a section that cites lines of code
// (a heading "tool (x.py:10-20)") keeps its findings' fingerprints when the
// code moves (SPEC §6), and a section without a reference keeps its key's.
func TestFingerprintLineShiftInSection(t *testing.T) {
	fp := func(section string) string {
		run := &Run{Agents: []Agent{agentOf("a", parse.StatusMalformed, fnd(parse.P2, "", section, "Empty sections are rendered"))}}
		return synthOf(t, run, Options{}).Findings[0].Fingerprint
	}
	if a, b := fp("1.3 tool (mcp_server.py:699-735)"), fp("1.3 tool (mcp_server.py:706-742)"); a != b {
		t.Errorf("fingerprint moved with the section's line numbers: %s, %s", a, b)
	}
	if a, b := fp("1.3 tool (mcp_server.py:699-735)"), fp("1.3 tool (other.py:699-735)"); a == b {
		t.Errorf("sections citing different files share a fingerprint %s", a)
	}
	plain := synthOf(t, &Run{Agents: []Agent{agentOf("a", parse.StatusValid, fnd(parse.P2, "U-1", "Uploads", "t"))}}, Options{}).Findings[0]
	if plain.Fingerprint != fingerprint(plain.Key, "") {
		t.Errorf("a section without a reference changed its fingerprint")
	}
}
