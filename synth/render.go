package synth

import (
	"bytes"
	"encoding/json"
)

// RenderJSON returns findings.json: s as indented JSON with a final newline
// (what a json.Encoder with SetIndent("", "  ") and no HTML escaping
// writes).
//
// It holds one full copy, the indented one. Findings are most of the file
// (96,000 of them made 140 MB of compact and indented JSON held at once):
// the rest of s is encoded and indented around a null in their place, and
// each finding is encoded and indented on its own into the output.
func RenderJSON(s *Synthesis) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	encode := func(v any) []byte {
		b.Reset()
		if err := enc.Encode(v); err != nil {
			// Every field of a Synthesis is a plain value: encoding cannot fail.
			panic("synth: encode findings.json: " + err.Error())
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	if len(s.Findings) == 0 {
		compact := encode(s)
		out := indentJSON(make([]byte, 0, 2*len(compact)+1), compact, 0)
		return append(out, '\n')
	}
	rest := *s
	rest.Findings = nil
	skeleton := bytes.Clone(encode(&rest))
	at := topLevelValue(skeleton, "findings")
	// Room for the skeleton and the findings as a sample of them measures,
	// with a margin: pages of it that are never written are never touched,
	// so they add nothing to the resident set.
	n := len(s.Findings)
	sample, per := 0, 0
	for i := 0; i < n; i += max(1, n/64) {
		per += len(encode(&s.Findings[i]))
		sample++
	}
	out := make([]byte, 0, 2*len(skeleton)+2*(per/sample+64)*n)

	out = indentJSON(out, skeleton[:at], 0)
	out = append(out, '[')
	for i := range s.Findings {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, "\n    "...)
		out = indentJSON(out, encode(&s.Findings[i]), 2)
	}
	out = append(out, "\n  ]"...)
	out = indentJSON(out, skeleton[at+len("null"):], 1)
	return append(out, '\n')
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
	}
	return dst
}
