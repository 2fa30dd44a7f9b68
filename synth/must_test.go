package synth

import (
	"strings"
	"testing"
)

// must returns a rendering, panicking (so failing the test) on its error:
// a renderer's error is an encoding failure no test input should cause.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// wantAll fails t once for each of wants that text, the rendering named
// name, does not contain.
func wantAll(t *testing.T, name, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", name, want, text)
		}
	}
}

// wantNone fails t once for each of unwanted that text, the rendering
// named name, contains.
func wantNone(t *testing.T, name, text string, unwanted ...string) {
	t.Helper()
	for _, s := range unwanted {
		if strings.Contains(text, s) {
			t.Errorf("%s holds %q:\n%s", name, s, text)
		}
	}
}
