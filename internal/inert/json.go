package inert

import (
	"unicode"
	"unicode/utf8"
)

// AppendJSONString appends s as a JSON string the way encoding/json does
// without HTML escaping: '"' and '\' escaped, control characters as \b \f
// \n \r \t or \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped
// (JavaScript would end a line there), everything else as it is. With
// escape, DEL, the C1 controls and the bidirectional controls are written
// as \u escapes too, as EscapeJSON writes them: one pass, for writers that
// build JSON a value at a time (the bus's records keep every character as
// encoding/json does; findings.json escapes them).
func AppendJSONString(dst []byte, s string, escape bool) []byte {
	plain := byte(utf8.RuneSelf) // bytes below it, and from space on, are copied
	if escape {
		plain = 0x7f // DEL is escaped
	}
	dst = append(dst, '"')
	start := 0 // s[start:i] is yet to be copied
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < plain {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // the C0 controls, and DEL with escape
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029' || escape && (r < 0xa0 || r >= 0x600 && unicode.Is(unicode.Bidi_Control, r)):
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
