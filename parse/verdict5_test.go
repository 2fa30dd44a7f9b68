package parse

import (
	"fmt"
	"strings"
	"testing"
)

// verdict5 are the declared verdicts issue #26's probes read wrong, one
// golden case each, written for this test (not taken from a probe or a
// corpus): a mini report, the status, declared and computed verdicts a
// careful reader gives it (SPEC §2.3 "Declared verdict", §2.5).
//
// A conditional approval ("Approve with conditions", "LGTM once the nits
// are addressed") is recorded as needs-changes, but it approves: it is
// worse than a computed safe only when its conditions may be blockers
// that were not read — none of the report's findings was read open for
// them to be, and the approval does not call them minor.
var verdict5 = []struct {
	name, report       string
	status             Status
	declared, computed Verdict
}{
	{"approval with minor suggestions over P2 and P3 findings",
		"# Review: cache layer\n\n## Findings\n\n### Medium: TTL is hard-coded\n\nMove it to config.\n\n" +
			"### Low: Typo in a log message\n\n## Summary\n\n**Verdict:** Approve with minor suggestions\n",
		StatusMalformed, Safe, Safe},
	{"approval after a medium item, P2 and P3 read",
		"# Review: metrics exporter\n\n**Findings:** Critical: 0 · High: 0 · Medium: 1 · Low: 1\n\n## Medium\n\n" +
			"- **Histogram buckets changed** — dashboards lose their old series.\n\n## Low\n\n- **Unused flag `--legacy`** in `main.go`.\n\n" +
			"Recommendation: approve after the medium item is acknowledged.\n",
		StatusMalformed, NeedsChanges, Safe},
	{"approved with conditions listed, each P2 or P3",
		"# Design review: search index\n\n## Findings\n\n1. **Medium** — the reindex job logs no progress.\n" +
			"2. **Low** — the README example is out of date.\n\n## Decision\n\n" +
			"Approved, conditions: add the progress log (P2) and refresh the README (P3).\n",
		StatusMalformed, NeedsChanges, Safe},
	{"approved with conditions, nothing read for them to be",
		"# Design review: event store\n\n## Outcome\n\nApproval status: Approved with conditions\n\n" +
			"The retention period must be settled and the replay tool needs a runbook.\n",
		StatusUnreadable, NeedsChanges, Safe},
	{"approved with minor changes, nothing rated",
		"# Review: README rewrite\n\nThe structure is clear and the examples run.\n\n**Verdict:** Approved with minor changes\n",
		StatusMalformed, NeedsChanges, Safe},
	{"LGTM once the nits are addressed",
		"# PR review: retry helper\n\nReads well; two naming nits left inline.\n\n**Verdict:** LGTM once the nits are addressed\n",
		StatusMalformed, NeedsChanges, Safe},
	{"approval on a critical condition, nothing read",
		"# Review: payment webhook\n\nThe handler is mostly fine.\n\n**Verdict:** Approve once the critical signature issue is fixed\n",
		StatusUnreadable, NeedsChanges, Safe},
	{"approval on a condition the P2 finding read does not cover",
		"# Review: payment webhook\n\n## Findings\n\n- **Medium:** the retry delay is fixed.\n\n" +
			"**Verdict:** Approve once the critical signature check is added\n",
		StatusUnreadable, NeedsChanges, Safe},
	{"changes requested over P2 only (SPEC-exact)",
		"# Review of the settings page\n\n## Findings\n\n### Medium: Defaults copied, not referenced\n\n## Decision\n\nRequest changes\n",
		StatusUnreadable, NeedsChanges, Safe},
	{"conditional approval beside a P1 read",
		"# Review: upload service\n\n## Findings\n\n### High: Upload size never checked\n\n**Verdict:** Approve with conditions\n",
		StatusMalformed, NeedsChanges, NeedsChanges},
}

func TestVerdict5(t *testing.T) {
	for _, c := range verdict5 {
		t.Run(c.name, func(t *testing.T) {
			r := ReadReportString(c.report)
			got := fmt.Sprintf("%s declared %q computed %s", r.Status, r.DeclaredVerdict, r.Verdict())
			want := fmt.Sprintf("%s declared %q computed %s", c.status, c.declared, c.computed)
			if got != want {
				t.Errorf("got %s; want %s\n%s", got, want, diagText(r))
			}
		})
	}
}

// diagText lists a report's findings and diagnostics, for a failure's message.
func diagText(r *Report) string {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "  finding %s %q (line %d)\n", f.Severity, f.Title, f.Line)
	}
	for _, d := range r.Diagnostics {
		fmt.Fprintf(&b, "  diag %d: %s\n", d.Line, d.Message)
	}
	return b.String()
}
