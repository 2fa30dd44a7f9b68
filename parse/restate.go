package parse

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Restatements (SPEC §2.3: "the same finding listed twice … is counted
// once"). A review report labels its findings in its body and then often
// lists them again: an executive summary, a summary table, a prioritised
// list of recommendations, a conclusion. It may also hold a plan: a
// roadmap of phases or weeks, an implementation checklist, the files to
// change, whose priorities are a plan's and not findings. The general
// reader tells these sections by their headings:
//
//   - a finding of the body is read as it is;
//   - a finding of a restating section (summary, overview, conclusion,
//     recommendations, action items, next steps, priorities, fix order)
//     is the body's finding it names — by its ID, an ID it cites ("(H1)",
//     "P0-B"), its number ("| 3 |" for "Finding 3" or "### 3. …") or a
//     title equal by the title rule of §5.2 — and adds nothing of its own.
//     When none of the findings of such a section names one of the body,
//     the section is where the author labelled them (a report whose only
//     severities are its prioritised fixes) and they are findings. When
//     some do, the others are restatements worded apart and add nothing,
//     unless one is worse than every finding read: a summary never reads
//     safer than it says;
//   - a section that plans gives no findings.
//
// A report that labels nothing in its body reads its restating sections
// as its body.

// sectionClass is the kind of section a finding stands in.
type sectionClass byte

const (
	clsBody    sectionClass = iota // where a report states its findings
	clsSummary                     // a summary: it restates the findings
	clsAction                      // recommendations, actions: they restate and prioritise
	clsPlan                        // a roadmap, a checklist, a plan of work
)

var (
	// Headings of sections that restate the findings of a report: a
	// summary, and a list of recommendations or actions.
	summaryHeadRe = regexp.MustCompile(`(?i)\b(?:summary|summaries|overview|executive|tl;?dr|recap|at a glance|conclusions?|key (?:findings|issues|risks|takeaways|concerns)|verdict|scorecard|quick reference|highlights|final (?:thoughts|assessment|notes|grade|words)|résumé|resumen|conclusión|요약|결론|총평|概要|总结|结论|まとめ|tóm tắt|kết luận)\b`)
	actionHeadRe  = regexp.MustCompile(`(?i)\b(?:recommendations?|recommended (?:changes|actions|fixes|fix order|next steps)|action (?:items?|list)|next steps|fix order|order of fixes|prioriti[sz]ed|priority (?:matrix|list|order|fixes|actions)|must[- ]fix list|go/no[- ]go|recommandations?|recomendaciones|권고|권장|建议|khuyến nghị)\b`)
	// Headings of sections that plan work: phases, weeks, a roadmap, a
	// checklist. The plan's noun ends the heading ("Priority Roadmap",
	// "Implementation Checklist (2 weeks)"): a review of a plan is not one.
	planHeadRe = regexp.MustCompile(`(?i)^(?:phase|week|sprint|iteration|stage|step|milestone|day|month|quarter|wave|batch|semaine|fase|étape|semana)\s*#?\d|^(?:[\pL-]+\s+){0,2}(?:roadmap|timeline|checklist|implementation (?:plan|order|checklist|steps|sequence)|migration (?:plan|steps)|rollout(?: plan)?|schedule|work breakdown|action plan|files (?:requiring|to) (?:changes?|modify|modification)|estimated (?:time|effort)(?: to [\pL ]+)?|effort estimates?|goals|objectives|okrs|key results|backlog)\s*(?:\(.*\))?$|^(?:goals|objectives|okrs)\s+(?:for|of)\s`)
)

// The words one of which each heading regexp needs, lower-cased: a
// heading holding none is not run through it (most headings are findings'
// titles, and the regexps backtrack). Each word is as long as the regexp
// allows: "fix order", not "fix", which most titles of fixed findings
// hold. FuzzRegexpGuards holds each list to its regexp.
var (
	planWords = newLowerWords("phase", "week", "sprint", "iteration", "stage", "step", "milestone", "day", "month",
		"quarter", "wave", "batch", "semaine", "fase", "étape", "semana", "roadmap", "timeline", "checklist",
		"implementation", "migration", "rollout", "schedule", "breakdown", "action plan", "files", "estimate", "effort",
		"goals", "objectives", "okrs", "key results", "backlog")
	// "key " and "final" go on to the next word's first letter, "must",
	// "action" and "priority" to theirs: "API key", "final", "must" and
	// "priority" stand in many findings' titles.
	summaryWords = newLowerWords("summar", "overview", "executive", "tl;dr", "tldr", "recap", "glance", "conclusi",
		"key f", "key i", "key r", "key t", "key c", "verdict", "scorecard", "quick reference", "highlight",
		"final t", "final a", "final n", "final g", "final w", "résumé", "resumen", "요약", "결론", "총평", "概要",
		"总结", "结论", "まとめ", "tóm tắt", "kết luận")
	actionWords = newLowerWords("recommend", "action i", "action l", "next step", "fix order", "order of fix", "prioriti",
		"priority m", "priority l", "priority o", "priority f", "priority a", "must fix", "must-fix", "go/no",
		"recommandation", "recomendacion", "권고", "권장", "建议", "khuyến nghị")
	// headWords are the three lists, looked a heading up in at once:
	// bit 1 plan, 2 summary, 4 action.
	headWords = newWordListSet(planWords, summaryWords, actionWords)
)

// namesSection reports whether a heading names a section of the kind re
// matches: its word stands among the heading's first two words, or the
// heading is four words or fewer ("Executive Summary", "Summary of the
// review", "Final Verdict"). A finding's heading that mentions the word
// ("Q3: Fail-open error handling in verdict parsing") does not.
func namesSection(re indexFinder, head string) bool {
	t := plainHead(head)
	if id, _, ok := apartID(t); ok && id != "" {
		return false // "Q3: …" heads a finding
	}
	loc := re.FindStringIndex(t)
	if loc == nil {
		return false
	}
	words := strings.Fields(t)
	return len(words) <= 4 || len(strings.Fields(t[:loc[0]])) < 2
}

// indexFinder is a regexp, guarded or not.
type indexFinder interface{ FindStringIndex(s string) []int }

// containsAny reports whether s contains one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// headingClass returns the class and the restating group of a heading
// node k under parent p: its own when its text names one, else its
// parent's.
func headingClass(nodes []gnode, p int, text string, k int) (sectionClass, int) {
	cls, group := clsBody, -1
	if p >= 0 {
		cls, group = nodes[p].cls, nodes[p].rgroup
	}
	t := plainHead(text)
	if len(nodes) == 0 && p < 0 {
		return cls, group // the report's title names its subject
	}
	words := headWords.inLower(wordsLower(t))
	switch {
	case words&1 != 0 && planHeadRe.MatchString(t):
		return clsPlan, -1
	case cls == clsPlan:
		return cls, group
	case words&2 != 0 && namesSection(summaryHeadRe, t):
		if cls == clsBody {
			group = k
		}
		return clsSummary, group
	case words&4 != 0 && namesSection(actionHeadRe, t):
		if cls == clsBody {
			group = k
		}
		return clsAction, group
	}
	return cls, group
}

// citedIDs returns the finding IDs that text names, other than own: the
// IDs a restating item points at ("Protected paths (H1)", "Fix P0-B",
// "Finding 1 should be fixed first"). Every ID holds a digit: a text
// with none names none (TestCitedIDsAsPlain).
func citedIDs(text, own string) []string {
	if !hasDigit(text) {
		return nil
	}
	var out []string
	if mayCiteWordID(text) {
		for _, m := range citedWordIDRe.FindAllStringSubmatch(text, 4) {
			w := strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:])
			out = append(out, w+" "+m[2])
		}
	}
	for tok := range strings.FieldsFuncSeq(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == '/' ||
			r == '`' || r == '*' || r == ';' || r == '|'
	}) {
		tok = strings.TrimRight(tok, ":.")
		if tok == own || len(out) == 8 || !IsFindingID(tok) {
			continue
		}
		if _, ok := severityPrefix(tok); !ok && IsPLevel(tok) {
			continue // a severity, not an ID
		}
		out = append(out, tok)
	}
	return out
}

// mayCiteWordID reports whether text may hold a match of citedWordIDRe:
// a digit, a '#' before it or not, white space before that and one of the
// regexp's words before the space. A tool's printout (">> Issue: [B602:x]
// … line 14") holds a word and digits on every line, and the unanchored
// regexp tried every place of it: 17% of the parse of such a report.
// Text outside ASCII is left to the regexp, whose (?i) folds 'ſ' to 's'
// and the Kelvin sign to 'k'.
func mayCiteWordID(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			return true
		}
		if !isDigit(c) {
			continue
		}
		j := i
		if j > 0 && text[j-1] == '#' {
			j--
		}
		k := j
		for k > 0 && isRegexpSpace(text[k-1]) {
			k--
		}
		if k == j {
			continue
		}
		for _, w := range citedWordIDRe.words {
			if k >= len(w) && strings.EqualFold(text[k-len(w):k], w) {
				return true
			}
		}
	}
	return false
}

// idKey is the key of an ID in a dedup: a word ID in one spelling
// ("FINDING #1" and "Finding 1" are one).
func idKey(id string) string {
	if n := wordNumber(id); n != "" {
		w, _, _ := strings.Cut(id, " ")
		return strings.ToLower(w) + " " + n
	}
	return id
}

// isTask reports whether a title ends with an estimate of effort: "(1
// day)", "(0.5 days)", "(2h)", "(3 pts)".
func isTask(title string) bool {
	return taskEstimateRe.MatchString(title)
}

var taskEstimateRe = regexp.MustCompile(`(?i)\(\s*~?\d+(?:\.\d+)?\s*(?:-\s*\d+\s*)?(?:d|h|hrs?|hours?|days?|weeks?|wks?|sprints?|pts?|points?)\b[^)]*\)\s*$`)

var citedWordIDRe = guard(regexp.MustCompile(`(?i)\b(finding|issue|gap|concern|problem|risk|item|observation)\s+#?(\d+(?:\.\d+)*)\b`),
	"finding", "issue", "gap", "concern", "problem", "risk", "item", "observation")

// wordNumber returns the number of a word ID: "3" of "Finding 3", "1.2"
// of "Issue 1.2".
func wordNumber(id string) string {
	if _, rest, ok := strings.Cut(id, " "); ok {
		rest = strings.TrimPrefix(strings.TrimSpace(rest), "#")
		if rest != "" && strings.Trim(rest, "0123456789.") == "" {
			return rest
		}
	}
	return ""
}

// headingNumber returns the numbering a heading opens with: "3" of "3.
// Title", "1.2" of "1.2 Title".
func headingNumber(text string) string {
	t := strings.TrimSpace(trimEmoji(stripBold(text)))
	m := t[:numberingLen(t)]
	m = strings.TrimRight(strings.TrimSpace(m), ".)")
	if m == "" || strings.Trim(m, "0123456789.") != "" {
		return ""
	}
	return strings.TrimPrefix(m, "#")
}

// settle returns the findings the general reader read, each listed once:
// the body's, then those of restating sections that name none of them
// (see above). A restatement that names none of the body's findings in a
// section that names some is dropped, unless it is worse than every
// finding read: then it is a finding the body does not detail, and the
// report is not read as safer than its own summary.
func (g *general) settle(st *stop) []Finding {
	// prim and rest index g.findings: a copy of each finding read is
	// what a large report cannot afford twice.
	var prim, rest []int32
	for i := range g.findings {
		switch g.findings[i].cls {
		case clsBody:
			prim = append(prim, int32(i))
		case clsSummary, clsAction:
			rest = append(rest, int32(i))
		}
	}
	if len(prim) == 0 {
		prim, rest = rest, nil
	}
	all := make([]Finding, 0, len(prim)+len(rest))
	worst := 4 // the best rank read among the findings that count
	for _, i := range prim {
		f := &g.findings[i]
		all = append(all, f.Finding)
		if r := f.Severity.Rank(); r < worst && !f.resolved {
			worst = r
		}
	}
	for _, i := range rest {
		all = append(all, g.findings[i].Finding)
	}
	d := newProseDedup(st, all, len(all) <= exactDedupMax)
	// Numbers of the body's findings, for a table's "#" column.
	byNum := map[string]int{}
	for i := range prim {
		st.tick()
		d.add(all[i], d.normAt(i), g.findings[prim[i]].cites...)
		if n := g.findings[prim[i]].num; n != "" {
			if _, dup := byNum[n]; dup {
				byNum[n] = -1 // two findings numbered alike: no number matches
			} else {
				byNum[n] = i
			}
		}
	}
	// Which restating findings name a finding of the body, and which
	// sections hold one that does.
	match := make([]int, len(rest))
	named := map[int]bool{}
	for k := range rest {
		st.tick()
		i := len(prim) + k
		r := &g.findings[rest[k]]
		j, _, _ := d.find(&all[i], d.normAt(i), r.cites)
		if j < 0 && r.num != "" && r.ID == "" {
			if p, ok := byNum[r.num]; ok && p >= 0 {
				j = d.keptOf(p)
			}
		}
		match[k] = j
		if j >= 0 {
			named[r.group] = true
		}
	}
	for k := range rest {
		st.tick()
		i := len(prim) + k
		f := all[i]
		switch j := match[k]; {
		case j >= 0:
			if mergeProse(&d.out[j], f) {
				d.byID[idKey(f.ID)] = j
			}
		case isTask(f.Title):
			// "P0-001: Redaction library (3 days)": an action with its
			// estimate is work to plan beside the findings read, not one
			// of them (a report with no other label reads it, above).
		case !named[g.findings[rest[k]].group] || f.Severity.Rank() < worst && !f.resolved:
			d.add(f, d.normAt(i))
		}
	}
	return d.finish()
}
