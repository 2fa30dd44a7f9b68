package parse

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestVocabularyDoc holds docs/reports.md's severity table and the
// vocabulary table of severity.go together: the same words at the same
// levels, each in the same column.
func TestVocabularyDoc(t *testing.T) {
	data, err := os.ReadFile("../docs/reports.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, "<!-- vocabulary -->"), strings.Index(doc, "<!-- /vocabulary -->")
	if i < 0 || j < i {
		t.Fatal("docs/reports.md has no <!-- vocabulary --> table")
	}
	word := regexp.MustCompile("`([^`]+)`")
	rows := map[string][2][]string{}
	for _, l := range strings.Split(doc[i:j], "\n") {
		cells := strings.Split(l, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[2]), "`") {
			continue
		}
		var cols [2][]string
		for c := 0; c < 2; c++ {
			for _, m := range word.FindAllStringSubmatch(cells[2+c], -1) {
				if !IsPLevel(m[1]) {
					cols[c] = append(cols[c], m[1])
				}
			}
		}
		rows[strings.TrimSpace(cells[1])] = cols
	}
	for _, r := range vocabulary {
		level := string(r.sev)
		if r.class == sevImprovement {
			level = "improvement"
		}
		got, ok := rows[level]
		if !ok {
			t.Errorf("docs/reports.md has no vocabulary row %s", level)
			continue
		}
		if !slices.Equal(got[0], r.marker) || !slices.Equal(got[1], r.position) {
			t.Errorf("vocabulary %s: docs/reports.md says %q / %q, severity.go %q / %q", level, got[0], got[1], r.marker, r.position)
		}
		delete(rows, level)
	}
	for level := range rows {
		t.Errorf("docs/reports.md has a vocabulary row %s that severity.go has not", level)
	}
}

// TestSeverityValue reads the values of §2.3: compounds take the higher
// level; emoji, bold, counts and reasons are stripped; words of a
// severity position only count there.
func TestSeverityValue(t *testing.T) {
	for _, tt := range []struct {
		in       string
		position bool
		want     Severity
		ok       bool
	}{
		{"🔴 CRITICAL — data loss", false, P0, true}, {"MEDIUM-HIGH", false, P1, true},
		{"High/Critical", false, P0, true}, {"Low to Medium", false, P2, true}, {"High (3)", false, P1, true},
		{"**P0** - Fix immediately", false, P0, true}, {"Critical (P0)", false, P0, true},
		{"High Priority", false, P1, true}, {"must-fix", false, P1, true}, {"nice to have", false, P3, true},
		{"Important", true, P1, true}, {"Important", false, "", false}, {"WARN", true, P2, true},
		{"🟠", false, P1, true}, {"Blockers", false, P0, true},
		{"High availability", true, "", false}, {"Low risk since", true, "", false},
		{"Exécution de code", true, "", false}, {"P0, validation", true, "", false},
	} {
		got, c, ok := severityValue(tt.in, tt.position)
		if ok != tt.ok || ok && (got != tt.want || c != sevFinding) {
			t.Errorf("severityValue(%q, %v) = %s, %v; want %s, %v", tt.in, tt.position, got, ok, tt.want, tt.ok)
		}
	}
}
