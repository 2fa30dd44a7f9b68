package parse

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// sevFieldRe is sevFieldSplit's plain reference: the regexp that
// sevFieldNames stand for, built from them.
var sevFieldRe = regexp.MustCompile(sevFieldPattern())

// sevFieldPattern writes sevFieldNames as a regexp: an item's marker and
// bold around the name, the names in their order (the first that gives a
// match wins), a colon, the value.
func sevFieldPattern() string {
	alt := func(ws []string) string {
		q := make([]string, len(ws))
		for k, w := range ws {
			q[k] = regexp.QuoteMeta(w)
		}
		return "(?:" + strings.Join(q, "|") + ")"
	}
	var names []string
	for _, n := range sevFieldNames {
		p := alt(n.words)
		if n.lead != nil {
			p = alt(n.lead) + `\s+` + p
		}
		switch {
		case n.cvss:
			p += `(?:\s+v?[\d.]+)?(?:\s+(?:base\s+)?score)?`
		case n.tail != "":
			p += "(?:" + regexp.QuoteMeta(n.tail) + ")?"
		case n.more != nil:
			p += `(?:\s+` + alt(n.more) + `)?`
		}
		names = append(names, p)
	}
	return `(?i)^(?:[-*+]\s+)?(?:\*\*|__)?\s*(` + strings.Join(names, "|") + `)\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*(.*)$`
}

// sevFieldPieces are the parts random severity field lines are made of:
// every name of sevFieldNames in several cases, the folds (?i) reads outside
// ASCII, the optional parts of the names, and the separators.
var sevFieldPieces = []string{
	"-", "*", "+", " ", "  ", "\t", "\n", "\r", "\f", "\v", "**", "__", "_", ":", "：", ": ", "*:", "x", "\xff", "é",
	"Severity", "severity", "SEVERITY", "ſeverity", "sev", "Sev", "erity", "level", "Level", "rating", "RATING", "ratings",
	"Criticality", "risk", "Risk", "RIS\u212a", "riſk", "priority", "Priority", "impact", "Impact", "cvss", "CVSS", "v", "V",
	"3.1", "9", ".", "v3.1", "base", "Base", "score", "Score", "sévérité", "SÉVÉRITÉ", "Gravité", "priorité", "severidad",
	"Prioridad", "gravedad", "Schweregrad", "PRIORITÄT", "重要度", "严重程度", "严重性", "优先级", "심각도", "우선순위",
	"중요도", "mức độ", "MỨC ĐỘ", " nghiêm trọng", " NGHIÊM TRỌNG", "độ ưu tiên", "severidade", "gravidade", "prioridade",
	"深刻度", "风险等级", "серьезность", "Серьёзность", "СЕРЬЁЗНОСТЬ", "серь", "критичность", "ПРИОРИТЕТ", "High", "P1",
	"Critical — data loss", "Severity: High", "- **Severity:** ", "**Risk Level**: ", "CVSS v3.1 Base Score: ",
}

// TestSevFieldSplitAsRegexp compares sevFieldSplit with sevFieldRe's
// regexp on every golden line and random field lines.
func TestSevFieldSplitAsRegexp(t *testing.T) {
	inputs := fieldLines(t, rand.New(rand.NewPCG(31, 7)), 300000, sevFieldPieces)
	matched := 0
	for _, s := range inputs {
		for _, u := range []string{s, strings.TrimSpace(s)} {
			want := sevFieldRe.FindStringSubmatch(u)
			if got := sevFieldSplit(u); !reflect.DeepEqual(got, want) {
				t.Fatalf("sevFieldSplit(%q) = %q; regexp: %q", u, got, want)
			}
			if want != nil {
				matched++
			}
		}
	}
	if matched < 20000 {
		t.Errorf("%d severity field lines; want 20000 or more", matched)
	}
}

// FuzzSevFieldSplit holds sevFieldSplit to sevFieldRe's regexp on any
// text.
func FuzzSevFieldSplit(f *testing.F) {
	for _, s := range sevFieldPieces {
		f.Add(s)
	}
	f.Add("- **Severity Level:** High")
	f.Add("cvss v3.1 base score: 9.8")
	f.Fuzz(func(t *testing.T, s string) {
		want := sevFieldRe.FindStringSubmatch(s)
		if got := sevFieldSplit(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("sevFieldSplit(%q) = %q; regexp: %q", s, got, want)
		}
	})
}

// BenchmarkSevFieldSplit times sevFieldSplit and the regexp it stands
// for on the lines of a tracker export's field paragraph.
func BenchmarkSevFieldSplit(b *testing.B) {
	lines := []string{"**Priority:** High", "**Summary:** Ugfzo nzddactme vmopwinzr qyvhnxz", "**Key:** LED-1", "**Status:** Done",
		"- **Severity Level:** Critical", "**Risk:** the session cache"}
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			for _, l := range lines {
				sevFieldSplit(l)
			}
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			for _, l := range lines {
				sevFieldRe.FindStringSubmatch(l)
			}
		}
	})
}
