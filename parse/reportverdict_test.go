package parse

import (
	"math/rand/v2"
	"testing"
)

// TestReportVerdictAsVerdictOf holds Report.Verdict to VerdictOf of all
// its findings' severities at once (its plain form) on random reports,
// and checks that it allocates nothing.
func TestReportVerdictAsVerdictOf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 29))
	sevs := []Severity{P0, P1, P2, P3, "", "P9"}
	for range 20000 {
		rep := &Report{Status: StatusValid, Findings: make([]Finding, r.IntN(6))}
		all := make([]Severity, len(rep.Findings))
		for i := range rep.Findings {
			all[i] = sevs[r.IntN(len(sevs))]
			rep.Findings[i].Severity = all[i]
		}
		if got, want := rep.Verdict(), VerdictOf(all...); got != want {
			t.Fatalf("Verdict of %q = %s; VerdictOf: %s", all, got, want)
		}
	}
	rep := &Report{Status: StatusValid, Findings: make([]Finding, 1000)}
	for i := range rep.Findings {
		rep.Findings[i].Severity = P2
	}
	if n := testing.AllocsPerRun(10, func() { rep.Verdict() }); n != 0 {
		t.Errorf("Verdict of 1,000 findings: %v allocations; want 0", n)
	}
	if v := (&Report{Status: StatusError, Findings: []Finding{{Severity: P0}}}).Verdict(); v != Error {
		t.Errorf("an error report's verdict: %s; want error", v)
	}
}
