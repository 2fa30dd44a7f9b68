package parse

import (
	"strings"
	"testing"
)

// resolved13 are ways a report says a finding is resolved, or that a word
// that looks like it is not, one golden case each, written for this test:
// a mini report, its open findings and its resolved ones, as "P1 Title".
var resolved13 = []struct {
	name, report   string
	open, resolved []string
}{
	{"status row of a finding's field table",
		"# Pentest\n\n## Findings\n\n### 4.1 Bank details changeable by any carrier\n\n| Field | Value |\n|---|---|\n" +
			"| Severity | Critical |\n| Status | Open |\n\nText.\n\n### 4.2 Stored XSS through SVG uploads\n\n" +
			"| Field | Value |\n|---|---|\n| Severity | High |\n| Status | Fixed (retest 2026-11-07) |\n\nText.\n",
		[]string{"P0 Bank details changeable by any carrier"}, []string{"P1 Stored XSS through SVG uploads"}},
	{"update paragraph under an audit finding",
		"# Staking audit\n\n## Critical Severity\n\n### Rewards can be claimed twice\n\nThe checkpoint is not updated.\n\n" +
			"**Update:** Resolved in pull request #12 at commit `abc123`.\n\n## High Severity\n\n" +
			"### Unbounded loop over stakers\n\nA pull pattern is safer.\n\n" +
			"**Update:** Acknowledged, not resolved. The team will address it later.\n",
		[]string{"P1 Unbounded loop over stakers"}, []string{"P0 Rewards can be claimed twice"}},
	{"retest field of a pentest finding",
		"# Web test\n\n### Session fixation on login\n\n- **Severity:** High\n- **Retest:** Fixed\n\n" +
			"### Admin panel without MFA\n\n- **Severity:** High\n- **Retest status:** Not fixed\n",
		[]string{"P1 Admin panel without MFA"}, []string{"P1 Session fixation on login"}},
	{"scanner status column beside the version that fixes it",
		"# Image scan\n\n| Library | Vulnerability | Severity | Status | Installed Version | Fixed Version | Title |\n" +
			"|---|---|---|---|---|---|---|\n| libfoo | CVE-2031-0001 | CRITICAL | fixed | 1.0 | 1.1 | libfoo: heap overflow in parser |\n" +
			"| libbar | CVE-2031-0002 | HIGH | will_not_fix | 2.0 | | libbar: integer overflow in copy |\n",
		[]string{"P0 CVE-2031-0001: libfoo: heap overflow in parser", "P1 CVE-2031-0002: libbar: integer overflow in copy"}, nil},
	{"status column of a findings table still resolves",
		"# Review\n\n| ID | Title | Severity | Status |\n|---|---|---|---|\n| R-1 | Token leaks to logs | High | Fixed |\n" +
			"| R-2 | Missing rate limit | High | Open |\n",
		[]string{"P1 R-2: Missing rate limit"}, []string{"P1 R-1: Token leaks to logs"}},
}

func TestResolved13(t *testing.T) {
	show := func(fs []Finding) string { return strings.Join(findingLines("", fs), "\n") }
	for _, c := range resolved13 {
		t.Run(c.name, func(t *testing.T) {
			r := ReadReport([]byte(c.report))
			if got, want := show(r.Findings), strings.Join(c.open, "\n"); got != want {
				t.Errorf("open findings:\n%s\nwant:\n%s\ndiagnostics: %v", got, want, r.Diagnostics)
			}
			if got, want := show(r.Resolved), strings.Join(c.resolved, "\n"); got != want {
				t.Errorf("resolved findings:\n%s\nwant:\n%s\ndiagnostics: %v", got, want, r.Diagnostics)
			}
		})
	}
}
