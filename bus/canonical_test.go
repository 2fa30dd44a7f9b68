package bus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCanonicalSeverityOfEncode: every finding Encode writes without a
// backslash is recognised by canonicalSeverity (one with an escape is left
// to the decoder, as documented), so that Decoder.Only skips it without decoding (a
// change of Encode's field order fails here rather than silently slowing
// `finding read --severity`).
func TestCanonicalSeverityOfEncode(t *testing.T) {
	for i, tt := range []struct {
		e    Entry
		want string
	}{
		{Entry{Severity: Blocking, Agent: "fd-a", Summary: "s"}, Blocking},
		{Entry{Severity: Notable, Agent: "fd-a", Category: "c", Summary: "<b> & 'q'", FileRefs: []string{"a.go:1", "b.go:2-3"},
			Timestamp: "2026-11-20T10:00:00Z", ID: "SCM-01", Priority: "P1"}, Notable},
		{Entry{Severity: Notable, Agent: "fd-b", Summary: "é — 😀", FileRefs: []string{}}, Notable},
		{Entry{Severity: Notable, Agent: "fd-b", Summary: `a "quote"`}, ""}, // escaped: decoded
	} {
		line := bytes.TrimSuffix(Encode(tt.e), []byte("\n"))
		if got := canonicalSeverity(line); got != tt.want {
			t.Errorf("%d: canonicalSeverity(%s) = %q, want %q", i, line, got, tt.want)
		}
	}
}

// TestCanonicalSeverityShuffled holds canonicalSeverity to encoding/json on
// lines whose fields come in any order, with extra fields: whenever it names
// a severity, encoding/json and the decoder read a finding of exactly that
// severity; and it names one for the encoder's order only.
func TestCanonicalSeverityShuffled(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	recognised := 0
	for range 20000 {
		fields := [][2]string{
			{"severity", pick(`"blocking"`, `"notable"`, `"BLOCKING"`, `"P0"`, `"warn"`)},
			{"agent", pick(`"fd-a"`, `"fd-b"`)},
			{"summary", pick(`"s"`, `"with \" quote"`, `"x\\"`)},
			{"file_refs", pick(`[]`, `["a.go:1"]`, `["a.go:1","b"]`)},
		}
		for _, opt := range [][2]string{
			{"category", `"c"`}, {"timestamp", `"2026-11-20T10:00:00Z"`}, {"id", `"X-1"`}, {"priority", `"P2"`},
			{"type", pick(`"blocking"`, `"notable"`)}, {"kind", pick(`"stall"`, `"finding"`)}, {"Severity", `"notable"`},
		} {
			if r.IntN(4) == 0 {
				fields = append(fields, opt)
			}
		}
		if r.IntN(2) == 0 {
			r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, f := range fields {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", f[0], f[1])
		}
		b.WriteByte('}')
		line := []byte(b.String())
		sev := canonicalSeverity(line)
		if sev == "" {
			continue
		}
		recognised++
		var raw busLine
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatalf("%s: canonical %s, but encoding/json: %v", line, sev, err)
		}
		es, _, _ := DecodeAll(bytes.NewReader(append(line, '\n')), 0)
		if len(es) != 1 || es[0].Kind != EntryFinding || es[0].Severity != sev || strings.ToLower(raw.Severity) != sev {
			t.Fatalf("%s: canonical %s, decodes to %+v (encoding/json severity %q)", line, sev, es, raw.Severity)
		}
	}
	if recognised == 0 {
		t.Fatal("no line was recognised: the test tested nothing")
	}
}
