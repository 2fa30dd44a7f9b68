package config

import (
	"strings"
	"testing"
)

// FuzzParse: no input panics; an error names the file; a parsed
// configuration's suppressions all have a reason.
func FuzzParse(f *testing.F) {
	f.Add(full)
	f.Add("gate:\n  fail-on: risky\n")
	f.Add("suppressions:\n  - fingerprint: ab\n")
	f.Add("a: &x [*x, *x]\n")
	f.Add("gate: &g\n  fail-on: risky\nagents: *g\n")
	f.Fuzz(func(t *testing.T, data string) {
		c, err := Parse("c.yaml", []byte(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, s := range c.Suppressions {
			if strings.TrimSpace(s.Reason) == "" || s.Line <= 0 {
				t.Fatalf("suppression without a reason or line accepted: %+v", s)
			}
		}
	})
}
