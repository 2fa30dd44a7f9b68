package parse

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// verdictRe finds "Verdict:" (or "Verdict — ") written at the start of a line (after list
// markers and emphasis) or after a separator inside a heading, as in
// "## Executive Summary — Verdict: needs-changes".
var verdictRe = regexp.MustCompile(`(?i)(?:^|[—–|:]\s*|\s-\s)verdict\s*(?::|：|\s[—–]\s)\s*(.*)$`)

// verdictLine reads a verdict line. plain reports whether the line is exactly
// the strict form "Verdict: VALUE" (no emphasis, no heading, no trailing text).
// text is the value as written (emphasis removed, trailing explanation cut).
func verdictLine(s string) (text string, plain, ok bool) {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > 600 || !containsFold(t, "verdict") {
		return "", false, false
	}
	if _, rest, found := strings.Cut(t, "Verdict: "); found && strings.HasPrefix(t, "Verdict: ") {
		v := strings.TrimSpace(rest)
		if canonicalVerdicts[v] {
			return v, true, true
		}
	}
	u := stripBold(t)
	u = strings.TrimLeft(u, "#> ")
	if k, _, item := listItem(u); k != 0 {
		u = item
	}
	u = strings.TrimSpace(u)
	m := verdictRe.FindStringSubmatchIndex(u)
	if m == nil {
		return "", false, false
	}
	// "Verdict" must open the line or follow a separator; a sentence that
	// merely contains "verdict:" later on is prose.
	if m[0] > 0 && !headingLike(s) {
		return "", false, false
	}
	v := cutVerdictValue(u[m[2]:m[3]])
	if v == "" {
		return "", false, false
	}
	if !strings.ContainsAny(u[m[0]:m[2]], ":：") {
		// "Verdict — REJECT": with a dash, only a verdict word; a
		// heading "Verdict — how we decided" is a title.
		if _, ok := NormalizeVerdict(v); !ok {
			return "", false, false
		}
	}
	return v, false, true
}

var canonicalVerdicts = map[string]bool{"safe": true, "needs-changes": true, "risky": true, "error": true}

func headingLike(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " "), "#")
}

// cutVerdictValue trims a verdict value to what names the verdict: emphasis
// and backticks removed, and a trailing explanation ("— 5 critical…",
// "(2 P1, 3 P2)", ". Plan is…") cut off.
func cutVerdictValue(v string) string {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "*_`\"'"))
	for _, sep := range []string{" — ", " – ", " -- ", " - ", " (", "(", ". ", "; ", ", ", ": "} {
		if i := strings.Index(v, sep); i > 0 {
			v = v[:i]
		}
	}
	v = strings.TrimRight(strings.TrimSpace(v), ".*_`\"'")
	if len(v) > 80 {
		v = v[:80]
	}
	return strings.TrimSpace(v)
}

// NormalizeVerdict maps a declared verdict to a Verdict (SPEC §2.3): the
// four canonical values; approve, LGTM, GO, pass, ready, safe as safe;
// revise, changes requested, conditional, needs work, needs-changes (and
// needs-attention, NEEDS_ATTENTION) as needs-changes; reject, block,
// NO-GO, fail, risky as risky. A value that opens with one of these words
// and goes on ("APPROVED FOR IMPLEMENTATION", "PASS (Approve for
// implementation)") is that word's, unless it makes it conditional
// ("APPROVE WITH CONDITIONS", "PASS with reservations": needs-changes).
// Of a value that records a change ("NEEDS_REVISION → CLEARED"), the last
// state counts. ok is false for free text.
func NormalizeVerdict(text string) (Verdict, bool) {
	v, _, ok := normalizeVerdict(text)
	return v, ok
}

// normalizeVerdict is NormalizeVerdict; approval says the value approves
// on a condition ("APPROVE WITH CONDITIONS", "LGTM once the nits are
// addressed", "조건부 승인"): it reads as needs-changes, and
// conditionsUnread decides whether it is worse than a computed safe.
func normalizeVerdict(text string) (v Verdict, approval, ok bool) {
	for _, arrow := range []string{"→", "->", "=>", "⇒"} {
		if i := strings.LastIndex(text, arrow); i >= 0 {
			text = text[i+len(arrow):]
		}
	}
	if strings.IndexByte(text, '?') >= 0 || strings.IndexByte(text, ':') >= 0 {
		if v, ok := questionVerdict(strings.TrimSpace(stripBold(text))); ok {
			return v, false, true
		}
	}
	k := strings.ToLower(strings.TrimSpace(trimEmoji(strings.TrimSpace(stripBold(text)))))
	// "Approve / Request Changes / Comment": the options of a template.
	if opts := strings.FieldsFunc(k, func(r rune) bool { return r == '/' || r == '|' }); len(opts) > 1 {
		named := 0
		for _, o := range opts {
			if _, ok := verdictSynonyms[strings.Trim(dashSpaces.Replace(strings.TrimSpace(o)), "-*`.")]; ok {
				named++
			}
		}
		if named > 1 {
			return "", false, false
		}
	}
	k = strings.Trim(dashSpaces.Replace(k), "-*`.!:;,()[]\"'")
	if v, ok := verdictSynonyms[k]; ok {
		return v, conditionalApprovals[k], true
	}
	// A verdict word and words after it.
	words := strings.FieldsFunc(k, func(r rune) bool { return r == '-' || r == '/' || r == '(' || r == ')' || r == ',' })
	if len(words) < 2 {
		return "", false, false
	}
	first := words[0]
	two := first + "-" + words[1]
	v, ok = verdictSynonyms[two]
	rest := words[2:]
	if !ok {
		v, ok = verdictSynonyms[first]
		rest = words[1:]
	}
	if !ok || v == Error {
		return "", false, false
	}
	if v == Safe {
		for _, w := range rest {
			switch w {
			case "conditions", "conditional", "conditionally", "changes", "reservations", "fixes", "after", "once", "pending", "provided", "required", "revisions", "caveats",
				"gaps", "concerns", "issues", "blockers", "until", "condiciones", "auflagen", "cambios", "ressalvas",
				"réserve", "réserves", "alterações", "condições":
				return NeedsChanges, true, true
			}
		}
	}
	return v, conditionalApprovals[two] || conditionalApprovals[first], true
}

var verdictSynonyms = map[string]Verdict{
	"safe": Safe, "pass": Safe, "passed": Safe, "approve": Safe, "approved": Safe, "lgtm": Safe,
	"ship": Safe, "ship-it": Safe, "go": Safe, "ready": Safe, "accept": Safe, "accepted": Safe, "cleared": Safe,
	"clean": Safe, "review-clean": Safe, "no-issues": Safe, "no-issues-found": Safe, "no-findings": Safe,
	"needs-changes": NeedsChanges, "needs-change": NeedsChanges, "needs-attention": NeedsChanges,
	"changes-requested": NeedsChanges, "request-changes": NeedsChanges, "needs-work": NeedsChanges,
	"needs-revision": NeedsChanges, "revise": NeedsChanges, "revision": NeedsChanges, "warn": NeedsChanges,
	"ship-with-changes": NeedsChanges, "minor-issues": NeedsChanges, "conditional": NeedsChanges,
	"conditionally": NeedsChanges, "revision-required": NeedsChanges, "revisions-required": NeedsChanges,
	"major-revision": NeedsChanges, "minor-revision": NeedsChanges,
	"not-ready": NeedsChanges, "not-yet-ready": NeedsChanges, "ready-to-merge": Safe,
	"risky": Risky, "fail": Risky, "failed": Risky, "blocked": Risky, "block": Risky, "blocking": Risky,
	"reject": Risky, "rejected": Risky, "do-not-ship": Risky, "do-not-merge": Risky, "unsafe": Risky,
	"no-go": Risky, "nogo": Risky, "do-not-deploy": Risky, "do-not-release": Risky, "don't-merge": Risky,
	"don't-ship": Risky, "don't-deploy": Risky, "not-safe": Risky, "not-safe-to-merge": Risky,
	"needs-improvement": NeedsChanges, "not-production-ready": NeedsChanges, "production-ready": Safe,
	"hold": NeedsChanges, "on-hold": NeedsChanges, "changes-required": NeedsChanges, "needs-fixes": NeedsChanges,
	"not-approved": NeedsChanges, "not-ready-to-merge": NeedsChanges, "not-mergeable": NeedsChanges,
	// The same verdicts in the languages of the severity vocabulary.
	"approuvé": Safe, "approuvée": Safe, "validé": Safe, "freigegeben": Safe, "aprobado": Safe, "aprovado": Safe,
	"承認": Safe, "通过": Safe, "승인": Safe, "одобрено": Safe,
	"à-corriger": NeedsChanges, "à-revoir": NeedsChanges, "corrections-requises": NeedsChanges,
	"modifications-requises": NeedsChanges, "nicht-freigegeben": NeedsChanges, "änderungen-erforderlich": NeedsChanges,
	"requiere-cambios": NeedsChanges, "cambios-requeridos": NeedsChanges, "requer-alterações": NeedsChanges,
	"não-aprovado": NeedsChanges, "差し戻し": NeedsChanges, "要修正": NeedsChanges, "需要修改": NeedsChanges,
	"수정-필요": NeedsChanges, "требуются-изменения": NeedsChanges, "требует-доработки": NeedsChanges,
	"на-доработку": NeedsChanges,
	"보류":           NeedsChanges, "조건부-승인": NeedsChanges, "조건부-통과": NeedsChanges, "有条件通过": NeedsChanges,
	"需修改": NeedsChanges, "条件付き承認": NeedsChanges, "aprobado-con-condiciones": NeedsChanges,
	"no-aprobado": NeedsChanges, "mit-auflagen-freigegeben": NeedsChanges,
	"통과": Safe, "합격": Safe, "合格": Safe,
	"nicht-freigeben": Risky, "nicht-mergen": Risky, "거부": Risky, "거절": Risky, "불합격": Risky, "미통과": Risky,
	"驳回": Risky, "不合格": Risky, "no-fusionar": Risky,
	"favorable": Safe, "avis-favorable": Safe, "favorable-sous-réserve": NeedsChanges,
	"favorable-sous-réserves": NeedsChanges, "défavorable": Risky, "avis-défavorable": Risky,
	"đạt": Safe, "không-đạt": Risky, "cần-sửa": NeedsChanges, "cần-chỉnh-sửa": NeedsChanges,
	"변경-요청": NeedsChanges, "재검토": NeedsChanges, "승인-불가": Risky, "建议修改": NeedsChanges,
	"不建议合并": Risky, "可以合并": Safe, "要対応": NeedsChanges, "差戻し": NeedsChanges, "承認不可": Risky,
	"не-одобрено": NeedsChanges, "änderungen-nötig": NeedsChanges, "aprovado-com-ressalvas": NeedsChanges,
	"rejeté": Risky, "refusé": Risky, "abgelehnt": Risky, "rechazado": Risky, "no-desplegar": Risky,
	"reprovado": Risky, "却下": Risky, "不通过": Risky, "拒绝": Risky, "반려": Risky, "отклонено": Risky,
	"error": Error,
}

// declaredWorse reports whether a report's declared verdict d, written
// text, is worse than the verdict v computed from what was read (SPEC
// §2.3 "never silently safe"): worseVerdict, except that an approval on
// conditions is worse than safe only when conditionsUnread says so.
// openRead says an open finding was read.
func declaredWorse(text string, d, v Verdict, openRead bool) bool {
	if !worseVerdict(d, v) {
		return false
	}
	if _, approval, ok := normalizeVerdict(text); ok && approval && d == NeedsChanges {
		return conditionsUnread(text, openRead)
	}
	return true
}

// conditionalApprovals are the verdictSynonyms that approve on a
// condition, as one word or phrase.
var conditionalApprovals = map[string]bool{
	"conditional": true, "conditionally": true, "ship-with-changes": true, "조건부-승인": true, "조건부-통과": true,
	"有条件通过": true, "条件付き承認": true, "aprobado-con-condiciones": true, "mit-auflagen-freigegeben": true,
	"favorable-sous-réserve": true, "favorable-sous-réserves": true, "aprovado-com-ressalvas": true,
}

// conditionsUnread reports whether a declared verdict that approves on
// a condition (normalizeVerdict's approval) may hold blockers that were
// not read, and so is worse than a computed safe (SPEC §2.3 "never
// silently safe"): its words name a P0 or P1 severity ("approve once the
// critical issue is fixed"), or they call the conditions nothing minor
// and the report read no open finding for them to be. An approval
// states no blocker of its own: with its conditions called minor
// ("approve with minor changes", "LGTM once the nits are addressed", "after
// the medium item"), or with open findings read below P1, it is not
// worse than safe. A value that does not approve is not judged here.
func conditionsUnread(text string, openRead bool) bool {
	minor := false
	words := strings.FieldsFunc(strings.ToLower(stripBold(text)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
	for i, w := range words {
		s, ok := SeverityWord(w)
		if !ok && i+1 < len(words) {
			s, _, ok = vocabWord(w+" "+words[i+1], false)
		}
		switch {
		case ok && s.Rank() <= 1:
			return true
		case ok || minorConditions[w]:
			minor = true
		}
	}
	return !minor && !openRead
}

// minorConditions are the words beside the vocabulary's P2 and P3 that
// call an approval's conditions minor.
var minorConditions = map[string]bool{"small": true, "suggestion": true, "suggestions": true, "optional": true,
	"non-blocking": true, "nonblocking": true, "nitpick": true, "nitpicks": true, "nits": true, "typos": true,
	"typo": true, "follow-up": true, "follow-ups": true, "followup": true, "cosmetic": true, "polish": true}

// overallVerdict chooses a report's declared verdict among its lines when
// it has no index and no front matter to declare one (SPEC §2.3): the
// overall verdict — a verdict, recommendation, decision or status line in
// its summary or its final section (or before its first heading, or
// labelled overall or final), the last of them; else its last verdict line.
// A status, result or assessment line counts only in such a place, and
// one that names no verdict counts nowhere: a per-section "**Verdict:**"
// about one topic is not the report's. It returns the value as written
// and its line number, or "" and 0.
func overallVerdict(lines []line) (string, int) {
	var overall, last struct {
		text string
		num  int
	}
	final := finalSection(lines)
	// A heading that recurs ("### Assessment" under each file reviewed)
	// heads a section about one topic, not the report's summary: the
	// summary headings are counted among all headings, in any case.
	var summaries []int // the lines of headings verdictSectionRe matches
	var heads []string  // every heading, plainHead
	counts := map[string]int{}
	var sizes [256]bool // the sizes of counts' keys, those under 256
	for i, l := range lines {
		if !l.masked && l.level > 0 {
			h := plainHead(l.head)
			heads = append(heads, h)
			if verdictSectionRe.MatchString(h) {
				summaries = append(summaries, i)
				k := strings.ToLower(h)
				counts[k] = 0
				sizes[min(len(k), 255)] = true
			}
		}
	}
	if len(summaries) > 0 {
		for _, h := range heads {
			// Lowering keeps an ASCII heading's size: one of another
			// size than every key's is none of them, and is not lowered.
			if len(h) < 255 && !sizes[len(h)] && isASCII(h) {
				continue
			}
			k := strings.ToLower(h)
			if _, ok := counts[k]; ok {
				counts[k]++
			}
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
			inSummary = false
			if len(summaries) > 0 && summaries[0] == i {
				summaries = summaries[1:]
				inSummary = counts[strings.ToLower(plainHead(l.head))] == 1
			}
		}
		place := !seenHeading || inSummary || i >= final
		c := verdictCandidate(lines, i, first)
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

// candidate is a line that may declare the report's verdict.
type candidate struct {
	text         string // the value, as written
	num          int    // the line it is written on, when not the candidate's own
	verdictLabel bool   // labelled Verdict (may be free text)
	overall      bool   // labelled overall or final, or a heading that is the verdict
}

var (
	// Labels of a verdict line: "**Verdict:**", "Recommendation:",
	// "Overall Assessment:", "Decision:", "Status:", "review_status:".
	verdictLabelRe = guard(regexp.MustCompile(`(?i)^(?:[-*+]\s+)?(?:\*\*|__)?\s*((?:overall|final|updated|new|initial|current|release|merge)\s+)?(verdict|recommendation|decision|status|assessment|outcome|result|conclusion|gate status|review status|review_status|review decision|production readiness|merge readiness|readiness|approval(?:\s+status)?|go/no[- ]go(?:\s+decision)?|overall rating|overall|fazit|gesamturteil|empfehlung|veredicto|recomendaci[oó]n|recomenda[cç][aã]o|conclusi[oó]n|conclus[aã]o|avis|décision|kết luận|đánh giá|итог|вывод|заключение|総合判定|判定|结论|結論|결론|판정)\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*(.+)$`),
		"verdict", "recommendation", "decision", "status", "assessment", "outcome", "result", "conclusion", "readiness", "overall", "approval", "go/no",
		"fazit", "urteil", "empfehlung", "veredicto", "recomenda", "conclus", "avis", "cision", "t lu", "nh gi", "тог", "вывод", "аключение",
		"判定", "结论", "結論", "결론", "판정")
	// Headings of the sections a report gives its overall verdict in.
	verdictSectionRe = guard(regexp.MustCompile(`(?i)\b(?:summary|verdict|conclusions?|decision|recommendation|assessment|overall|final|result|outcome|go/no[- ]go|gate|bottom line|tl;?dr)\b`),
		"summary", "verdict", "conclusion", "decision", "recommendation", "assessment", "overall", "final", "result",
		"outcome", "go/no", "gate", "bottom line", "tldr", "tl;dr")
)

// verdictCandidate reads lines[i] as a verdict line; first says it is the
// report's first line of text.
func verdictCandidate(lines []line, i int, first bool) candidate {
	l := lines[i]
	t := strings.TrimSpace(l.text)
	// §2.2's forms: "**Verdict:** x", "## Summary — Verdict: x".
	if v, _, ok := verdictLine(l.text); ok {
		if strings.EqualFold(v, "error") {
			return candidate{} // "Verdict: error" counts only in the index or footer
		}
		return candidate{text: v, verdictLabel: true, overall: l.level > 0 || overallLabel(t)}
	}
	if len(t) < 400 && (strings.Contains(t, ":") || strings.Contains(t, "：")) && verdictLabelFirst[t[len(t)-len(strings.TrimLeft(t, labelLead))]] { // a : is left
		u := strings.TrimLeft(stripBold(t), "#> ")
		// Most labels ("- **Status:** Resolved") name no verdict: the
		// value is read first, the regexp run on those that do.
		if verdictLabelAt(u) {
			if v := labelVerdict(u); v != "" {
				if m := verdictLabelRe.re.FindStringSubmatch(u); m != nil {
					return candidate{text: v, verdictLabel: strings.EqualFold(m[2], "verdict"), overall: m[1] != "" || l.level > 0}
				}
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
	if k, _, item := listItem(l.text); k != 0 && strings.HasPrefix(item, "[") {
		if m := checkboxRe.FindStringSubmatch(item); m != nil && m[1] != " " {
			v := cutVerdictValue(stripBold(item[len(m[0]):]))
			if _, ok := NormalizeVerdict(v); ok && verdictOptions(lines, i) >= 2 {
				return candidate{text: v, verdictLabel: true, overall: true}
			}
		}
	}
	return candidate{}
}

// headVerdict reads the line under a verdict heading ("## Verdict"): its
// value, or else one of its sentences that is a verdict word or phrase
// and nothing more ("All findings are fixed. Approved."); a sentence
// that opens with a verdict word and goes on ("Pass the token …") is
// not one.
func headVerdict(n string) (string, bool) {
	if _, _, item := listItem(n); item != "" {
		n = item
	}
	v := verdictValue(n)
	if _, ok := NormalizeVerdict(v); ok {
		return v, true
	}
	if len(n) > 400 {
		return "", false
	}
	for _, sent := range sentenceSplit.Split(stripBold(n), 8) {
		if sent = strings.Trim(strings.TrimSpace(sent), ".!*_`\"'"); sent != "" && exactVerdict(sent) {
			return sent, true
		}
	}
	return "", false
}

var sentenceSplit = regexp.MustCompile(`[.!]\s+`)

// exactVerdict reports whether v, as a whole, is a verdict word or
// phrase of verdictSynonyms.
func exactVerdict(v string) bool {
	_, ok := verdictSynonyms[strings.Trim(dashSpaces.Replace(strings.ToLower(v)), "-")]
	return ok
}

// otherVerdictForm reads the verdict forms that are neither a label
// line nor a heading: a key-value table row ("| Verdict | NEEDS WORK |")
// and a question answered yes or no ("Ship it? No").
func otherVerdictForm(t string) (candidate, bool) {
	if strings.HasPrefix(t, "|") {
		k, v, ok := strings.Cut(strings.Trim(t, "| "), "|")
		if !ok || strings.Contains(v, "|") {
			return candidate{}, false // not two cells
		}
		k = strings.TrimSpace(stripBold(k))
		if len(k) > 40 || k == "" || !verdictLabelFirst[k[0]] {
			return candidate{}, false
		}
		u := k + ": " + strings.TrimSpace(v)
		if !verdictLabelAt(u) {
			return candidate{}, false
		}
		if v := labelVerdict(u); v != "" {
			if m := verdictLabelRe.re.FindStringSubmatch(u); m != nil {
				return candidate{text: v, verdictLabel: strings.EqualFold(m[2], "verdict"), overall: m[1] != ""}, true
			}
		}
		return candidate{}, false
	}
	if len(t) < 80 && (strings.IndexByte(t, '?') >= 0 || strings.IndexByte(t, ':') >= 0) {
		u := strings.TrimSpace(stripBold(strings.TrimLeft(t, "#>-*+ ")))
		if _, ok := questionVerdict(u); ok {
			return candidate{text: u, verdictLabel: true}, true
		}
	}
	return candidate{}, false
}

// questionVerdict reads a verdict asked and answered: "Ship it? No",
// "Ready to merge? Yes", "Ready for merge: No". Yes is safe; no is needs-changes after "ready
// …?" (not ready) and risky after the others (do not ship).
func questionVerdict(text string) (Verdict, bool) {
	i := strings.IndexByte(text, '?')
	if j := strings.IndexByte(text, ':'); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return "", false
	}
	q, a := strings.Trim(text[:i], "*_` "), text[i+1:]
	if !verdictQuestion(q) {
		return "", false
	}
	a = strings.ToLower(strings.Trim(strings.TrimSpace(a), "*_`.!"))
	if w, _, _ := strings.Cut(a, " "); w != a {
		a = strings.Trim(w, ",.;:—-")
	}
	switch a {
	case "yes", "y", "✅":
		return Safe, true
	case "no", "n", "❌", "not yet":
		if len(q) >= 5 && strings.EqualFold(q[:5], "ready") {
			return NeedsChanges, true
		}
		return Risky, true
	}
	return "", false
}

// verdictQuestion reports whether q, in any case, is one of
// verdictQuestions. It allocates nothing: it runs on every short line
// with a colon.
func verdictQuestion(q string) bool {
	if len(q) >= len(questionSizes) || !questionSizes[len(q)] {
		return false
	}
	for _, w := range verdictQuestions {
		if len(w) == len(q) && w[0] == q[0]|0x20 && strings.EqualFold(q, w) {
			return true
		}
	}
	return false
}

// verdictQuestions are the questions whose yes or no is a verdict.
var verdictQuestions = []string{
	"ship it", "ship", "merge it", "merge", "go", "go/no-go", "lgtm", "approve", "approved", "mergeable",
	"shippable", "ready to merge", "ready to ship", "ready for merge", "ready for release", "ready to release",
	"ready to deploy", "ready for production", "safe to merge", "safe to ship", "safe to deploy", "safe to release",
	"ok to merge", "ok to ship", "good to merge", "good to go",
}

// questionSizes holds the sizes of verdictQuestions: a text of another
// size is none of them (EqualFold of ASCII keeps the size).
var questionSizes = func() (sizes [24]bool) {
	for _, w := range verdictQuestions {
		sizes[len(w)] = true
	}
	return sizes
}()

// verdictLabelAt reports whether u may be a verdict label line
// (verdictLabelRe): whether, after the list marker and emphasis the
// regexp skips, u opens with a word one of its labels or their qualifiers
// open with. Most lines with a colon open with none ("- **Location:**").
func verdictLabelAt(u string) bool {
	if len(u) > 1 && (u[0] == '-' || u[0] == '*' || u[0] == '+') && isRegexpSpace(u[1]) {
		u = strings.TrimLeft(u[1:], reSpace)
	}
	if strings.HasPrefix(u, "**") || strings.HasPrefix(u, "__") {
		u = u[2:]
	}
	u = strings.TrimLeft(u, reSpace)
	if u == "" || !verdictLabelFirst[u[0]] {
		return false
	}
	if u[0] >= 0x80 {
		return true // a label of another script: (?i) folds beyond ASCII, so the regexp decides
	}
	if u[0]|0x20 == 'k' {
		// "Kết luận", "KẾT LUẬN": ế and Ế are the same size.
		if r := u[1:]; strings.HasPrefix(r, "ế") || strings.HasPrefix(r, "Ế") {
			r = r[len("ế"):]
			return r != "" && r[0]|0x20 == 't'
		}
		return false
	}
	for _, w := range verdictLabelWords {
		if hasWordFold(u, w) {
			return true
		}
	}
	return false
}

// labelLead are the bytes a label line may open with before its label
// (verdictCandidate's TrimLeft, verdictLabelRe's list marker, emphasis
// and white space): stripBold removes only '*'s, so the first byte of a
// line that is none of these is its label's first byte, stripped or
// not.
const labelLead = "#> -*+_" + reSpace

// verdictLabelWords are the words verdictLabelRe's labels open with,
// qualifiers first.
var verdictLabelWords = []string{"overall", "final", "updated", "new", "initial", "current", "verdict",
	"recommendation", "decision", "status", "assessment", "outcome", "result", "conclusion", "gate", "review",
	"production", "merge", "release", "approval", "readiness", "go", "fazit", "gesamturteil", "empfehlung", "veredicto", "recomenda",
	"conclus", "avis", "dé", "dÉ", "kết"}

// verdictLabelFirst holds the bytes a word of verdictLabelWords opens
// with, in either case, and ſ's first byte, which (?i) folds to s.
var verdictLabelFirst = func() (first [256]bool) {
	for _, w := range verdictLabelWords {
		first[w[0]], first[w[0]-'a'+'A'] = true, true
	}
	first["ſ"[0]] = true
	first["\u212a"[0]] = true // the Kelvin sign, which (?i) folds to k
	// Labels of other scripts: their first byte is shared by the
	// upper and lower case of Cyrillic, so an emoji- or symbol-led line
	// still skips the regexp.
	for _, w := range []string{"итог", "ИТОГ", "вывод", "ВЫВОД", "заключение", "ЗАКЛЮЧЕНИЕ", "総合判定", "判定", "结论", "結論", "결론", "판정", "đánh giá", "Đánh giá"} {
		first[w[0]] = true
	}
	return first
}()

// labelVerdict returns the verdict a label line u names (verdictLabelRe),
// other than error, as verdictValue writes it; or "". The value is what
// follows the line's first colon (no part of the regexp before its colon
// matches one), less the white space and one "**" or "__" the regexp
// skips (when nothing is left, the regexp's value is white space or
// emphasis, which names no verdict either).
func labelVerdict(u string) string {
	i := strings.IndexByte(u, ':')
	if j := strings.Index(u, "："); j >= 0 && (i < 0 || j < i) {
		i = j + len("：")
	} else if i >= 0 {
		i++
	} else {
		return ""
	}
	v := strings.TrimLeft(u[i:], reSpace)
	if strings.HasPrefix(v, "**") || strings.HasPrefix(v, "__") {
		v = v[2:] // verdictValue trims the white space after it
	}
	v = verdictValue(v)
	if _, ok := NormalizeVerdict(v); !ok || strings.EqualFold(v, "error") {
		return ""
	}
	return v
}

// reSpace is what \s matches in a regexp.
const reSpace = "\t\n\f\r "

var decisiveHeadRe = regexp.MustCompile(`(?i)^(?:overall\s+|final\s+)?(?:verdict|decision|go/no[- ]go)$`)

var verdictHeadRe = guardStart(regexp.MustCompile(`(?i)^(?:overall\s+|final\s+)?(?:verdict|recommendation|decision|outcome|assessment|conclusion|result|status|go/no[- ]go)$`),
	"overall", "final", "verdict", "recommendation", "decision", "outcome", "assessment", "conclusion", "result", "status", "go/no")

// verdictValue trims a verdict line's value to what names the verdict and
// its condition: emphasis removed, the explanation after a dash or a
// sentence's end cut off, a parenthesised condition kept ("APPROVED
// (After Implementing Fixes)").
func verdictValue(v string) string {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(stripBold(v)), "*_`\"'"))
	for _, sep := range []string{" — ", " – ", " -- ", " - ", ". ", "; ", ": "} {
		if i := strings.Index(v, sep); i > 0 {
			v = v[:i]
		}
	}
	v = strings.TrimRight(strings.TrimSpace(v), ".*_`\"'")
	if len(v) > 80 {
		v = cutVerdictValue(v)
	}
	return strings.TrimSpace(v)
}

// overallLabel reports whether a verdict line says it is the overall one.
func overallLabel(t string) bool {
	u := strings.ToLower(stripBold(t))
	return strings.Contains(u, "overall") || strings.Contains(u, "final verdict")
}

// verdictOptions counts the checkbox items around lines[i] (the list it
// stands in) whose text is a verdict: a list of options to tick.
func verdictOptions(lines []line, i int) int {
	n := 0
	for j := i; j >= 0 && j > i-8; j-- {
		if !isVerdictOption(lines[j].text) {
			break
		}
		n++
	}
	for j := i + 1; j < len(lines) && j < i+8; j++ {
		if !isVerdictOption(lines[j].text) {
			break
		}
		n++
	}
	return n
}

func isVerdictOption(s string) bool {
	k, _, item := listItem(s)
	if k == 0 {
		return false
	}
	m := checkboxRe.FindStringSubmatch(item)
	if m == nil {
		return false
	}
	_, ok := NormalizeVerdict(cutVerdictValue(stripBold(item[len(m[0]):])))
	return ok
}

// finalSection returns the index of the line that opens the report's final
// section: its last heading of the highest level it uses for sections
// (below its title).
func finalSection(lines []line) int {
	top, count := 7, map[int]int{}
	for _, l := range lines {
		if !l.masked && l.level > 0 {
			count[int(l.level)]++
		}
	}
	for lvl := 1; lvl <= 6; lvl++ {
		// The title is one heading of its level; sections are several.
		if count[lvl] > 1 || count[lvl] == 1 && lvl > 1 {
			top = lvl
			break
		}
	}
	at := len(lines)
	for i, l := range lines {
		if !l.masked && int(l.level) == top {
			at = i
		}
	}
	return at
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// containsFold reports whether s contains the lower-case ASCII word w in any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i]|0x20 == w[0] && strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}

// dashSpaces writes a verdict's underscores and spaces as dashes
// ("changes requested" and "changes_requested" as "changes-requested"),
// built once: a Replacer built per line cost a 16 MiB report a tenth of
// its time.
var dashSpaces = strings.NewReplacer("_", "-", " ", "-")
