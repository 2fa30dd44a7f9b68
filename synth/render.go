package synth

import (
	"bytes"
	"encoding/json"
)

// RenderJSON returns findings.json: s as indented JSON with a final newline
// (what a json.Encoder with SetIndent("", "  ") and no HTML escaping
// writes).
func RenderJSON(s *Synthesis) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// Every field of a Synthesis is a plain value: encoding cannot fail.
		panic("synth: encode findings.json: " + err.Error())
	}
	compact := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	// Indenting makes findings.json about 1.5 times its compact size (1.52
	// on a 1,000-agent run, just over a 3/2 estimate, which then cost a copy
	// of the whole rendering into a buffer twice as large). Room for twice
	// the size costs little: pages of it that are never written are never
	// touched, so they add nothing to the resident set.
	out := indentJSON(make([]byte, 0, 2*len(compact)+1), compact)
	return append(out, '\n')
}

// indentJSON appends src, compact JSON as encoding/json writes it, indented
// by two spaces exactly as json.Indent(dst, src, "", "  ") would, at a
// fraction of its cost (the live watcher renders findings.json after every
// bus append).
func indentJSON(dst, src []byte) []byte {
	depth := 0
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
			// Copy the string through its closing quote: the first quote
			// that an even run of backslashes (often none) precedes.
			j := i + 1
			for {
				k := bytes.IndexByte(src[j:], '"')
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				n := 0
				for n < j-i-1 && src[j-1-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
				j++
			}
			end := min(j+1, len(src))
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
