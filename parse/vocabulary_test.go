package parse

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestVocabularyDoc holds docs/reports.md's severity table and the
// vocabulary table of severity.go together: the same words at the same
// levels, each in the same column.
func TestVocabularyDoc(t *testing.T) {
	rows := docRows(t, "vocabulary")
	for level, r := range rows {
		for c := range r {
			r[c] = slices.DeleteFunc(r[c], IsPLevel)
		}
		rows[level] = r
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

// sevValueCase is a value, whether it stands in a severity position, and
// the severity read from it (ok false: none).
type sevValueCase struct {
	in       string
	position bool
	want     Severity
	ok       bool
}

// TestSeverityValue reads the values of §2.3: compounds take the higher
// level; emoji, bold, counts and reasons are stripped; words of a
// severity position only count there.
func TestSeverityValue(t *testing.T) {
	for _, tt := range []sevValueCase{
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

// TestVocabWordASCII compares vocabWord's ASCII key, made on the stack,
// with vocabKey on random strings of the vocabulary's words, separators,
// white space and case, long and short.
func TestVocabWordASCII(t *testing.T) {
	var parts []string
	for k := range vocabIndex {
		if asciiOnly(k) {
			parts = append(parts, k, strings.ToUpper(k), k+"s", k+"S")
		}
	}
	slices.Sort(parts)
	parts = append(parts, "-", "_", " ", "\t", "\n", "\v", "\r", "x", "S", "é", "fix before merges", "p1", "P12", "  ")
	r := rand.New(rand.NewPCG(26, 5))
	for range 200000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		w := b.String()
		if !asciiOnly(w) {
			continue
		}
		var buf [32]byte
		got, ascii := asciiVocabKey(buf[:0], w)
		want := vocabKey(w)
		if !ascii {
			t.Fatalf("asciiVocabKey(%q): not ASCII", w)
		}
		_, okGot := vocabIndex[string(got)]
		_, okWant := vocabIndex[want]
		if len(want) <= vocabKeyMax+2 && string(got) != want || okGot != okWant {
			t.Fatalf("asciiVocabKey(%q) = %q, vocabKey %q", w, got, want)
		}
		sg, cg, og := vocabWord(w, true)
		k := want
		e, ok := vocabIndex[k]
		if !ok && len(k) > 3 && k[len(k)-1] == 's' {
			e, ok = vocabIndex[k[:len(k)-1]]
		}
		if og != ok || ok && (sg != e.sev || cg != e.class) {
			t.Fatalf("vocabWord(%q) = %v %v %v; the key %q gives %v %+v", w, sg, cg, og, k, ok, e)
		}
	}
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestVocabWordLong compares vocabWord with a plain lookup of vocabKey on
// random strings outside ASCII, long and short: the count that tells a
// key too long (vocabKeyLonger) never turns a key away.
func TestVocabWordLong(t *testing.T) {
	var parts []string
	for k := range vocabIndex {
		parts = append(parts, k, strings.ToUpper(k), k+"s")
	}
	slices.Sort(parts)
	parts = append(parts, "-", "_", " ", "\t", "\u00a0", "\u2003", "é", "✅", "—", "\u212a", "İ", "ẞ", "xx", "Fixed")
	r := rand.New(rand.NewPCG(26, 6))
	for range 100000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		w := b.String()
		sg, cg, og := vocabWord(w, true)
		k := vocabKey(w)
		e, ok := vocabIndex[k]
		if !ok && len(k) > 3 && k[len(k)-1] == 's' {
			e, ok = vocabIndex[k[:len(k)-1]]
		}
		if og != ok || ok && (sg != e.sev || cg != e.class) {
			t.Fatalf("vocabWord(%q) = %v %v %v; the key %q gives %v %+v", w, sg, cg, og, k, ok, e)
		}
	}
}
