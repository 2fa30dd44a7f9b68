package inert

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// The attack strings of SPEC §10: clear the screen, ring the bell, the C1
// CSI (set a colour), reverse the text after it.
const (
	clearScreen = "\x1b[2J"
	bell        = "\a"
	csi         = "\u009b31m"
	rlo         = "\u202e"
)

func TestLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"plain text", "plain text"},
		{"  padded\t and\n\nbroken \r\n", "padded and broken"},
		{"é — 😀 👨‍👩‍👧", "é — 😀 👨‍👩‍👧"},     // the joiner stays
		{"a\u00a0\u2028b\u0085c", "a b c"}, // Unicode spaces and line breaks are white space
		{"title " + clearScreen + "x", "title ␛[2Jx"},
		{"ding" + bell, "ding␇"},
		{"NUL\x00DEL\x7f", "NUL␀DEL␡"},
		{"back\bspace", "back␈space"},
		{"c1 " + csi, "c1 ⟨U+009B⟩31m"},
		{"file" + rlo + "txt.exe", "file⟨U+202E⟩txt.exe"},
		{"\u2066isolate\u2069 \u200emark\u061c", "⟨U+2066⟩isolate⟨U+2069⟩ ⟨U+200E⟩mark⟨U+061C⟩"},
		{"bad \xff\x9b byte", "bad �� byte"},
		{"\x1b", "␛"},
		{"x  y", "x y"},
		{" lead", "lead"},
		{"trail\u00a0", "trail"},
		{"é  x", "é x"},
	} {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
		// Collapse is Line's white-space rule alone.
		if got := Line(Collapse(tt.in)); got != tt.want {
			t.Errorf("Line(Collapse(%q)) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCollapse: white space collapsed as Line does (TestLine checks that
// on every case), every other character kept as written.
func TestCollapse(t *testing.T) {
	kept := "kept " + clearScreen + bell + csi + rlo + " bad \xff byte"
	if got := Collapse(" \t" + kept + "\r\n"); got != kept {
		t.Errorf("Collapse changed characters: got %q, want %q", got, kept)
	}
	if got, want := Collapse("x\vy\fz\u00a0\u2028 w "), "x y z w"; got != want {
		t.Errorf("Collapse = %q, want %q", got, want)
	}
}

func TestText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"<p>\n\tindented  twice</p>\n", "<p>\n\tindented  twice</p>\n"},
		{"line\r\nnext", "line␍\nnext"},
		{clearScreen + bell + csi + rlo, "␛[2J␇⟨U+009B⟩31m⟨U+202E⟩"},
		{"a\u2028b \xfe", "a\u2028b �"},
	} {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := string(TextBytes([]byte(tt.in))); got != tt.want {
			t.Errorf("TextBytes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Text that needs nothing is not copied.
func TestNoCopy(t *testing.T) {
	s := strings.Repeat("a plain line é ", 10) + "end"
	if got := Line(s); unsafe.StringData(got) != unsafe.StringData(s) {
		t.Errorf("Line copied a line that needs nothing")
	}
	if got := Text(s); unsafe.StringData(got) != unsafe.StringData(s) {
		t.Errorf("Text copied text that needs nothing")
	}
	b := []byte("a page\n\twith tabs\n")
	if got := TextBytes(b); &got[0] != &b[0] {
		t.Errorf("TextBytes copied a page that needs nothing")
	}
	j := []byte(`{"a":"é"}`)
	if got := EscapeJSON(j); &got[0] != &j[0] {
		t.Errorf("EscapeJSON copied JSON that needs nothing")
	}
}

func TestEscapeJSON(t *testing.T) {
	in := map[string]string{"t": "x" + clearScreen + bell + csi + rlo + "\x7f\u2067é\u200f", "u": "plain"}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeJSON(raw)
	if i := activeIndex(string(got), false); i >= 0 {
		t.Errorf("EscapeJSON left an active character at %d: %s", i, got)
	}
	for _, want := range []string{`\u009b`, `\u202e`, `\u007f`, `\u2067`, `\u200f`, `é`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("EscapeJSON(%s) = %s, want %s in it", raw, got, want)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["t"] != in["t"] || back["u"] != in["u"] {
		t.Errorf("EscapeJSON(%s) = %s decodes to %q (%v), want %q", raw, got, back, err, in)
	}
}

func TestEscapeXML(t *testing.T) {
	type doc struct {
		A string `xml:"a,attr"`
		T string `xml:",chardata"`
	}
	in := "x" + csi + rlo + "\x7fé"
	raw, err := xml.Marshal(doc{A: in, T: in})
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeXML(raw)
	if i := activeIndex(string(got), false); i >= 0 {
		t.Errorf("EscapeXML left an active character at %d: %s", i, got)
	}
	var back doc
	if err := xml.Unmarshal(got, &back); err != nil || back.A != in || back.T != in {
		t.Errorf("EscapeXML(%s) = %s decodes to %+v (%v), want %q", raw, got, back, err, in)
	}
}

// activeIndex returns the index of the first control character (white
// space allowed when lines) or bidirectional control in s, or -1.
func activeIndex(s string, lines bool) int {
	for i, r := range s {
		if lines && (r == '\n' || r == '\t') {
			continue
		}
		if Active(r) {
			return i
		}
	}
	return -1
}

// FuzzLine: whatever s is, Line and Text give valid UTF-8 with no active
// character (Text: but line feeds and tabs), Line on one line with no white
// space at its ends or twice in a row, both leave text that needs nothing
// as it is, and applying them again changes nothing. EscapeJSON of JSON
// holding s decodes to s and holds no active character.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "x", clearScreen, bell, csi, rlo, "a\r\nb\tc", "\xff", "é\u00a0 😀", "\u2066x\u2069"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := Line(s)
		if !utf8.ValidString(l) || activeIndex(l, false) >= 0 || strings.ContainsAny(l, "\n\t") {
			t.Fatalf("Line(%q) = %q: not one line of inert text", s, l)
		}
		if strings.HasPrefix(l, " ") || strings.HasSuffix(l, " ") || strings.Contains(l, "  ") {
			t.Fatalf("Line(%q) = %q: white space not collapsed", s, l)
		}
		if Line(l) != l {
			t.Fatalf("Line(Line(%q)) = %q, want %q", s, Line(l), l)
		}
		c := Collapse(s)
		if Line(c) != l || Collapse(c) != c || strings.HasPrefix(c, " ") || strings.HasSuffix(c, " ") ||
			strings.Contains(c, "  ") || strings.ContainsAny(c, "\n\t\r\v\f") {
			t.Fatalf("Collapse(%q) = %q: not Line's white-space rule (Line %q)", s, c, l)
		}
		x := Text(s)
		if !utf8.ValidString(x) || activeIndex(x, true) >= 0 {
			t.Fatalf("Text(%q) = %q: not inert", s, x)
		}
		if Text(x) != x || string(TextBytes([]byte(s))) != x {
			t.Fatalf("Text(%q) = %q: not stable", s, x)
		}
		if utf8.ValidString(s) && activeIndex(s, true) < 0 && x != s {
			t.Fatalf("Text(%q) = %q: changed text that needs nothing", s, x)
		}
		raw, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		j := EscapeJSON(raw)
		var back string
		if err := json.Unmarshal(j, &back); err != nil {
			t.Fatalf("EscapeJSON(%s) = %s: %v", raw, j, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want && utf8.ValidString(s) {
			t.Fatalf("EscapeJSON(%s) decodes to %q, want %q", raw, back, want)
		}
		if activeIndex(string(j), false) >= 0 {
			t.Fatalf("EscapeJSON(%s) = %s: an active character is left", raw, j)
		}
	})
}

func BenchmarkLine(b *testing.B) {
	plain := strings.Repeat("Session tokens stored in localStorage, ", 4) + "end"
	hostile := clearScreen + plain + rlo
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			Line(plain)
		}
	})
	b.Run("hostile", func(b *testing.B) {
		for b.Loop() {
			Line(hostile)
		}
	})
}

func BenchmarkEscapeJSON(b *testing.B) {
	doc := []byte(strings.Repeat(`{"title":"Session tokens stored in localStorage","agents":["fd-a","fd-b"]},`, 1000))
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		EscapeJSON(doc)
	}
}
