package bus

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/parse"
)

// decodeSlow decodes a line with encoding/json. On failure it returns the
// diagnostic to give (its Line is left to the caller).
func decodeSlow(b []byte, raw *busLine) (parse.Diagnostic, bool) {
	*raw = busLine{}
	err := json.Unmarshal(b, raw)
	if err == nil {
		return parse.Diagnostic{}, true
	}
	dg := parse.Diagnostic{Level: parse.LevelError}
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

// The string fields of a bus line the fast path knows, by index; fFileRefs
// is the one array field and fUnknown any other key.
const (
	fSeverity = iota
	fAgent
	fFrom
	fCategory
	fSummary
	fTimestamp
	fTS
	fKind
	fMessage
	fID
	fType
	fTitle
	fNote
	fPriority
	nFields

	fFileRefs = -1
	fUnknown  = -2
)

// fieldOf returns the field that key names exactly.
func fieldOf(key []byte) int {
	switch string(key) {
	case "severity":
		return fSeverity
	case "agent":
		return fAgent
	case "from":
		return fFrom
	case "category":
		return fCategory
	case "summary":
		return fSummary
	case "file_refs":
		return fFileRefs
	case "timestamp":
		return fTimestamp
	case "ts":
		return fTS
	case "kind":
		return fKind
	case "message":
		return fMessage
	case "id":
		return fID
	case "type":
		return fType
	case "title":
		return fTitle
	case "note":
		return fNote
	case "priority":
		return fPriority
	}
	return fUnknown
}

// lineView is a line as scan found it: the bytes of each string field, not
// yet checked or copied. Scanning a line costs no allocation, so that a line
// the caller does not want (Decoder.Only) is dropped cheaply.
type lineView struct {
	str  [nFields][]byte
	set  uint32 // the fields of str that were given a string
	refs [][]byte
	// hasRefs: file_refs was an array (refs may be empty); otherwise it was
	// absent or null.
	hasRefs bool
	// plain: the line holds no backslash, so each view is the raw bytes
	// between two quotes, not yet checked for control characters and UTF-8.
	// Otherwise each view has been checked and unescaped by jsonString.
	plain bool
}

// scan reads the common case of a bus line: one flat JSON object whose values
// are strings or null, and for file_refs an array of strings. It reports false
// for anything else (the caller falls back to encoding/json). On true, fill
// turns v into exactly what encoding/json would have decoded, or reports that
// a string is not valid JSON (FuzzBusFastPath holds the two to that).
func scan(b []byte, v *lineView) bool {
	*v = lineView{refs: v.refs[:0], plain: bytes.IndexByte(b, '\\') < 0}
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
		key, ke, ok := v.string(b, i+1)
		if !ok {
			return false
		}
		field := fieldOf(key)
		if field == fUnknown && (!unknownKeyIsSafe(key) || !v.checked(key)) {
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
		switch c := b[i]; {
		case c == '"':
			val, ve, ok := v.string(b, i+1)
			switch {
			case !ok:
				return false
			case field == fFileRefs:
				return false // a string where an array belongs: let encoding/json say so
			case field == fUnknown:
				if !v.checked(val) {
					return false
				}
			default:
				// A value replaced by a later one is never filled: check it now.
				if v.str[field] != nil && !v.checked(v.str[field]) {
					return false
				}
				v.str[field] = val
				v.set |= 1 << field
			}
			i = ve + 1
		case c == 'n':
			if len(b)-i < 4 || string(b[i:i+4]) != "null" {
				return false
			}
			if field == fFileRefs {
				if !v.dropRefs() {
					return false
				}
				v.hasRefs = false
			}
			i += 4
		case c == '[' && field == fFileRefs:
			j, ok := v.array(b, i+1)
			if !ok {
				return false
			}
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

// string scans a JSON string whose opening quote is at i-1, returning its
// bytes and the index of its closing quote. In a plain line the string ends
// at the next quote and is left unchecked; otherwise jsonString checks and
// unescapes it.
func (v *lineView) string(b []byte, i int) (val []byte, end int, ok bool) {
	if !v.plain {
		return jsonString(b, i)
	}
	k := bytes.IndexByte(b[i:], '"')
	if k < 0 {
		return nil, 0, false
	}
	return b[i : i+k], i + k, true
}

// checked reports whether s, a string of the line that fill will not see,
// is valid JSON. Only a plain line's strings are still unchecked.
func (v *lineView) checked(s []byte) bool {
	if !v.plain {
		return true
	}
	ok, _ := checkPlain(s)
	return ok
}

// dropRefs forgets the file refs scanned so far (a later file_refs replaces
// them), checking them first since fill will not; it reports false when one
// is not valid JSON.
func (v *lineView) dropRefs() bool {
	for _, r := range v.refs {
		if !v.checked(r) {
			return false
		}
	}
	v.refs = v.refs[:0]
	return true
}

// array scans the strings of file_refs, whose '[' is at i-1, returning the
// index just past ']'.
func (v *lineView) array(b []byte, i int) (int, bool) {
	if !v.dropRefs() {
		return 0, false
	}
	v.hasRefs = true
	i = skipSpace(b, i)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		val, e, ok := v.string(b, i+1)
		if !ok {
			return 0, false
		}
		v.refs = append(v.refs, val)
		i = skipSpace(b, e+1)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// fill sets raw to what encoding/json decodes from the line v was scanned
// from. It reports false when a string of a plain line holds a control
// character (not valid JSON: the caller lets encoding/json say so).
//
// Short values that repeat (severities, agents, categories, timestamps) are
// shared (str); the others of a line, its summary and file refs among them,
// are copied into one string that each is a part of, and the file refs
// slices of many lines share one array: a line costs about two allocations.
func (d *Decoder) fill(v *lineView, raw *busLine) bool {
	*raw = busLine{}
	type part struct{ f, from, to int }
	var parts [nFields + 16]part
	np := 0
	buf := d.buf[:0]
	// A line with very many file refs gives each string of its own.
	separate := bits.OnesCount32(v.set)+len(v.refs) > len(parts)
	own := func(f int, b []byte) bool {
		b, ok := d.checked(b, v.plain)
		switch {
		case !ok:
			return false
		case separate && f == fFileRefs:
			raw.FileRefs = append(raw.FileRefs, string(b))
		case separate:
			*raw.field(f) = string(b)
		default:
			parts[np] = part{f, len(buf), len(buf) + len(b)}
			np++
			buf = append(buf, b...)
		}
		return true
	}
	for set := v.set; set != 0; set &= set - 1 {
		f := bits.TrailingZeros32(set)
		if len(v.str[f]) == 0 {
			continue
		}
		switch f {
		case fSeverity, fAgent, fFrom, fCategory, fKind, fType, fTimestamp, fTS:
			b, ok := d.checked(v.str[f], v.plain)
			if !ok {
				return false
			}
			*raw.field(f) = d.str(f, b)
		default:
			if !own(f, v.str[f]) {
				return false
			}
		}
	}
	if v.hasRefs {
		raw.FileRefs = d.refs(len(v.refs))
		for _, r := range v.refs {
			if !own(fFileRefs, r) {
				return false
			}
		}
	}
	all := string(buf)
	d.buf = buf
	for _, p := range parts[:np] {
		if p.f == fFileRefs {
			raw.FileRefs = append(raw.FileRefs, all[p.from:p.to])
		} else {
			*raw.field(p.f) = all[p.from:p.to]
		}
	}
	return true
}

// refs returns an empty slice with room for n file refs, cut from an array
// that many lines share.
func (d *Decoder) refs(n int) []string {
	switch {
	case n == 0:
		return noRefs
	case n > 64:
		return make([]string, 0, n)
	}
	if cap(d.refArena)-len(d.refArena) < n {
		d.refArena = make([]string, 0, 1024)
	}
	l := len(d.refArena)
	d.refArena = d.refArena[:l+n]
	return d.refArena[l : l : l+n]
}

// field returns the busLine field of a string field index.
func (raw *busLine) field(f int) *string {
	switch f {
	case fSeverity:
		return &raw.Severity
	case fAgent:
		return &raw.Agent
	case fFrom:
		return &raw.From
	case fCategory:
		return &raw.Category
	case fSummary:
		return &raw.Summary
	case fTimestamp:
		return &raw.Timestamp
	case fTS:
		return &raw.TS
	case fKind:
		return &raw.Kind
	case fMessage:
		return &raw.Message
	case fID:
		return &raw.ID
	case fType:
		return &raw.Type
	case fTitle:
		return &raw.Title
	case fNote:
		return &raw.Note
	case fPriority:
		return &raw.Priority
	}
	panic("parse: no such bus field")
}

// checked returns b, the bytes of a string, checked as encoding/json checks
// them when they are the unchecked bytes of a plain line: a control
// character is an error, invalid UTF-8 becomes U+FFFD.
func (d *Decoder) checked(b []byte, plain bool) ([]byte, bool) {
	if plain {
		ok, ascii := checkPlain(b)
		if !ok {
			return nil, false
		}
		if !ascii && !utf8.Valid(b) {
			b = unquoteJSON(b)
		}
	}
	return b, true
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
	return fieldOf(lower[:len(key)]) == fUnknown
}

// str returns b as a string, sharing one copy of short values that repeat
// from line to line (severities, agents, categories, kinds, and the last
// timestamp: entries written in the same second share it).
func (d *Decoder) str(f int, b []byte) string {
	switch f {
	case fSeverity:
		switch string(b) {
		case Blocking:
			return Blocking
		case Notable:
			return Notable
		}
	case fAgent, fFrom, fCategory, fKind, fType:
		// A direct-mapped cache of recent values before the map: most
		// lines name an agent and a category seen a few lines before.
		h := (len(b)*31 + int(b[len(b)-1])*7 + int(b[len(b)/2])) & (len(d.recent) - 1)
		if s := d.recent[h]; s == string(b) {
			return s
		}
		s := d.intern1(b)
		d.recent[h] = s
		return s
	case fTimestamp, fTS:
		if string(b) != d.lastTS {
			d.lastTS = string(b)
		}
		return d.lastTS
	default:
		return string(b)
	}
	return d.intern1(b)
}

// intern1 returns b as a string, the same one for the same short value.
func (d *Decoder) intern1(b []byte) string {
	if s, ok := d.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(d.intern) < 4096 && len(s) <= 64 {
		d.intern[s] = s
	}
	return s
}

// canonicalSeverity returns the severity of a line in the canonical shape
// (bus.Encode's, SPEC §3) without "type" and "kind" fields:
//
//	{"severity":"blocking|notable","agent":"…"[,"category":"…"],"summary":"…","file_refs":[…][,"timestamp":"…"][,"id":"…"][,"priority":"…"]}
//
// with the keys in that order, no spaces between tokens, and string values;
// it returns "" for any other line. Such a line, if it is valid at all,
// decodes to a finding of exactly that severity: every other field it may
// hold leaves the severity alone (findingSeverity). Its strings are not
// checked here: the quote that ends a value is found by IndexByte, and one
// that a backslash precedes (it may be escaped) makes the line not
// canonical.
func canonicalSeverity(b []byte) string {
	var sev string
	switch {
	case bytes.HasPrefix(b, []byte(`{"severity":"notable","agent":"`)):
		sev = Notable
	case bytes.HasPrefix(b, []byte(`{"severity":"blocking","agent":"`)):
		sev = Blocking
	default:
		return ""
	}
	rest := b[len(`{"severity":"`)+len(sev)+len(`","agent":"`):]
	// value skips the rest of a string value and the quote that ends it.
	value := func() bool {
		i := bytes.IndexByte(rest, '"')
		if i < 0 || (i > 0 && rest[i-1] == '\\') {
			return false
		}
		rest = rest[i+1:]
		return true
	}
	field := func(key string) bool {
		if !bytes.HasPrefix(rest, []byte(key)) {
			return false
		}
		rest = rest[len(key):]
		return value()
	}
	if !value() {
		return ""
	}
	field(`,"category":"`)
	if !field(`,"summary":"`) || !bytes.HasPrefix(rest, []byte(`,"file_refs":[`)) {
		return ""
	}
	rest = rest[len(`,"file_refs":[`):]
	if len(rest) > 0 && rest[0] == ']' {
		rest = rest[1:]
	} else {
		for {
			if len(rest) == 0 || rest[0] != '"' {
				return ""
			}
			rest = rest[1:]
			if !value() || len(rest) == 0 {
				return ""
			}
			c := rest[0]
			rest = rest[1:]
			if c == ']' {
				break
			}
			if c != ',' {
				return ""
			}
		}
	}
	field(`,"timestamp":"`)
	field(`,"id":"`)
	field(`,"priority":"`)
	if string(rest) != "}" {
		return ""
	}
	return sev
}

// checkPlain reports whether s, the bytes of a JSON string without escapes,
// is free of control characters (else it is not valid JSON), and whether it
// is all ASCII. It tests eight bytes at a time.
func checkPlain(s []byte) (ok, ascii bool) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	ascii = true
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		// (w - 0x20 each) & ^w & high bits is non-zero exactly when some byte
		// is below 0x20; w & high bits when some byte is not ASCII.
		if (w-0x20*ones)&^w&highs == 0 && (!ascii || w&highs == 0) {
			continue
		}
		for _, c := range s[i : i+8] {
			if c < 0x20 {
				return false, false
			}
			if c >= utf8.RuneSelf {
				ascii = false
			}
		}
	}
	for _, c := range s[i:] {
		if c < 0x20 {
			return false, false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return true, ascii
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
