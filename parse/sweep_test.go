package parse

import (
	"fmt"
	"strings"
	"testing"
)

// TestSweepLabel: each place and position of a P0/P1 label is read by the
// net, and each look-alike is not (SPEC §2.3 rule 1, "never silently
// safe").
func TestSweepLabel(t *testing.T) {
	for _, c := range []struct {
		line string
		sev  Severity // "" for none
	}{
		// Labels.
		{"### CRITICAL: Token reuse across tenants", P0},
		{"- High: the cache key omits the tenant", P1},
		{"1. **Session fixation (HIGH impact)** — the id survives login", P1},
		{"2. Webhook replay window (Critical) - no nonce is kept", P0},
		{"[CRITICAL] deployment/api: container runs as root", P0},
		{"[Quality] **Message contract drift** (HIGH)", P1},
		{"⛔ **BLOCKER** — the migration rewrites the table", P0},
		{"🔴 Secrets are written to the build log", P0},
		{"- [ ] **P1** Add the missing authorisation check", P1},
		{"**Major** — retries are not bounded", P1},
		{"#### Webhook idempotency — HIGH", P1},
		{"- **Severity:** Critical", P0},
		{"Severity: High", P1},
		{"* Prototype pollution [Critical Severity][https://example.test/vuln/1] in lodash", P0},
		{"### SEC-4 High: open redirect on /login", P1},
		{"- **Blocker**", P0},
		// Look-alikes.
		{"This is critical for latency under load.", ""},
		{"- High availability needs a second zone", ""},
		{"- A critical path runs through the scheduler", ""},
		{"- Bump the major version before release", ""},
		{"- `major.minor` is the usual scheme", ""},
		{"| High | the row of a table |", ""},
		{"- Severity: [Critical|High|Medium|Low]", ""},
		{"- [Critical|High] Title of the finding", ""},
		{"- Critical: 0", ""},
		{"**P0 findings: 3** | **P1 findings: 12**", ""},
		{"- P0: None", ""},
		{"**P0 — No issue found.** The lock is never held across an await.", ""},
		{"- ~~High~~ fixed: the token now expires", ""},
		{"- **High** ✅ Fixed in 4e1f", ""},
		{"**High priority.** Adding the engine closes a gap", ""},
		{"- Track A: CCF-01 (P0), SRE-01 (P1)", ""},
		{"* No new infrastructure (important)", ""},
		{"1. Missing CSRF token on the form (high) — the route skips the middleware", P1},
		{"**Recommendation (must-fix):** remove the fallback", ""},
		{"> **Critical:** a quote of the ticket", ""},
		{"## 🚨 CRITICAL SECURITY REQUIREMENTS", ""},
		{"**Verdict:** blocked", ""},
		{"- **blocking**: contradicts what another agent found", ""},
		{"- **Critical finding**: load grows when users must remember states", ""},
		{"- 🔴 = critical, 🟠 = high", ""},
		{"**High.** The design space is well covered", ""},
	} {
		sev, word, ok := sweepLabel(c.line)
		if ok != (c.sev != "") || sev != c.sev {
			t.Errorf("sweepLabel(%q) = %q %q %v, want %q", c.line, sev, word, ok, c.sev)
		}
	}
}

// TestSweepReports reads whole reports. A report whose P0/P1 label no rule
// reads is not called safe (a P0/P1 finding is read, or the net makes it
// unreadable, with the diagnostic at the label's line); a report whose
// severity words are not labels stays as the reader reads it.
func TestSweepReports(t *testing.T) {
	unsafe := []struct {
		name, text string
		line       int // the label's line
	}{
		{"area-then-trailing-paren", "# Review synthesis\n\n## Findings (ordered by severity)\n\n[Perf] **Bundle loads the editor eagerly** (HIGH)\nLocation: `app.tsx:3`\n\n[Quality] **Naming** (LOW)\n", 5},
		{"mark-bold-dash", "# Migration review\n\nTarget: a large table.\n\n⛔ **BLOCKER** — the column add rewrites the table under an exclusive lock.\n\n💡 **SUGGESTION** — split schema and data changes.\n", 5},
		{"numbered-paren-impact", "# Performance review\n\n## Hotspots\n\n1. **N+1 queries in the listing (HIGH impact)** — one query per item.\n2. **Debug logging (low impact)** — 4% CPU.\n", 5},
		{"bracket-lines", "# cluster audit\n\nRun: today\n\n[CRITICAL] deployment/api: container runs as root\n[LOW] service/api: missing label\n", 5},
	}
	for _, c := range unsafe {
		r := ReadReportString(c.text)
		if r.Status == StatusUnreadable {
			want := fmt.Sprintf("here gave no finding")
			found := false
			for _, d := range r.Diagnostics {
				if d.Line == c.line && strings.Contains(d.Message, want) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: unreadable, but no orphan at line %d: %v", c.name, c.line, r.Diagnostics)
			}
			for _, f := range r.Findings {
				if f.Line == c.line {
					t.Errorf("%s: the net made a finding at line %d", c.name, c.line)
				}
			}
			continue
		}
		if r.Verdict() == Safe {
			t.Errorf("%s: %s and safe, holding a P0/P1 label at line %d: %+v", c.name, r.Status, c.line, r.Findings)
		}
	}
	quiet := []struct{ name, text string }{
		{"running-text", "# Design review\n\n## Notes\n\n- High availability needs a second zone.\n- A critical path runs through the scheduler.\n- Bump the major version before release.\n\nVerdict: safe\n"},
		{"legend", "# Review\n\n## Severity levels\n\n- **Critical**: data loss or a breach\n- **High**: a broken feature\n\n## Findings\n\nNo findings.\n"},
		{"tally", "# Review\n\n## Summary\n\n- Critical: 0\n- High: 0\n\nVerdict: approve\n"},
		{"template", "# Review report template\n\nUse this template for each review.\n\n### [Critical|High] Finding title\n\n- **Severity:** <level>\n"},
		{"resolved", "# Re-review\n\n## Items\n\n- ~~High~~ fixed: the token now expires\n\nVerdict: approve\n"},
		{"preamble-priority", "# Review request: migration\n\n**Priority:** High - before production\n\n## Scope\n\nThe scripts of the migration.\n"},
	}
	for _, c := range quiet {
		r := ReadReportString(c.text)
		for _, d := range r.Diagnostics {
			if strings.Contains(d.Message, "gave no finding") {
				t.Errorf("%s: %s, diagnostic %d: %s", c.name, r.Status, d.Line, d.Message)
			}
		}
		if r.Status == StatusUnreadable {
			t.Errorf("%s: unreadable: %v", c.name, r.Diagnostics)
		}
	}
}
