package parse

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// inFieldRunPlain is inFieldRun read with no memo: each line's form read
// afresh wherever it is needed.
func inFieldRunPlain(lines []line, i int) bool {
	_, indent, _ := listItem(lines[i].text)
	form := func(j int) uint8 {
		k, in, _ := listItem(lines[j].text)
		if k == 0 || in != indent || !shortBoldField(lines[j].text) {
			return 1
		}
		if sevFieldOf(strings.TrimSpace(lines[j].text)) != nil {
			return 3
		}
		return 2
	}
	if form(i) < 2 {
		return false
	}
	blank := 0
	for j := i - 1; ; j-- {
		if j < 0 || i-j > 10 {
			return false
		}
		if strings.TrimSpace(lines[j].text) == "" {
			if blank++; blank > 1 {
				return false
			}
			continue
		}
		blank = 0
		if lines[j].level > 0 {
			if emptyTitle(lines[j].head) {
				return false
			}
			break
		}
		if form(j) < 2 {
			return false
		}
	}
	blank = 0
	for j := i + 1; j < len(lines) && j-i <= 10; j++ {
		if strings.TrimSpace(lines[j].text) == "" {
			if blank++; blank > 1 {
				return false
			}
			continue
		}
		blank = 0
		switch form(j) {
		case 3:
			return true
		case 1:
			return false
		}
	}
	return false
}

// fieldRunPieces build random reports of headings, bold fields and items.
var fieldRunPieces = []string{
	"### Alert 3: Path injection", "## Findings", "- **Rule:** `js/x`", "- **Severity:** High", "- **Severity:** Low",
	"  - **Severity:** High", "- **Tool:** scanner", "", "- plain item", "- **Long:** a sentence. Then more.",
	"Paragraph text.", "* **Query:** q", "- **Priority:** P1",
}

// TestFieldRunsAsPlain compares the memoised inFieldRun with
// inFieldRunPlain on every list item of the golden reports and of random
// reports, each line asked in a random order (the memo must not depend on
// the order it is filled in).
func TestFieldRunsAsPlain(t *testing.T) {
	inputs := goldenReports(t)
	r := rand.New(rand.NewPCG(3, 7))
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(30) {
			b.WriteString(fieldRunPieces[r.IntN(len(fieldRunPieces))])
			b.WriteByte('\n')
		}
		inputs = append(inputs, b.String())
	}
	seen := 0
	for _, in := range inputs {
		_, lines := splitLines(in)
		mask(lines)
		runs := fieldRuns{lines: lines}
		for _, i := range r.Perm(len(lines)) {
			if k, indent, _ := listItem(lines[i].text); k == 0 || indent >= 2 {
				continue
			}
			got, want := runs.inFieldRun(i), inFieldRunPlain(lines, i)
			if got != want {
				t.Fatalf("line %d of %q: inFieldRun %v, plain %v", i+1, in, got, want)
			}
			if want {
				seen++
			}
		}
	}
	if seen == 0 {
		t.Fatal("no line was in a field run: the inputs test nothing")
	}
}
