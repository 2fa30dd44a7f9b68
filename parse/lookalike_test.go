package parse

import (
	"fmt"
	"strings"
	"testing"
)

// lookalikes are documents that look like review reports and are not,
// and reports with a part that looks like findings and is not (SPEC
// §2.3: never a template, a prompt or a checklist with nothing filled
// in; never quoted or example material), one golden case each, written
// for this test (not taken from a probe or a corpus): a mini document
// and the findings a careful reader takes from it, as "P1 Title" lines,
// and whether it is unreadable.
var lookalikes = []struct {
	name, report string
	want         []string
	unreadable   bool
}{
	{"planning notes with priority task lines",
		"# Sprint 12 planning — Payments squad\n\nAttendees: Ines, Raj, Tomas\n\n## Goals for the sprint\n\n" +
			"P0: Launch the loyalty points to all users in Canada\nP1: Rework the invoice PDF layout\n" +
			"P2: Evaluate a second SMS provider\n\n## Capacity\n\n4 engineers, 9 days.\n",
		nil, false},
	{"roadmap section with dashed priorities in a status update",
		"# Platform team update — week 14\n\n## Quarter objectives\n\n- P0 – Migrate billing to the new ledger\n" +
			"- P1 – Retire the legacy auth proxy\n\n## Shipped\n\n- The queue dashboards.\n",
		nil, false},
	{"goals of a design, then a review's findings",
		"# Design review: export service\n\n## Goals\n\n- P0: exports finish within an hour\n- P1: resumable after a crash\n\n" +
			"## Findings\n\n### High: The export job holds a DB transaction for its whole run\n\nLocks pile up.\n",
		[]string{"P1 The export job holds a DB transaction for its whole run"}, false},
	{"meeting minutes with a priority bullet",
		"# Infra sync — 3 March\n\nParticipants: Dana, Leo\n\n- Low priority: rename the staging buckets.\n" +
			"- High load on the build farm comes from the nightly jobs.\n",
		nil, false},
	{"minutes of a review meeting stay a report",
		"# Security review meeting — login flow\n\nAttendees: Mia, Sol\n\n## Findings\n\n- **[High]** Session not rotated after login.\n",
		[]string{"P1 Session not rotated after login"}, false},
	{"a how-to guide with a severity legend and a quoted example",
		"# How to write review comments that get fixed\n\nLabel every comment with how much it matters.\n\n" +
			"## Labels\n\n- **Blocking** — must be fixed before merge.\n- **Non-blocking** — fix it now or in a follow-up.\n" +
			"- **Nit** — style only.\n\nFor example, a comment like this leaves no doubt:\n\n" +
			"> **[High] Cache key ignores the tenant** — two tenants can read each other's pages.\n",
		nil, false},
	{"a review guide named by its head noun",
		"# Code review guidelines\n\n## What to flag\n\n- **Critical** — anything that loses data.\n- **Minor** — naming.\n",
		nil, false},
	{"a review of a guide stays a review",
		"# Onboarding guide — review\n\n## Findings\n\n- **High:** the setup script deletes the local database.\n",
		[]string{"P1 the setup script deletes the local database"}, false},
	{"a review that quotes an example before its findings",
		"# Review of the cache layer\n\nWe write comments in this format, for example:\n\n" +
			"> **[Critical] Title of the issue** — what goes wrong.\n\n## Findings\n\n" +
			"- **[High]** Cache key ignores the tenant.\n",
		[]string{"P1 Cache key ignores the tenant"}, false},
	{"a report's template that says to copy it",
		"# Code Review Report\n\n> Copy this output template when you write a review.\n\n## Critical Issues\n\n" +
			"- **[critical]** `path/file.go:10` — What goes wrong\n  - **Fix**: How to fix it\n\n## High Priority\n\n" +
			"- **[high]** `path/file.go:20` — What goes wrong\n",
		nil, false},
	{"a linter's printout in a fence beside the author's findings",
		"# Review of the importer\n\n## Lint\n\n```\nsrc/a.go:12:5: error: result of os.Remove not checked (errcheck)\n" +
			"HIGH: hard-coded credential in config/dev.yaml\nSeverity: High\n```\n\n## Findings\n\n- **Low:** README is out of date.\n",
		[]string{"P3 README is out of date"}, false},
	{"a log with levels as a finding's evidence",
		"# Review of the sync worker\n\n### Medium: Retries hammer the API\n\nThe log shows it:\n\n```\n" +
			"12:00:01 CRITICAL: upstream refused the connection\nseverity: ERROR\n12:00:01 CRITICAL: upstream refused the connection\n```\n",
		[]string{"P2 Retries hammer the API"}, false},
	{"a printout in a fence inside a finding's item",
		"# Review of the importer\n\n- **Low:** README is out of date.\n  ```\n  HIGH: token never expires\n  Severity: High\n  ```\n",
		[]string{"P3 README is out of date"}, false},
	{"a scanner's printout that is the whole report is read",
		"# Dependency scan\n\nThe scanner printed:\n\n```console\n$ audit ./...\nyaml-lite <0.4.0\nSeverity: critical\n" +
			"Code execution on untrusted documents\n```\n",
		[]string{"P0 yaml-lite <0.4.0"}, false},
	{"a quoted bot comment is still read",
		"# Review notes for PR 88\n\nThe bot left one comment:\n\n> **[High] Token compared with ==** — use a constant-time compare.\n",
		[]string{"P1 Token compared with =="}, false},
}

func TestLookalikes(t *testing.T) {
	for _, c := range lookalikes {
		t.Run(c.name, func(t *testing.T) {
			r := ReadReportString(c.report)
			var got []string
			for _, f := range r.Findings {
				got = append(got, fmt.Sprintf("%s %s", f.Severity, f.Title))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"), diagText(r))
			}
			if u := r.Status == StatusUnreadable; u != c.unreadable {
				t.Errorf("status %s; want unreadable %v\n%s", r.Status, c.unreadable, diagText(r))
			}
		})
	}
}

// locationTitles are findings whose line names where the defect is before
// what it is, one golden case each, written for this test: the title
// carries the defect's words, never only a file or resource name.
var locationTitles = []struct {
	name, report string
	want         []string
}{
	{"line mark in parentheses before a dash",
		"# Review of the billing views\n\n## Findings\n\n- HIGH: `invoice.py` (L88) — rounding drops the last cent on refunds\n",
		[]string{"P1 rounding drops the last cent on refunds"}},
	{"location before a spaced hyphen",
		"# Review of the billing views\n\n## Findings\n\n- HIGH: `invoice.py` L91 - the refund total ignores discounts\n",
		[]string{"P1 the refund total ignores discounts"}},
	{"location before a colon",
		"# Review of the billing views\n\n## Findings\n\n- HIGH: `invoice.py` line 120: tax is computed on the gross amount\n",
		[]string{"P1 tax is computed on the gross amount"}},
	{"heading that is only a file, its defect in the next paragraph",
		"# Review of the service\n\n## Findings\n\n### HIGH: `config/prod.yaml`\n\nDebug mode is left on in production. It leaks stack traces.\n\n" +
			"### LOW: Naming of the retry helper\n",
		[]string{"P1 Debug mode is left on in production", "P3 Naming of the retry helper"}},
	{"item that is only a resource, its defect on the next line",
		"# Infrastructure review\n\n- CRITICAL: `storage/public-assets`\n  The bucket policy grants read to everyone.\n" +
			"- LOW: `storage/logs` keeps logs for 7 days only\n",
		[]string{"P0 The bucket policy grants read to everyone", "P3 `storage/logs` keeps logs for 7 days only"}},
	{"item that is only a place and an issue kind",
		"# Static analysis — billing\n\n1. `LedgerDao.java:77` · **Bug** · Critical\n   Statement is never closed on the error path.\n" +
			"2. `Money.java:12` · **Code Smell** · Minor\n   Magic number.\n",
		[]string{"P0 Statement is never closed on the error path", "P3 Magic number"}},
	{"bold title behind a category tag, rated at its end",
		"# Review synthesis\n\n## Findings\n\n[🔒 Security] **Session cookie lacks the Secure flag** (HIGH)\n" +
			"📍 Location: `src/session.ts:14`\n❌ Issue: sent over plain HTTP.\n\n" +
			"[🧪 Testing] **No test covers the logout path** (LOW)\n📍 Location: `test/auth.test.ts`\n",
		[]string{"P1 Session cookie lacks the Secure flag", "P3 No test covers the logout path"}},
	{"heading that is only a file, fields under it",
		"# Review of the service\n\n### `cmd/server/main.go`\n\n- **Severity:** High\n- **Location:** line 40\n\n" +
			"The server listens on all interfaces without TLS.\n",
		[]string{"P1 The server listens on all interfaces without TLS"}},
}

func TestLocationTitles(t *testing.T) {
	for _, c := range locationTitles {
		t.Run(c.name, func(t *testing.T) {
			r := ReadReportString(c.report)
			var got []string
			for _, f := range r.Findings {
				got = append(got, fmt.Sprintf("%s %s", f.Severity, f.Title))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"), diagText(r))
			}
		})
	}
}
