package plan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestChoose: a number picks that candidate; three answers that are no
// choice, or the end of the input, leave it ambiguous.
func TestChoose(t *testing.T) {
	res := Result{Tier: 2, Notes: []string{"n"}, Candidates: []Candidate{
		{Directory: "a", FeatureName: "Login", Score: 0.5, Modified: "2026-11-20T10:00:00Z"},
		{Directory: "b", FeatureSlug: "signup", Score: 0.4, Modified: "2026-11-20T11:00:00Z"},
	}}
	var w bytes.Buffer
	got, err := Choose(strings.NewReader("7\n2\n"), &w, Options{}, CreateOptions{}, res, false)
	if err != nil || got.Directory != "b" || got.Source != "chosen" || *got.Score != 0.4 || len(got.Notes) != 1 {
		t.Errorf("answers 7 then 2: %+v, %v", got, err)
	}
	if !strings.Contains(w.String(), `"7" is not a choice`) || !strings.Contains(w.String(), "Choose 1-2: ") {
		t.Errorf("prompt: %q", &w)
	}
	for _, in := range []string{"x\ny\nz\n2\n", ""} {
		if _, err := Choose(strings.NewReader(in), &bytes.Buffer{}, Options{}, CreateOptions{}, res, false); ErrorType(err) != ErrAmbiguous {
			t.Errorf("answers %q: %v, want ambiguous", in, err)
		}
	}
}

// TestWriteDiscover: null directory and score when nothing was found, the
// error with its type when the discovery failed.
func TestWriteDiscover(t *testing.T) {
	var w bytes.Buffer
	if err := WriteDiscover(&w, Result{}, &Error{Type: ErrNotFound, Message: "none"}); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(w.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got["directory"] != nil || got["score"] != nil || got["error"].(map[string]any)["type"] != ErrNotFound {
		t.Errorf("output %s", &w)
	}
}
