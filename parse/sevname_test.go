package parse

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// sevNameSpellings are the ways each entry of sevFieldNames is written:
// its words, with a lead word before them and its optional parts after.
func sevNameSpellings(n sevFieldName) []string {
	var out []string
	for _, w := range n.words {
		heads := []string{w}
		if n.lead != nil {
			heads = nil
			for _, l := range n.lead {
				heads = append(heads, l+" "+w)
			}
		}
		for _, h := range heads {
			out = append(out, h)
			for _, m := range n.more {
				out = append(out, h+" "+m)
			}
			if n.tail != "" {
				out = append(out, h+n.tail)
			}
			if n.cvss {
				out = append(out, h+" score", h+" v3.1", h+" 3.1 base score")
			}
		}
	}
	return out
}

// TestSevFieldNamesEverywhere holds every name of the one table to the
// places SPEC §2.3 reads a severity field's name: a field line, bold or
// not; a field apart by a dash; a table's severity column; the name of
// a field in brackets, which is dropped. A name added to sevFieldNames
// is tried here without a line of this test changed.
func TestSevFieldNamesEverywhere(t *testing.T) {
	for _, n := range sevFieldNames {
		for _, name := range sevNameSpellings(n) {
			r, size := utf8.DecodeRuneInString(name)
			for _, form := range []string{name, string(unicode.ToUpper(r)) + name[size:], strings.ToUpper(name)} {
				for _, line := range []string{form + ": High", "- **" + form + ":** High", "**" + form + "**: High"} {
					if m := sevFieldOf(line); m == nil || m[1] != form || m[2] != "High" {
						t.Errorf("sevFieldOf(%q) = %q; want the field %q, High", line, m, form)
					}
				}
				if got := fieldForm(form + " — High"); got != form+": High" {
					t.Errorf("fieldForm(%q) = %q; want %q", form+" — High", got, form+": High")
				}
			}
			if !sevColumn(strings.ToLower(name)) {
				t.Errorf("sevColumn(%q) = false; want a severity column", name)
			}
			if got := sevRank(name); got != n.rank {
				t.Errorf("sevRank(%q) = %d; want the table's %d", name, got, n.rank)
			}
			// The text in brackets: "[Severity: high]", "(risk=high)".
			for _, v := range []string{name + ": high", name + "=high", "Confidence: low, " + name + ": high"} {
				if n.rank > rankRisk && strings.Contains(v, ",") {
					continue // of several fields, a severity, risk or rating
				}
				if sev, c, ok := severityValue(v, false); !ok || sev != P1 || c != sevFinding {
					t.Errorf("severityValue(%q) = %s, %v, %v; want P1", v, sev, c, ok)
				}
			}
		}
	}
	for _, c := range sevColumnOnly {
		for _, name := range []string{c.name, strings.ToUpper(c.name)} {
			if !sevColumn(name) || sevRank(name) != c.rank {
				t.Errorf("column %q: sevColumn %v, sevRank %d; want true, %d", name, sevColumn(name), sevRank(name), c.rank)
			}
		}
	}
}

// TestSevRank orders the names of fields and columns as setField and a
// table's header do: severity, then risk, rating and a CVSS score, then priority, then
// impact and level; a column of CVSS scores last, and a name of neither
// with the impacts.
func TestSevRank(t *testing.T) {
	for _, tt := range []struct {
		name   string
		rank   int8
		column int
	}{
		{"Severity", rankSeverity, 0}, {"SEVERITY LEVEL", rankSeverity, 0}, {"Overall Severity", rankSeverity, 0},
		{"Risk", rankRisk, 1}, {"Residual Risk", rankRisk, 1}, {"risk rating", rankRisk, 1}, {"Rating", rankRisk, 1},
		{"grade", rankRisk, 1}, {"Priority", rankPriority, 2}, {"prio", rankPriority, 2}, {"Priorität", rankPriority, 2},
		{"우선순위", rankPriority, 2}, {"приоритет", rankPriority, 2}, {"Impact", rankImpact, 3}, {"level", rankImpact, 3},
		{"threat level", rankImpact, 3}, {"심각도", rankSeverity, 0}, {"Schweregrad", rankSeverity, 0},
		{"sévérité", rankSeverity, 0}, {"风险等级", rankRisk, 1}, {"security severity", rankSeverity - 1, -1},
		{"CVSS", rankRisk, int(rankScore)}, {"cvss v3.1 base score", rankRisk, int(rankScore)}, {"위험도", rankRisk, 1},
		{"Likelihood", rankImpact, 3}, {"", rankImpact, 3},
	} {
		if got := sevRank(tt.name); got != tt.rank {
			t.Errorf("sevRank(%q) = %d; want %d", tt.name, got, tt.rank)
		}
		if got := sevColumnRank(strings.ToLower(tt.name)); got != tt.column {
			t.Errorf("sevColumnRank(%q) = %d; want %d", tt.name, got, tt.column)
		}
	}
}

// TestSevNameOf takes whole names only: a name that a field's name opens,
// or one with more after it, is none.
func TestSevNameOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"severity", true}, {"Severity  Level", true}, {"overall risk", true}, {"overall", false}, {"overall impact", false},
		{"severity score", false}, {"risk assessment", false}, {"sevx", false}, {"se", false}, {"mức độ nghiêm trọng", true},
		{"mức độ nghiêm", false}, {"CVSS v3.1 Base Score", true}, {"cvss base", false}, {"СЕРЬЁЗНОСТЬ", true}, {"riſk", true},
	} {
		if got := sevNameOf(tt.name) != nil; got != tt.ok {
			t.Errorf("sevNameOf(%q) = %v; want %v", tt.name, got, tt.ok)
		}
	}
}

// TestSevFieldNamesReport reads names of the table where a report writes
// them: as the severity column of a table (one the column names knew
// before the table of names did not), the stronger of two columns, and
// the stronger of two fields of one finding.
func TestSevFieldNamesReport(t *testing.T) {
	for _, tt := range []struct {
		name, md string
		want     []string // "P1 Title"
	}{
		{"column of another language", "# Review\n\n## Findings\n\n| Finding | Критичность |\n|---|---|\n" +
			"| Token logged in plain text | Высокий |\n| Cache never expires | Низкий |\n",
			[]string{"P1 Token logged in plain text", "P3 Cache never expires"}},
		{"severity column beats priority", "# Review\n\n## Findings\n\n| Issue | 우선순위 | 심각도 |\n|---|---|---|\n" +
			"| Session fixation on login | Low | Critical |\n",
			[]string{"P0 Session fixation on login"}},
		{"severity field beats a risk field, a risk field a priority", "# Review\n\n## Findings\n\n### Session fixation on login\n\n" +
			"- **风险等级:** Low\n- **Schweregrad:** Critical\n\n### Cache never expires\n\n- **Priorität:** High\n- **风险等级:** Low\n",
			[]string{"P0 Session fixation on login", "P3 Cache never expires"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := ReadReport([]byte(tt.md))
			var got []string
			for _, f := range r.Findings {
				got = append(got, fmt.Sprintf("%s %s", f.Severity, f.Title))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings %q; want %q (status %s)", got, tt.want, r.Status)
			}
		})
	}
}

// TestSevFieldNamesDoc checks that docs/reports.md lists the names of
// severity fields and columns as sevFieldNames and sevColumnOnly hold
// them, by rank.
func TestSevFieldNamesDoc(t *testing.T) {
	got := docRows(t, "sevfields")
	want := map[string][2][]string{}
	rankName := map[int8]string{rankSeverity - 1: "0 (beats all)", rankSeverity: "1 severity", rankRisk: "2 risk",
		rankPriority: "3 priority", rankImpact: "4 impact"}
	for _, n := range sevFieldNames {
		r := want[rankName[n.rank]]
		r[0] = append(r[0], sevNameDoc(n))
		want[rankName[n.rank]] = r
	}
	for _, c := range sevColumnOnly {
		r := want[rankName[c.rank]]
		r[1] = append(r[1], c.name)
		want[rankName[c.rank]] = r
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !slices.Equal(g[0], w[0]) || !slices.Equal(g[1], w[1]) {
			t.Errorf("docs/reports.md rank %q: %q / %q; the code: %q / %q", k, g[0], g[1], w[0], w[1])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("docs/reports.md has a rank %q the code has not", k)
		}
	}
}

// sevNameDoc writes an entry of sevFieldNames as docs/reports.md does:
// alternatives apart by "/", optional parts in brackets.
func sevNameDoc(n sevFieldName) string {
	s := strings.Join(n.words, "/")
	if n.lead != nil {
		s = strings.Join(n.lead, "/") + " " + s
	}
	switch {
	case n.cvss:
		s += " [version] [base] [score]"
	case n.tail != "":
		s += " [" + strings.TrimSpace(n.tail) + "]"
	case n.more != nil:
		s += " [" + strings.Join(n.more, "/") + "]"
	}
	return s
}

// docRows reads the table of docs/reports.md between <!-- mark --> and
// <!-- /mark -->, of three columns: each row's first cell, and the words
// in backquotes of the other two. Rows with none (the header) are left
// out.
func docRows(t *testing.T, mark string) map[string][2][]string {
	t.Helper()
	data, err := os.ReadFile("../docs/reports.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, "<!-- "+mark+" -->"), strings.Index(doc, "<!-- /"+mark+" -->")
	if i < 0 || j < i {
		t.Fatalf("docs/reports.md has no <!-- %s --> table", mark)
	}
	word := regexp.MustCompile("`([^`]+)`")
	rows := map[string][2][]string{}
	for _, l := range strings.Split(doc[i:j], "\n") {
		cells := strings.Split(l, "|")
		if len(cells) != 5 || !strings.Contains(cells[2]+cells[3], "`") {
			continue
		}
		var cols [2][]string
		for c := range 2 {
			for _, m := range word.FindAllStringSubmatch(cells[2+c], -1) {
				cols[c] = append(cols[c], m[1])
			}
		}
		rows[strings.TrimSpace(cells[1])] = cols
	}
	return rows
}
