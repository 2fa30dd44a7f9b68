package synth

import (
	"testing"
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
