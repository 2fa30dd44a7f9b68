package synth

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
)

// A merged finding is most of findings.json: 310 of its 381 MB at 8,000
// agents × 50 findings. appendFinding writes one as findings.json has it
// — indented, with the active characters of the agents' text escaped —
// directly, where encoding/json wrote it compact (by reflection) and two
// more passes escaped (inert.EscapeJSON) and indented it (indentJSON):
// byte for byte the same, held to that by TestAppendFindingIsEncodingJSON
// on findings whose every field is filled.
//
// The fields of Finding are taken from its type, in order, with their JSON
// names: a field with no writer here (one added later) is written by
// encoding/json as before, so that findings.json never silently lacks one.

// findingField is one member of a finding's JSON object.
type findingField struct {
	name      string // the JSON name, quoted, with its colon and space
	omitEmpty bool
	index     int
	// write appends the value at depth; nil: encoding/json writes it.
	write func(dst []byte, f *Finding, depth int) []byte
	// get is the value of a member behind Finding.more that encoding/json
	// writes; nil: the field index.
	get func(f *Finding) reflect.Value
}

// findingFields are the members of a finding, in order.
var findingFields = func() []findingField {
	writers := map[string]func(dst []byte, f *Finding, depth int) []byte{
		"ID":                 func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, f.ID) },
		"Key":                func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, f.Key) },
		"Fingerprint":        func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, f.Fingerprint) },
		"Severity":           func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, string(f.Severity)) },
		"Section":            func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, f.Section) },
		"Title":              func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, f.Title) },
		"Agents":             func(dst []byte, f *Finding, d int) []byte { return appendStrings(dst, f.Agents, d) },
		"Sources":            func(dst []byte, f *Finding, d int) []byte { return appendSources(dst, f.Sources, d) },
		"Convergence":        func(dst []byte, f *Finding, _ int) []byte { return strconv.AppendInt(dst, int64(f.Convergence), 10) },
		"ConvergenceDisplay": func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, f.ConvergenceDisplay) },
		"Confidence":         func(dst []byte, f *Finding, _ int) []byte { return appendJSONString(dst, f.Confidence) },
		"FileRefs":           func(dst []byte, f *Finding, d int) []byte { return appendStrings(dst, f.FileRefs, d) },
		"Independent":        func(dst []byte, f *Finding, _ int) []byte { return strconv.AppendInt(dst, int64(f.Independent), 10) },
	}
	// The members behind Finding.more, each before the field named: the
	// three lists are [] when the finding has none.
	more := map[string][]findingField{
		"Independent": {
			{name: `"severity_conflict": `, write: func(dst []byte, f *Finding, d int) []byte { return appendSeverities(dst, f.SeverityConflict(), d) }},
			{name: `"co_located_with": `, write: func(dst []byte, f *Finding, d int) []byte {
				return appendCoLocations(dst, nonNil(f.CoLocatedWith()), d)
			}},
			{name: `"cross_references": `, write: func(dst []byte, f *Finding, d int) []byte {
				return appendCrossReferences(dst, nonNil(f.CrossReferences()), d)
			}},
			{name: `"discovered_by": `, write: func(dst []byte, f *Finding, _ int) []byte { return appendStringPtr(dst, f.DiscoveredBy()) }},
		},
	}
	// And those after the last field.
	tail := []findingField{
		{name: `"primed": `, write: func(dst []byte, f *Finding, d int) []byte { return appendPrimings(dst, nonNil(f.Primed()), d) }},
		{name: `"provenance": `, write: func(dst []byte, f *Finding, d int) []byte { return appendProvenances(dst, f.Provenance(), d) }},
		{name: `"evidence": `, get: func(f *Finding) reflect.Value { return reflect.ValueOf(f.Evidence()) }},
		{name: `"baseline": `, omitEmpty: true, get: func(f *Finding) reflect.Value { return reflect.ValueOf(f.Baseline()) }},
		{name: `"suppressed": `, omitEmpty: true, get: func(f *Finding) reflect.Value { return reflect.ValueOf(f.Suppressed()) }},
	}
	t := reflect.TypeFor[Finding]()
	var out []findingField
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" || sf.Anonymous {
			if sf.Anonymous {
				panic("synth: an embedded field in Finding: appendFinding does not flatten it")
			}
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		out = append(out, more[sf.Name]...)
		out = append(out, findingField{name: strconv.Quote(name) + ": ", omitEmpty: opts == "omitempty" ||
			strings.HasPrefix(opts, "omitempty,") || strings.Contains(opts, ",omitempty"), index: i, write: writers[sf.Name]})
	}
	return append(out, tail...)
}()

// appendFinding appends f as findings.json has it at nesting depth depth
// (2: an item of the findings array): what indentJSON makes of
// inert.EscapeJSON of encoding/json's compact encoding, at that depth.
// enc encodes the fields it has no writer for.
func appendFinding(dst []byte, f *Finding, depth int, enc *jsonEncoder) []byte {
	dst = append(dst, '{')
	first := true
	var v reflect.Value // f, for the fields encoding/json writes
	for _, fl := range findingFields {
		if fl.write == nil {
			var fv reflect.Value
			switch {
			case fl.get != nil:
				fv = fl.get(f)
			case !v.IsValid():
				v = reflect.ValueOf(f).Elem()
				fallthrough
			default:
				fv = v.Field(fl.index)
			}
			if fl.omitEmpty && isEmptyJSON(fv) {
				continue
			}
			dst = appendMember(dst, fl.name, depth+1, first)
			first = false
			if fv.Kind() == reflect.Pointer && fv.IsNil() {
				dst = append(dst, "null"...) // evidence not checked: most findings
				continue
			}
			dst = indentJSON(dst, enc.encode(fv.Interface()), depth+1)
			continue
		}
		if fl.omitEmpty && emptyFindingField(f, fl.index) {
			continue
		}
		dst = appendMember(dst, fl.name, depth+1, first)
		first = false
		dst = fl.write(dst, f, depth+1)
	}
	if !first {
		dst = appendNewline(dst, depth)
	}
	return append(dst, '}')
}

// emptyFindingField is isEmptyJSON for a field with a writer of its own.
func emptyFindingField(f *Finding, index int) bool {
	return isEmptyJSON(reflect.ValueOf(f).Elem().Field(index))
}

// isEmptyJSON reports whether v is what encoding/json's omitempty leaves
// out.
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// appendNewline appends a line break and the indentation of depth.
func appendNewline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// appendMember appends the start of an object member at depth: a comma
// unless it is the first, the line break, the quoted name with ": ".
func appendMember(dst []byte, quoted string, depth int, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	return append(appendNewline(dst, depth), quoted...)
}

// appendArray appends the JSON array of n items, item appending the i-th
// at depth+1: null for a nil slice (isNil), [] for none.
func appendArray(dst []byte, isNil bool, n, depth int, item func(dst []byte, i, depth int) []byte) []byte {
	switch {
	case isNil:
		return append(dst, "null"...)
	case n == 0:
		return append(dst, "[]"...)
	}
	dst = append(dst, '[')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = item(appendNewline(dst, depth+1), i, depth+1)
	}
	return append(appendNewline(dst, depth), ']')
}

func appendStrings(dst []byte, l []string, depth int) []byte {
	return appendArray(dst, l == nil, len(l), depth, func(dst []byte, i, _ int) []byte { return appendJSONString(dst, l[i]) })
}

func appendStringPtr(dst []byte, p *string) []byte {
	if p == nil {
		return append(dst, "null"...)
	}
	return appendJSONString(dst, *p)
}

// object appends a JSON object member by member at depth: o.member starts
// each one (its name quoted as in the struct's tag).
type object struct {
	dst   []byte
	depth int
	first bool
}

func startObject(dst []byte, depth int) object {
	return object{dst: append(dst, '{'), depth: depth, first: true}
}

func (o *object) member(quoted string) {
	o.dst = appendMember(o.dst, quoted, o.depth+1, o.first)
	o.first = false
}

func (o *object) str(quoted, s string) {
	o.member(quoted)
	o.dst = appendJSONString(o.dst, s)
}

func (o *object) end() []byte {
	if o.first {
		return append(o.dst, '}')
	}
	return append(appendNewline(o.dst, o.depth), '}')
}

func appendSources(dst []byte, l []Source, depth int) []byte {
	return appendArray(dst, l == nil, len(l), depth, func(dst []byte, i, depth int) []byte {
		s := &l[i]
		o := startObject(dst, depth)
		o.str(`"agent": `, s.Agent)
		o.str(`"id": `, s.ID)
		o.str(`"severity": `, string(s.Severity))
		o.str(`"ref": `, s.Ref)
		o.str(`"confidence": `, s.Confidence)
		o.str(`"section": `, s.Section)
		o.str(`"title": `, s.Title)
		o.member(`"file_refs": `)
		o.dst = appendStrings(o.dst, s.FileRefs, depth+1)
		return o.end()
	})
}

func appendSeverities(dst []byte, m map[string]parse.Severity, depth int) []byte {
	if m == nil {
		return append(dst, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // as encoding/json orders a map's keys
	o := startObject(dst, depth)
	for _, k := range keys {
		o.member("")
		o.dst = append(appendJSONString(o.dst, k), ':', ' ')
		o.dst = appendJSONString(o.dst, string(m[k]))
	}
	return o.end()
}

func appendCoLocations(dst []byte, l []CoLocation, depth int) []byte {
	return appendArray(dst, l == nil, len(l), depth, func(dst []byte, i, depth int) []byte {
		o := startObject(dst, depth)
		o.str(`"key": `, l[i].Key)
		o.str(`"id": `, l[i].ID)
		o.str(`"ref": `, l[i].Ref)
		return o.end()
	})
}

func appendCrossReferences(dst []byte, l []CrossReference, depth int) []byte {
	return appendArray(dst, l == nil, len(l), depth, func(dst []byte, i, depth int) []byte {
		o := startObject(dst, depth)
		o.str(`"ref": `, l[i].Ref)
		o.member(`"agents": `)
		o.dst = appendStrings(o.dst, l[i].Agents, depth+1)
		return o.end()
	})
}

func appendPrimings(dst []byte, l []Priming, depth int) []byte {
	return appendArray(dst, l == nil, len(l), depth, func(dst []byte, i, depth int) []byte {
		o := startObject(dst, depth)
		o.str(`"agent": `, l[i].Agent)
		o.str(`"by": `, l[i].By)
		o.member(`"seq": `)
		o.dst = strconv.AppendInt(o.dst, int64(l[i].Seq), 10)
		return o.end()
	})
}

func appendProvenances(dst []byte, l []*AgentProvenance, depth int) []byte {
	return appendArray(dst, l == nil, len(l), depth, func(dst []byte, i, depth int) []byte {
		p := l[i]
		if p == nil {
			return append(dst, "null"...)
		}
		o := startObject(dst, depth)
		o.str(`"agent": `, p.Agent)
		for _, x := range []struct {
			name string
			v    *string
		}{{`"model": `, p.Model}, {`"prompt_hash": `, p.PromptHash}, {`"tool_version": `, p.ToolVersion},
			{`"commit": `, p.Commit}, {`"repository": `, p.Repository}, {`"started": `, p.Started},
			{`"finished": `, p.Finished}, {`"run_id": `, p.RunID}} {
			o.member(x.name)
			o.dst = appendStringPtr(o.dst, x.v)
		}
		return o.end()
	})
}

// appendJSONString appends s as a JSON string as findings.json writes it:
// as encoding/json does without HTML escaping, and then inert.EscapeJSON
// (DEL, the C1 controls and the bidirectional controls as \u escapes).
func appendJSONString(dst []byte, s string) []byte { return inert.AppendJSONString(dst, s, true) }
