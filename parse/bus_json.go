package parse

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeSlow decodes a line with encoding/json. On failure it returns the
// diagnostic to give (its Line is left to the caller).
func decodeSlow(b []byte, raw *busLine) (Diagnostic, bool) {
	*raw = busLine{}
	err := json.Unmarshal(b, raw)
	if err == nil {
		return Diagnostic{}, true
	}
	dg := Diagnostic{Level: LevelError}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		dg.Col = int(syn.Offset)
		dg.Message = fmt.Sprintf("invalid JSON (%v): skipped", syn)
	case errors.As(err, &typ) && typ.Field == "":
		dg.Message = fmt.Sprintf("a line must be a JSON object, not %s: skipped", typ.Value)
	case errors.As(err, &typ):
		dg.Message = fmt.Sprintf("field %q is %s, want %s: skipped", typ.Field, typ.Value, jsonKind(typ.Type.Kind().String()))
	default:
		dg.Message = fmt.Sprintf("invalid record (%v): skipped", err)
	}
	return dg, false
}

func jsonKind(goKind string) string {
	if goKind == "slice" {
		return "an array of strings"
	}
	return "a " + goKind
}

// decodeFast decodes the common case of a bus line by hand: one flat JSON
// object whose values are strings or null, and for file_refs an array of
// strings. It reports false, leaving raw in an unspecified
// state, for anything else, and the caller falls back to encoding/json; on
// true raw is exactly what encoding/json would have decoded (the fuzz test
// FuzzBusFastPath holds it to that).
func (d *BusDecoder) decodeFast(b []byte, raw *busLine) bool {
	*raw = busLine{}
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		// key
		if i >= len(b) || b[i] != '"' {
			return false
		}
		key, ke, ok := jsonString(b, i+1)
		if !ok {
			return false
		}
		i = skipSpace(b, ke+1)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		field := raw.field(key)
		if field == nil && !unknownKeyIsSafe(key) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			val, ve, ok := jsonString(b, i+1)
			if !ok {
				return false
			}
			if field != nil {
				if string(key) == "file_refs" {
					return false // a string where an array belongs: let encoding/json say so
				}
				*field.(*string) = d.str(key, val)
			}
			i = ve + 1
		case c == 'n':
			if len(b)-i < 4 || string(b[i:i+4]) != "null" {
				return false
			}
			if refs, ok := field.(*[]string); ok {
				*refs = nil
			}
			i += 4
		case c == '[' && string(key) == "file_refs":
			refs, j, ok := stringArray(b, i+1)
			if !ok {
				return false
			}
			raw.FileRefs = refs
			i = j
		default:
			return false
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// field returns a pointer to the field that key names exactly, or nil.
func (raw *busLine) field(key []byte) any {
	switch string(key) {
	case "severity":
		return &raw.Severity
	case "agent":
		return &raw.Agent
	case "from":
		return &raw.From
	case "category":
		return &raw.Category
	case "summary":
		return &raw.Summary
	case "file_refs":
		return &raw.FileRefs
	case "timestamp":
		return &raw.Timestamp
	case "ts":
		return &raw.TS
	case "kind":
		return &raw.Kind
	case "message":
		return &raw.Message
	case "id":
		return &raw.ID
	case "type":
		return &raw.Type
	case "title":
		return &raw.Title
	case "note":
		return &raw.Note
	case "priority":
		return &raw.Priority
	}
	return nil
}

// unknownKeyIsSafe reports whether encoding/json would ignore key: it matches
// struct fields case-insensitively (with Unicode folding), so a key that is
// not plain ASCII, or that folds to a known key, is left to it.
func unknownKeyIsSafe(key []byte) bool {
	var lower [16]byte
	if len(key) > len(lower) {
		for _, c := range key {
			if c >= utf8.RuneSelf {
				return false
			}
		}
		return true // longer than every known key
	}
	for i, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	var probe busLine
	return probe.field(lower[:len(key)]) == nil
}

// str returns b as a string, sharing one copy of short values that repeat
// from line to line (severities, agents, categories, kinds).
func (d *BusDecoder) str(key, b []byte) string {
	switch string(key) {
	case "severity", "agent", "from", "category", "kind", "type":
	default:
		return string(b)
	}
	if s, ok := d.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(d.intern) < 4096 && len(s) <= 64 {
		d.intern[s] = s
	}
	return s
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// jsonString scans a JSON string whose opening quote is at i-1. It returns
// its value and the index of the closing quote; ok is false for a string that
// is not valid JSON. The value is a slice of b when the string has no escapes
// and is valid UTF-8; otherwise it is decoded exactly as encoding/json does
// (invalid UTF-8 and lone surrogates become U+FFFD).
func jsonString(b []byte, i int) (val []byte, end int, ok bool) {
	start := i
	plain, ascii := true, true
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			raw := b[start:i]
			if plain && (ascii || utf8.Valid(raw)) {
				return raw, i, true
			}
			return unquoteJSON(raw), i, true
		case c == '\\':
			plain = false
			i++
			if i >= len(b) {
				return nil, 0, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || hex4(b[i+1:i+5]) < 0 {
					return nil, 0, false
				}
				i += 4
			default:
				return nil, 0, false
			}
		case c < 0x20:
			return nil, 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, 0, false
}

// hex4 returns the value of four hex digits, or -1.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// unquoteJSON decodes the contents of a JSON string already checked by
// jsonString, as encoding/json does.
func unquoteJSON(s []byte) []byte {
	out := make([]byte, 0, len(s)+8)
	for r := 0; r < len(s); {
		c := s[r]
		switch {
		case c == '\\':
			r++
			switch s[r] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				rr := hex4(s[r+1 : r+5])
				r += 5
				if utf16.IsSurrogate(rr) {
					if r+6 <= len(s) && s[r] == '\\' && s[r+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(s[r+2:r+6])); dec != unicode.ReplacementChar {
							out = utf8.AppendRune(out, dec)
							r += 6
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				out = utf8.AppendRune(out, rr)
				continue
			default: // " \ /
				out = append(out, s[r])
			}
			r++
		case c < utf8.RuneSelf:
			out = append(out, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			out = utf8.AppendRune(out, rr)
			r += size
		}
	}
	return out
}

// stringArray scans an array of plain strings whose '[' is at i-1, returning
// the strings and the index just past ']'.
func stringArray(b []byte, i int) ([]string, int, bool) {
	out := []string{}
	i = skipSpace(b, i)
	if i < len(b) && b[i] == ']' {
		return out, i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, 0, false
		}
		val, e, ok := jsonString(b, i+1)
		if !ok {
			return nil, 0, false
		}
		out = append(out, string(val))
		i = skipSpace(b, e+1)
		if i >= len(b) {
			return nil, 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return out, i + 1, true
		default:
			return nil, 0, false
		}
	}
}
