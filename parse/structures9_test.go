package parse

import (
	"testing"
)

// structures9 are the structures issue #26's sixth probe (probe9) found
// unread, one golden case each, written for this test (not taken from a
// probe or a corpus), in the form of structures6: "P1 Title" lines in
// order ("P1 ID: Title" with an ID), then "resolved P1 Title", then
// "unreadable" when the report could not be fully read.
var structures9 = []struct {
	name, report string
	want         []string
}{
	{"a Korean risk-level column with Korean values and an action status",
		"# 모바일 앱 보안 점검\n\n| 번호 | 취약점 | 위험도 | 조치 상태 |\n|---|---|---|---|\n" +
			"| A-1 | 로그인 시도 횟수 제한 없음 | 치명 | 미조치 |\n| A-2 | 로그에 토큰 평문 기록 | 높음 | 조치 완료 |\n" +
			"| A-3 | 오래된 라이브러리 사용 | 낮음 | 미조치 |\n",
		[]string{"P0 로그인 시도 횟수 제한 없음", "P3 오래된 라이브러리 사용", "resolved P1 로그에 토큰 평문 기록"}},
	{"a Korean risk-level field",
		"# 결제 모듈 점검\n\n### 1. 환불 금액 검증 누락\n\n- 위험도: 높음\n\n환불 요청의 금액을 서버에서 다시 계산하지 않는다.\n",
		[]string{"P1 환불 금액 검증 누락"}},
	{"French groups named by a noun and a plural adjective",
		"# Revue du module de paie\n\n## Points bloquants\n\n1. **Calcul des congés faux en février** : le mois est compté sur 30 jours.\n\n" +
			"## Points importants\n\n2. **Export sans pagination** — la requête charge tout.\n\n## Points mineurs\n\n- Nom de variable `tmp2`.\n",
		[]string{"P0 Calcul des congés faux en février", "P1 Export sans pagination", "P3 Nom de variable `tmp2`"}},
	{"Spanish and German groups with the adjective inflected",
		"# Revisión del servicio de pagos\n\n## Problemas críticos\n\n- **Reintentos duplican el cobro**: falta la clave de idempotencia.\n\n" +
			"## Kritische Punkte\n\n- **Token im Log**: das Zugriffstoken wird im Klartext geschrieben.\n",
		[]string{"P0 Reintentos duplican el cobro", "P0 Token im Log"}},
	{"a threat model whose preamble lists participants rates its threats by risk",
		"# Threat model: partner API\n\nParticipants: platform team, security\n\n## Threats\n\n" +
			"| ID | Threat | Likelihood | Risk | Status |\n|---|---|---|---|---|\n" +
			"| TM-1 | API keys never expire | High | Critical | Open |\n| TM-2 | No rate limit on token exchange | Medium | Medium | Open |\n",
		[]string{"P0 TM-1: API keys never expire", "P2 TM-2: No rate limit on token exchange"}},
	{"meeting notes whose action items are rated by priority stay notes",
		"# Platform sync 2026-03-02\n\nParticipants: ana, li, raj\n\n## Action items\n\n" +
			"| # | Action | Owner | Priority |\n|---|---|---|---|\n| 1 | Rotate the staging keys | ana | High |\n| 2 | Book the DR drill | li | Low |\n",
		nil},
	{"a review bot's badge line behind the lines it is on, the bold title under it",
		"## Review comments\n\n### `api/export.go`\n\n**Lines 12-20:** _⚠️ Potential issue_ | _🔴 Critical_\n\n" +
			"**Export query ignores the tenant filter.**\n\nEvery tenant's rows are exported.\n\n---\n\n" +
			"**Line 44:** _🛠️ Refactor suggestion_ | _🟠 Major_\n\n**Retry loop never backs off.**\n",
		[]string{"P0 Export query ignores the tenant filter", "P1 Retry loop never backs off"}},
	{"numbered items that wrap, the level closing the continuation line",
		"# Review of the invoice mailer\n\nIssues, level in parentheses.\n\n" +
			"1. Reply-to header is taken from the customer's name field, which lets a\n   customer inject headers (high)\n" +
			"2. Retries resend the whole batch\n   (critical)\n3. Template cache never expires (medium)\n4. Typo in the footer (low)\n",
		[]string{"P1 Reply-to header is taken from the customer's name field, which lets a customer inject headers",
			"P0 Retries resend the whole batch", "P2 Template cache never expires", "P3 Typo in the footer"}},
	{"a named risk beats a CVSS score in the same block",
		"# Pentest report: booking portal\n\n### 4.1 IDOR on booking receipts\n\n- Risk: Critical\n- CVSS 3.1: 7.5\n\n" +
			"Any receipt can be fetched by its number.\n\n### 4.2 Verbose errors\n\n- Severity: Low\n- CVSS: 5.3\n",
		[]string{"P0 IDOR on booking receipts", "P3 Verbose errors"}},
	{"a self-assessment's failed checks: the outcome leads, the title follows the level",
		"# ISO 27001 readiness check\n\n## Asset management\n\n- ✅ PASS — Laptop inventory is current\n" +
			"- ❌ FAIL (Critical) — Backups of the HR database are never restored in a test\n" +
			"- ⚠️ PARTIAL (Low) — Asset owners named for half the systems\n",
		[]string{"P0 Backups of the HR database are never restored in a test", "P3 Asset owners named for half the systems"}},
	{"a bold line holding only an ID and a priority, the title on the line under it",
		"# Design review: billing exports\n\n## Issues\n\n**Issue 1 — Priority: High**\nExports run on the primary database. They lock the invoices table.\n\n" +
			"**Issue 2 — Priority: Low**\nThe export button has no tooltip.\n",
		[]string{"P1 Issue 1: Exports run on the primary database", "P3 Issue 2: The export button has no tooltip"}},
	{"a contributing guide's label definitions",
		"# Contributing to Driftbox\n\nWe label review comments so authors know what must change:\n\n" +
			"- **Blocking:** fix before merge (data loss, security).\n- **Minor:** fix if you agree.\n",
		nil},
	{"a to-do list rated by priority",
		"# TODO\n\n- [ ] P0: move the queue to the new broker before the old one is retired\n- [ ] P1: write the release notes\n" +
			"- [x] P2: tidy the CI cache\n",
		nil},
	{"a pull request form whose severity options are unticked boxes",
		"## Summary\n\n<!-- Which bug does this fix? Link it. -->\n\n## Impact\n\n" +
			"- [ ] ⛔ Blocker — outage or data loss\n- [ ] 🟠 High — a core flow broken\n- [ ] 🟢 Low — cosmetic\n",
		nil},
	{"a review with a question in a comment and its findings in unticked boxes stays a report once a box is ticked",
		"## Summary\n\n<!-- Which bug does this fix? Link it. -->\n\n## Findings\n\n" +
			"- [ ] **P0** Session fixation in the login handler\n- [x] **P2** Missing alt text on the logo\n",
		[]string{"P0 Session fixation in the login handler", "resolved P2 Missing alt text on the logo"}},
}

func TestStructures9(t *testing.T) {
	for _, c := range structures9 {
		t.Run(c.name, func(t *testing.T) { checkLines(t, c.report, c.want, readLines) })
	}
}
