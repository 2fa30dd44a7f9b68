package parse

import (
	"testing"
)

// structures5 are the structures issue #26's probe found unread, one
// golden case each, written for this test (not taken from the probe): a
// mini report and the findings a careful reader takes from it, as
// "P1 Title" lines in order ("P1 ID: Title" when it has an ID).
var structures5 = []struct {
	name, report string
	want         []string
}{
	{"serious on an accessibility scale",
		"# Accessibility audit\n\n### Captions missing on the intro video\n\n- **Impact:** Serious\n- **WCAG:** 1.2.2\n\n" +
			"### Skip link hidden\n\n- **Impact:** Minor\n",
		[]string{"P1 Captions missing on the intro video", "P3 Skip link hidden"}},
	{"lower-case level in parentheses before a dash",
		"# Review of the signup form\n\n1. Invite code accepted twice (high) — race in the handler.\n" +
			"2. Session kept after logout (critical) — token stays valid.\n3. Button text clipped (low) — on small screens.\n",
		[]string{"P1 Invite code accepted twice", "P0 Session kept after logout", "P3 Button text clipped"}},
	{"lower-case level in parentheses inside a bold lead-in",
		"# Worker review\n\n**Retry queue has no cap (medium)** — memory grows.\n\n**Lock held across the network call (high)** — stalls.\n",
		[]string{"P2 Retry queue has no cap", "P1 Lock held across the network call"}},
	{"level with a qualifier inside the parentheses",
		"# Performance review\n\n1. **Slow report query on the dashboard (HIGH impact)** — full scan.\n" +
			"2. **Thumbnails rebuilt on every request (Critical risk)** — CPU bound.\n",
		[]string{"P1 Slow report query on the dashboard", "P0 Thumbnails rebuilt on every request"}},
	{"italic parentheses after a bold title",
		"# Platform review\n\n## Capacity\n\n1. **Queue consumers capped at the current count** *(High)* — no room to grow.\n" +
			"2. **Disk alerts fire too late** _(Medium)_ — at 98%.\n",
		[]string{"P1 Queue consumers capped at the current count", "P2 Disk alerts fire too late"}},
	{"bracketed level opening a line with no bullet, before a resource",
		"# cluster scan — namespace `shop`\n\n[CRITICAL] statefulset/orders-db: privileged container allowed\n" +
			"[HIGH] deployment/cart: no readiness probe\n[LOW] service/cart: missing owner label\n",
		[]string{"P0 statefulset/orders-db: privileged container allowed", "P1 deployment/cart: no readiness probe",
			"P3 service/cart: missing owner label"}},
	{"bracketed level before a sentence in lower case",
		"# Notes\n\n[HIGH] we agreed to revisit this next week.\n",
		nil},
	{"emoji before a bold level opening a paragraph",
		"# Migration review: `0007_orders.sql`\n\n⛔ **BLOCKER** — Dropping the `status` column loses the audit trail.\n" +
			"The backfill should run first.\n\n🚨 **CRITICAL:** The lock on `orders` is held for the whole copy.\n\n" +
			"⚠️ **Important:** back up the table first.\n",
		[]string{"P0 Dropping the `status` column loses the audit trail", "P0 The lock on `orders` is held for the whole copy"}},
	{"scanner line with a linked severity tag after the title",
		"Testing /srv/app...\n\nIssues to fix by upgrading:\n\n  Upgrade minimist@1.2.0 to minimist@1.2.6 to fix\n" +
			"  ✗ Prototype Pollution [Critical Severity][https://example.test/vuln/1] in minimist@1.2.0\n" +
			"    introduced by minimist@1.2.0\n" +
			"  ✗ Open Redirect [Medium Severity][https://example.test/vuln/2] in send@0.16.0\n",
		[]string{"P0 Prototype Pollution in minimist@1.2.0", "P2 Open Redirect in send@0.16.0"}},
	{"severity field with a reason in parentheses",
		"# Auth review\n\n### F-1: Refresh tokens never rotate\n\nSeverity: High (downgraded from Critical after discussion)\n\n" +
			"Tokens live forever.\n\n### F-2: Receipt emails dropped on retry\n\n**Severity:** Major (users lose their receipts)\n\n" +
			"### F-3: Typos in the consent text\n\nSeverity: Low\n",
		[]string{"P1 F-1: Refresh tokens never rotate", "P1 F-2: Receipt emails dropped on retry", "P3 F-3: Typos in the consent text"}},
	{"numbered scale value with the words of its level",
		"# Heuristic evaluation — checkout\n\n## 1. Saved address cannot be changed\n\n**Severity:** 4 — Usability catastrophe\n\n" +
			"## 2. No progress shown during upload\n\n**Severity:** 3 — Major usability problem\n\n" +
			"## 3. Inconsistent button labels\n\nSeverity: Minor usability problem\n",
		[]string{"P0 Saved address cannot be changed", "P1 No progress shown during upload", "P3 Inconsistent button labels"}},
	{"severity field named in French",
		"# Audit de sécurité — API de facturation\n\n## 1. Jetons de session sans expiration\n\n**Criticité :** Critique\n\n" +
			"Les jetons restent valides indéfiniment.\n\n## 2. Journaux trop verbeux\n\n**Criticité :** Faible\n",
		[]string{"P0 Jetons de session sans expiration", "P3 Journaux trop verbeux"}},
	{"severity field named in Japanese",
		"# コードレビュー\n\n## 1. パスワードを平文でログに出力\n\n重大度：高\n\n## 2. 変数名が不明瞭\n\n重大度: Low\n",
		[]string{"P1 パスワードを平文でログに出力", "P3 変数名が不明瞭"}},
	{"location with a line mark before the title",
		"Reviewed `shop/cart.py` and `shop/tasks.py`.\n\nFindings:\n\n" +
			"- HIGH: `cart.py` L88 — the discount is applied twice when the coupon is reused.\n" +
			"- HIGH: `tasks.py` line 12 — the refund task is not idempotent.\n- LOW: naming — `do_it()` says nothing.\n",
		[]string{"P1 the discount is applied twice when the coupon is reused", "P1 the refund task is not idempotent", "P3 naming"}},
	{"fenced JSON after a sentence naming the requested format",
		"Here is my review of the change in the requested JSON format.\n\n```json\n{\n  \"findings\": [\n" +
			"    {\"id\": \"R1\", \"severity\": \"critical\", \"title\": \"Webhook signature never checked\"},\n" +
			"    {\"id\": \"R2\", \"severity\": \"low\", \"title\": \"Retry delay hard-coded\"}\n  ]\n}\n```\n",
		[]string{"P0 R1: Webhook signature never checked", "P3 R2: Retry delay hard-coded"}},
	{"fenced JSON given as an example of the required format",
		"# Reviewer instructions\n\nAnswer in the required JSON format, for example:\n\n```json\n{\n  \"findings\": [\n" +
			"    {\"id\": \"R1\", \"severity\": \"critical\", \"title\": \"Webhook signature never checked\"},\n" +
			"    {\"id\": \"R2\", \"severity\": \"low\", \"title\": \"Retry delay hard-coded\"}\n  ]\n}\n```\n",
		nil},
}

func TestStructures5(t *testing.T) {
	for _, c := range structures5 {
		t.Run(c.name, func(t *testing.T) { checkLines(t, c.report, c.want, openLines) })
	}
}
