package parse

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

var guardCases = []string{
	"", "Finding 3: x", "finding #2.1", "ISSUE 4", "riſk 2", "Risk 2", "Kelvin", "Gap 1", "Observation 9", "2. Title",
	"2) x", "12.3 Title", "x 2. y", "P1 title", "**P0** x", "[P2] y", "(P3)", "__P1__", "p1 lower", "Title (AR-001)",
	"Title (C1):", "no paren", "(x) y", "Ｐ1", "é", "*x", "_y", "[z", "(w",
	"[HIGH] x", "(critical)", "**Major** y", "CRITICAL: x", "low - y", "Nit", "**Severity:** P1", "- severity: high",
	"__SEVERITY__: low", "ſeverity: P2", "Severity P1", "* **severity**:**P0**",
	"Iſsue 3", "iſsue 4: x", "OBSERVATION 1", "Concern #2", "Problem 1.2", "Item 7", "Gx 1", "Fz 2", "F",
	"SEC-1", "SAF-01", "P1-1", "C1", "ARCH-001", "FD-UP-001", "SAFE-W1-001", "GS-I1", "R-02-b", "Q1", "ABCDEFGHIJKLMN1",
	"A123456789", "**Evidence**: a.go:1", "- EVIDENCE: x", "  evidence:", "Evidence", "evidence of x: y", "A-1-2-3-4-5", "A1-", "A--1", "A.b_c-d", "Abcdefghijkl123456781234567812345678", "A1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6",
	"Title (P1)", "Title (high) :", "x (P1). ", "x (P1).:", "(a) (LOW)\t\n", "(P1) x", "((P2))", "x (BLOC\u212aER)", "x (`a.go:1`)",
}

// guards pairs each guarded call with its regexp alone.
var guards = []struct {
	name           string
	guarded, plain func(string) any
}{
	{"stripNumbering", func(s string) any { return stripNumbering(s) }, func(s string) any { return numberingRe.ReplaceAllString(s, "") }},
	{"wordIDAt", func(s string) any { return wordIDAt(s) }, func(s string) any { return wordIDRe.FindStringSubmatchIndex(s) }},
	{"trailingIDOf", func(s string) any { return trailingIDOf(s) }, func(s string) any { return trailingIDRe.FindStringSubmatch(s) }},
	{"plevelAtStart", func(s string) any { return plevelAtStart(s) }, func(s string) any { return plevelAt.FindStringSubmatchIndex(s) }},
	{"wrappedWordAtStart", func(s string) any { return wrappedWordAtStart(s) }, func(s string) any { return wrappedWordAt.FindStringSubmatchIndex(s) }},
	{"bareWordAtStart", func(s string) any { return bareWordAtStart(s) }, func(s string) any { return bareWordAt.FindStringSubmatchIndex(s) }},
	{"idMatch", func(s string) any { return idMatch(s) }, func(s string) any { return idRe.MatchString(s) }},
	{"parenMarkerAt", func(s string) any { return parenMarkerAt(s) }, func(s string) any { return parenMarkerRe.FindStringSubmatchIndex(s) }},
	{"isEvidenceLine", func(s string) any { return isEvidenceLine(s) }, func(s string) any { return evidenceRe.MatchString(s) }},
	{"resolvedMark", func(s string) any { return resolvedMark(s) }, func(s string) any { return resolvedRe.MatchString(s) }},
	{"tierRe.ReplaceAllString", func(s string) any { return tierRe.ReplaceAllString(s, "") }, func(s string) any { return tierRe.re.ReplaceAllString(s, "") }},
	{"resolvedNote", func(s string) any { return resolvedNote(s) }, func(s string) any { return resolvedNoteRe.MatchString(s) }},
	{"cutNumbering", func(s string) any { return cutNumbering(s) }, func(s string) any { return genNumberingRe.ReplaceAllString(s, "") }},
	{"numberingLen", func(s string) any { return s[:numberingLen(s)] }, func(s string) any { return genNumberingRe.FindString(s) }},
	{"mayCountPLevel", func(s string) any {
		if !mayCountPLevel(s) {
			return [][]int(nil)
		}
		return plevelCountRe.FindAllStringSubmatchIndex(s, 8)
	}, func(s string) any { return plevelCountRe.re.FindAllStringSubmatchIndex(s, 8) }},
	{"severityLineOf", func(s string) any { return severityLineOf(s) }, func(s string) any { return severityLineRe.FindStringSubmatch(s) }},
	{"checkboxOf", func(s string) any { return checkboxOf(s) }, func(s string) any { return checkboxRe.FindStringSubmatch(s) }},
	{"isLegendHeading", func(s string) any { return isLegendHeading(s) }, func(s string) any {
		return legendWords.in(s) && (legendRe.MatchString(s) || legendHeadRe.MatchString(plainHead(s)))
	}},
}

// guardedRes are the regexps behind guard's word test.
var guardedRes = map[string]*guardedRe{
	"resolvedLeadRe": resolvedLeadRe,
	"countWordRe":    countWordRe, "plevelCountRe": plevelCountRe, "citedWordIDRe": citedWordIDRe,
	"verdictSectionRe": verdictSectionRe, "statusFieldRe": statusFieldRe,
	"verdictLabelRe": verdictLabelRe, "tierRe": tierRe, "legendGuard": legendGuard,
	"verdictHeadRe": verdictHeadRe, "overviewRe": overviewRe,
	"stallHeadingRe": stallHeadingRe, "stalledRe": stalledRe,
}

// lowerWordLists are the word lists looked for in lower-cased text.
var lowerWordLists = map[string]*lowerWords{
	"planWords": planWords, "summaryWords": summaryWords, "actionWords": actionWords, "legendWords": legendWords,
}

// headWordLists are the heading regexps behind a word list.
var headWordLists = map[string]struct {
	re    *regexp.Regexp
	words *lowerWords
}{
	"planHeadRe": {planHeadRe, planWords}, "summaryHeadRe": {summaryHeadRe, summaryWords},
	"actionHeadRe": {actionHeadRe, actionWords},
}

// guardedCases are lines for the guarded regexps: their words in any case,
// with ſ and the Kelvin sign, cut short, at the end of the line.
var guardedCases = []string{
	"✅ done", "~~CRITICAL~~ x", "Title — Fixed", "(reſolved)", "[ADDRESSED]", "- closed", "CLOſED", "already fixed",
	"Implemented: x", "fixe", "resolve", "P0: 3 findings", "15 P1", "p2 : 4", "Total issues: 3", "iſſues", "Finding 3",
	"finding #1.2", "# Plan — STALL RESCUE", "x -stall  rescue", "**Status:** STALLED", "status ſtalled", "Issue H-1: x", "issue\t\f#7", "Finding #", "Issue  12x", "gap\v3", "riſk 2", "RISK 4", "ri\u212ak 5", "Observation 9", "## Executive Summary", "TL;DR", "tldr", "Go/No-Go",
	"bottom line", "Final Verdict", "conclusions", "Assessment", "aſſeſſment", "Ri\u212a", "Bloc\u212aer", "s", "k", "\u212a",
	"\xc5", "\xe2\x84", "ſ", "Bottom Line", "GATE", "total", "vulnerabilities", "concern", "Gap 1", "ITEM 2",
	"**Severity:** High", "- Risk Level: P1", "SEV: low", "Criticality : x", "Sévérité : haute", "심각도: 높음",
	"Impact level: 3", "Prioridad: alta", "**Status:** Fixed", "State: open", "상태: 완료", "Estado: x",
	"**Overall Verdict:** needs-changes", "Gate Status: PASS", "review_status: approved", "Merge Readiness: no",
	"## Phase 2", "Week 3 Roadmap", "Executive Summary", "TL;DR", "Next Steps", "Fix Order", "Must-fix list",
	"x ~~a~~ ", "~~~x~~", "~~x~~~", "~~~~", "~~ ~~\t\n", "a~~b~~c", "Title — ✅ Fixed", "(now   fixed)", "- already resolved",
	"x - Fixed", "x -  done", "x-done", "**Done**", "|closed|", "[CLOSED]", ": addressed.", "undone", "prefixed", "fixedly",
	"fixed_", "Fixed2", "( already\tfixed)", "(alreadyfixed)", "( now fixed", "(NOW fixed)", "ALREADY Done", "nowfixed", "[x] — reſolved", "Addreſſed",
	"1.2.3. x", "1.2.3x y", "1.2. x", "1.", "1. ", "1.\t\n x", "#3 x", "#x y", "a) x", "B. y", "ab. x", "1)x", "12.3 Title",
	"1..2 x", "1.2.3.4.5.6.7.8.9.10.11 x", "1.2.3.4.5.6.7.8.9.10.11x", "9) \v x", "x.", "Z)\r",
	"Severity Levels", "Report Template", "How to read", "Étape 2", "RÉSUMÉ", "Roadmap (2 weeks)", "KEY FINDINGS",
	"TL;DR", "tldr", "TL DR", "Fix Order", "Order of Fixes", "Must fix list", "Recommended fix order", "Priority fixes",
	"✅ Fixed", "Fixed in v2", "Tier 1: x", "ſtage 2 — y", "x Tier 1: y", "Group 3-", "LEVEL 2:", "already  done", " Fixed",
	"Already fixed:", "x fixed", "Implemented —", "High (all addressed in revision)", "P1 — all fixed", "[ALL FIXED]",
	"x - all resolved", "x -  addressed", "x - done", "x - now fixed", "x -fixed", "x-  fixed", "(  now\tclosed)", "[done]",
	"Overall  Verdict", "final status", "STATUS", "Go/No-Go", "x verdict", "Verdict x", "ſtatus", "Assessment\n",
	"Résumé", "RÉSUMÉ", "resumen", "RESUMEN", "Summary", "ſummary", "TÓM TẮT", "tóm tắt", "요약", "概要 x", "总结", "Scope",
	"Context", "CONTEXT", "Overall", "Introduction", "x summarys",
	"Severity Legend", "## Risk matrix legend", "Legend", "Colour legend:", "Scoring Guide", "Priority Definitions", "### 2. Impact Levels", "rating scale",
	"Rubric", "Glossary", "How To Use this report", "how to  read", "**Response Format**", "Findings template", "Severities",
	"ſeverity levels", "Ri\u212ak ratings", "SÉVÉRITÉS", "Sévérité", "严重程度", "### Title · Severity: High", "Risk: x",
	"Résuméx", "RÉSUMÉ2 y", "réſuméa", "- [x] done", "[✓] ok", "[ ]", " [x] x", "[y] x", "x [x]",
	"—Fixed", "– already   DONE", "(fixedx", "(all  fixed_", "(allfixed)", "x\t-\tALL\nRESOLVED", "(reſolved)", "(addreſſed", "( all)",
}

// FuzzRegexpGuards: each guard answers as its regexp alone does.
func FuzzRegexpGuards(f *testing.F) {
	for _, s := range guardCases {
		f.Add(s)
	}
	for _, s := range guardedCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, w := range lowerWordLists {
			if got, want := w.in(s), containsAny(strings.ToLower(s), w.words); got != want {
				t.Fatalf("%s.in(%q) = %v; in the lowered text: %v", name, s, got, want)
			}
		}
		// A heading the regexp matches holds one of its words. ToLower
		// leaves ſ and the Kelvin sign, which (?i) folds to s and k, as
		// they are: the lists do not claim those.
		if !strings.ContainsAny(s, "ſ\u212a") {
			for name, h := range headWordLists {
				if h.re.MatchString(s) && !h.words.in(s) {
					t.Fatalf("%s matches %q, which holds none of its words", name, s)
				}
			}
		}
		for name, g := range guardedRes {
			if got, want := g.MatchString(s), g.re.MatchString(s); got != want {
				t.Fatalf("%s guarded matches %q: %v; alone: %v", name, s, got, want)
			}
		}
		for _, g := range guards {
			// %#v: a nil and an empty result differ, as they do to callers.
			if got, want := fmt.Sprintf("%#v", g.guarded(s)), fmt.Sprintf("%#v", g.plain(s)); got != want {
				t.Fatalf("%s(%q) = %s; its regexp alone gives %s", g.name, s, got, want)
			}
		}
	})
}

// TestLowerWordsRandom compares each word list's in with a search for
// each of its words in the lowered text, and headWords with its lists, on random texts of the words'
// pieces (a word's first byte, its first two, all but its last, the word
// in either case) between letters, spaces and bytes outside ASCII.
func TestLowerWordsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 2))
	for name, w := range lowerWordLists {
		var pieces []string
		for _, word := range w.words {
			pieces = append(pieces, word, strings.ToUpper(word), word[:1], word[:2], word[:len(word)-1])
		}
		pieces = append(pieces, "a", "x", " ", "É", "ſ", "\u212a", "\xe2", "İ")
		for range 20000 {
			var b strings.Builder
			for n := r.IntN(6); n >= 0; n-- {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			s := b.String()
			if got, want := w.in(s), containsAny(strings.ToLower(s), w.words); got != want {
				t.Fatalf("%s.in(%q) = %v; in the lowered text: %v", name, s, got, want)
			}
		}
	}
	// headWords answers for its three lists as each does, on texts of
	// the pieces of all three.
	var pieces []string
	for _, w := range headWords.lists {
		for _, word := range w.words {
			pieces = append(pieces, word, strings.ToUpper(word), word[:2], word[:len(word)-1], " ", "x")
		}
	}
	for range 50000 {
		var b strings.Builder
		for n := r.IntN(6); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		var want uint8
		for k, w := range headWords.lists {
			if w.in(s) {
				want |= 1 << k
			}
		}
		if got := headWords.inLower(wordsLower(s)); got != want {
			t.Fatalf("headWords.inLower(%q) = %03b; its lists one by one: %03b", s, got, want)
		}
	}
}

// TestCountPLevelRandom compares plevelCountRe behind mayCountPLevel
// with the regexp alone on random lines of P-levels, counts, colons,
// asterisks, white space and letters.
func TestCountPLevelRandom(t *testing.T) {
	pieces := []string{"P0", "p3", "P4", "P1", "Px", ":", "：", " ", "\t", "\v", "\f", "**", "*", "12", "3", "x", "a1", "_", "-", "P", "0"}
	r := rand.New(rand.NewPCG(26, 4))
	for range 100000 {
		var b strings.Builder
		for n := r.IntN(8); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		got := [][]int(nil)
		if mayCountPLevel(s) {
			got = plevelCountRe.FindAllStringSubmatchIndex(s, 8)
		}
		if want := plevelCountRe.re.FindAllStringSubmatchIndex(s, 8); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("plevelCountRe behind mayCountPLevel finds %v in %q; alone: %v", got, s, want)
		}
	}
}

// TestIDMatchRandom compares idMatch with idRe on random strings of the
// characters an ID is made of, and a few it is not, up to 40 bytes: runs
// long and short, separators doubled, first and last.
func TestIDMatchRandom(t *testing.T) {
	// A head of n letters, then runs of digits or letters: where the head
	// ends decides how many groups the rest takes.
	for n := 1; n <= 14; n++ {
		for m := 0; m <= 40; m++ {
			for _, sep := range []string{"", "-", "-1", "-abcdefgh", "_12345678.9"} {
				s := "A" + strings.Repeat("b", n-1) + strings.Repeat("1", m) + sep
				if idMatch(s) != idRe.MatchString(s) {
					t.Fatalf("idMatch(%q) = %v; idRe says %v", s, idMatch(s), idRe.MatchString(s))
				}
				s = "A" + strings.Repeat("b", n-1) + strings.Repeat("c", m) + sep
				if idMatch(s) != idRe.MatchString(s) {
					t.Fatalf("idMatch(%q) = %v; idRe says %v", s, idMatch(s), idRe.MatchString(s))
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(13, 14))
	const alphabet = "AZabz0199-_. é"
	for range 300000 {
		b := make([]byte, r.IntN(41))
		for i := range b {
			if r.IntN(3) == 0 {
				b[i] = "Aa1-"[r.IntN(4)]
			} else {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		if s := string(b); idMatch(s) != idRe.MatchString(s) {
			t.Fatalf("idMatch(%q) = %v; idRe says %v", s, idMatch(s), idRe.MatchString(s))
		}
	}
}

// TestResolvedMarksRandom compares resolvedMark and resolvedNote with
// their regexps on random strings of the pieces they read: anchors,
// white space, qualifiers, the words (ſ, cut, run on) and others.
func TestResolvedMarksRandom(t *testing.T) {
	pieces := []string{"(", "[", "—", "–", " ", "  ", "\t", "\n", "-", " - ", ":", "|", "**", "~~", "✅", "x", "_", "2",
		"all", "ALL", "now", "already", "Already", "fixed", "FIXED", "fixe", "resolved", "reſolved", "done", "closed",
		"addressed", "addreſſed", "implemented"}
	r := rand.New(rand.NewPCG(26, 3))
	for range 100000 {
		var b strings.Builder
		for n := r.IntN(9); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := resolvedMark(s), resolvedRe.MatchString(s); got != want {
			t.Fatalf("resolvedMark(%q) = %v; resolvedRe says %v", s, got, want)
		}
		if got, want := resolvedNote(s), resolvedNoteRe.MatchString(s); got != want {
			t.Fatalf("resolvedNote(%q) = %v; resolvedNoteRe says %v", s, got, want)
		}
	}
}
