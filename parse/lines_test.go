package parse

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// isRuleCopying is the former isRule, which removed the spaces of every
// line before looking at its first character: the reference of isRule.
func isRuleCopying(s string) bool {
	t := strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	if len(t) < 3 {
		return false
	}
	c := t[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	return strings.Trim(t, t[:1]) == ""
}

// groupLineCopying is the former groupLine, which stripped the bold of
// every line that starts bold before testing how it ends: the reference of
// groupLine.
func groupLineCopying(t string) (Severity, bool) {
	if !strings.HasPrefix(t, "**") {
		return "", false
	}
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stripBold(t)), ":"))
	if strings.HasSuffix(strings.TrimSpace(t), "**") || strings.HasSuffix(strings.TrimSpace(t), "**:") {
		return groupHeading(inner, true)
	}
	return "", false
}

// TestLineTestsWithoutCopies compares isRule and groupLine with the
// readings that copied each line first, on random lines of rule, bold,
// severity and white-space pieces.
func TestLineTestsWithoutCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	parts := []string{"-", "*", "_", " ", "\t", "\u00a0", "**", ":", "P1", "High", "Critical", "findings", "x", "—", "**P2-1**", "\r"}
	for range 50000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		if got, want := isRule(s), isRuleCopying(s); got != want {
			t.Fatalf("isRule(%q) = %v, want %v", s, got, want)
		}
		gs, gok := groupLine(s)
		ws, wok := groupLineCopying(s)
		if gs != ws || gok != wok {
			t.Fatalf("groupLine(%q) = %q %v, want %q %v", s, gs, gok, ws, wok)
		}
	}
}

// unquoteReplacing is the former unquote, which ran the smart-quote
// replacer on every text: the reference of unquote.
func unquoteReplacing(s string) (string, bool) {
	s = smartQuotes.Replace(strings.TrimSpace(s))
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1], true
	}
	return s, false
}

// TestUnquoteReference compares unquote with unquoteReplacing on random
// texts of quotes, smart quotes, other three-byte characters and spaces.
func TestUnquoteReference(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	parts := []string{`"`, "“", "”", "—", "…", " ", "\t", "x", "API", "\xe2", "\xe2\x80"}
	for range 50000 {
		var b strings.Builder
		for range r.IntN(7) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		gs, gok := unquote(s)
		ws, wok := unquoteReplacing(s)
		if gs != ws || gok != wok {
			t.Fatalf("unquote(%q) = %q %v, want %q %v", s, gs, gok, ws, wok)
		}
	}
}

// loneCRsPlain is the plain reading of loneCRs: every \r that no \n
// follows becomes \n.
func loneCRsPlain(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			b[i] = '\n'
		}
	}
	return string(b)
}

func FuzzLoneCRs(f *testing.F) {
	for _, s := range []string{"", "a", "\r", "\r\n", "a\rb", "a\r\nb\rc\r", "\r\r\n\n\r", "x\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := loneCRs(s), loneCRsPlain(s); got != want {
			t.Errorf("loneCRs(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestLineSize holds a line to 48 bytes: a report has one for every few
// dozen bytes of its text, and at 16 MiB their slice is a quarter of
// what the parse holds.
func TestLineSize(t *testing.T) {
	if n := unsafe.Sizeof(line{}); n > 48 {
		t.Errorf("a line takes %d bytes; want 48 at most", n)
	}
}

// TestLineStartPast2GiB reads an offset that does not fit a line's start
// as none: the line's text is then copied, never cut from the report at
// a wrong place.
func TestLineStartPast2GiB(t *testing.T) {
	for _, tt := range []struct {
		off  int
		want int32
	}{{0, 0}, {17, 17}, {math.MaxInt32, math.MaxInt32}, {math.MaxInt32 + 1, -1}, {1 << 40, -1}} {
		if got := lineStart(tt.off); got != tt.want {
			t.Errorf("lineStart(%d) = %d; want %d", tt.off, got, tt.want)
		}
	}
	// The line before "b" ends where -1 + len("b") points: at a newline.
	src := "\nb\nc\n"
	_, lines := splitLines(src)
	lines[1].start = -1
	b := newBlocks(src, lines, nil)
	if got := b.description(src, lines, 1, 2, 4); got != "b\nc\n" {
		t.Errorf("description over a line past 2 GiB = %q; want %q", got, "b\nc\n")
	}
}
