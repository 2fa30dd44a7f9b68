package parse

import "testing"

func TestGroupHeading(t *testing.T) {
	for _, tt := range []struct {
		text string
		sev  Severity
		ok   bool
	}{
		{"High Priority Issues", P1, true},
		{"Critical Findings (P0)", P0, true},
		{"P1 — Should Fix", P1, true},
		{"🟠 HIGH — fix before release (2 items)", P1, true},
		{"Tier 1: BLOCKING", P0, true},
		{"Must fix", P1, true},
		{"P2 Findings (Useful but not blocking)", P2, true},
		{"Findings: 0 P0, 0 P1, 0 P2", "", false},
		{"Cache key ignores the tenant", "", false},
		{"Summary", "", false},
	} {
		sev, ok := GroupHeading(tt.text)
		if sev != tt.sev || ok != tt.ok {
			t.Errorf("GroupHeading(%q) = %q, %v; want %q, %v", tt.text, sev, ok, tt.sev, tt.ok)
		}
	}
}

func TestExportedSeverityValue(t *testing.T) {
	for _, tt := range []sevValueCase{
		{"High", false, P1, true},
		{"MEDIUM-HIGH", false, P1, true},
		{"Important", true, P1, true},
		{"Important", false, "", false},
		{"Must fix", true, P1, true},
		{"🔴 Critical — data loss", false, P0, true},
		{"IMP", true, "", false},
		{"High memory use", false, "", false},
	} {
		sev, ok := SeverityValue(tt.in, tt.position)
		if sev != tt.want || ok != tt.ok {
			t.Errorf("SeverityValue(%q, %v) = %q, %v; want %q, %v", tt.in, tt.position, sev, ok, tt.want, tt.ok)
		}
	}
}
