package protocol

import (
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// exampleReport is the example report of the contract: the indented block
// under "### The format of your report", unindented.
func exampleReport(t *testing.T, text string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "### The format of your report\n")
	if !ok {
		t.Fatal("no example report in the contract")
	}
	var b strings.Builder
	for _, line := range strings.Split(rest, "\n") {
		if line != "" && !strings.HasPrefix(line, "    ") {
			break
		}
		b.WriteString(strings.TrimPrefix(line, "    ") + "\n")
	}
	return b.String()
}

// TestContractExampleIsValid holds the contract and the reader together:
// the example report the contract prints reads as valid, with the verdict
// the contract's rule gives its severities.
func TestContractExampleIsValid(t *testing.T) {
	for _, run := range []string{"", "7c1e2f60-4b7d-4f0e-9a51-2d8c6b9e0a13"} {
		text, err := Text(Options{Agent: "fd-a", Run: run})
		if err != nil {
			t.Fatal(err)
		}
		r := parse.ReadReportString(exampleReport(t, text))
		if r.Status != parse.StatusValid || len(r.Findings) != 2 || r.Verdict() != parse.NeedsChanges {
			t.Errorf("run %q: example reads as %s, %d findings, verdict %s; diagnostics %v", run, r.Status, len(r.Findings), r.Verdict(), r.Diagnostics)
		}
		if run != "" && !strings.Contains(text, "<!-- run-uuid: "+run+" -->") {
			t.Errorf("run %q: no run-uuid comment", run)
		}
	}
}

func TestText(t *testing.T) {
	cases := []struct {
		name    string
		o       Options
		want    []string // in the text
		wantErr string   // "" for none
	}{
		{"contract alone", Options{Agent: "fd-a"}, []string{"## Review Agent Protocol", "    fluxwatch check --strict fd-a.md.partial"}, ""},
		{"with dir and run", Options{Agent: "fd-a", Dir: "run dir", Run: "0123abcd"}, []string{"    'run dir/fd-a.0123abcd.md.partial'  ->  'run dir/fd-a.0123abcd.md'"}, ""},
		{"bus quoted", Options{Agent: "fd x", Bus: "it's/b.jsonl", Command: "/opt/fw"}, []string{"### Peer Findings Protocol",
			`    /opt/fw finding write --bus 'it'\''s/b.jsonl' --agent 'fd x' \`, `Skip your own entries ("agent": "fd x")`}, ""},
		{"no agent", Options{}, nil, "--agent is required"},
		{"bad agent", Options{Agent: "../x"}, nil, "--agent"},
		{"bad run", Options{Agent: "fd-a", Run: "nope"}, nil, "not a run id"},
		{"credentials", Options{Agent: "fd-a", Bus: "nats://u:p@host:4222/run"}, nil, "credentials"},
		{"line break", Options{Agent: "fd-a", Bus: "a\nb"}, nil, "line break"},
		{"NUL in dir", Options{Agent: "fd-a", Dir: "a\x00"}, nil, "line break or NUL"},
	}
	for _, c := range cases {
		text, err := Text(c.o)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.wantErr)
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: text lacks %q", c.name, w)
			}
		}
		if c.o.Bus == "" && strings.Contains(text, "Peer Findings") {
			t.Errorf("%s: the peer protocol without a bus", c.name)
		}
	}
}
