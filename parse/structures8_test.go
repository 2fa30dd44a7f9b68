package parse

import (
	"testing"
)

// structures8 are the structures issue #26's probes 7 and 8 found
// unread, one golden case per structure, written for this test (not taken
// from a probe or a corpus): a mini report and what a careful reader takes
// from it, as "P1 Title" lines in order ("P1 ID: Title" when it has an
// ID), the findings it records resolved after them as "resolved P1
// Title", and "unreadable" last when the report could not be fully read.
var structures8 = []struct {
	name, report string
	want         []string
}{
	{"several fields on one line under a tracker's issue heading",
		"# Tracker export: storage hardening\n\n---\n\n## OPS-31: Backup bucket is readable by anyone\n" +
			"**Kind:** Bug · **Priority:** Highest · **Status:** Open · **Owner:** nobody\n\nThe bucket policy grants s3:GetObject to *.\n\n---\n\n" +
			"## OPS-32: Log lines lack request ids\n**Kind:** Task · **Priority:** Low · **Status:** Open\n\n---\n\n" +
			"## OPS-29: Admin token passed in the query string\n**Kind:** Bug · **Priority:** High · **Status:** Done · **Resolution:** Fixed\n",
		[]string{"P0 OPS-31: Backup bucket is readable by anyone", "P3 OPS-32: Log lines lack request ids",
			"resolved P1 OPS-29: Admin token passed in the query string"}},
	{"a severity field with more fields after it on its line",
		"# Model evaluation: helpdesk agent\n\n## Results\n\n**Case E-1: Tool call runs without the user's consent**\n" +
			"Severity: Critical • Success rate 20% • Area: agency\nThe agent calls the payment tool on a quoted instruction.\n\n" +
			"**Case E-2: Persona drifts in long chats**\nSeverity: Low • Success rate 3%\n",
		[]string{"P0 Case E-1: Tool call runs without the user's consent", "P3 Case E-2: Persona drifts in long chats"}},
	{"tracker items of an ID, a level and a state before the title",
		"# Board: payments, open review items\n\n- **PAY-401** · Highest · Todo — Refund job retries without an idempotency key\n" +
			"- **PAY-402** · High · In Progress — Card numbers appear in debug logs\n- **PAY-397** · Medium · Todo — Currency names not localised\n" +
			"- **PAY-390** · High · Done — Webhook secret shared across tenants\n",
		[]string{"P0 PAY-401: Refund job retries without an idempotency key", "P1 PAY-402: Card numbers appear in debug logs",
			"P2 PAY-397: Currency names not localised", "resolved P1 PAY-390: Webhook secret shared across tenants"}},
	{"a bold level alone under a heading, past a comment",
		"## Review bot\n\nFound 2 bugs\n\n---\n\n### Bug: Cache key ignores the tenant\n\n<!-- where\nsrc/cache.go#L10\n-->\n\n" +
			"**High Severity**\n\nTwo tenants read each other's cached pages.\n\n---\n\n### Bug: Timer not stopped on close\n\n" +
			"<!-- where\nsrc/timer.go#L4\n-->\n\n**Low Severity**\n\nA goroutine lingers after close.\n",
		[]string{"P1 Bug: Cache key ignores the tenant", "P3 Bug: Timer not stopped on close"}},
	{"a scanner's plain result lines rated at their end",
		"## Static analysis\n\n[/app/net/client.go:40] - R12 (CWE-295): TLS certificate checks turned off (Confidence: HIGH, Severity: HIGH)\n" +
			"    40: tls.Config{SkipVerify: true}\n\n[/app/log/log.go:9] - R7 (CWE-117): Log line built from input (Confidence: MEDIUM, Severity: LOW)\n",
		[]string{"P1 TLS certificate checks turned off", "P3 Log line built from input"}},
	{"a design note's fields on one line and its items by key are no findings",
		"# Design: sharded counters\n\n**Owner:** ana · **Status:** Draft · **Reviewers:** li, raj\n\n## Work\n\n" +
			"- **DOC-3** · Draft — Write the operator guide\n- **DOC-4** · In Review — Measure the write fan-out\n\n" +
			"Counters are split across 16 shards (Confidence: HIGH, Owner: ana).\n",
		nil},
	{"an incident's level in its report's title rates no section",
		"# Postmortem: search outage, 2026-10-02 (SEV-1)\n\n**Status:** Final · **Duration:** 40 min\n\n## Summary\n\n" +
			"The index alias was deleted during a reindex.\n\n## Root cause\n\nThe job deleted the alias first.\n\n## Lessons\n\n" +
			"Swap aliases atomically.\n",
		[]string{"unreadable"}}, // the report rates itself P0 and gives no finding: never silently safe
	{"an incident's level in a resolved incident's title",
		"# Incident 2026-10-05 — slow checkout (SEV-2)\n\n**Commander:** li · **Status:** Resolved\n\n## Timeline\n\n" +
			"- 10:02 alert fired\n- 10:40 cache flushed\n\n## Customer impact\n\nCheckout took 9 s for 30 minutes.\n",
		nil},
	{"a findings group rated in its title still rates its findings",
		"# Findings (P1)\n\n### Tokens logged in clear\n\nThe login handler logs the bearer token.\n\n" +
			"### Session never expires\n\nThe cookie has no max-age.\n",
		[]string{"P1 Tokens logged in clear", "P1 Session never expires"}},
	{"levels spelled out before the title",
		"# API review: accounts v3\n\nItems are ranked Priority 1 (must change) to Priority 3 (optional).\n\n" +
			"**Priority 1 — Account IDs are sequential and guessable**\nUse random IDs.\n\n**Priority 3 — Field names mix cases**\n\n" +
			"Notes on the batch job\n\n* S1 — Failed rows are dropped without a trace; totals are short.\n* S3 — Log level is hard-coded.\n",
		[]string{"P1 Account IDs are sequential and guessable", "P3 Field names mix cases",
			"P0 Failed rows are dropped without a trace; totals are short", "P2 Log level is hard-coded"}},
	{"a rating clause after a bold title and a dash",
		"## Design review\n\nRisk is scored 0-10.\n\n1. **One queue for every tenant** — risk 8/10 (high). A noisy tenant stalls the rest.\n" +
			"2. **Retries have no jitter** — risk 3/10 (low).\n",
		[]string{"P1 One queue for every tenant", "P3 Retries have no jitter"}},
	{"S-numbers as IDs in bold and as terms defined are no levels",
		"# Review: plugin API\n\n## Suggestions\n\n**S1 — Accept interfaces in the registration call.** Narrow types help tests.\n\n" +
			"## Stability terms\n\n- S1: Stable file formats — a promise\n- S2: Stable output under a fixed model — measured\n",
		[]string{"P3 S1: Accept interfaces in the registration call"}}, // a suggestion, by its group
	{"areas summed up by marked counts are no findings",
		"## Review guide\n\nWhat the review covered:\n- 🔴 **Access control**: 1 blocking issue, 2 other issues\n" +
			"- 🟡 **Style**: 3 issues found\n- 🟢 **Tests**: all looks good\n\n---\n\n**api/keys.go:12**\n\n" +
			"**issue (security):** Keys are compared with == instead of a constant-time compare\n\nUse subtle.ConstantTimeCompare.\n",
		[]string{"unreadable"}},
	{"a checklist's failed items rated after a mark",
		"# Release checklist — build 4.2\n\n## Security\n- [x] Dependencies scanned\n" +
			"- [ ] **Admin routes need a session** — ❌ FAIL (Blocker): /admin/export answers without one\n" +
			"- [ ] **Cookies lack Secure** — ✗ (Major): set on every response\n- [ ] **Help text typos** — ⚠️ (Minor): two in the footer\n" +
			"- [x] **Passwords hashed** — ✅ PASS\n",
		[]string{"P0 Admin routes need a session", "P1 Cookies lack Secure", "P3 Help text typos"}},
	{"a heading that is a severity field over a bold finding",
		"# Отчёт о ревью: платежи\n\n## Проблемы\n\n### Критичность: Критическая\n**Ключи API лежат в репозитории.**\n" +
			"Любой с доступом к коду может списывать деньги.\n\n### Criticality: High\n**Refunds skip the owner check.**\n" +
			"Any user can refund any order.\n\n## Итог\n\nНе готово.\n",
		[]string{"P0 Ключи API лежат в репозитории", "P1 Refunds skip the owner check"}},
	{"a scanner's results of a number, a level in capitals and a title",
		"## iac scan\n\nResult #1 CRITICAL Storage bucket allows public reads.\n    main.tf:12\n\n" +
			"- Result #2 LOW Tags missing on the queue.\n\nResult #3 high priority items are listed below.\n",
		[]string{"P0 Result #1: Storage bucket allows public reads", "P3 Result #2: Tags missing on the queue"}},
}

func TestStructures8(t *testing.T) {
	for _, c := range structures8 {
		t.Run(c.name, func(t *testing.T) { checkLines(t, c.report, c.want, readLines) })
	}
}
