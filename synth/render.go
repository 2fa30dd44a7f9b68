package synth

import (
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/inert"
)

// RenderJSON returns findings.json: s as indented JSON with a final newline
// (what a json.Encoder with SetIndent("", "  ") and no HTML escaping
// writes), as WriteJSON writes it. The error is one of encoding.
//
// The buffer is sized from the rest of s, counted as it is written, and
// a sample of the findings, with a margin, so it is never copied to grow:
// pages of it that are never written are never touched, so they add
// nothing to the resident set.
func RenderJSON(s *Synthesis) ([]byte, error) {
	var enc jsonEncoder
	rest := *s
	rest.Findings = nil
	var skeleton counter
	writeJSON(&skeleton, &rest, &enc)
	n := len(s.Findings)
	sample, per := 0, 0
	var one []byte
	for i := 0; i < n; i += max(1, n/64) {
		one = appendFinding(one[:0], &s.Findings[i], 2, &enc)
		per += len(one)
		sample++
	}
	b := bytes.NewBuffer(make([]byte, 0, int(skeleton)+(per/max(sample, 1)+64)*n*5/4+4096))
	if err := writeJSON(b, s, &enc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// counter is a writer that counts what is written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}

// WriteJSON writes findings.json to w as it is made: findings.json of
// 8,000 agents × 50 findings is 381 MB, six times the reports it comes
// from, and `synth` streams it to its file rather than hold it. The error
// is w's.
func WriteJSON(w io.Writer, s *Synthesis) error {
	var enc jsonEncoder
	return writeJSON(w, s, &enc)
}

// writeJSON writes findings.json to w: s member by member, each finding
// by appendFinding, the other members' large lists (the agents, the
// timeline's lists) item by item, so that what it holds at once is one
// item and 64 KiB of output, never the document or a large part of it
// (the rest of s but the findings was one 48 MB buffer at 8,000 agents).
func writeJSON(w io.Writer, s *Synthesis, enc *jsonEncoder) error {
	jw := jsonWriter{w: w, enc: enc}
	jw.value(reflect.ValueOf(s).Elem(), 0, 3)
	jw.out = append(jw.out, '\n')
	jw.flush()
	return jw.err
}

// jsonWriter writes a value as findings.json has it (what indentJSON makes
// of inert.EscapeJSON of encoding/json's compact encoding), taking structs
// apart member by member and slices item by item, down to a depth, and
// encoding the parts below with enc.
type jsonWriter struct {
	w   io.Writer
	enc *jsonEncoder
	out []byte
	err error // w's first
}

func (jw *jsonWriter) flush() {
	if jw.err == nil && len(jw.out) > 0 {
		_, jw.err = jw.w.Write(jw.out)
	}
	jw.out = jw.out[:0]
}

// value writes v at nesting depth depth, taking it apart for parts more
// levels down.
func (jw *jsonWriter) value(v reflect.Value, depth, parts int) {
	if len(jw.out) >= 64<<10 {
		jw.flush()
	}
	if jw.err != nil {
		return
	}
	t := v.Type()
	switch {
	case t == reflect.TypeFor[[]Finding]():
		fs := v.Interface().([]Finding)
		jw.out = appendArray(jw.out, fs == nil, len(fs), depth, func(dst []byte, i, depth int) []byte {
			jw.out = appendFinding(dst, &fs[i], depth, jw.enc)
			if len(jw.out) >= 64<<10 {
				jw.flush()
			}
			return jw.out
		})
		return
	case parts > 0 && t.Kind() == reflect.Pointer && !v.IsNil() && plainStruct(t.Elem()):
		jw.value(v.Elem(), depth, parts)
		return
	case parts > 0 && t.Kind() == reflect.Struct && plainStruct(t):
		jw.out = append(jw.out, '{')
		first := true
		for i := range t.NumField() {
			sf := t.Field(i)
			name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if !sf.IsExported() || name == "-" && opts == "" {
				continue
			}
			fv := v.Field(i)
			if (opts == "omitempty" || strings.Contains(opts, "omitempty,") || strings.HasSuffix(opts, ",omitempty")) && isEmptyJSON(fv) {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			jw.out = appendMember(jw.out, strconv.Quote(name)+": ", depth+1, first)
			first = false
			jw.value(fv, depth+1, parts-1)
		}
		if !first {
			jw.out = appendNewline(jw.out, depth)
		}
		jw.out = append(jw.out, '}')
		return
	case parts > 0 && t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 && !marshals(t.Elem()):
		jw.out = appendArray(jw.out, v.IsNil(), v.Len(), depth, func(dst []byte, i, depth int) []byte {
			jw.out = dst
			jw.value(v.Index(i), depth, parts-1)
			return jw.out
		})
		return
	}
	jw.out = indentJSON(jw.out, jw.enc.encode(v.Interface()), depth)
}

// plainStruct reports whether encoding/json writes a value of struct type t
// as the object of its fields, one member each: t has no embedded field
// (whose fields would be its own) and no method of its own to marshal.
func plainStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || marshals(t) {
		return false
	}
	for i := range t.NumField() {
		if t.Field(i).Anonymous {
			return false
		}
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == "-" && t.Field(i).Tag.Get("json") != "-" {
			return false // a member named "-": left to encoding/json
		}
	}
	return true
}

// marshals reports whether values of type t, or pointers to them, marshal
// themselves.
func marshals(t reflect.Type) bool {
	for _, m := range []reflect.Type{reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return true
		}
	}
	return false
}

// jsonEncoder encodes values as compact JSON without HTML escaping, into
// one buffer it reuses.
type jsonEncoder struct {
	b   bytes.Buffer
	enc *json.Encoder
}

// encode returns v as compact JSON, valid until the next call, with the
// control characters and bidirectional overrides that encoding/json leaves
// raw escaped (inert.EscapeJSON): findings.json keeps the agents' text, and
// a person who pages through it sees no character act.
func (e *jsonEncoder) encode(v any) []byte {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.b)
		e.enc.SetEscapeHTML(false)
	}
	e.b.Reset()
	if err := e.enc.Encode(v); err != nil {
		// Every field of a Synthesis is a plain value: encoding cannot fail.
		panic("synth: encode findings.json: " + err.Error())
	}
	return inert.EscapeJSON(bytes.TrimSuffix(e.b.Bytes(), []byte("\n")))
}

// stringEnd returns the index of the quote closing the string that begins
// at src[i]: the first quote that an even run of backslashes (often none)
// precedes; len(src) when there is none.
func stringEnd(src []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		j += k
		n := 0
		for n < j-i-1 && src[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return j
		}
		j++
	}
}

// indentJSON appends src, compact JSON as encoding/json writes it, indented
// by two spaces exactly as json.Indent(dst, src, "", "  ") would, at a
// fraction of its cost (the live watcher renders findings.json after every
// bus append). depth is the nesting src starts at: 0 for a whole document,
// more for a part of one.
func indentJSON(dst, src []byte, depth int) []byte {
	dst, _ = indentJSONTo(dst, src, depth, nil)
	return dst
}

// indentJSONTo is indentJSON writing dst to w, when w is not nil, each
// time it holds 64 KiB, and going on from empty. The error is w's.
func indentJSONTo(dst, src []byte, depth int, w io.Writer) ([]byte, error) {
	needIndent := false // after { or [: a newline unless it closes at once
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			newline()
		}
		switch c {
		case '"':
			end := min(stringEnd(src, i)+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false // {} and [] stay on one line
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
		if w != nil && len(dst) >= 64<<10 {
			if _, err := w.Write(dst); err != nil {
				return dst[:0], err
			}
			dst = dst[:0]
		}
	}
	return dst, nil
}
