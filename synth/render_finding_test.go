package synth

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
)

// referenceType is Finding as findings.json has it: its exported fields,
// with the members behind Finding.more as fields where findings.json has
// them. A field added to Finding is in it.
var referenceType = func() reflect.Type {
	more := map[string][]reflect.StructField{
		"Independent": {
			{Name: "SeverityConflict", Type: reflect.TypeFor[map[string]parse.Severity](), Tag: `json:"severity_conflict"`},
			{Name: "CoLocatedWith", Type: reflect.TypeFor[[]CoLocation](), Tag: `json:"co_located_with"`},
			{Name: "CrossReferences", Type: reflect.TypeFor[[]CrossReference](), Tag: `json:"cross_references"`},
			{Name: "DiscoveredBy", Type: reflect.TypeFor[*string](), Tag: `json:"discovered_by"`},
		},
	}
	tail := []reflect.StructField{
		{Name: "Primed", Type: reflect.TypeFor[[]Priming](), Tag: `json:"primed"`},
		{Name: "Provenance", Type: reflect.TypeFor[[]*AgentProvenance](), Tag: `json:"provenance"`},
		{Name: "Evidence", Type: reflect.TypeFor[*FindingEvidence](), Tag: `json:"evidence"`},
		{Name: "Baseline", Type: reflect.TypeFor[*FindingBaseline](), Tag: `json:"baseline,omitempty"`},
		{Name: "Suppressed", Type: reflect.TypeFor[*Suppressed](), Tag: `json:"suppressed,omitempty"`},
	}
	t := reflect.TypeFor[Finding]()
	var fields []reflect.StructField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		fields = append(fields, more[sf.Name]...)
		sf.Index, sf.Offset = nil, 0
		fields = append(fields, sf)
	}
	return reflect.StructOf(append(fields, tail...))
}()

// findingJSONReference is a finding as findings.json had it before
// appendFinding: encoding/json's compact encoding (of f as referenceType),
// its active characters escaped, indented at depth.
func findingJSONReference(f *Finding, depth int) []byte {
	v := reflect.New(referenceType).Elem()
	fv := reflect.ValueOf(f).Elem()
	for i := range referenceType.NumField() {
		if src := fv.FieldByName(referenceType.Field(i).Name); src.IsValid() {
			v.Field(i).Set(src)
		}
	}
	v.FieldByName("SeverityConflict").Set(reflect.ValueOf(f.SeverityConflict()))
	v.FieldByName("CoLocatedWith").Set(reflect.ValueOf(nonNil(f.CoLocatedWith())))
	v.FieldByName("CrossReferences").Set(reflect.ValueOf(nonNil(f.CrossReferences())))
	v.FieldByName("DiscoveredBy").Set(reflect.ValueOf(f.DiscoveredBy()))
	v.FieldByName("Primed").Set(reflect.ValueOf(nonNil(f.Primed())))
	v.FieldByName("Provenance").Set(reflect.ValueOf(f.Provenance()))
	v.FieldByName("Evidence").Set(reflect.ValueOf(f.Evidence()))
	v.FieldByName("Baseline").Set(reflect.ValueOf(f.Baseline()))
	v.FieldByName("Suppressed").Set(reflect.ValueOf(f.Suppressed()))
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v.Interface()); err != nil {
		panic(err)
	}
	return indentJSON(nil, inert.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), depth)
}

// fillMore gives f, three times in four, what few findings have, filled
// as fill fills a field.
func fillMore(r *rand.Rand, f *Finding) {
	if r.IntN(4) == 0 {
		return
	}
	var m struct {
		SeverityConflict map[string]parse.Severity
		CoLocatedWith    []CoLocation
		CrossReferences  []CrossReference
		DiscoveredBy     *string
		Primed           []Priming
		Provenance       []*AgentProvenance
		Evidence         *FindingEvidence
		Baseline         *FindingBaseline
		Suppressed       *Suppressed
	}
	fill(r, reflect.ValueOf(&m).Elem(), 0)
	f.more = &findingMore{m.SeverityConflict, m.CoLocatedWith, m.CrossReferences, m.DiscoveredBy, m.Primed,
		m.Provenance, m.Evidence, m.Baseline, m.Suppressed}
}

// awkwardStrings are strings every escape of findings.json meets.
var awkwardStrings = []string{"", "plain", `"quoted"`, `back\slash`, "<a href='x'>&amp;</a>", "tab\there\nline\r\b\f",
	"\x00\x1b[2J\x7f", "\u0085\u009b csi", "\u202e rtl \u2066\u2069 \u061c\u200e\u200f", "\u2028\u2029 js", "ünïcode — ✓ 😀",
	"bad \xff\xfe utf8 \xc2", "\ufffd", `{"findings":null}`, "key:with:colons", "  spaced  "}

// fill sets every exported field of v, recursively, from r: strings from
// awkwardStrings, pointers and slices sometimes nil, sometimes empty.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(awkwardStrings[r.IntN(len(awkwardStrings))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.IntN(2000)) - 1000)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(r.IntN(2000)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(r.IntN(2000)) / 7)
	case reflect.Pointer:
		if depth > 4 || r.IntN(4) == 0 {
			return // nil
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch n := r.IntN(5); {
		case depth > 4 || n == 0:
			return // nil
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fill(r, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		if depth > 4 || r.IntN(3) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(4) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(r, k, depth+1)
			fill(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	case reflect.Interface:
		if r.IntN(2) == 0 {
			v.Set(reflect.ValueOf(awkwardStrings[r.IntN(len(awkwardStrings))]))
		}
	}
}

// TestAppendFindingIsEncodingJSON: appendFinding writes what encoding/json,
// the active-character escape and the indentation wrote, byte for byte, for
// findings whose every field — a field added to Finding or to the types it
// holds included — is filled with awkward values, nil and empty ones among
// them.
func TestAppendFindingIsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 8000))
	var enc jsonEncoder
	for i := range 3000 {
		var f Finding
		fill(r, reflect.ValueOf(&f).Elem(), 0)
		fillMore(r, &f)
		depth := i % 4
		want := findingJSONReference(&f, depth)
		if got := appendFinding(nil, &f, depth, &enc); !bytes.Equal(got, want) {
			t.Fatalf("finding %d at depth %d:\n%s\nwant\n%s", i, depth, got, want)
		}
	}
	var empty Finding
	if got, want := appendFinding(nil, &empty, 2, &enc), findingJSONReference(&empty, 2); !bytes.Equal(got, want) {
		t.Fatalf("the zero finding:\n%s\nwant\n%s", got, want)
	}
}

// TestFindingJSONRoundTrip: a finding decoded from its findings.json
// encoding, the members behind Finding.more included, encodes the same.
func TestFindingJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 10))
	for i := range 2000 {
		var f Finding
		fill(r, reflect.ValueOf(&f).Elem(), 0)
		fillMore(r, &f)
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var g Finding
		if err := json.Unmarshal(want, &g); err != nil {
			t.Fatalf("finding %d: %v", i, err)
		}
		// As JSON values: a string that is not UTF-8 is decoded to U+FFFD.
		got := must(json.Marshal(g))
		var a, b any
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("finding %d: decoded and encoded again:\n%s\nwant\n%s", i, got, want)
		}
	}
}

// FuzzAppendJSONString: a string is written as encoding/json and
// inert.EscapeJSON write it together.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range awkwardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		want := inert.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	})
}
