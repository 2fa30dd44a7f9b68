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

// clearlyRated reports whether a document rates what it lists as a
// report rates findings: a table whose severity or risk column (a name of
// sevFieldNames of rank severity or risk, not a priority) holds a level,
// a severity or risk field with a level, or a heading that opens with a
// level in brackets ("### [High] Tokens never expire"). A list of who
// took part ("Participants: security guild, backend") opens a threat
// model or an audit as it opens a meeting's notes: it makes a document
// minutes (isTemplate) only when nothing in it is clearly rated. A
// meeting's action items rated by priority stay tasks.
func clearlyRated(lines []line) bool {
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l.masked {
			continue
		}
		t := strings.TrimSpace(l.text)
		if l.level > 0 {
			if strings.HasPrefix(l.head, "[") {
				if j := strings.IndexByte(l.head, ']'); j > 0 {
					if _, c, ok := severityValue(l.head[1:j], true); ok && c == sevFinding {
						return true
					}
				}
			}
			continue
		}
		if strings.HasPrefix(t, "|") && i+1 < len(lines) && isDelimiterRow(lines[i+1].text) {
			if ratedTable(lines, i) {
				return true
			}
			continue
		}
		if m := sevFieldSplit(t); m != nil && sevRank(strings.ToLower(m[1])) <= rankRisk {
			if _, c, ok := severityValue(m[2], true); ok && c == sevFinding {
				return true
			}
		}
	}
	return false
}

// ratedTable reports whether the table whose header is lines[i] has a
// severity or risk column that holds a level in one of its rows.
func ratedTable(lines []line, i int) bool {
	for j, cell := range tableCells(lines[i].text) {
		name := strings.ToLower(strings.TrimSpace(trimEmoji(stripBold(cell))))
		if !sevColumn(name) || sevRank(name) > rankRisk {
			continue
		}
		for k := i + 2; k < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[k].text), "|"); k++ {
			cells := tableCells(lines[k].text)
			if j < len(cells) {
				if _, c, ok := severityValue(stripBold(cells[j]), true); ok && c == sevFinding {
					return true
				}
			}
		}
	}
	return false
}
