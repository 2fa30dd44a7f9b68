package parse

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	// "**Evidence**: `path:12-14`", "Evidence: path:12", "- **Evidence:** `a.go:3`".
	evidenceRe = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*)?evidence(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.*)$`)
	// "**Excerpt**:" or "Excerpt:" labelling the fenced block that follows.
	excerptLabelRe = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*)?excerpt(?:\*\*)?\s*:?\s*(?:\*\*)?\s*:?\s*$`)
)

// evidenceClaims reads the evidence claims of a finding's description block,
// lines[lo:hi] (SPEC §2.4): an Evidence line naming path:line or
// path:line-line, followed (after blank lines and an optional Excerpt label)
// by a fenced block holding the excerpt. An Evidence line with no fenced block
// after it is a claim without an excerpt.
func evidenceClaims(lines []line, lo, hi int) []Claim {
	var claims []Claim
	for i := lo; i < hi; i++ {
		l := lines[i]
		if l.masked {
			continue
		}
		m := evidenceRe.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		refs := fileRefs(strings.ReplaceAll(m[1], "`", " "))
		if len(refs) == 0 {
			continue
		}
		c := claimOf(refs[0])
		c.Line = l.num
		// The excerpt: the next fenced block, with only blank lines or an
		// Excerpt label before it.
		j := i + 1
		for j < hi && j < i+6 && !lines[j].fenced {
			t := strings.TrimSpace(lines[j].text)
			if t != "" && !excerptLabelRe.MatchString(t) {
				break
			}
			j++
		}
		if j < hi && lines[j].fenced && fenceOpen(lines[j].text) != "" {
			var b strings.Builder
			k := j + 1
			for ; k < len(lines) && lines[k].fenced; k++ {
				if f := fenceOpen(lines[k].text); f != "" && strings.TrimSpace(strings.Trim(lines[k].text, " "+f[:1])) == "" && (k+1 >= len(lines) || !lines[k+1].fenced) {
					break // the closing fence
				}
				b.WriteString(lines[k].text)
				b.WriteByte('\n')
			}
			c.Excerpt = b.String()
			i = k
		}
		claims = append(claims, c)
		for _, r := range refs[1:] {
			extra := claimOf(r)
			extra.Line = l.num
			claims = append(claims, extra)
		}
	}
	return claims
}

// claimOf splits "path:12" or "path:12-14" into a claim.
func claimOf(ref string) Claim {
	i := strings.LastIndexByte(ref, ':')
	c := Claim{Path: ref[:i]}
	span := ref[i+1:]
	a, b, found := strings.Cut(span, "-")
	c.Start, _ = strconv.Atoi(a)
	c.End = c.Start
	if found {
		c.End, _ = strconv.Atoi(b)
	}
	return c
}
