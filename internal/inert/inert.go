package inert

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one line of inert text (see the package doc): its runs
// of white space collapsed to one space and trimmed, every control
// character, DEL and bidirectional control shown by its stand-in, bytes
// that are not UTF-8 as U+FFFD. Text that needs none of this is returned as
// it is, without a copy.
func Line(s string) string {
	if plainLine(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	space := false // white space is pending: written before the next character
	for i := 0; i < len(s); {
		if c := s[i]; c > ' ' && c < 0x7f {
			if space {
				b.WriteByte(' ')
				space = false
			}
			j := i + 1 // a run of printable ASCII, spaces between words included
			for j < len(s) && s[j] >= ' ' && s[j] < 0x7f && (s[j] != ' ' || j+1 < len(s) && s[j+1] > ' ' && s[j+1] < 0x7f) {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if isSpace(r, size) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		writeRune(&b, r, size)
	}
	return b.String()
}

// Collapse returns s on one line with its characters kept: every run of
// white space (what Line collapses: unicode.IsSpace, line breaks included)
// becomes one space, and white space at either end is dropped. It is Line
// without the stand-ins, for the machine outputs whose encoders escape
// characters themselves (SARIF, rdjsonl, JUnit) and for messages a caller
// makes inert later; Line(s) is Line(Collapse(s)). Text already on one line
// is returned as it is, without a copy.
func Collapse(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c >= '\t' && c <= '\r' ||
			c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// Text returns s with line feeds and tabs kept and every other control
// character, DEL and bidirectional control shown by its stand-in (see the
// package doc), bytes that are not UTF-8 as U+FFFD: inert text over several
// lines. Text that needs none of this is returned as it is.
func Text(s string) string {
	i := firstActive(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == '\n' || r == '\t' {
			b.WriteRune(r)
			continue
		}
		writeRune(&b, r, size)
	}
	return b.String()
}

// TextBytes is Text for a document held as bytes: b itself when nothing in
// it needs a stand-in, else a new slice.
func TextBytes(b []byte) []byte {
	if firstActive(b) == len(b) {
		return b
	}
	return []byte(Text(string(b)))
}

// Active reports whether r is a character that Line and Text replace by a
// stand-in (white space aside): a C0 or C1 control character, DEL, or a
// bidirectional control.
func Active(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r >= 0x600 && unicode.Is(unicode.Bidi_Control, r)
}

// EscapeJSON returns the JSON text b with every DEL, C1 control character
// and bidirectional control written as a \u escape ("\u009b", "\u202e"),
// which encoding/json leaves raw: the same value for a JSON reader, no
// active character for a person who looks at the file. These characters
// can only stand inside strings in JSON text, where an escape means the
// same. b itself is returned when it holds none.
func EscapeJSON(b []byte) []byte {
	return escape(b, func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	})
}

// EscapeXML is EscapeJSON for XML text (as encoding/xml writes it, which
// leaves these characters raw and turns C0 controls into U+FFFD): each is
// written as a character reference ("&#x9b;"), which means the same in
// element content and attribute values, where alone they can stand.
func EscapeXML(b []byte) []byte {
	return escape(b, func(dst []byte, r rune) []byte {
		return append(strconv.AppendInt(append(dst, "&#x"...), int64(r), 16), ';')
	})
}

const hex = "0123456789abcdef"

// escape returns b with each DEL, C1 control and bidirectional control
// written by esc; b itself when it holds none.
func escape(b []byte, esc func(dst []byte, r rune) []byte) []byte {
	i := firstJSONActive(b)
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for i < len(b) {
		out = append(out, b[:i]...)
		r, size := utf8.DecodeRune(b[i:])
		out = esc(out, r)
		b = b[i+size:]
		i = firstJSONActive(b)
	}
	return append(out, b...)
}

// firstJSONActive returns the index of the first DEL, C1 control or
// bidirectional control in b, len(b) when there is none. Control characters
// below U+0020 are the encoder's own to escape (JSON) or to refuse (XML), and
// invalid UTF-8 is not looked at.
func firstJSONActive(b []byte) int {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c < 0x7f:
			continue
		case c == 0x7f:
			return i
		case c != 0xc2 && c != 0xd8 && c != 0xe2:
			continue // no lead byte of an active character
		}
		if r, _ := utf8.DecodeRune(b[i:]); r != utf8.RuneError && Active(r) {
			return i
		}
	}
	return len(b)
}

// plainLine reports whether s is printable ASCII with no white space at
// either end and no two spaces in a row: what Line returns unchanged.
func plainLine(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == ' ' && s[i+1] == ' ' {
			if c >= 0x80 {
				return plainRunes(s[i:], i > 0 && s[i-1] == ' ')
			}
			return false
		}
	}
	return true
}

// plainRunes is plainLine past ASCII: s, a valid tail of a line after a
// space when afterSpace, holds no white space run, no active character and
// no invalid byte. It does not look at the ends, which plainLine did.
func plainRunes(s string, afterSpace bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		space := isSpace(r, size)
		switch {
		case r == utf8.RuneError && size == 1, Active(r), space && (r != ' ' || afterSpace):
			return false
		}
		afterSpace = space
	}
	return true
}

// firstActive returns the index of the first character of s that Text
// replaces, len(s) when there is none.
func firstActive[T string | []byte](s T) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 || Active(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// isSpace reports whether r, decoded from size bytes, is white space that
// Line collapses (an invalid byte is not).
func isSpace(r rune, size int) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || r >= '\t' && r <= '\r'
	}
	return size > 1 && unicode.IsSpace(r)
}

// writeRune writes r, decoded from size bytes, or its stand-in.
func writeRune(b *strings.Builder, r rune, size int) {
	switch {
	case r == utf8.RuneError && size == 1:
		b.WriteRune(utf8.RuneError)
	case r < 0x20:
		b.WriteRune(0x2400 + r)
	case r == 0x7f:
		b.WriteRune(0x2421)
	case Active(r):
		const upper = "0123456789ABCDEF"
		b.WriteString("⟨U+")
		b.Write([]byte{upper[r>>12&0xf], upper[r>>8&0xf], upper[r>>4&0xf], upper[r&0xf]})
		b.WriteString("⟩")
	default:
		b.WriteRune(r)
	}
}
