package parse

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// phraseTokens are the pieces random severity values are made of: every
// word of the vocabulary in three cases, the words of each phrase alone,
// level numbers, group and filler words, emoji, the characters trimmed
// around a value and the separators between its words.
var phraseTokens = func() []string {
	toks := []string{
		"Sev", "sev", "SEV-1", "Severity", "severity", "3", "1", "0", "12", "Priority", "prio", "PRIO", "P0", "p1", "P2",
		"P10", "Issues", "issues", "Findings", "and", "to", "or", "for", "before", "merge", "release", "Ship", "Blockers",
		"Non", "non-blocking", "Title", "Mrnklgwpj", "x", "İSSUES", "PRİO", "İ", "\u212a", "ſev", "é", "Ünïcode",
		"🔴", "🟠", "🟡", "🟢", "⚠️", "✅", "\ufe0f", "\u200d", "**", "*", "_", "__", "`", "[", "]", "(", ")", "\"", "'",
		".", ":", "...", "—", "–", "-", "--", "/", ",", "|", "&", " ", "  ", "\t", "\u00a0", "\u3000", "\xff", "(2 items)",
	}
	for _, r := range vocabulary {
		for _, w := range append(append([]string{}, r.marker...), r.position...) {
			toks = append(toks, w, strings.ToUpper(w), strings.ToUpper(w[:1])+w[1:], w+"s")
			toks = append(toks, strings.Fields(w)...)
			toks = append(toks, strings.ReplaceAll(w, " ", "-"), strings.ReplaceAll(w, " ", "_"))
		}
	}
	return toks
}()

// randomPhrase joins one to seven tokens, glued or with a separator.
func randomPhrase(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.IntN(7); n > 0; n-- {
		b.WriteString(phraseTokens[r.IntN(len(phraseTokens))])
		switch r.IntN(6) {
		case 0, 1, 2:
			b.WriteByte(' ')
		case 3:
			b.WriteString([]string{"-", "/", ", ", " - ", "\t", " & ", " (", ") ", ": ", " — "}[r.IntN(10)])
		}
	}
	return b.String()
}

// goldenReports returns the golden report archives' text.
func goldenReports(t *testing.T) []string {
	files, err := filepath.Glob("testdata/report/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("golden reports: %v, %d files", err, len(files))
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// goldenLines returns the lines of the golden report archives, and their
// headings' text less the '#'s.
func goldenLines(t *testing.T) []string {
	var out []string
	for _, r := range goldenReports(t) {
		for _, l := range strings.Split(r, "\n") {
			out = append(out, l, strings.TrimLeft(l, "# "))
		}
	}
	return out
}

// FuzzPhrasesAsPlain: severityPhrase, groupPhrase and oneSeverity read as
// their plain forms do.
func FuzzPhrasesAsPlain(f *testing.F) {
	for _, s := range []string{"Must fix", "** Must fix", "🔴 nice to have", "High .", "PRİO 1", "Sev 1", "\u00a0 BASSE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { phrasesAsPlain(t, s) })
}

// TestPhrasesAsPlain compares severityPhrase, groupPhrase and oneSeverity
// with their plain forms below (every word split into a new slice, every
// two and three words joined and looked up) on the golden reports' lines
// and on random values of vocabulary words, level numbers, emoji and the
// characters trimmed around them.
func TestPhrasesAsPlain(t *testing.T) {
	inputs := goldenLines(t)
	r := rand.New(rand.NewPCG(26, 7))
	for range 100000 {
		inputs = append(inputs, randomPhrase(r))
	}
	for _, s := range inputs {
		phrasesAsPlain(t, s)
	}
}

// phrasesAsPlain fails t unless severityPhrase, oneSeverity and
// groupPhrase read s as their plain forms do.
func phrasesAsPlain(t *testing.T, s string) {
	t.Helper()
	for _, pos := range []bool{false, true} {
		sev, c, ok := severityPhrase(s, pos)
		wsev, wc, wok := plainSeverityPhrase(s, pos)
		if sev != wsev || c != wc || ok != wok {
			t.Fatalf("severityPhrase(%q, %v) = %q, %d, %v; plain: %q, %d, %v", s, pos, sev, c, ok, wsev, wc, wok)
		}
		sev, c, ok = oneSeverity(s, pos)
		wsev, wc, wok = plainOneSeverity(s, pos)
		if sev != wsev || c != wc || ok != wok {
			t.Fatalf("oneSeverity(%q, %v) = %q, %d, %v; plain: %q, %d, %v", s, pos, sev, c, ok, wsev, wc, wok)
		}
	}
	sev, ok := groupPhrase(s)
	wsev, wok := plainGroupPhrase(s)
	if sev != wsev || ok != wok {
		t.Fatalf("groupPhrase(%q) = %q, %v; plain: %q, %v", s, sev, ok, wsev, wok)
	}
}

// plainSeverityPhrase is severityPhrase as it was written first: the reference.
func plainSeverityPhrase(v string, position bool) (Severity, sevClass, bool) {
	if sev, c, ok := plainOneSeverity(v, position); ok {
		return sev, c, true
	}
	parts := strings.FieldsFunc(v, func(r rune) bool {
		return r == '/' || r == '-' || r == ',' || r == '|' || r == '–' || unicode.IsSpace(r)
	})
	best, class, n := Severity(""), sevNone, 0
	var levels [4]bool // the levels named: three or more make a scale
	improvement := false
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		if sev, c, ok := plainOneSeverity(p, position); ok {
			n++
			improvement = improvement || c == sevImprovement
			if r := sev.Rank(); r < 4 {
				levels[r] = true
			}
			if c == sevFinding && (class != sevFinding || sev.Rank() < best.Rank()) {
				best, class = sev, c
			} else if class == sevNone {
				class = c
			}
			continue
		}
		// Two or three words of one phrase: "must fix", "nice to have".
		if i+1 < len(parts) {
			if sev, c, ok := plainOneSeverity(p+" "+parts[i+1], position); ok {
				i++
				n++
				if class != sevFinding || sev.Rank() < best.Rank() {
					best, class = sev, c
				}
				continue
			}
		}
		if i+2 < len(parts) {
			if sev, c, ok := plainOneSeverity(p+" "+parts[i+1]+" "+parts[i+2], position); ok {
				i += 2
				n++
				if class != sevFinding || sev.Rank() < best.Rank() {
					best, class = sev, c
				}
				continue
			}
		}
		switch strings.ToLower(p) {
		case "to", "or", "and", "priority", "severity", "level", "prio", "sev", "issue", "issues", "concern", "concerns", "finding", "findings", "bug", "bugs", "problem", "problems", "vulnerability", "vulnerabilities":
			if i > 0 || strings.EqualFold(p, "priority") {
				continue
			}
		}
		if isEmojiMark(p) {
			continue
		}
		return "", sevNone, false
	}
	named := 0
	for _, l := range levels {
		if l {
			named++
		}
	}
	if named >= 3 {
		// "High/Medium/Low", "Critical / High / Medium / Low": the
		// scale a list is rated on, not a level.
		return "", sevNone, false
	}
	if improvement && n > 0 {
		// "Important improvements": an improvement stays one (SPEC §2.3).
		return "", sevImprovement, true
	}
	return best, class, n > 0
}

// plainGroupPhrase is groupPhrase as it was written first: the reference.
func plainGroupPhrase(core string) (Severity, bool) {
	if core == "" || len(core) > 80 {
		return "", false
	}
	if sev, c, ok := plainSeverityPhrase(strings.Trim(core, " *_`[]"), true); ok && c == sevFinding {
		return sev, true
	}
	words := strings.FieldsFunc(core, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '/' || r == ',' || r == '&' || r == '(' || r == ')' || r == ':' || r == '—' || r == '–'
	})
	best, found := Severity(""), false
	for i := 0; i < len(words); i++ {
		w := strings.Trim(words[i], "-*_`[]")
		if w == "" || groupWordsList[strings.ToLower(w)] {
			continue
		}
		if i+1 < len(words) {
			if sev, c, ok := plainOneSeverity(w+" "+strings.Trim(words[i+1], "-*_`[]"), true); ok && c == sevFinding {
				if !found || sev.Rank() < best.Rank() {
					best, found = sev, true
				}
				i++
				continue
			}
		}
		if sev, c, ok := plainOneSeverity(w, true); ok && c == sevFinding {
			if !found || sev.Rank() < best.Rank() {
				best, found = sev, true
			}
			continue
		}
		// "Ship-Blockers", "Merge-blocking": a compound word whose last
		// part is a severity.
		if i := strings.LastIndexByte(w, '-'); i > 0 && !negation(w[:i]) {
			if sev, c, ok := plainOneSeverity(w[i+1:], false); ok && c == sevFinding && sev == P0 {
				if !found || sev.Rank() < best.Rank() {
					best, found = sev, true
				}
				continue
			}
		}
		if isEmojiMark(w) {
			continue
		}
		return "", false
	}
	return best, found
}

// plainOneSeverity is oneSeverity as it was written first: the reference.
func plainOneSeverity(w string, position bool) (Severity, sevClass, bool) {
	w = strings.Trim(w, " \t*_`[]()\"'.:")
	if IsPLevel(w) {
		return pLevel(w), sevFinding, true
	}
	if sev, ok := sevScale(w); ok {
		return sev, sevFinding, true
	}
	if sev, ok := priorityLevel(w); ok && position {
		return sev, sevFinding, true
	}
	// An emoji mark before its word: "🔴Critical".
	if r, n := utf8.DecodeRuneInString(w); n > 1 && n < len(w) && isEmojiRune(r) {
		rest := strings.TrimLeft(w[n:], "\ufe0f ")
		if sev, c, ok := vocabWord(rest, position); ok {
			return sev, c, true
		}
	}
	return vocabWord(strings.TrimSuffix(w, "\ufe0f"), position)
}
