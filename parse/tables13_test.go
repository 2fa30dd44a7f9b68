package parse

import (
	"strings"
	"testing"
)

// tables13 are rated tables whose title column has a name no rule knows,
// one golden case each, written for this test: a mini report, the
// findings a careful reader takes from it ("P1 Title", "P1 ID: Title")
// and whether the report is unreadable.
var tables13 = []struct {
	name, report string
	want         []string
	unreadable   bool
}{
	{"checklist table: the check names the row, a passed check gives none",
		"# Release readiness\n\n| Area | Check | Status | Severity |\n|---|---|---|---|\n" +
			"| Logging | Secrets are printed in debug logs | Fail | Critical |\n| Backups | Restores were never tested | Fail | High |\n" +
			"| Docs | Runbook is linked from the alert | Pass | Low |\n",
		[]string{"P0 Secrets are printed in debug logs", "P1 Restores were never tested"}, false},
	{"a table of work by priority with no title column stays unread",
		"# Research: patterns to adopt\n\n| Pattern | Source | Priority |\n|---|---|---|\n" +
			"| Agent state machine with events | tool-a | P0 |\n| Fair spawn scheduler | tool-b | P1 |\n",
		nil, false},
	{"data test table: a code name names the row",
		"# Data quality run\n\n| Test | Model | Severity | Failures |\n|---|---|---|---|\n" +
			"| `unique_order_id` | fct_orders | high | 12 |\n| not_null_customer_email | dim_customers | low | 3 |\n",
		[]string{"P1 `unique_order_id`", "P3 not_null_customer_email"}, false},
	{"gap table in another language",
		"# Analyse\n\n| Constat | Référence | Gravité |\n|---|---|---|\n" +
			"| Les sauvegardes ne sont pas chiffrées | A.8.13 | Critique |\n| Revue des accès jamais faite | A.5.18 | Élevé |\n",
		[]string{"P0 Les sauvegardes ne sont pas chiffrées", "P1 Revue des accès jamais faite"}, false},
	{"hours of work by priority: no findings, not unreadable",
		"# Estimate\n\n| Priority | Hours | Weeks |\n|---|---|---|\n| P0 | 12 | 1 |\n| P1 | 30 | 2 |\n| P2 | 8 | 1 |\n",
		nil, false},
	{"components rated by risk rate areas: no findings",
		"# Threat review\n\n| Component | Owner | Risk |\n|---|---|---|\n| Billing | Alice | Critical |\n| Search | Bob | Low |\n",
		nil, false},
	{"a rated row whose title cell names nothing: unread, never safe",
		"# Threat review\n\n| Scenario | Owner | Risk |\n|---|---|---|\n| see above | Alice | Critical |\n| Search abuse by bots | Bob | Low |\n",
		[]string{"P3 Search abuse by bots"}, true},
	{"components rated by one word beside a finding read elsewhere",
		"# Threat review\n\n## Findings\n\n### Tokens never expire\n\n**Severity:** High\n\nThey live forever.\n\n" +
			"## Overview\n\n| Component | Owner | Risk |\n|---|---|---|\n| Billing | Alice | Critical |\n| Search | Bob | Low |\n",
		[]string{"P1 Tokens never expire"}, false},
	{"a linter's rules and their levels are no findings",
		"# Lint setup\n\n| Rule | Severity | Why |\n|---|---|---|\n| `no-eval` | error | eval runs strings as code |\n" +
			"| `no-console` | warning | use the logger |\n",
		nil, false},
	{"kinds of change and their risk are no findings",
		"# Change classes\n\n| Change class | Risk | Gate |\n|---|---|---|\n| Prompt wording tweak | Low | apply directly |\n" +
			"| New tool permission for agents | High | human review |\n",
		nil, false},
	{"two columns: an unknown title column before the severity",
		"# Bevindingen\n\n| Bevinding | Ernst |\n|---|---|\n| Wachtwoorden staan in de logbestanden | Kritiek |\n" +
			"| Sessie verloopt nooit na uitloggen | Hoog |\n",
		[]string{"P0 Wachtwoorden staan in de logbestanden", "P1 Sessie verloopt nooit na uitloggen"}, false},
	{"a finding's one-row rating table is still its field",
		"# Review\n\n### Session cookie lacks the Secure flag\n\n| Asset | Likelihood | Impact |\n|---|---|---|\n" +
			"| Web app | High | High |\n\nSet the flag.\n",
		[]string{"P1 Session cookie lacks the Secure flag"}, false},
}

func TestTables13(t *testing.T) {
	for _, c := range tables13 {
		t.Run(c.name, func(t *testing.T) {
			r := ReadReport([]byte(c.report))
			got := findingLines("", r.Findings)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || (r.Status == StatusUnreadable) != c.unreadable {
				t.Errorf("status %s (want unreadable %v), findings:\n%s\nwant:\n%s\ndiagnostics: %v", r.Status, c.unreadable,
					strings.Join(got, "\n"), strings.Join(c.want, "\n"), r.Diagnostics)
			}
		})
	}
}
