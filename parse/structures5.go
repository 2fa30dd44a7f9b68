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
