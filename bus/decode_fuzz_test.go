package bus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
)

// busSeeds returns the inputs of the golden cases, whole and line by line.
func busSeeds(t testing.TB) (files, lines [][]byte) {
	files = txtartest.Files(t, "testdata/decode/*.txtar", txtartest.Named("bus.jsonl"))
	for _, f := range files {
		lines = append(lines, bytes.Split(f, []byte("\n"))...)
	}
	return files, lines
}

// FuzzDecodeAll: no panic; every position inside the input and at a line start;
// the same result whatever the pieces the input is fed in; memory held for an
// incomplete line bounded by maxLine; an entry written back in canonical form
// reads back the same.
func FuzzDecodeAll(f *testing.F) {
	files, _ := busSeeds(f)
	for i, data := range files {
		f.Add(data, uint16(i*37), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxLine16 uint16, chunk uint8) {
		maxLine := int(maxLine16%512) + 1
		es, ds, err := DecodeAll(bytes.NewReader(data), maxLine)
		if err != nil {
			t.Fatal(err)
		}
		newlines := bytes.Count(data, []byte("\n"))
		for _, e := range es {
			if e.Offset < 0 || e.Offset >= int64(len(data)) || (e.Offset > 0 && data[e.Offset-1] != '\n') {
				t.Fatalf("entry at offset %d: not a line start of %d bytes", e.Offset, len(data))
			}
			if e.Line < 1 || e.Line > newlines {
				t.Fatalf("entry at line %d of %d complete lines", e.Line, newlines)
			}
			end := bytes.IndexByte(data[e.Offset:], '\n')
			if end < 0 || end > maxLine {
				t.Fatalf("entry from line %d: no newline, or %d bytes over the limit %d", e.Line, end, maxLine)
			}
		}
		for _, d := range ds {
			if d.Line < 1 || d.Line > newlines+1 {
				t.Fatalf("diagnostic at line %d of %d", d.Line, newlines)
			}
		}

		// Fed in pieces, with the held bytes bounded.
		d := NewDecoder(maxLine)
		var pieces []Entry
		var pdiags int
		step := int(chunk%64) + 1
		for p := data; len(p) > 0; {
			n := min(step, len(p))
			d.Feed(p[:n], func(e Entry) { pieces = append(pieces, e) }, func(parse.Diagnostic) { pdiags++ })
			p = p[n:]
			if cap(d.held) > 2*maxLine+512 {
				t.Fatalf("decoder holds %d bytes with maxLine %d", cap(d.held), maxLine)
			}
		}
		if !reflect.DeepEqual(pieces, es) && !(len(pieces) == 0 && len(es) == 0) {
			t.Fatalf("fed in pieces of %d: %+v\nwhole: %+v", step, pieces, es)
		}
		if held := d.Held(); pdiags+boolInt(held > 0) != len(ds) {
			t.Fatalf("fed in pieces: %d diagnostics (held %d), whole: %d", pdiags, held, len(ds))
		}

		// Canonical form reads back the same.
		for _, e := range es {
			line, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			back, _, _ := DecodeAll(bytes.NewReader(append(line, '\n')), len(line)+1)
			if len(back) != 1 {
				t.Fatalf("%s read back as %d entries", line, len(back))
			}
			b := back[0]
			b.Line, b.Offset, b.Title, e.Line, e.Offset, e.Title = 0, 0, "", 0, 0, ""
			if !reflect.DeepEqual(b, e) {
				t.Fatalf("%s read back as %+v, want %+v", line, b, e)
			}
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzBusFastPath holds the hand-written decoder to encoding/json: whenever
// the fast path accepts a line, encoding/json accepts it and decodes the same.
func FuzzBusFastPath(f *testing.F) {
	_, lines := busSeeds(f)
	for _, l := range lines {
		f.Add(l)
	}
	f.Add([]byte(`{"file_refs":[],"agent":null,"summary":"x","summary":"y"}`))
	f.Add([]byte(`{"file_refs":["a"],"file_refs":null}`))
	f.Add([]byte("{\"agent\":\"\x10\",\"agent\":\"fd-a\"}"))
	f.Add([]byte("{\"file_refs\":[\"\x10\"],\"file_refs\":[]}"))
	many := `{"summary":"s","file_refs":["r0"`
	for i := 1; i < 40; i++ {
		many += fmt.Sprintf(`,"r%d"`, i)
	}
	f.Add([]byte(many + `],"note":"n"}`))
	for _, esc := range []string{`\ud83d\ude00`, `\ud83d`, `\ud83d\u0041`, `\udc00\ud83d`, `\u00e9\/\b\f\n\r\t\"\\`, "\xff\xfe ok", "caf\xc3", `\u00`, `\x`} {
		f.Add([]byte(`{"severity":"notable","agent":"fd-a","summary":"` + esc + `","file_refs":["` + esc + `"],"sum\u006dary":"k"}`))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		d := NewDecoder(0)
		var fast, slow busLine
		if !d.decodeFast(line, &fast) {
			return
		}
		if dg, ok := decodeSlow(line, &slow); !ok {
			t.Fatalf("fast path accepted %q; encoding/json: %s", line, dg.Message)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\nfast %+v\nslow %+v", line, fast, slow)
		}
	})
}

// FuzzBusOnly holds the shortcut of Decoder.Only to the full decoder:
// a line canonicalSeverity names a severity is, if it decodes at all, a
// finding of exactly that severity; and a decoder told Only(s) returns
// exactly the findings of severity s that a plain decoder returns.
func FuzzBusOnly(f *testing.F) {
	_, lines := busSeeds(f)
	for _, l := range lines {
		f.Add(l)
	}
	for _, l := range []string{
		`{"severity":"notable","agent":"fd-a","category":"c","summary":"s","file_refs":["a.go:1","b"],"timestamp":"t","id":"X","priority":"P0"}`,
		`{"severity":"notable","agent":"fd-a","summary":"s\","file_refs":[],"type":"blocking"}`,
		`{"severity":"notable","agent":"fd-a","summary":"s\","file_refs":[]}`,
		`{"severity":"notable","agent":"fd-a","summary":"s","file_refs":[],"severity":"BLOCKING"}`,
		`{"severity":"notable","agent":"fd-a","summary":"s","file_refs":[],"Type":"blocking"}`,
		`{"severity":"blocking","agent":"fd-a","summary":"\u0000","file_refs":[]}`,
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return
		}
		all, _, _ := DecodeAll(bytes.NewReader(append(line, '\n')), 0)
		if sev := canonicalSeverity(line); sev != "" {
			for _, e := range all {
				if e.Kind != EntryFinding || e.Severity != sev {
					t.Fatalf("%q: canonical %s, decodes to %+v", line, sev, e)
				}
			}
		}
		for _, want := range []string{Blocking, Notable} {
			d := NewDecoder(0)
			d.Only(want)
			var got []Entry
			d.Feed(append(line, '\n'), func(e Entry) {
				if e.Kind == EntryFinding && e.Severity == want {
					got = append(got, e)
				}
			}, nil)
			var exp []Entry
			for _, e := range all {
				if e.Kind == EntryFinding && e.Severity == want {
					exp = append(exp, e)
				}
			}
			if !reflect.DeepEqual(got, exp) {
				t.Fatalf("%q: Only(%s) gives %+v, want %+v", line, want, got, exp)
			}
		}
	})
}

// decodeFast is the whole fast path: scan, then fill.
func (d *Decoder) decodeFast(b []byte, raw *busLine) bool {
	return scan(b, &d.view) && d.fill(&d.view, raw)
}

// benchBus makes a bus of n canonical lines of realistic sizes.
func benchBus(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	agents := []string{"fd-safety", "fd-correctness", "fd-performance", "fd-architecture", "fd-quality", "fd-user-product"}
	words := strings.Fields("the session token is stored in local storage and read on every request without a lock so two writers race on the same file")
	var b bytes.Buffer
	for i := range n {
		var s strings.Builder
		for range 10 + r.IntN(40) {
			s.WriteString(words[r.IntN(len(words))])
			s.WriteByte(' ')
		}
		sev := Notable
		if r.IntN(5) == 0 {
			sev = Blocking
		}
		refs := make([]string, r.IntN(3))
		for j := range refs {
			refs[j] = fmt.Sprintf("internal/pkg%d/file%d.go:%d", r.IntN(20), r.IntN(50), r.IntN(900)+1)
		}
		line, _ := json.Marshal(Entry{Severity: sev, Agent: agents[i%len(agents)], Category: "concurrency",
			Summary: strings.TrimSpace(s.String()), FileRefs: refs,
			Timestamp: fmt.Sprintf("2026-11-20T10:%02d:%02dZ", i/60%60, i%60)})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// BenchmarkBusDecode measures decoding throughput (MB/s) of canonical lines:
// fast is the hand-written fast path, encoding-json the same decoder with it
// turned off, only-blocking the fast path told to keep only blocking entries
// (a fifth of the lines), as finding read --severity blocking does.
func BenchmarkBusDecode(b *testing.B) {
	data := benchBus(20000)
	for _, c := range []struct {
		name       string
		slow       bool
		only       string
		minEntries int
	}{
		{"fast", false, "", 20000},
		{"encoding-json", true, "", 20000},
		{"only-blocking", false, Blocking, 3000},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d := NewDecoder(0)
				d.slow = c.slow
				d.Only(c.only)
				n := 0
				if err := d.Decode(bytes.NewReader(data), func(Entry) { n++ }, nil); err != nil || n < c.minEntries {
					b.Fatalf("decoded %d entries: %v", n, err)
				}
			}
		})
	}
}

// TestBusFastPathCovers: the lines fluxwatch itself writes, and the other
// common shapes, take the hand-written path (the benchmark's speed depends on
// it); the odd ones are left to encoding/json.
func TestBusFastPathCovers(t *testing.T) {
	tests := []struct {
		line string
		fast bool
	}{
		{`{"severity":"blocking","agent":"fd-a","category":"auth","summary":"tokens","file_refs":["a.go:1"],"timestamp":"2026-11-20T10:00:00Z"}`, true},
		{`{"severity":"notable","agent":"fd-a","summary":"quote \" back \\ nl \n é — \u00e9 😀","file_refs":[]}`, true},
		{`{"agent":"fd-x","severity":"P0","id":"SCM-01","type":"blocking","title":"t","note":"n","extra":"ignored"}`, true},
		{`{"ts":"2026-11-20T10:03:00+02:00","agent":"fd-q","kind":"stall","severity":"warn","message":"m"}`, true},
		{` { "severity" : "notable" , "from" : "fd-a" , "summary" : null } `, true},
		{`{}`, true},
		{`{"Severity":"notable"}`, false},               // case-insensitive key
		{`{"severity":"notable","n":1}`, false},         // a number
		{`{"severity":"notable","o":{"a":"b"}}`, false}, // an object
		{`{"file_refs":"a.go"}`, false},                 // a type error
		{`{"severity":"notable"} x`, false},             // trailing data
		{`{"severity":"notable",}`, false},              // a syntax error
	}
	for _, tt := range tests {
		var raw busLine
		if got := NewDecoder(0).decodeFast([]byte(tt.line), &raw); got != tt.fast {
			t.Errorf("decodeFast(%s) = %v, want %v", tt.line, got, tt.fast)
		}
	}
}
