package synth

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/fluxwatch/fluxwatch/internal/inert"
)

// RenderJSON returns findings.json: s as indented JSON with a final newline
// (what a json.Encoder with SetIndent("", "  ") and no HTML escaping
// writes), as WriteJSON writes it.
//
// The buffer is sized from a sample of the findings, with a margin, so it
// is never copied to grow: pages of it that are never written are never
// touched, so they add nothing to the resident set.
func RenderJSON(s *Synthesis) []byte {
	var enc jsonEncoder
	skeleton := enc.skeleton(s)
	n := len(s.Findings)
	sample, per := 0, 0
	var one []byte
	for i := 0; i < n; i += max(1, n/64) {
		one = appendFinding(one[:0], &s.Findings[i], 2, &enc)
		per += len(one)
		sample++
	}
	b := bytes.NewBuffer(make([]byte, 0, 2*len(skeleton)+(per/max(sample, 1)+64)*n*5/4+4096))
	writeJSON(b, s, &enc, skeleton) // a bytes.Buffer takes every write
	return b.Bytes()
}

// WriteJSON writes findings.json to w, a finding at a time: findings.json
// of 96,000 findings is 86 MB, six times the reports it comes from, and
// `synth` streams it to its file rather than hold it. The error is w's.
func WriteJSON(w io.Writer, s *Synthesis) error {
	var enc jsonEncoder
	return writeJSON(w, s, &enc, enc.skeleton(s))
}

// writeJSON writes findings.json to w: skeleton, the rest of s (enc's
// skeleton), indented around its findings, each encoded and indented on
// its own.
func writeJSON(w io.Writer, s *Synthesis, enc *jsonEncoder, skeleton []byte) error {
	var out []byte
	flush := func() error {
		_, err := w.Write(out)
		out = out[:0]
		return err
	}
	at := topLevelValue(skeleton, "findings")
	// The agents and the rest before the findings are tens of MB at 8,000
	// agents: written as they are indented.
	out, err := indentJSONTo(out, skeleton[:at], 0, w)
	if err != nil {
		return err
	}
	switch {
	case s.Findings == nil:
		out = append(out, "null"...)
	case len(s.Findings) == 0:
		out = append(out, "[]"...)
	default:
		out = append(out, '[')
		for i := range s.Findings {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, "\n    "...)
			out = appendFinding(out, &s.Findings[i], 2, enc)
			if len(out) >= 64<<10 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		out = append(out, "\n  ]"...)
	}
	if out, err = indentJSONTo(out, skeleton[at+len("null"):], 1, w); err != nil {
		return err
	}
	out = append(out, '\n')
	return flush()
}

// jsonEncoder encodes values as compact JSON without HTML escaping, into
// one buffer it reuses.
type jsonEncoder struct {
	b   bytes.Buffer
	enc *json.Encoder
}

// skeleton returns s encoded with null in its findings' place, valid after
// later calls: e hands the buffer over and starts a new one (a skeleton's
// buffer, tens of MB at 8,000 agents, is no buffer for one finding).
func (e *jsonEncoder) skeleton(s *Synthesis) []byte {
	rest := *s
	rest.Findings = nil
	b := e.encode(&rest)
	*e = jsonEncoder{}
	return b
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

// topLevelValue returns the index in src, compact JSON of an object, of the
// value of its member key (as encoding/json writes names: no escapes).
func topLevelValue(src []byte, key string) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			j := stringEnd(src, i)
			if depth == 1 && j+1 < len(src) && src[j+1] == ':' && string(src[i+1:j]) == key {
				return j + 2
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	panic("synth: findings.json has no member " + key)
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
