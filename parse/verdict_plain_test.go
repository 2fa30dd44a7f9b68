package parse

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// verdictPieces are the lines random reports for overallVerdict are made
// of: summary headings that recur or not, in any case; labels that name a
// verdict or not, with emphasis, white space and colons around their
// values; verdict headings with their value below; ticked options; prose.
var verdictPieces = []string{
	"# Review", "## Summary", "## SUMMARY", "## summary", "### Assessment", "### ASSESSMENT", "## Findings", "## Details",
	"## Executive Summary — Verdict: approve", "## Verdict", "## Final Verdict", "## Conclusion", "## Result",
	"## Recommendation", "## Status", "## fİnal", "## Final", "## Decision", "## Go/No-Go", "### File a.go", "#### Notes",
	"```", "<!-- x -->", "", "Some text.", "The status: approved by nobody", "See the result: approve it.",
	"Status: approved", "**Status:** Resolved", "- **Result:** PASS", "Assessment: needs work", "Outcome: rejected",
	"Decision：GO", "Decision： **NO-GO**", "Result：x: approve", "Recommendation: __REJECT__", "Status: ** approve",
	"Status:   ", "Status: **", "Status: __", "Status: __ approve", "Status:\tAPPROVE — with notes", "Status: error",
	"Result: Approve / Reject", "Status:approved (after fixes)", "Status:: approve", "status: approve: yes",
	"- Status - approve", "Gate Status: PASS", "**Overall Assessment:** LGTM", "Final status: blocked",
	"__Result__: ship it", "- **Status**: __changes requested__", "Status: \v approve", "Status: \f approve",
	"**Verdict:** needs-changes", "Verdict: safe", "- **Verdict**: risky — two criticals", "Verdict: error",
	"- [x] REVISE", "- [ ] APPROVE", "- [ ] REJECT", "- [x] APPROVE", "APPROVED", "NO-GO", "needs work", "LGTM",
	"Status: __ _approve_", "Status:\t__ _approve_", "Result:\f__\r'approve'", "Review status: Approved", "Merge readiness: blocked", "New status: fail", "current result: PASS",
	"## Status: approved", "> **Decision:** approve", "### Result: **PASS**",
	"| Verdict | NEEDS WORK |", "| **Decision** | approve |", "| Status | Count |", "Ship it? No", "Ready to merge? No",
	"Approval status: Approved with conditions", "Everything is fixed. Approved.", "Pass the token. Then merge.",
}

// randomVerdictReport joins one to 24 pieces.
func randomVerdictReport(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.IntN(24); n > 0; n-- {
		b.WriteString(verdictPieces[r.IntN(len(verdictPieces))])
		b.WriteByte('\n')
	}
	return b.String()
}

// TestOverallVerdictAsPlain compares overallVerdict with its plain form
// below (every heading lowered and counted, every label line run through
// verdictLabelRe) on the golden reports and on random reports in which a
// status or result line under a summary heading, once or recurring,
// decides the verdict by its place.
func TestOverallVerdictAsPlain(t *testing.T) {
	inputs := goldenReports(t)
	r := rand.New(rand.NewPCG(26, 3))
	for range 30000 {
		inputs = append(inputs, randomVerdictReport(r))
	}
	byPlace := 0 // reports whose verdict a line decides by its place alone
	for _, s := range inputs {
		_, lines := splitLines(s)
		mask(lines)
		text, num := overallVerdict(lines)
		wtext, wnum := plainOverallVerdict(lines)
		if text != wtext || num != wnum {
			t.Fatalf("overallVerdict(%q) = %q, line %d; plain: %q, line %d", s, text, num, wtext, wnum)
		}
		if c := verdictCandidate(lines, max(wnum-1, 0), wnum == 1); wtext != "" && !c.verdictLabel && !c.overall {
			byPlace++
		}
	}
	if byPlace < 1000 {
		t.Errorf("%d reports decided by a line's place; want 1000 or more", byPlace)
	}
}

// plainOverallVerdict is overallVerdict as it was written first: the reference.
func plainOverallVerdict(lines []line) (string, int) {
	var overall, last struct {
		text string
		num  int
	}
	final := finalSection(lines)
	// A heading that recurs ("### Assessment" under each file reviewed)
	// heads a section about one topic, not the report's summary.
	heads := map[string]int{}
	for _, l := range lines {
		if !l.masked && l.level > 0 {
			heads[strings.ToLower(plainHead(l.head))]++
		}
	}
	inSummary, seenHeading := false, false
	firstText := true
	for i, l := range lines {
		if l.masked {
			continue
		}
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		first := firstText
		firstText = false
		if l.level > 0 {
			// The report's title does not end its preamble.
			seenHeading = seenHeading || !first || l.level > 1
			h := plainHead(l.head)
			inSummary = verdictSectionRe.MatchString(h) && heads[strings.ToLower(h)] == 1
		}
		place := !seenHeading || inSummary || i >= final
		c := plainVerdictCandidate(lines, i, first)
		if c.text == "" {
			continue
		}
		num := l.num
		if c.num > 0 {
			num = c.num
		}
		if place || c.overall {
			overall.text, overall.num = c.text, num
		}
		if c.verdictLabel {
			last.text, last.num = c.text, num
		}
	}
	if overall.text != "" {
		return overall.text, overall.num
	}
	return last.text, last.num
}

// plainVerdictCandidate is verdictCandidate as it was written first: the reference.
func plainVerdictCandidate(lines []line, i int, first bool) candidate {
	l := lines[i]
	t := strings.TrimSpace(l.text)
	// §2.2's forms: "**Verdict:** x", "## Summary — Verdict: x".
	if v, _, ok := verdictLine(l.text); ok {
		if strings.EqualFold(v, "error") {
			return candidate{} // "Verdict: error" counts only in the index or footer
		}
		return candidate{text: v, verdictLabel: true, overall: l.level > 0 || overallLabel(t)}
	}
	if len(t) < 400 && (strings.Contains(t, ":") || strings.Contains(t, "：")) {
		u := strings.TrimLeft(stripBold(t), "#> ")
		if m := verdictLabelRe.FindStringSubmatch(u); m != nil {
			v := verdictValue(m[3])
			if _, ok := NormalizeVerdict(v); ok && !strings.EqualFold(v, "error") {
				return candidate{text: v, verdictLabel: strings.EqualFold(m[2], "verdict"), overall: m[1] != "" || l.level > 0}
			}
		}
	}
	// A heading "## Verdict" with the value on the next line: the
	// overall verdict when the heading says verdict or decision, a
	// candidate by its place when it says assessment or result.
	if l.level > 0 && verdictHeadRe.MatchString(plainHead(l.head)) {
		decisive := decisiveHeadRe.MatchString(plainHead(l.head))
		for j := i + 1; j < len(lines) && j < i+4; j++ {
			n := strings.TrimSpace(lines[j].text)
			if n == "" || lines[j].masked {
				continue
			}
			if lines[j].level > 0 {
				break
			}
			if v, ok := headVerdict(n); ok {
				return candidate{text: v, num: lines[j].num, verdictLabel: decisive, overall: decisive}
			}
			break
		}
	}
	if c, ok := otherVerdictForm(t); ok {
		return c
	}
	// "## REVIEW CLEAN — all fixed" as the report's first line: a verdict
	// word or phrase exactly, not a title that opens with one.
	if first && l.level > 0 {
		v := verdictValue(l.head)
		if exactVerdict(v) {
			return candidate{text: v, overall: true}
		}
	}
	// "NO-GO" or "APPROVED" alone as the report's first line.
	if first && l.level == 0 && len(t) < 40 {
		if _, ok := NormalizeVerdict(t); ok && !strings.ContainsAny(t, " \t") {
			return candidate{text: strings.Trim(stripBold(t), "*_` "), overall: true}
		}
	}
	// "- [x] REVISE" among "- [ ] APPROVE", "- [ ] REJECT": the option
	// ticked.
	if k, _, item := listItem(l.text); k != 0 {
		if m := checkboxRe.FindStringSubmatch(item); m != nil && m[1] != " " {
			v := cutVerdictValue(stripBold(item[len(m[0]):]))
			if _, ok := NormalizeVerdict(v); ok && verdictOptions(lines, i) >= 2 {
				return candidate{text: v, verdictLabel: true, overall: true}
			}
		}
	}
	return candidate{}
}

// labelPieces are the parts random label lines are made of: list markers,
// emphasis and white space in any order, label words and their
// qualifiers in any case (with ſ for s), other words, colons.
var labelPieces = []string{
	"-", "*", "+", " ", "\t", "\f", "\v", "**", "__", "_", "#", ">", ":", "：", " approve", " needs work", "x",
	"Status", "STATUS", "ſtatus", "status", "Verdict", "verdict", "Overall", "final", "Final ", "Updated ", "new ",
	"Initial ", "current ", "Recommendation", "Decision", "Assessment", "Outcome", "Result", "Conclusion",
	"Gate Status", "gate status", "Review Status", "review_status", "Production Readiness", "Merge readiness",
	"Location", "Impact", "Fix", "Stat", "Overal", "Kelvin", "1.", "[x]", "Kết luận", "KẾT LUẬN", "Đánh giá",
	"đÁnh giá", "\u212aết luận", "Approval status", "Go/No-Go", "Readiness",
}

// TestVerdictLabelAtRandom: every line verdictLabelRe matches passes
// verdictLabelAt, on random lines of labels, markers and emphasis and
// on verdictPieces.
func TestVerdictLabelAtRandom(t *testing.T) {
	inputs := slices.Clone(verdictPieces)
	r := rand.New(rand.NewPCG(26, 9))
	for range 200000 {
		var b strings.Builder
		for n := 1 + r.IntN(7); n > 0; n-- {
			b.WriteString(labelPieces[r.IntN(len(labelPieces))])
		}
		inputs = append(inputs, b.String())
	}
	matched := 0
	for _, s := range inputs {
		u := strings.TrimLeft(stripBold(strings.TrimSpace(s)), "#> ")
		if verdictLabelRe.re.MatchString(u) {
			matched++
			if !verdictLabelAt(u) {
				t.Fatalf("verdictLabelAt(%q) = false; verdictLabelRe matches it", u)
			}
		}
	}
	if matched < 2000 {
		t.Errorf("%d label lines; want 2000 or more", matched)
	}
}
