package parse

import "strings"

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
