package parse

import "testing"

// TestScoreSeverity reads numbers only on a scale their name states: CVSS
// bands at their edges, ratings out of five; never a bare number.
func TestScoreSeverity(t *testing.T) {
	for _, tt := range []struct {
		name, score string
		want        Severity
		ok          bool
	}{
		{"CVSS", "9.0", P0, true}, {"CVSS 3.1", "8.9 (AV:N/AC:L)", P1, true}, {"cvss", "7.0", P1, true},
		{"CVSS Base Score", "6.9", P2, true}, {"CVSS", "4.0", P2, true}, {"CVSS", "3.9", P3, true},
		{"CVSS v3", "10/10", P0, true}, {"CVSS", "0.0", "", false}, {"CVSS", "11", "", false},
		{"CVSS", "AV:N/AC:L", "", false}, {"Severity", "5/5", P0, true}, {"Severity", "4/5", P1, true},
		{"Risk", "3/5", P2, true}, {"Severity", "1/5", P3, true}, {"Severity", "4", "", false},
		{"Severity", "6/5", "", false}, {"Agents", "3/5", "", false}, {"Score", "9.8", "", false},
	} {
		got, ok := scoreSeverity(tt.name, tt.score)
		if got != tt.want || ok != tt.ok {
			t.Errorf("scoreSeverity(%q, %q) = %q, %v; want %q, %v", tt.name, tt.score, got, ok, tt.want, tt.ok)
		}
	}
	for _, tt := range []sevValueCase{
		{"Severity 5/5", true, P0, true}, {"CVSS 9.8", true, P0, true}, {"CVSS 3.1 Base Score 7.5", true, P1, true},
		{"3/5", true, "", false}, {"Severity: 4", true, "", false},
	} {
		got, _, ok := severityValue(tt.in, tt.position)
		if got != tt.want || ok != tt.ok {
			t.Errorf("severityValue(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
