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
	f.Add("P3|S|a|\nP3|S|b|\nP3|S|c|\nP3|S|d|\nP3|S|e|\nP3|S|f|\nP3|S|g, not fully read|") // agent g: unreadable
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
			status := parse.StatusValid
			if i%7 == 6 { // agent g could not be fully read
				status = parse.StatusUnreadable
			}
			agents = append(agents, agentOf(string(rune('a'+i%7)), status,
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
		s1 := must(RenderJSON(Synthesize(run, Options{})))
		s := Synthesize(run, Options{})
		if !bytes.Equal(s1, must(RenderJSON(s))) {
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
		// Never silently safe: an unreadable agent trips every gate and is
		// written beside the verdict.
		_, unread := byName["g"]
		for _, g := range []Gate{{FailOn: parse.Risky}, {FailOn: parse.NeedsChanges, MinIndependent: 2}, {FailOnNew: parse.P0}} {
			if d := g.Judge(s); unread && !d.Tripped {
				t.Fatalf("gate %s passes a run with an unreadable agent", g)
			}
		}
		if unread != (VerdictText(s) != string(s.Verdict)) || unread != (len(s.AgentsUnreadable) == 1) {
			t.Fatalf("unreadable %v, verdict text %q, agents_unreadable %v", unread, VerdictText(s), s.AgentsUnreadable)
		}
	})
}
