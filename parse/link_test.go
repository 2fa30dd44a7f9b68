package parse

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
)

// The plain linkDescriptions: each block read from its opening line to its
// end (blockEndPlain, the former blockEnd), every line of it looked at. linkDescriptions reads
// the ends, sizes and Evidence lines of all blocks in one pass first
// (blocks); TestLinkDescriptionsPlain and FuzzLinkDescriptions hold the
// two together.
func (p *reportParser) linkDescriptionsPlain() {
	p.linkBlocks(nil, func(f *Finding, i, next int, own bool) {
		l := p.lines[i]
		end := min(blockEndPlain(p.lines, i), next)
		size, last := 0, i
		var refs []string // the block's, merged into the finding's at once
		for n, bl := range p.lines[i:end] {
			if size+len(bl.text) > maxDescription {
				break
			}
			size += len(bl.text) + 1
			last = i + n
			// The references of a prose list item or bold lead-in are
			// already the finding's: the prose walk read them in the same
			// text, and reading them again doubled the parse time.
			if !bl.masked && !(n == 0 && own && l.level == 0) {
				refs = append(refs, fileRefs(bl.text)...)
			}
		}
		if size > 0 {
			f.Description = descriptionPlain(p.src, p.lines[i:last+1], size)
		}
		claims := evidenceClaims(p.lines, i, end)
		for _, c := range claims {
			// A claim in a wordy form ("a.go lines 3-4") is a reference too.
			refs = append(refs, c.Ref())
		}
		f.FileRefs = mergeRefs(f.FileRefs, refs)
		f.Evidence = append(f.Evidence, claims...)
	})
}

func descriptionPlain(src string, ls []line, size int) string {
	whole := true
	for _, l := range ls {
		if e := int(l.start) + len(l.text); l.start < 0 || e >= len(src) || src[e] != '\n' {
			whole = false
			break
		}
	}
	if whole {
		return src[ls[0].start : int(ls[0].start)+size]
	}
	var b strings.Builder
	b.Grow(size)
	for _, l := range ls {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

func blockEndPlain(lines []line, i int) int {
	l := lines[i]
	if l.level == 0 && strings.HasPrefix(strings.TrimSpace(l.text), "|") {
		return i + 1 // a table row: a block of its own
	}
	leadIn, paragraph := false, false
	if k, _, _ := listItem(l.text); k == 0 && l.level == 0 {
		leadIn = true
		paragraph = !strings.HasPrefix(strings.TrimSpace(l.text), "**")
	}
	for j := i + 1; j < len(lines); j++ {
		n := lines[j]
		if n.masked {
			continue
		}
		if n.level > 0 {
			if l.level == 0 || n.level <= l.level {
				return j
			}
			continue
		}
		if l.level == 0 {
			t := strings.TrimSpace(n.text)
			if paragraph && (t == "" || blockID(n) != "") {
				return j // a plain paragraph ends at a blank line or the next ID
			}
			if k, indent, _ := listItem(n.text); k != 0 && indent < 2 && !leadIn {
				return j
			}
			if strings.HasPrefix(t, "**") || isRule(t) {
				return j
			}
		}
	}
	return len(lines)
}

// linkPieces are lines of the kinds that open, end and fill blocks.
var linkPieces = []string{
	"", "# Title", "## Findings", "### AR-001: Title at a.go:3", "#### Sub", "- **[P1] Item** at b.go:4-5", "  - nested c.go:6",
	"1. **AR-002** (P2): numbered", "**AR-003 — P1: Bold lead-in**", "__P1: Underlined lead-in__", "**Evidence**: `d.go:7-8`",
	"- **Evidence:** e.go lines 9-10", "Evidence:", "- f.go:11", "  ```go", "  code", "  ```", "**Excerpt**:", "```", "x := 1",
	"---", "text with g.go:12", "| Severity | Title |", "|---|---|", "| High | Row at h.go:13 |", "| P0 | Row two |",
	"<!-- c -->", "<!--", "-->", "{", "  \"title\": \"T\", \"severity\": \"high\"", "}", "### P0 — Heading finding",
	"- [ ] **HIGH**: box i.go:14", "AR-004: plain", "Verdict: risky",
}

// randomLinkReport is a report of n random pieces, some with \r\n ends.
func randomLinkReport(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(linkPieces[r.IntN(len(linkPieces))])
		if r.IntN(8) == 0 {
			b.WriteString("\r\n")
		} else {
			b.WriteString("\n")
		}
	}
	if r.IntN(4) == 0 {
		// A description longer than maxDescription.
		b.WriteString(strings.Repeat("long line at j.go:15 "+strings.Repeat("x", 200)+"\n", r.IntN(200)))
	}
	return b.String()
}

// checkLinkPlain links the findings of text both ways and compares.
func checkLinkPlain(t *testing.T, text string) {
	t.Helper()
	r := ReadReportString(text)
	if len(r.Findings) == 0 {
		return
	}
	src, lines := splitLines(text)
	mask(lines)
	unlinked := func() []Finding {
		fs := slices.Clone(r.Findings)
		for i := range fs {
			fs[i].Description, fs[i].Evidence = "", nil
			fs[i].FileRefs = slices.Clone(fs[i].FileRefs)
		}
		return fs
	}
	got := &reportParser{r: &Report{Findings: unlinked()}, src: src, lines: lines}
	want := &reportParser{r: &Report{Findings: unlinked()}, src: src, lines: lines}
	got.linkDescriptions()
	want.linkDescriptionsPlain()
	if !reflect.DeepEqual(got.r.Findings, want.r.Findings) {
		for i := range got.r.Findings {
			if g, w := got.r.Findings[i], want.r.Findings[i]; !reflect.DeepEqual(g, w) {
				t.Fatalf("finding %d of %q:\n got %+v\nwant %+v", i, text, g, w)
			}
		}
	}
}

// TestLinkDescriptionsPlain compares linkDescriptions with the plain one
// on random reports of headings, items, lead-ins, tables, fences, Evidence
// lines and long descriptions, and on the golden cases.
func TestLinkDescriptionsPlain(t *testing.T) {
	for _, b := range txtartest.Files(t, "testdata/report/*.txtar", func(n string) bool { return strings.HasSuffix(n, ".md") }) {
		checkLinkPlain(t, string(b))
	}
	// Descriptions of maxDescription bytes and a few more or less: the
	// last line fits or not.
	for _, head := range []string{"- **[P1] Item** at a.go:1\n", "### P1: Heading\n", "| P1 | Row |\n"} {
		for d := -3; d <= 3; d++ {
			for _, lines := range []int{1, 2, 40} {
				var b strings.Builder
				b.WriteString("| Severity | Title |\n|---|---|\n")
				b.WriteString(head)
				rest := maxDescription + d - len(head)
				for k := range lines {
					n := rest/lines - 1
					if k == lines-1 {
						n = rest - (lines-1)*(rest/lines) - 1
					}
					b.WriteString("x b.go:2 " + strings.Repeat("y", n-9) + "\n")
				}
				b.WriteString("more c.go:3\n")
				checkLinkPlain(t, b.String())
			}
		}
	}
	rnd := rand.New(rand.NewPCG(26, 3))
	for range 3000 {
		checkLinkPlain(t, randomLinkReport(rnd, 1+rnd.IntN(60)))
	}
}

// FuzzLinkDescriptions: linkDescriptions gives what the plain one gives.
func FuzzLinkDescriptions(f *testing.F) {
	for _, b := range txtartest.Files(f, "testdata/report/*.txtar", func(n string) bool { return strings.HasSuffix(n, ".md") }) {
		f.Add(b)
	}
	rnd := rand.New(rand.NewPCG(26, 4))
	for range 20 {
		f.Add([]byte(randomLinkReport(rnd, 40)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLinkPlain(t, string(data))
	})
}

// blockIDPlain is blockID as it was first written, every line read: the
// reference for its digit test.
func blockIDPlain(l line) string {
	t := strings.TrimSpace(l.text)
	if l.level > 0 {
		t = l.head
		if m := trailingIDOf(t); m != nil && IsFindingID(m[1]) {
			return m[1]
		}
	} else if k, indent, body := listItem(l.text); k != 0 {
		if indent >= 2 {
			return ""
		}
		t = body
	} else if t == "" || l.text[0] == ' ' || l.text[0] == '\t' {
		return ""
	}
	t = strings.TrimSpace(stripNumbering(stripBold(t)))
	if m, ok := markerAt(t, false); ok {
		t = strings.TrimLeft(t[m.end:], sepChars)
	}
	id, rest, ok := leadID(t)
	if !ok || !startsSep(rest) {
		return ""
	}
	return id
}

// idPieces are openings of blocks with IDs in every place blockID reads
// one, and their digits taken away.
var idPieces = []string{
	"### AR-001: Title", "### Title (SEC-12)", "### Title (SEC-x)", "- **F-3**: item", "1. **C1** — numbered", "**Finding 3**: lead-in",
	"Issue #2.1 - para", "riſk 4: x", "- [P1] GAP-2: x", "**[HIGH] H-01 Title**", "### 2. CRITICAL: SEC-P0-2: x", "  - SEC-1: nested",
	" SEC-1: indented", "P1: no id", "### Finding three", "- **F-x**: item", "CRIT-3 — x", "AB١: x", "## Q1", "Item 7",
}

// TestBlockIDAsPlain compares blockID with blockIDPlain on every line of
// the golden reports and of random reports of IDs, blocks and prose.
func TestBlockIDAsPlain(t *testing.T) {
	inputs := goldenReports(t)
	r := rand.New(rand.NewPCG(26, 8))
	for range 3000 {
		inputs = append(inputs, randomLinkReport(r, 1+r.IntN(30)))
	}
	for range 3000 {
		var b strings.Builder
		for n := 1 + r.IntN(12); n > 0; n-- {
			b.WriteString(idPieces[r.IntN(len(idPieces))] + "\n")
		}
		inputs = append(inputs, b.String())
	}
	found := 0
	for _, s := range inputs {
		_, lines := splitLines(s)
		mask(lines)
		for _, l := range lines {
			got, want := blockID(l), blockIDPlain(l)
			if got != want {
				t.Fatalf("blockID(%q) = %q; plain: %q", l.text, got, want)
			}
			if got != "" {
				found++
			}
		}
	}
	if found < 5000 {
		t.Errorf("%d lines open with an ID; want 5000 or more", found)
	}
}
