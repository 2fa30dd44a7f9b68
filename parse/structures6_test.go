package parse

import (
	"testing"
)

// structures6 are the structures issue #26's second probe (probe6) and
// the wild corpus found unread, one golden case each, written for this
// test (not taken from a probe or a corpus): a mini report and what a
// careful reader takes from it, as "P1 Title" lines in order ("P1 ID:
// Title" when it has an ID), the findings it records resolved after
// them as "resolved P1 Title", and "unreadable" last when the report
// could not be fully read.
var structures6 = []struct {
	name, report string
	want         []string
}{
	{"action items rated by priority in an incident review",
		"# Incident review: search index outage\n\n**Severity:** SEV-1 · **Duration:** 2 h\n\n## What happened\n\n" +
			"The reindex job deleted the live alias before the new index was ready.\n\n## Follow-up actions\n\n" +
			"| # | Action item | Owner | Priority | Status |\n|---|---|---|---|---|\n" +
			"| 1 | Swap the alias atomically after the new index is green | @kim | P0 | Open |\n" +
			"| 2 | Alert when the alias points at nothing | @ola | P1 | Done |\n" +
			"| 3 | Document the reindex procedure | @kim | P2 | Open |\n",
		[]string{"P0 Swap the alias atomically after the new index is green", "P2 Document the reindex procedure",
			"resolved P1 Alert when the alias points at nothing"}},
	{"readiness checks rated by severity with a status",
		"# Production readiness review — checkout\n\n| Area | Check | Severity | Status |\n|---|---|---|---|\n" +
			"| Backups | Restore tested in the last 90 days | Blocker | ❌ Fail |\n| Alerts | Pager routes to the owning team | High | ✅ Pass |\n" +
			"| Capacity | Load test at twice the peak | Medium | Partial |\n| Logs | Retention set to 30 days | High | OK |\n",
		[]string{"P0 Restore tested in the last 90 days", "P2 Load test at twice the peak"}},
	{"checklist rated by severity with no status",
		"# Release checklist\n\n| Check | Severity |\n|---|---|\n| Restore tested | Blocker |\n| Pager routes set | High |\n",
		nil},
	{"task table of a plan",
		"# Q3 release plan\n\n| Task | Owner | Priority |\n|---|---|---|\n| Ship the billing page | ana | P0 |\n" +
			"| Write the migration guide | li | P1 |\n| Add dark mode | raj | P2 |\n",
		nil},
	{"task table under a plan's heading in a review",
		"# Review of the export service\n\n### E-1: CSV export loads every row in memory\n\n**Severity:** Medium\n\n" +
			"## Implementation checklist\n\n| Task | Priority | Estimate |\n|---|---|---|\n| Stream rows to the response | P0 | 2d |\n" +
			"| Add a row limit flag | P1 | 1d |\n",
		[]string{"P2 E-1: CSV export loads every row in memory"}},
	{"corrective actions rated by severity",
		"# Incident report: leaked deploy key\n\n## Corrective actions\n\n| ID | Corrective action | Severity | Due |\n|---|---|---|---|\n" +
			"| CA-1 | Enforce MFA on the admin console | Critical | 2026-12-01 |\n| CA-2 | Rotate the deploy key | High | 2026-11-30 |\n",
		[]string{"P0 CA-1: Enforce MFA on the admin console", "P1 CA-2: Rotate the deploy key"}},
	{"a plan that is the only thing a report labels",
		"# Postmortem: queue backlog\n\n## Root cause\n\nThe consumer crashed on a bad message.\n\n## Action plan\n\n" +
			"| # | Action | Owner | Priority |\n|---|---|---|---|\n| 1 | Dead-letter bad messages | ana | P0 |\n" +
			"| 2 | Alert on backlog age | li | P2 |\n",
		[]string{"unreadable"}},
	{"a roadmap that is the only thing a report labels",
		"# Search team update\n\n## Roadmap\n\n- P0: Move the index to the new cluster\n- P1: Drop the legacy analyzer\n",
		nil},
	{"a plan's priorities do not hide an unread label",
		"# Review of the sync service\n\n## Findings\n\n- **Blocker**\n\n### F-2: Handler names are vague\n\nSeverity: Low\n\n" +
			"## Roadmap\n\n- P0: Rotate the tokens\n",
		[]string{"P3 F-2: Handler names are vague", "unreadable"}},
	{"action table restating the findings of the body",
		"# Review of the upload service\n\n### U-1: File names reach the shell unquoted\n\n**Severity:** Critical\n\n" +
			"### U-2: No size limit on uploads\n\n**Severity:** High\n\n## Action items\n\n" +
			"| ID | Priority | Action |\n|---|---|---|\n| U-1 | P0 | Quote the file name before the call |\n" +
			"| U-2 | P1 | Cap uploads at 20 MB |\n",
		[]string{"P0 U-1: File names reach the shell unquoted", "P1 U-2: No size limit on uploads"}},
	{"rubric of levels with an action column",
		"# How the team rates bugs\n\n| Priority | Meaning | Action |\n|---|---|---|\n" +
			"| P0 | the site is down | page the on-call |\n| P1 | a feature is broken | fix this week |\n" +
			"| P2 | a feature is degraded | fix this month |\n",
		nil},
	{"bracketed field in Japanese after a heading's title",
		"# レビュー：請求モジュール\n\n## 指摘事項\n\n### 1. 請求書が二重に送信される（重要度：高）\n\n再送時にキーがありません。\n\n" +
			"### 2. APIキーがログに残る（重要度：Critical）\n\n説明。\n\n### 3. コメントが古い（重要度：低）\n",
		[]string{"P1 請求書が二重に送信される", "P0 APIキーがログに残る", "P3 コメントが古い"}},
	{"lenticular brackets around a level",
		"# レビュー：検索API\n\n### 1. ページ番号が負でも通る【重要度：高】\n\n説明。\n\n- 管理画面に認証がない【Critical】\n",
		[]string{"P1 ページ番号が負でも通る", "P0 管理画面に認証がない"}},
	{"bracketed field in German after an item's title",
		"# Code-Review: Kundenportal\n\n- Passwort im Klartext gespeichert (Schweregrad: Kritisch)\n" +
			"- Sitzung läuft nie ab (Schweregrad: Hoch)\n- Tippfehler im Footer (Schweregrad: Niedrig)\n",
		[]string{"P0 Passwort im Klartext gespeichert", "P1 Sitzung läuft nie ab", "P3 Tippfehler im Footer"}},
	{"mark before a bold title opening a paragraph",
		"# Infra review — `modules/storage`\n\n🔴 **Bucket allows public listing** (`s3.tf:4`) — anyone can read the exports.\n\n" +
			"🟠 **Database has no backups** — a bad migration loses data.\n\n🟢 **Tag casing differs** — cosmetic.\n",
		[]string{"P0 Bucket allows public listing", "P1 Database has no backups", "P3 Tag casing differs"}},
	{"mark before a bold title or category in a list",
		"# Review of the mailer\n\n- 🟠 **Retries never stop** — a dead host is retried forever.\n" +
			"- 🔴 **Security:** the SMTP password is in `mailer.yml`.\n- 🟡 **Queue size is fixed** — it cannot grow.\n",
		[]string{"P1 Retries never stop", "P0 Security: the SMTP password is in `mailer.yml`", "P2 Queue size is fixed"}},
	{"mark before a plain or italic title opening a paragraph",
		"# Review of the billing job\n\n🔴 Invoices are sent twice after a retry — the job has no idempotency key.\n\n" +
			"🟠 *Totals are rounded per line* — cents drift on long invoices.\n",
		[]string{"P0 Invoices are sent twice after a retry", "P1 Totals are rounded per line"}},
	{"marks in a legend, a tally and a verdict",
		"# Review of the billing job\n\n🔴 = must fix, 🟠 = should fix, 🟢 = fine\n\n🟢 Tests pass and coverage is fine.\n\n" +
			"🔴 Verdict: approve\n",
		nil},
	{"lone green mark before a bold title",
		"# Sprint review\n\n🟢 **All checks pass** — nothing to do.\n\nWe shipped on time.\n",
		nil},
	{"impact field inside an item's line",
		"# Accessibility audit — signup form\n\n1. **Form fields have no labels** — WCAG 1.3.1 (A) — Impact: Critical\n" +
			"2. **Error text is shown in red only** — WCAG 1.4.1 (A) — Impact: Serious\n3. **Logo lacks alt text** — Impact: Minor\n",
		[]string{"P0 Form fields have no labels", "P1 Error text is shown in red only", "P3 Logo lacks alt text"}},
	{"S-level with its words in a table",
		"# Bug bash — editor\n\n| ID | Title | Severity |\n|---|---|---|\n| ED-1 | Crash when saving a draft | S1 (Critical) |\n" +
			"| ED-2 | Undo skips a step | S2 – High |\n| ED-3 | Toolbar wraps | S4 (Low) |\n",
		[]string{"P0 ED-1: Crash when saving a draft", "P1 ED-2: Undo skips a step", "P3 ED-3: Toolbar wraps"}},
	{"severity cells read as severity fields are",
		"# Threat review — file sync\n\n| Threat | Severity | Mitigation |\n|---|---|---|\n" +
			"| Replay of a captured request | 1 - Critical | add a nonce |\n| Stale cache served after revoke | Medium (with the CDN) | purge on revoke |\n" +
			"| Verbose error pages | 4/5 | hide the stack |\n",
		[]string{"P0 Replay of a captured request", "P2 Stale cache served after revoke", "P1 Verbose error pages"}},
	{"S-level with its words in a field",
		"# Review of the importer\n\n### 1. Rows dropped on a bad date\n\n**Severity:** S1 (Critical)\n\n" +
			"### 2. Progress bar stuck at 99%\n\n- **Severity**: S3 - Medium\n",
		[]string{"P0 Rows dropped on a bad date", "P2 Progress bar stuck at 99%"}},
	{"bracketed level mid-line before where the finding is",
		"# Dependency audit\n\n- Prototype Pollution (Critical) in minimist@1.2.0\n- Regular expression DoS (High) in semver@5.7.0\n" +
			"- Path traversal (High) in the upload handler\n- Information exposure (Low) in debug@2.6.8\n" +
			"- Stored XSS (High) found in the comment form\n",
		[]string{"P0 Prototype Pollution in minimist@1.2.0", "P1 Regular expression DoS in semver@5.7.0",
			"P1 Path traversal in the upload handler", "P3 Information exposure in debug@2.6.8",
			"P1 Stored XSS found in the comment form"}},
	{"bracketed level with notes after it",
		"# Incident review: stuck deploys\n\n## Findings\n\n" +
			"### F3 — Guard can be bypassed by an environment variable (Medium, Low Barrier)\n\n## Follow-up\n\n" +
			"- Add a canary stage for config pushes (P0, @mlee)\n- Validate timeout bounds in the schema (P1; owner: payments)\n",
		[]string{"P2 F3: Guard can be bypassed by an environment variable", "P0 Add a canary stage for config pushes",
			"P1 Validate timeout bounds in the schema"}},
	{"bracketed level with a list of levels, an estimate or a citation",
		"# Reading list\n\n- Port the pairing store to Rust (P1, 3d)\n- Harden the runner (P0, long-term)\n" +
			"- \"Judges in multi-agent systems\" (Medium, J. Doe, Apr 2026)\n",
		nil},
	{"bracketed level inside a sentence",
		"# Notes from the review\n\n- The summary shows the top item (P1) not the whole list.\n" +
			"- Spawn for each container (blocking) in the pool.\n- We saw errors (High) in production. Then we rolled back.\n" +
			"- The parser (Critical) changed in v2 and we liked it.\n",
		nil},
}

func TestStructures6(t *testing.T) {
	for _, c := range structures6 {
		t.Run(c.name, func(t *testing.T) { checkLines(t, c.report, c.want, readLines) })
	}
}
