package parse

import "testing"

// TestSeverityAndID checks the bracket of a severity beside an ID: either
// order, a comma or a semicolon, and never two levels or two severities
// taken for an ID.
func TestSeverityAndID(t *testing.T) {
	for _, c := range []struct {
		in      string
		sev, id string
	}{
		{"P2, QS-02", "P2", "QS-02"},
		{"CA-1; High", "P1", "CA-1"},
		{"critical, SEC-7", "P0", "SEC-7"},
		{"P1, P2", "", ""},
		{"High, Medium", "", ""},
		{"high, see below", "", ""},
		{"QS-02", "", ""},
		{"P2", "", ""},
	} {
		sev, _, _, id, ok := severityAndID(c.in)
		if ok != (c.sev != "") || string(sev) != c.sev || id != c.id {
			t.Errorf("severityAndID(%q) = %q, %q, %v; want %q, %q", c.in, sev, id, ok, c.sev, c.id)
		}
	}
}
