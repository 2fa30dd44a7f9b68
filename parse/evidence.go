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
	// The wordy forms of a reference agents write on evidence lines:
	// "`a.sh` lines 74-81", "commands/x.md line 28", "a.go (lines 3–4)",
	// "CLAUDE.md L49-54", "a.go#L12-L14". The path is refRe's (refPath).
	lineWordRe = regexp.MustCompile(refPath +
		"`?" + `(?:\s*,?\s*\(?\s*(?:[Ll]ines?\s*|L)(\d{1,7})(?:\s*[-–]\s*L?(\d{1,7}))?|#L(\d{1,7})(?:-L?(\d{1,7}))?)\b`)
)

// maxExcerpt caps the excerpt of one claim; a longer fenced block is cut at a
// line boundary (the comparison is a substring match, so a cut excerpt still
// checks what it holds).
const maxExcerpt = 64 << 10

// evidenceClaims reads the evidence claims of a finding's description block,
// lines[lo:hi] (SPEC §2.4): an Evidence line naming path:line or
// path:line-line (or a wordy form: "path lines 12-14", "path#L12-L14"),
// followed (after blank lines and an optional Excerpt label) by a fenced
// block holding the excerpt. An Evidence line with no fenced block after it
// is a claim without an excerpt; the other references on the line are claims
// without excerpts. An Evidence label with nothing after it introduces the
// lines under it: each list item or bold lead-in there that starts with a
// reference is a claim, with the fenced block after it as its excerpt.
// Quoted text on an evidence line is not an excerpt: only a fenced block is.
func evidenceClaims(lines []line, lo, hi int) []Claim {
	var claims []Claim
	for i := lo; i < hi; i++ {
		if lines[i].masked || !isEvidenceLine(lines[i].text) {
			continue
		}
		var cs []Claim
		cs, i = evidenceClaimAt(lines, i, hi)
		claims = append(claims, cs...)
	}
	return claims
}

// isEvidenceLine reports whether s is an Evidence line (evidenceRe).
func isEvidenceLine(s string) bool {
	return containsFold(s, "evidence") && evidenceRe.MatchString(s)
}

// evidenceClaimAt reads the claims of the Evidence line lines[i], in the
// block that ends before lines[hi]: those of the line and of the excerpt
// after it, or of the list under a bare label. It returns them and the
// index of the last line it read.
func evidenceClaimAt(lines []line, i, hi int) ([]Claim, int) {
	m := evidenceRe.FindStringSubmatch(lines[i].text)
	rest := strings.TrimSpace(strings.ReplaceAll(m[1], "**", " "))
	if rest == "" {
		return labelClaims(lines, i, hi)
	}
	refs := evidenceRefs(rest)
	if len(refs) == 0 {
		return nil, i
	}
	claims := make([]Claim, 0, len(refs))
	c := claimOf(refs[0])
	c.Line = lines[i].num
	c.Excerpt, i = excerptAfter(lines, i, hi)
	claims = append(claims, c)
	for _, r := range refs[1:] {
		extra := claimOf(r)
		extra.Line = c.Line
		claims = append(claims, extra)
	}
	return claims, i
}

// labelClaims reads the claims under a bare Evidence label at lines[at]: the
// list items (indented deeper than the label, when the label is one) and bold
// lead-ins that follow, with the fenced blocks among them, up to a heading, a
// rule, or a line of another kind. Each item that starts with a reference is
// a claim. It returns the claims and the index of the last line read.
func labelClaims(lines []line, at, hi int) ([]Claim, int) {
	var claims []Claim
	labelKind, labelIndent, _ := listItem(lines[at].text)
	last := at
	for j := at + 1; j < hi; j++ {
		l := lines[j]
		t := strings.TrimSpace(l.text)
		if t == "" || l.fenced {
			continue // a fence not taken as an excerpt below belongs to no claim
		}
		if l.masked || l.level > 0 || isRule(t) {
			break
		}
		body := t
		if k, indent, b := listItem(l.text); k != 0 {
			if labelKind != 0 && indent <= labelIndent {
				break // the label's next sibling
			}
			body = b
		} else if !strings.HasPrefix(t, "**") {
			break // running text: the label's block is over
		}
		if evidenceRe.MatchString(l.text) {
			break // the next Evidence line
		}
		last = j
		lead := strings.TrimLeft(strings.ReplaceAll(body, "**", " "), "`*_ ")
		refs := evidenceRefs(lead)
		if len(refs) == 0 || !strings.HasPrefix(lead, claimOf(refs[0]).Path) {
			continue
		}
		c := claimOf(refs[0])
		c.Line = l.num
		c.Excerpt, last = excerptAfter(lines, j, hi)
		j = last
		claims = append(claims, c)
	}
	return claims, last
}

// excerptAfter returns the excerpt following the claim at lines[i]: the next
// fenced block, with only blank lines or an Excerpt label before it, and the
// index of the last line it read (i when there is no excerpt).
func excerptAfter(lines []line, i, hi int) (string, int) {
	j := i + 1
	for j < hi && j < i+6 && !lines[j].fenced {
		t := strings.TrimSpace(lines[j].text)
		if t != "" && !excerptLabelRe.MatchString(t) {
			break
		}
		j++
	}
	if j >= hi || !lines[j].fenced || fenceOpen(lines[j].text) == "" {
		return "", i
	}
	// As in CommonMark, up to the fence's own indent is removed from each
	// line of the block (a fence indented under a list item).
	indent := len(lines[j].text) - len(strings.TrimLeft(lines[j].text, " "))
	var b strings.Builder
	k := j + 1
	for ; k < len(lines) && lines[k].fenced; k++ {
		if f := fenceOpen(lines[k].text); f != "" && strings.TrimSpace(strings.Trim(lines[k].text, " "+f[:1])) == "" && (k+1 >= len(lines) || !lines[k+1].fenced) {
			break // the closing fence
		}
		if b.Len()+len(lines[k].text) >= maxExcerpt {
			// Too long: keep what fits, skip to the closing fence.
			for k+1 < len(lines) && lines[k+1].fenced {
				k++
			}
			break
		}
		text := lines[k].text
		for n := 0; n < indent && strings.HasPrefix(text, " "); n++ {
			text = text[1:]
		}
		b.WriteString(text)
		b.WriteByte('\n')
	}
	return b.String(), min(k, len(lines)-1)
}

// evidenceRefs returns the references of an evidence line, in order of
// appearance: path:line and path:line-line (fileRefs), and the wordy forms of
// lineWordRe, as "path:line[-line]".
func evidenceRefs(s string) []string {
	type at struct {
		pos int
		ref string
	}
	var found []at
	plain := strings.ReplaceAll(s, "`", " ")
	for _, r := range fileRefs(plain) {
		found = append(found, at{strings.Index(plain, r[:strings.LastIndexByte(r, ':')]+":"), r})
	}
	for _, m := range lineWordRe.FindAllStringSubmatchIndex(s, -1) {
		path := s[m[2]:m[3]]
		if m[2] >= 3 && strings.HasSuffix(s[:m[2]], "://") {
			continue
		}
		g := m[4:8] // "lines 12-14"
		if g[0] < 0 {
			g = m[8:12] // "#L12-L14"
		}
		start := s[g[0]:g[1]]
		ref := path + ":" + start
		if g[2] >= 0 && s[g[2]:g[3]] != start {
			ref += "-" + s[g[2]:g[3]]
		}
		found = append(found, at{m[2], ref})
	}
	// Order by position; a wordy form never repeats a plain one (their paths
	// are followed by different characters), but drop exact duplicates.
	for i := 1; i < len(found); i++ {
		for j := i; j > 0 && found[j].pos < found[j-1].pos; j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
	refs := make([]string, len(found))
	for i, f := range found {
		refs[i] = f.ref
	}
	return mergeRefs(nil, refs)
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

// Ref returns the claim as a file reference: "path:12" or "path:12-14".
func (c Claim) Ref() string {
	if c.End != c.Start {
		return c.Path + ":" + strconv.Itoa(c.Start) + "-" + strconv.Itoa(c.End)
	}
	return c.Path + ":" + strconv.Itoa(c.Start)
}
