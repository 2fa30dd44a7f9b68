package parse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxYAMLSize is the largest input the YAML readers (ReadSpecialist,
// ReadDesignManifest, ReadFeatureManifest) decode: 1 MiB. A larger input is
// refused before any decoding, so that the node tree (about 100 bytes of memory
// per node in the worst case) stays far below 200 MB.
const MaxYAMLSize = 1 << 20

// MaxAliasNodes is the most nodes that alias expansion may add to a YAML
// document. The readers count the expanded size of every alias themselves,
// before reading any value, so a "billion laughs" document is refused in time
// proportional to its length and without expanding anything.
const MaxAliasNodes = 10_000

// ErrMalformedYAML is wrapped by the error the YAML readers return when the
// input cannot be used as it stands: too large, not YAML, an alias bomb, more
// than one document, or a value of the wrong type. The diagnostics say where.
var ErrMalformedYAML = errors.New("malformed YAML")

// maxYAMLDiags is the most diagnostics one YAML read reports; the rest are
// counted in a last one.
const maxYAMLDiags = 100

// yamlDoc is the state of one YAML read: the diagnostics so far.
type yamlDoc struct {
	diags    []Diagnostic
	firstErr *Diagnostic // the first error, even when not kept in diags
	dropped  int
	lines    int // lines of the input: positions past the end are clamped to the last
}

func (d *yamlDoc) add(n *yaml.Node, level Level, format string, a ...any) {
	diag := Diagnostic{Level: level}
	if n != nil {
		diag.Line, diag.Col = n.Line, n.Column
	}
	d.push(diag, format, a...)
}

// push records diag with its message made from format and a; past
// maxYAMLDiags it only counts it (and keeps the first error).
func (d *yamlDoc) push(diag Diagnostic, format string, a ...any) {
	if len(d.diags) >= maxYAMLDiags && (diag.Level != LevelError || d.firstErr != nil) {
		d.dropped++
		return
	}
	if d.lines > 0 && diag.Line > d.lines {
		// yaml.v3 places an empty value at the end of input on the line
		// after the last.
		diag.Line, diag.Col = d.lines, 0
	}
	diag.Message = fmt.Sprintf(format, a...)
	d.diags = append(d.diags, diag)
	if diag.Level == LevelError && d.firstErr == nil {
		d.firstErr = &diag
	}
}

func (d *yamlDoc) errorf(n *yaml.Node, format string, a ...any) {
	d.add(n, LevelError, format, a...)
}

func (d *yamlDoc) warnf(n *yaml.Node, format string, a ...any) {
	d.add(n, LevelWarning, format, a...)
}

// result returns the diagnostics and, when any of them is an error, an error
// wrapping ErrMalformedYAML that names the first one.
func (d *yamlDoc) result() ([]Diagnostic, error) {
	slices.SortStableFunc(d.diags, func(a, b Diagnostic) int { return a.Line - b.Line })
	if d.dropped > 0 {
		d.diags = append(d.diags, Diagnostic{Level: LevelInfo,
			Message: fmt.Sprintf("%d more diagnostics not shown", d.dropped)})
	}
	if d.firstErr != nil {
		return d.diags, fmt.Errorf("%w: %s", ErrMalformedYAML, d.firstErr.String())
	}
	return d.diags, nil
}

var yamlErrLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// decode parses data as one YAML document and checks its aliases. It returns
// the document's root node, or nil for an empty document or when decoding
// failed (an error diagnostic says why).
func (d *yamlDoc) decode(data []byte) (root *yaml.Node) {
	if len(data) > MaxYAMLSize {
		d.errorf(nil, "input is %d bytes, over the %d-byte limit for YAML files", len(data), MaxYAMLSize)
		return nil
	}
	d.lines = countLines(data)
	defer func() {
		// yaml.v3 reports errors by panicking internally and recovers them
		// itself; this is a last line of defence against one it does not.
		if r := recover(); r != nil {
			d.errorf(nil, "YAML decoder failed: %v", r)
			root = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil // empty document
		}
		d.syntaxError(err)
		return nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == io.EOF:
	case err != nil:
		d.syntaxError(err)
		return nil
	default:
		d.errorf(&extra, "more than one YAML document (a second starts here)")
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil
	}
	root = doc.Content[0]
	if !d.checkAliases(root) {
		return nil
	}
	return root
}

// countLines counts lines as YAML does: \n, \r\n, a lone \r, NEL, LS and
// PS each end one.
func countLines(data []byte) int {
	n := 1
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\n':
			n++
		case c == '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			n++
		case c == 0xC2 && i+1 < len(data) && data[i+1] == 0x85:
			n++
		case c == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9):
			n++
		}
	}
	return n
}

func (d *yamlDoc) syntaxError(err error) {
	msg := err.Error()
	if m := yamlErrLineRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		d.push(Diagnostic{Line: line, Level: LevelError}, "YAML syntax: %s", m[2])
		return
	}
	d.errorf(nil, "YAML syntax: %s", strings.TrimPrefix(msg, "yaml: "))
}

// checkAliases computes the expanded size of the tree at root (every alias
// counted as a copy of its anchor) in one post-order pass over the parsed
// nodes, without following any alias twice: an anchor always precedes its
// aliases, so its size is known when an alias is met, unless the alias sits
// inside its own anchor (a cycle). It refuses cycles and documents whose
// aliases would add more than MaxAliasNodes nodes.
func (d *yamlDoc) checkAliases(root *yaml.Node) bool {
	const saturate = int64(1) << 40
	size := map[*yaml.Node]int64{}
	open := map[*yaml.Node]bool{}
	var parsed int64
	var visit func(n *yaml.Node, depth int) (int64, bool)
	visit = func(n *yaml.Node, depth int) (int64, bool) {
		if n == nil {
			return 0, true
		}
		parsed++
		if n.Kind == yaml.AliasNode {
			switch {
			case n.Alias == nil:
				d.errorf(n, "alias *%s has no anchor", n.Value)
				return 0, false
			case open[n.Alias]:
				d.errorf(n, "alias *%s refers to a node that contains it", n.Value)
				return 0, false
			}
			s, ok := size[n.Alias]
			if !ok {
				// An anchor that was not visited: cannot happen for a tree
				// produced by the parser, which defines anchors before use.
				d.errorf(n, "alias *%s refers to an anchor outside the document", n.Value)
				return 0, false
			}
			return s, true
		}
		open[n] = true
		total := int64(1)
		for _, c := range n.Content {
			s, ok := visit(c, depth+1)
			if !ok {
				return 0, false
			}
			total = min(total+s, saturate)
		}
		delete(open, n)
		if n.Anchor != "" {
			size[n] = total
		}
		return total, true
	}
	expanded, ok := visit(root, 0)
	if !ok {
		return false
	}
	if added := expanded - parsed; added > MaxAliasNodes {
		if expanded >= saturate {
			d.errorf(root, "aliases expand the document beyond %d nodes (alias bomb?): refused", saturate)
		} else {
			d.errorf(root, "aliases expand the document by %d nodes, over the limit of %d (alias bomb?): refused", added, MaxAliasNodes)
		}
		return false
	}
	return true
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// kindName names the kind of value n holds, for messages.
func kindName(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean"
		case "!!int":
			return "an integer"
		case "!!float":
			return "a number"
		case "!!str":
			return "a string"
		case "!!timestamp":
			return "a timestamp"
		case "!!binary":
			return "binary data"
		}
		return "a " + n.Tag + " value"
	}
	return "an unknown value"
}

// yamlField is one key of a mapping, with its value (aliases resolved).
type yamlField struct {
	key      string
	keyNode  *yaml.Node
	value    *yaml.Node
	rawValue *yaml.Node // the value before alias resolution, for positions
}

// fields lists the keys of the mapping n in document order, merge keys ("<<")
// applied: explicit keys win over merged ones, earlier merge sources over
// later ones. A key given twice is an error; a non-scalar key is an error.
// what names the mapping in messages. n must not be nil.
func (d *yamlDoc) fields(n *yaml.Node, what string) []yamlField {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "%s: want a mapping, got %s", what, kindName(n))
		return nil
	}
	var out []yamlField
	seen := map[string]*yaml.Node{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errorf(k, "%s: a key must be a plain string, got %s", what, kindName(k))
			continue
		}
		if k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if first, dup := seen[k.Value]; dup {
			d.errorf(k, "%s: key %q repeated (first at line %d)", what, k.Value, first.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, yamlField{key: k.Value, keyNode: k, value: deref(v), rawValue: v})
	}
	for _, m := range merges {
		var sources []*yaml.Node
		switch mv := deref(m); mv.Kind {
		case yaml.MappingNode:
			sources = []*yaml.Node{mv}
		case yaml.SequenceNode:
			for _, s := range mv.Content {
				sources = append(sources, deref(s))
			}
		default:
			d.errorf(m, "%s: merge key <<: want a mapping or a list of mappings, got %s", what, kindName(mv))
			continue
		}
		for _, s := range sources {
			if s.Kind != yaml.MappingNode {
				d.errorf(s, "%s: merge key <<: want a mapping, got %s", what, kindName(s))
				continue
			}
			// Nested merges in the source apply too.
			for _, f := range d.fields(s, what) {
				if _, dup := seen[f.key]; dup {
					continue
				}
				seen[f.key] = f.keyNode
				out = append(out, f)
			}
		}
	}
	return out
}

// str reads a text value. Null is "". Any scalar is read as the text it was
// written as (`description: 2024` is "2024"); a mapping, a list or binary
// data is an error.
func (d *yamlDoc) str(f yamlField) string {
	v := f.value
	switch {
	case isNull(v):
		return ""
	case v.Kind != yaml.ScalarNode || v.Tag == "!!binary":
		d.errorf(f.rawValue, "%s: want a string, got %s", f.key, kindName(v))
		return ""
	}
	return v.Value
}

// items returns the items of the list f holds: none for null, none with an
// error for anything but a list.
func (d *yamlDoc) items(f yamlField) []*yaml.Node {
	switch v := f.value; {
	case isNull(v):
		return nil
	case v.Kind != yaml.SequenceNode:
		d.errorf(f.rawValue, "%s: want a list, got %s", f.key, kindName(v))
		return nil
	}
	return f.value.Content
}

// strList reads a list of strings. Null is an empty list; a single string is
// read as a list of one, with a warning.
func (d *yamlDoc) strList(f yamlField) []string {
	v := f.value
	switch {
	case isNull(v):
		return nil
	case v.Kind == yaml.ScalarNode && v.Tag != "!!binary":
		d.warnf(f.rawValue, "%s: want a list, got %s; read as a list of one", f.key, kindName(v))
		return []string{v.Value}
	case v.Kind != yaml.SequenceNode:
		d.errorf(f.rawValue, "%s: want a list of strings, got %s", f.key, kindName(v))
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		s := deref(item)
		if s.Kind != yaml.ScalarNode || s.Tag == "!!null" || s.Tag == "!!binary" {
			d.errorf(item, "%s: want a list of strings, got an item that is %s", f.key, kindName(s))
			continue
		}
		out = append(out, s.Value)
	}
	return out
}

// integer reads an integer value; ok is false (with an error) otherwise.
func (d *yamlDoc) integer(f yamlField) (n int, ok bool) {
	v := f.value
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		d.errorf(f.rawValue, "%s: want an integer, got %s", f.key, kindName(v))
		return 0, false
	}
	if err := v.Decode(&n); err != nil {
		d.errorf(f.rawValue, "%s: %q is not an integer in range", f.key, v.Value)
		return 0, false
	}
	return n, true
}

// boolean reads a true/false value; null is false.
func (d *yamlDoc) boolean(f yamlField) bool {
	v := f.value
	if isNull(v) {
		return false
	}
	var b bool
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
		d.errorf(f.rawValue, "%s: want true or false, got %s", f.key, kindName(v))
		return false
	}
	return b
}

// copyNode returns a deep copy of n with aliases expanded and anchors,
// comments and positions dropped: a tree that can be encoded on its own. The
// document's aliases were bounded by checkAliases.
func copyNode(n *yaml.Node) *yaml.Node {
	n = deref(n)
	if n == nil {
		return nil
	}
	c := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, child := range n.Content {
			c.Content[i] = copyNode(child)
		}
	}
	return c
}
