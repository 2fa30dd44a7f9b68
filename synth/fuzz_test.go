package synth

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"a.go:12", "./x/y.ts:3-9", "`p:1`", "C:/x", "a:0", ":", "a.go:9-3", "a.go:12:3", "a.go:012", "a.go:3-3", "a.go:3-03"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := ParseRef(s)
		if r.Start < 0 || r.End < r.Start {
			t.Fatalf("ParseRef(%q) = %+v", s, r)
		}
		// Formatting and reading again is stable.
		if again := ParseRef(r.String()); again != r {
			t.Fatalf("ParseRef(%q) = %+v, but its String %q reads as %+v", s, r, r.String(), again)
		}
		// writes is String compared, without the string.
		for _, text := range []string{s, r.String(), r.String() + "0", strings.TrimSuffix(r.String(), "1")} {
			if got, want := r.writes(text), r.String() == text; got != want {
				t.Fatalf("%+v.writes(%q) = %v, want %v", r, text, got, want)
			}
		}
	})
}

func FuzzSynthesize(f *testing.F) {
	f.Add("P1|S|Session tokens stored|a.go:1\nP0|s|session token stored|a.go:1\nP3|T|x|b.go:2")
	f.Add("P2||||\nP2|||a:1|")
	f.Fuzz(func(t *testing.T, spec string) {
		if len(spec) > 4000 {
			return
		}
		var agents []Agent
		for i, line := range strings.Split(spec, "\n") {
			parts := strings.SplitN(line, "|", 4)
			for len(parts) < 4 {
				parts = append(parts, "")
			}
			sev := parse.Severity(parts[0])
			if sev.Rank() > 3 {
				sev = parse.P3
			}
			agents = append(agents, agentOf(string(rune('a'+i%7)), parse.StatusValid,
				fnd(sev, "X-1", parts[1], parts[2], strings.Fields(parts[3])...)))
		}
		// Several findings of one agent: merge the agents of the same name.
		byName := map[string]int{}
		var merged []Agent
		for _, a := range agents {
			if k, ok := byName[a.Name]; ok {
				f := a.Report.Findings[0]
				f.Line = len(merged[k].Report.Findings) + 2
				merged[k].Report.Findings = append(merged[k].Report.Findings, f)
				continue
			}
			byName[a.Name] = len(merged)
			merged = append(merged, a)
		}
		run := &Run{Agents: merged}
		s1 := RenderJSON(Synthesize(run, Options{}))
		s := Synthesize(run, Options{})
		if !bytes.Equal(s1, RenderJSON(s)) {
			t.Fatal("two syntheses of one run differ")
		}
		var want, got []parse.Severity
		for _, a := range merged {
			for _, f := range a.Report.Findings {
				want = append(want, f.Severity)
			}
		}
		for _, f := range s.Findings {
			got = append(got, f.Severity)
		}
		if parse.VerdictOf(want...) != parse.VerdictOf(got...) {
			t.Fatalf("merging changed the verdict: %v → %v", want, got)
		}
	})
}
