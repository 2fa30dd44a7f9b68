package inert

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendJSONString: a string is written as encoding/json writes it
// (without HTML escaping), and with escape as EscapeJSON then makes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `"q" \ b`, "\x00\x1f\x7f", "\u0085\u009b", "\u202e\u2066x\u2069",
		"\u2028\u2029", "\xff\xfe", "é, 日本, 🙂", "<a href='x'>&</a>", "\u061c\u200e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		if got := AppendJSONString(nil, s, false); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
		if got, want := AppendJSONString(nil, s, true), EscapeJSON(want); !bytes.Equal(got, want) {
			t.Errorf("%q escaped: %s, want %s", s, got, want)
		}
	})
}
