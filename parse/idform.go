package parse

import "strings"

// cutScopeTag cuts the scope tag an audit writes between a finding's ID
// and its title off the rest after the ID: "ACM-01-003 WP1: Stored XSS"
// names work package 1, and "Stored XSS" is the title. A tag is one
// short code of letters and digits (at most six bytes, with a digit and
// no severity) and a colon; anything else is left as it is.
func cutScopeTag(rest string) string {
	r := strings.TrimLeft(rest, " \t")
	i := strings.IndexByte(r, ':')
	if i < 2 || i > 6 || i+1 == len(r) || r[i+1] != ' ' {
		return rest
	}
	tag := r[:i]
	if !IsFindingID(tag) || IsPLevel(tag) || strings.ContainsAny(tag, "-_.") {
		return rest
	}
	if _, ok := sevScale(tag); ok {
		return rest
	}
	return r[i+1:]
}
