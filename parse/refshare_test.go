package parse

import (
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestFileRefsOfTextAsFileRefs holds fileRefsOfText to fileRefs on every
// reference case, in text around it, and on every golden line; and checks
// that a reference written as given is a part of its text, not a copy.
func TestFileRefsOfTextAsFileRefs(t *testing.T) {
	inputs := []string{}
	for _, in := range refCases {
		inputs = append(inputs, in, "see "+in, in+" and "+in, "x "+in+", y", "- Title (`"+in+"`)")
	}
	for _, s := range goldenReports(t) {
		inputs = append(inputs, strings.Split(s, "\n")...)
	}
	for _, s := range inputs {
		if got, want := fileRefsOfText(s), fileRefs(s); !slices.Equal(got, want) {
			t.Fatalf("fileRefsOfText(%q) = %q; fileRefs: %q", s, got, want)
		}
	}
	within := func(ref, s string) bool {
		p, b := uintptr(unsafe.Pointer(unsafe.StringData(ref))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return p >= b && p+uintptr(len(ref)) <= b+uintptr(len(s))
	}
	for _, s := range []string{"- Token logged (`src/auth/login.go:42`)", "see a.go:3-9 here", "| P1 | x | lib/a.py:7 |"} {
		refs := fileRefsOfText(s)
		if len(refs) != 1 || !within(refs[0], s) {
			t.Errorf("fileRefsOfText(%q) = %q: want one reference, a part of the text", s, refs)
		}
		if refs := fileRefs(s); len(refs) != 1 || within(refs[0], s) {
			t.Errorf("fileRefs(%q) = %q: want one reference, a copy", s, refs)
		}
	}
	// Written otherwise, the reference is made: "a.go:3 - 9" is a.go:3-9.
	if refs := fileRefsOfText("a.go:3 - 9"); len(refs) != 1 || refs[0] != "a.go:3-9" {
		t.Errorf("fileRefsOfText(%q) = %q; want [a.go:3-9]", "a.go:3 - 9", refs)
	}
}
