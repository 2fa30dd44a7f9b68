package parse

import (
	"regexp"
	"strings"
)

// refRe matches a file:line or file:line-line reference: a path whose last
// element has an extension, a colon, a line, an optional range end.
var refRe = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./~:-])((?:[A-Za-z0-9_.~@+-]+/)*[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*\.[A-Za-z][A-Za-z0-9]{0,9}):(\d{1,7})(?:\s?[-–]\s?(\d{1,7}))?\b`)

// fileRefs returns the file:line and file:line-line references in s, in
// order of appearance, without duplicates. URLs are not references.
func fileRefs(s string) []string {
	if !hasColonDigit(s) {
		return nil
	}
	var refs []string
	seen := map[string]bool{}
	for _, m := range refRe.FindAllStringSubmatchIndex(s, -1) {
		path := s[m[2]:m[3]]
		if m[2] >= 3 && strings.HasSuffix(s[:m[2]], "://") {
			continue
		}
		ref := path + ":" + s[m[4]:m[5]]
		if m[6] >= 0 && s[m[6]:m[7]] != s[m[4]:m[5]] {
			ref += "-" + s[m[6]:m[7]]
		}
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	return refs
}

// mergeRefs appends the refs of b not already in a.
func mergeRefs(a, b []string) []string {
	for _, r := range b {
		dup := false
		for _, x := range a {
			if x == r {
				dup = true
				break
			}
		}
		if !dup {
			a = append(a, r)
		}
	}
	return a
}

// hasColonDigit is a fast pre-check: a reference needs ":" then a digit.
func hasColonDigit(s string) bool {
	for i := strings.IndexByte(s, ':'); i >= 0 && i+1 < len(s); {
		if s[i+1] >= '0' && s[i+1] <= '9' {
			return true
		}
		j := strings.IndexByte(s[i+1:], ':')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
