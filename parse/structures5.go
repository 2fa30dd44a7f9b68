package parse

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// dashTail reports whether the text after an item's bracketed severity
// opens with a dash before a description: "Missing CSRF token (high) —
// cookies only". Such a bracket ends the item's title as one at the end
// of the item does (markTrailScale).
func dashTail(s string) bool {
	t := strings.TrimLeft(s, " \t*_")
	for _, d := range []string{"— ", "– ", "- ", "-- "} {
		if strings.HasPrefix(t, d) && len(t) > len(d) && strings.TrimSpace(t[len(d):]) != "" {
			return len(s) > 0 && (s[0] == ' ' || s[0] == '*' || s[0] == '_')
		}
	}
	return false
}

// italicBracket drops the italics around a bracket that opens s, as
// "**Title** *(High)* — …" sets the level of a bold title apart.
func italicBracket(s string) string {
	if len(s) > 2 && (s[0] == '*' || s[0] == '_') && (s[1] == '(' || s[1] == '[') {
		return s[1:]
	}
	return s
}

// resourceLead reports whether t opens with the name of the thing a
// finding is about, a path or a resource written as the tool names it,
// before a colon: "deployment/api: container runs as root",
// "cronjob/reconcile: …". After a bracketed level ("[CRITICAL]
// deployment/api: …") such a name opens a title in lower case.
func resourceLead(t string) bool {
	w, rest, ok := strings.Cut(t, " ")
	if !ok || len(w) < 4 || !strings.HasSuffix(w, ":") || strings.TrimSpace(rest) == "" {
		return false
	}
	w = w[:len(w)-1]
	if !strings.ContainsAny(w, "/.") || strings.ContainsAny(w, "()[]*`") {
		return false
	}
	for _, c := range w {
		if c <= ' ' {
			return false
		}
	}
	return true
}

// emojiBoldLead returns the bold lead-in behind the emoji that open t,
// when its bold part is a severity set apart by a dash or a colon before
// a title ("⛔ **BLOCKER** — ALTER TABLE rewrites the table",
// "⚠️ **Warning:** …"), else "". A mark before a bold title with no
// severity word is left to the rules of marks.
func emojiBoldLead(t string) string {
	r, n := utf8.DecodeRuneInString(t)
	if n <= 1 || !isEmojiRune(r) {
		return ""
	}
	b := trimEmoji(t)
	if !strings.HasPrefix(b, "**") {
		return ""
	}
	lead, after, ok := boldLead(b)
	if !ok || !apartLead(lead, after) && !strings.HasSuffix(strings.TrimSpace(lead), ":") {
		return ""
	}
	if _, c, ok := severityValue(strings.TrimRight(lead, ": "), false); !ok || c != sevFinding {
		return ""
	}
	return b
}

// scannerTagged reads a scanner's result line whose severity is a
// bracketed tag after the title, linked to the advisory ("✗ Prototype
// Pollution [Critical Severity][https://…] in lodash@4.17.15"), and
// returns it as the line it stands for, "[Critical] Prototype Pollution
// in lodash@4.17.15"; else "".
func scannerTagged(t string) string {
	rest, ok := afterCross(t)
	if !ok {
		return ""
	}
	i := strings.Index(rest, " [")
	if i <= 0 {
		return ""
	}
	j := strings.IndexByte(rest[i:], ']')
	if j < 0 {
		return ""
	}
	inner := rest[i+2 : i+j]
	w, noun, ok := strings.Cut(inner, " ")
	if !ok || !strings.EqualFold(noun, "severity") {
		return ""
	}
	if _, c, ok := severityValue(w, false); !ok || c != sevFinding {
		return ""
	}
	after := rest[i+j+1:]
	if strings.HasPrefix(after, "[") || strings.HasPrefix(after, "(") {
		if k := strings.IndexAny(after, "])"); k > 0 {
			after = after[k+1:] // the link to the advisory
		}
	}
	title := strings.TrimSpace(strings.TrimSpace(rest[:i]) + " " + strings.TrimSpace(after))
	return "[" + w + "] " + title
}

// cutParenReason cuts the reason in parentheses that ends a severity
// field's value: "High (downgraded from Critical after discussion)",
// "Major (users lose receipts)", "P2 (new finding)". A reason is words,
// two or more opening
// with a letter, not a second value or a count. Only a field's value is
// so read: in a heading or an item, "P1 (pre-existing, newly found)" is
// a title's part.
func cutParenReason(v string) (string, bool) {
	t := strings.TrimSpace(stripBold(v))
	if !strings.HasSuffix(t, ")") {
		return "", false
	}
	i := strings.IndexByte(t, '(')
	if i <= 0 || strings.IndexByte(t[i+1:], '(') >= 0 {
		return "", false
	}
	p := t[i+1 : len(t)-1]
	r, _ := utf8.DecodeRuneInString(p)
	if !unicode.IsLetter(r) || len(strings.Fields(p)) < 2 {
		return "", false
	}
	return strings.TrimSpace(t[:i]), true
}

// numberedWords reads a severity field's value that gives a number of a
// scale and then, after a dash or a colon, the words of that level ("3 —
// Major usability problem", "4 - Usability catastrophe"): the words,
// which state what the number does not.
func numberedWords(v string) (string, bool) {
	t := strings.TrimSpace(stripBold(v))
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 0 || i > 2 {
		return "", false
	}
	r := strings.TrimLeft(t[i:], " \t")
	if len(r) == len(t[i:]) && !strings.HasPrefix(r, ":") {
		return "", false // "3rd", "10x"
	}
	w := strings.TrimLeft(r, ":—–- \t")
	if len(w) == len(r) || w == "" {
		return "", false
	}
	return w, true
}

// qualifiedBracket reads, in an item, a severity in brackets qualified by
// what it rates: "1. **N+1 queries (HIGH impact)** — …", "(Critical
// risk)". It returns what bracketSeverity does. A heading so written
// ("## Finding 1: … (HIGH IMPACT)") is left to the heading rules: over
// its own sub-sections it is no label of them.
func qualifiedBracket(s string) (Severity, sevClass, string, int, int, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '(' && s[i] != '[' {
			continue
		}
		close := byte(')')
		if s[i] == '[' {
			close = ']'
		}
		j := strings.IndexByte(s[i+1:], close)
		if j <= 0 || j > 40 {
			continue
		}
		inner := s[i+1 : i+1+j]
		k := strings.LastIndexByte(inner, ' ')
		if k <= 0 {
			continue
		}
		if q := strings.ToLower(inner[k+1:]); q != "impact" && q != "risk" {
			continue
		}
		if sev, c, ok := severityValue(inner[:k], true); ok && c == sevFinding && !isCount(inner[:k]) {
			return sev, c, inner[:k], i, i + 2 + j, true
		}
	}
	return "", sevNone, "", 0, 0, false
}

// deliveredFormatRe matches a sentence that presents what follows as
// written in the format the author was asked for: "Here is my review in
// the requested JSON format", "using the required format".
var deliveredFormatRe = regexp.MustCompile(`(?i)\b(?:in|using|per|following)\s+(?:the\s+)?(?:requested|required|agreed|specified|expected)\s+(?:[a-z]+\s+)?format\b`)

// deliveredFormat reports whether t introduces a block as the author's
// answer in the requested format, not as an example of a format: it says
// so (deliveredFormatRe) and names no example, sample, schema or
// template.
func deliveredFormat(t string) bool {
	if !deliveredFormatRe.MatchString(t) {
		return false
	}
	l := strings.ToLower(t)
	for _, w := range []string{"example", "sample", "schema", "template", "e.g."} {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}
