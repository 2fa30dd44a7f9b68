package parse

import (
	"regexp"
	"strings"
)

// refPath is the path of a file reference, as a regular expression with one
// group: directories, then a last element that has an extension ("a.go",
// "Makefile.am") or is a dotfile (".env", ".gitlab-ci.yml": a dot, then a
// letter), with no two dots in a row and no dot at its end. It must follow
// the start of the text or a character that cannot be part of a path, so
// that it never starts inside a word or a run of dots: "...:12",
// "so on...env:12", "etc.:3" and "v1.2:3" are not references.
// Every reference form (refRe here, the wordy forms of evidence lines) is
// built on it, so that a path is a path wherever an agent writes it.
const refPath = `(?:^|[^A-Za-z0-9_./~:-])((?:[A-Za-z0-9_.~@+-]+/)*` +
	`(?:[A-Za-z0-9_@+-]+(?:\.[A-Za-z0-9_@+-]+)*\.[A-Za-z][A-Za-z0-9]{0,9}|\.[A-Za-z][A-Za-z0-9_@+-]*(?:\.[A-Za-z0-9_@+-]+)*))`

// refRe matches a file:line or file:line-line reference: a refPath, a colon,
// a line, an optional range end.
var refRe = regexp.MustCompile(refPath + `:(\d{1,7})(?:\s?[-–]\s?(\d{1,7}))?\b`)

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
