package bus

import (
	"unicode/utf8"
)

// AppendLine appends the canonical line of e (SPEC §3), newline included, to
// dst and returns the extended slice. The line is byte for byte what
// encoding/json writes for a Entry without HTML escaping (the fuzz test
// FuzzAppendLine holds it to that), with nil file refs written as []; it is
// made by hand because a reader that prints many entries spends most of its
// time here otherwise.
func AppendLine(dst []byte, e Entry) []byte {
	dst = append(dst, `{"severity":`...)
	dst = appendString(dst, e.Severity)
	dst = append(dst, `,"agent":`...)
	dst = appendString(dst, e.Agent)
	if e.Category != "" {
		dst = append(dst, `,"category":`...)
		dst = appendString(dst, e.Category)
	}
	dst = append(dst, `,"summary":`...)
	dst = appendString(dst, e.Summary)
	dst = append(dst, `,"file_refs":[`...)
	for i, r := range e.FileRefs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, r)
	}
	dst = append(dst, ']')
	for _, f := range [...]struct{ key, val string }{
		{`,"timestamp":`, e.Timestamp},
		{`,"id":`, e.ID},
		{`,"priority":`, string(e.Priority)},
		{`,"kind":`, e.Kind},
	} {
		if f.val != "" {
			dst = append(dst, f.key...)
			dst = appendString(dst, f.val)
		}
	}
	return append(dst, '}', '\n')
}

// appendString appends s as a JSON string the way encoding/json does without
// HTML escaping: '"' and '\' escaped, control characters as \b \f \n \r \t
// or \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped (JavaScript
// would end a line there), everything else as it is.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0 // s[start:i] is yet to be copied
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
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
			default:
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
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
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
