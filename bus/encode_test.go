package bus

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// jsonLine is what encoding/json writes for e: the definition AppendLine
// must match.
func jsonLine(t testing.TB, e Entry) []byte {
	if e.FileRefs == nil {
		e.FileRefs = []string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAppendLine(t *testing.T) {
	tests := []struct {
		name string
		e    Entry
	}{
		{"canonical", Entry{Severity: Blocking, Agent: "fd-a", Category: "auth", Summary: "tokens leak",
			FileRefs: []string{"a.go:12", "b.go:3-4"}, Timestamp: "2026-11-20T10:00:00Z"}},
		{"no refs, nil", Entry{Severity: Notable, Agent: "fd-a", Summary: "s"}},
		{"hand-written", Entry{Severity: Blocking, Agent: "fd-a", Summary: "t — n", ID: "SCM-01", Priority: parse.P0,
			Title: "not written", Line: 3, Offset: 9}},
		{"stall", Entry{Severity: "warn", Agent: "fd-a", Summary: "m", Kind: EntryStall}},
		{"escapes", Entry{Severity: Notable, Agent: "fd-a",
			Summary: "q\" b\\ \b\f\n\r\t \x00\x1f\x7f <&> é — 😀 \u2028\u2029 bad \xff\xc3 end"}},
		{"empty", Entry{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := AppendLine([]byte("prefix"), tt.e), append([]byte("prefix"), jsonLine(t, tt.e)...)
			if !bytes.Equal(got, want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// FuzzAppendLine holds the hand-written encoder to encoding/json.
func FuzzAppendLine(f *testing.F) {
	f.Add("blocking", "fd-a", "auth", "summary", "a.go:1", "2026-11-20T10:00:00Z", "", "", "")
	f.Add("notable", "fd-a", "", "q\" b\\ \b\f\n\r\t \x00 é \u2028 \xff", "", "", "SCM-01", "P0", "stall")
	f.Fuzz(func(t *testing.T, sev, agent, cat, summary, ref, ts, id, pri, kind string) {
		e := Entry{Severity: sev, Agent: agent, Category: cat, Summary: summary, Timestamp: ts,
			ID: id, Priority: parse.Severity(pri), Kind: kind}
		if ref != "" {
			e.FileRefs = []string{ref, summary}
		}
		if got, want := AppendLine(nil, e), jsonLine(t, e); !bytes.Equal(got, want) {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}

func BenchmarkAppendLine(b *testing.B) {
	e := Entry{Severity: Blocking, Agent: "fd-agent-0042", Category: "concurrency",
		Summary: "Race condition in faxpwqwy eyamwjy ukipzab — two writers", FileRefs: []string{"internal/faxpwqwy/eyamwjy.go:346"},
		Timestamp: "2026-11-20T09:00:00Z"}
	b.Run("hand", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = AppendLine(buf[:0], e)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			jsonLine(b, e)
		}
	})
}
