package parse

import "strings"

// Structures issue #26's sixth probe (probe9) found unread (SPEC §2.3).

// inflectedLevel reads w, a word of a group heading, as a severity
// adjective inflected to agree with the plural noun it follows, as
// French, Spanish, Portuguese, Italian and German write a group of
// findings: "Points bloquants", "Problemas críticos", "Kritische Punkte",
// "Points mineurs". The vocabulary holds the adjectives' plain forms
// ("bloquant", "crítico", "kritisch"); the word less a plural ending
// ("-s", "-es") or a German one ("-e", "-en") is read as a severity in a
// severity position. Only group headings ask (groupPhrase), where every
// other word names a list of findings.
func inflectedLevel(w string) (Severity, bool) {
	if len(w) < 6 {
		return "", false
	}
	lw := strings.ToLower(w)
	for _, end := range [...]string{"s", "es", "e", "en"} {
		if !strings.HasSuffix(lw, end) {
			continue
		}
		if sev, c, ok := oneSeverity(w[:len(w)-len(end)], true); ok && c == sevFinding {
			return sev, true
		}
	}
	return "", false
}
