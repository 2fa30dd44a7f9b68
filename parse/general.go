package parse

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The general reader of SPEC §2.3: a report with no usable index is read
// the way a careful reviewer reads it. A finding is what the author
// labelled with a severity in a place that labels a finding:
//
//  1. a heading, bullet, numbered item, checkbox item or bold lead-in whose
//     severity stands at its start, after its ID or number, in brackets or
//     parentheses anywhere in it, trailing after a dash, or inside its ID;
//  2. a severity field (Severity:, Risk:, Priority:, Impact:, …) in a
//     finding's block: one finding, whose severity the field gives;
//  3. each sub-heading, bold lead-in, numbered item or checkbox item (plain
//     bullets when there are none of those) directly under a severity group
//     heading; the fields of a finding are part of it;
//  4. each row of a table with a severity column, under any heading.
//
// Lines that name a P0 or P1 severity in such a place and give no finding,
// and tallies that state more P0/P1 findings than were read, are recorded
// so that the report is never silently safe.

// general is what the general reader read.
type general struct {
	findings []gfinding // resolved ones included, marked
	orphans  []orphan
	// overall are the P0/P1 ratings of the report as a whole (a severity
	// field under its title): orphans when no finding is read.
	overall  []orphan
	unmapped []unmappedRow
	// unnamed are the P0/P1 rows of rated tables whose guessed title
	// column did not name them (guessed.go).
	unnamed []orphan
	tallies []tally
	pending []pendingRow // table rows, until the headings over them are read
}

// pendingRow is a table row read as a finding, and the heading node over
// its table. A row with no severity (no severity column, none in its ID)
// is a finding of that heading when it is a group, else none.
type pendingRow struct {
	f    gfinding
	head int
}

// gfinding is a finding of the general reader with the place it was read
// in: a finding of the report's body, or one of a section that restates
// or plans (see restate.go).
type gfinding struct {
	Finding
	cls   sectionClass
	group int      // the restating section: its outermost heading's node, -1 for none
	cites []string // the IDs of other findings its text names
	num   string   // its number ("3" of "Finding 3", "### 3. Title", a "#" column), if any
	// praise: its line ends in a judgement that the thing is fine, cut
	// from its title ("- **[P0]** Lock not held — SAFE"; praise.go).
	praise bool
	// guessed: a row of a rated table whose title column was guessed
	// (guessed.go), kept only when the report labels nothing else.
	guessed bool
}

// orphan is a line that named a severity in a place of rules 1–4 and gave
// no finding.
type orphan struct {
	line int
	sev  Severity
	word string
	// column names the severity column of a table whose cell word is
	// not a severity fluxwatch reads; sev is then empty.
	column string
	// legend: the line is an item of a run that may be a legend of the
	// levels or a list of findings (legend.go).
	legend bool
	// overall: the line rates the whole report (general.overall).
	overall bool
}

// sevFieldAny is sevFieldSplit's match of t, whatever its value, or nil;
// the cheap tests first (a field has a colon).
func sevFieldAny(t string) []string {
	t = fieldForm(t)
	if len(t) > 400 || !strings.Contains(t, ":") && !strings.Contains(t, "：") {
		return nil
	}
	return sevFieldSplit(t)
}

// unmappedField reports whether a severity field's value is a severity
// fluxwatch cannot map: one short token (unmappedSeverity: "4", "Sev-A",
// "S1") that no rule reads, not words ("Recommended fix"), a placeholder (`<level>`, `{sev}`) and not a list of the
// options (`Critical | High | Low`).
func unmappedField(name, value string) bool {
	if n := strings.ToLower(strings.TrimSpace(name)); strings.HasPrefix(n, "impact") || n == "rating" {
		return false // "Impact: Users lose data" is prose, "Rating: B+" a grade, not a level
	}
	if _, _, ok := fieldSeverity(name, value); ok {
		return false
	}
	v := strings.TrimSpace(stripBold(value))
	return !placeholderTitle(v) && !strings.ContainsAny(v, "|/, ") && unmappedSeverity(v)
}

// unmappedSeverity reports whether v, a severity column's cell that is
// not a severity, still states one: a short token ("Sev-A", "S1", "9"),
// not empty, a dash, n/a, none or a sentence.
func unmappedSeverity(v string) bool {
	v = strings.TrimSpace(strings.Trim(stripBold(v), "`*_ "))
	if v == "" || len(v) > 16 || strings.Count(v, " ") > 1 {
		return false
	}
	switch strings.ToLower(strings.Trim(v, ".")) {
	case "-", "—", "–", "n/a", "na", "none", "tbd", "tba", "?", "unknown", "unrated", "n.a", "x", "✓", "✔", "yes", "no",
		"pass", "passed", "ok", "fail", "failed", "real":
		// Check results written in the column, and "real" (a
		// confirmed issue, as against a false positive): words that
		// say whether, not how bad. "real" came from one home report;
		// without it that report, which rates nothing else, is
		// unreadable.
		return false
	}
	if isResolvedValue(v) || isOpenValue(v) {
		return false // a status written in the severity column
	}
	return true
}

// tally is a count of findings of one severity that the report states.
type tally struct {
	line  int
	sev   Severity
	n     int
	group int // the group heading's node when the count is its own, else -1
	// loose: a count of one level with a noun ("14 critical gaps",
	// nounTallies), whose word is often loose: checked against the P0
	// and P1 findings read together.
	loose bool
}

// gnode is a heading, item or bold lead-in of the general reader.
type gnode struct {
	i      int   // index of its line
	parent int   // index of the parent node, -1 at the top
	rank   int32 // nesting rank: heading level, then 7 bold, 8 numbered or checkbox, 9 bullet, more when indented
	kind   byte  // 'h' heading, 'b' bold lead-in, 'n' numbered item, 'c' checkbox item, 'l' bullet
	text   string
	lab    label
	// group: a severity group heading; pure when its text is only severity
	// and group words (with a count or a trailing note).
	group, pure bool
	resolved    bool // a status field says resolved or fixed
	// ticked: a checkbox item whose box is ticked; open: the item or its
	// status field says it is still open ("— **Deferred**", "Status:
	// Pending"). A ticked box is resolved unless the item says open.
	ticked, open  bool
	body          bool // text directly under it that is not "none"
	finding       bool
	legend        bool
	fieldLabel    bool // a bold label that recurs in several findings: a field of each
	resolvedGroup bool // a group heading whose note says its findings are resolved
	resolvedHead  bool // a heading that only says its contents are resolved ("### Fixed", resolved.go)
	placeholders  bool // a group with a template's placeholder under it
	gsev          Severity
	count         int // a count the group heading states, -1 when none
	// field: a severity field in the node's block (rule 2).
	field     Severity
	fieldPrio int32 // lower is stronger: sevRank of the field's name
	fieldLine int
	fieldWord string
	// The counts of its children (int32: a node list is the general
	// reader's largest; they stay far below 2^31 at 16 MiB): rich are
	// headings, bold lead-ins, numbered or checkbox items; subs headings.
	rich, subs int32
	// unlabelledSubs are sub-headings with no severity of their own: a
	// labelled heading over them is their group ("Blocking" over "[B-1]
	// Title"); over labelled ones it is a finding of its own.
	unlabelledSubs int32
	unlabelledKids int32  // children of any kind with no severity of their own
	labelledSubs   int32  // children that are headings with a severity of their own
	plain          int32  // children that are bullets
	found          int32  // children that became findings
	fidx           int    // its index in general.findings when it is a finding
	section        string // the innermost enclosing heading that is not a finding
	// cls is the class of the section it stands in (a summary or a plan
	// restates or plans, it does not report); rgroup is the outermost
	// heading of its restating section, -1 for none.
	cls    sectionClass
	rgroup int
}

// label is what a heading, item or bold lead-in says of its own severity.
type label struct {
	ok       bool
	sev      Severity
	class    sevClass
	id       string
	title    string
	word     string // the severity as written
	resolved bool
	empty    bool // the text is only a severity, a tally or nothing
	// inner: the severity stands in brackets, parentheses or after a
	// dash, not at the start or after an ID.
	inner bool
	// trail: an item that ends with a lowercase severity in brackets
	// ("Port 22 open to the world (high)"), a label only when items
	// beside it end so too (markTrailScale); trail holds it meanwhile.
	trail *label
}

var (
	// A leading numbering: "2.", "1.1", "2)", "#3", "1.1.".
	genNumberingRe = regexp.MustCompile(`^(?:#?\d+(?:\.\d+)*[.)]?|[A-Za-z][.)])\s+`)
	// A checkbox after the list marker.
	checkboxRe = regexp.MustCompile(`^\[([ xX✓✔])\]\s*`)
	// A resolved mark: ✅, or fixed/resolved as a status (bracketed, bold,
	// after a dash or a colon), not "not fixed" or "unresolved".
	// resolvedMark reads it by hand.
	resolvedRe = regexp.MustCompile(`(?i)✅|~~[^~]+~~\s*$|(?:^|[\[(—–:|]|\s-\s|\*\*)\s*(?:already\s+|now\s+)?(?:fixed|resolved|addressed|done|closed)\b`)
	// A tier prefix of a group heading: "Tier 1:", "Priority 2 —".
	tierRe = guardStart(regexp.MustCompile(`(?i)^(?:tier|level|priority|phase|stage|group)\s*\d+\s*[:—–-]\s*`),
		"tier", "level", "priority", "phase", "stage", "group")
	// Headings of legends, templates and guides: no findings under them.
	// A legend is named as one ("Legend", "Severity Levels", "Rating
	// scale") or is the whole of the heading ("Definitions", "Report
	// Template"): "Seed classification" or "No dual classification" are
	// findings' words, not a legend's.
	legendRe     = regexp.MustCompile(`(?i)\b(?:legend|rubric|glossary|(?:severity|priority|risk|impact) (?:levels?|guide|scale|definitions?|ratings?|key|criteria|classification|matrix legend)|rating scale|scoring guide)\b`)
	legendHeadRe = regexp.MustCompile(`(?i)^(?:(?:report|output|response|review|findings?) )?(?:template|format)$|^(?:definitions?|classification|instructions?|severit(?:y|ies)|severidad(?:es)?|sévérités?|schweregrade?|重要度|심각도|严重程度)$|^(?:(?:severity|priority|review|comment|issue) )?labels?$|^how to (?:use|read)\b`)
	// Headings of summaries and overviews: a severity field there is an
	// overall rating, not a finding.
	// Its guard: "summary", "resum" of resumen, "sum\xc3" of résumé, "m t" of tóm tắt.
	overviewRe = guard(regexp.MustCompile(`(?i)\b(?:summary|overview|overall|assessment|conclusion|verdict|scope|context|introduction|résumé|resumen|요약|概要|总结|tóm tắt)\b`),
		"summary", "resum", "sum\xc3", "overview", "overall", "assessment", "conclusion", "verdict", "scope", "context",
		"introduction", "요약", "概要", "总结", "m t") // not "sum", which "assumption" holds
	// Any field of a finding: "- **Location**:", "Fix:", "**Status:** …".
	// One ^ before the alternatives, not one in each: a regexp that
	// starts with ^ is tried at the start only (TestAnyFieldReAnchored).
	anyFieldRe    = regexp.MustCompile(`^(?:(?:[-*+]\s+)?(?:\*\*|__)([^*_]{1,40}?)(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)|(?:[-*+]\s+)?([A-Z][A-Za-z /()-]{0,30}):\s)`)
	statusFieldRe = guardASCII(regexp.MustCompile(`(?i)^(?:[-*+]\s+)?(?:\*\*|__)?\s*(status|state|resolution|update|retest(?:\s+(?:status|result))?|(?:fix|remediation)\s+status|estado|statut|상태|状态)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$`),
		"stat", "resolution", "estado", "update", "retest")
	// Count tallies: "P0: 3", "15 P0", "Critical: 2", "Total Critical Issues: 3".
	countWordRe = guard(regexp.MustCompile(`(?i)\b(?:findings?|issues?|total|counts?|blockers?|bugs?|problems?|vulnerabilit(?:y|ies)|defects?|gaps?|items?|concerns?)\b`),
		"finding", "issue", "total", "count", "blocker", "bug", "problem", "vulnerabilit", "defect", "gap", "item", "concern")
	plevelCountRe = guard(regexp.MustCompile(`(?i)\b(P[0-3])\s*(?:\*\*)?\s*:\s*(?:\*\*)?\s*(\d+)\b|\b(\d+)\s+(P[0-3])\b`),
		"p0", "p1", "p2", "p3")
)

// fieldNames are the fields of a finding (SPEC §2.3): lines that are part of
// a finding, never findings of their own, and never titles.
// fieldNamesMax is the length of fieldNames' longest name.
var fieldNamesMax = maxKeyLen(fieldNames)

var fieldNames = map[string]bool{
	"location": true, "locations": true, "file": true, "files": true, "line": true, "lines": true, "path": true,
	"impact": true, "fix": true, "fixes": true, "recommendation": true, "recommendations": true, "current code": true,
	"evidence": true, "severity": true, "risk": true, "risk level": true, "priority": true, "status": true,
	"description": true, "problem": true, "issue": true, "details": true, "detail": true, "effort": true,
	"category": true, "suggested fix": true, "solution": true, "why": true, "example": true, "reference": true,
	"references": true, "cwe": true, "cvss": true, "owasp": true, "affected": true, "root cause": true,
	"mitigation": true, "remediation": true, "proposed fix": true, "code": true, "before": true, "after": true,
	"action": true, "note": true, "notes": true, "context": true, "rationale": true, "consequence": true,
	"scenario": true, "component": true, "area": true, "owner": true, "confidence": true, "source": true,
	"found by": true, "reviewer": true, "finding": true, "type": true, "vulnerability": true, "attack vector": true,
	"suggestion": true, "recommended fix": true, "expected": true, "actual": true, "steps": true,
	"reproduction": true, "test": true, "tests": true, "verification": true, "criticality": true,
	"sev": true, "severity level": true, "priority level": true, "impact level": true, "resolution": true,
	"state": true, "where": true, "what": true, "current": true, "proposed": true, "problem statement": true,
	"risk rating": true, "severity rating": true, "cvss score": true, "cvss vector": true, "likelihood": true,
	"exploitability": true, "verdict": true, "decision": true, "outcome": true, "overall": true,
	"overall verdict": true, "final verdict": true, "recommendation status": true,
}

// readGeneral reads lines by the rules of SPEC §2.3; src is the text the
// lines are parts of. A report that is a JSON value is read as one
// (jsonbody.go). fences says to read a tool's printout in a fence as the
// report's own lines (readFenced decides when).
func readGeneral(st *stop, src string, lines []line, fences bool) general {
	var g general
	if fs, ok := jsonFindings(st, src); ok {
		g.findings = fs
		return g
	}
	lines = xmlFindings(src, htmlItems(src, htmlTables(src, boxTables(src, lines))))
	nodes := make([]gnode, 0, 64)
	var stack []int // open nodes, innermost last
	cur := func() int {
		if len(stack) == 0 {
			return -1
		}
		return stack[len(stack)-1]
	}
	// push opens n as the innermost node, closing the nodes it outranks;
	// it takes its section class from the node it opens under.
	push := func(n gnode) {
		for len(stack) > 0 && nodes[cur()].rank >= n.rank {
			stack = stack[:len(stack)-1]
		}
		n.parent = cur()
		n.cls, n.rgroup = clsBody, -1
		if n.parent >= 0 {
			n.cls, n.rgroup = nodes[n.parent].cls, nodes[n.parent].rgroup
		}
		nodes = appendNode(nodes, n, len(lines))
		stack = append(stack, len(nodes)-1)
	}
	template := isTemplate(lines)
	heading := -1  // the innermost open heading node
	realLevel := 0 // the level of the last heading written with #s
	folds := 0     // <details> blocks open at the line
	// The summary headings open, each with the number of <details> blocks
	// open at its line: closing its block ends the heading's block.
	var summaries []foldHead
	listGroup := -1 // the node of an open group line over a list
	// listLeads: the group line's list is of bold lead-ins.
	listLeads := false
	// A badge line's severity, its line number and index, waiting for
	// the title under it.
	badge, badgeNum, badgeAt := "", 0, 0
	badgeProse := false // the badge is an image over a paragraph
	var table *genTable
	// Comments separated by rules under one heading (ruleblock.go).
	rules := newRuleBlocks()
	blockEnd := -1 // the last line of a field block read as one finding
	// The run of field lines from the last field-shaped line read, and
	// whether a severity field stands among them (fieldRun).
	runEnd, runSev := 0, false
	// The fence last opened: its first line, its closing line, and
	// whether it is a tool's printout to read (toolFence).
	fenceAt, fenceEnd, fenceRead := -1, 0, false
	setextAt := -1        // the underline of the last setext heading
	quoteExample := false // the quoted block at the line is an example
	for i := range lines {
		st.tick()
		l := lines[i]
		if l.masked {
			if l.fenced && i >= fenceEnd && (i == 0 || !lines[i-1].fenced) {
				fenceAt = i
				fenceEnd, fenceRead = toolFence(lines, i)
				fenceRead = fenceRead && fences
			}
			if !fenceRead || i <= fenceAt || i >= fenceEnd {
				continue // code, or a fence's own lines
			}
		}
		t := strings.TrimSpace(l.text)
		if strings.HasPrefix(t, ">") && l.level == 0 {
			if i == 0 || !quoteLine(lines[i-1]) {
				quoteExample = exampleQuote(lines, i)
			}
			if quoteExample {
				continue // "For example, a comment like this:" (lookalike.go)
			}
			// A quoted block ("> **[P1] Title**"), as review bots quote
			// their comments: read as the text it quotes.
			q := strings.TrimLeft(t, "> ")
			l.text, t = q, strings.TrimSpace(q)
		}
		if t == "" {
			table = nil
			continue
		}
		opened, closed := 0, 0
		if t[0] == '<' {
			opened, closed = foldTags(t)
			folds += opened
		}
		level, head := int(l.level), l.head
		if level == 0 && i == setextAt {
			continue // the underline of a setext heading
		}
		if level == 0 && l.text == t {
			if u := setextLevel(lines, i); u > 0 {
				level, head, setextAt = u, cleanHeading(t), i+1
			}
		}
		summary := false
		if level > 0 {
			realLevel = level
		} else if h, ok := summaryHead(t); ok {
			summary = true
			// A collapsed block's summary heads what it folds, one level
			// below the heading it stands under and one more for each
			// block it is folded in ("🔴 Critical (2)" over its
			// comments' own blocks).
			level, head = min(realLevel+max(folds, 1), 6), h
		} else if w, sev, ok := plainGroupLine(t); ok && l.text == t {
			if listFollows(lines, i) || leadInFollows(lines, i) {
				// "CRITICAL" or "High priority issues:" alone over a list
				// (or over bold lead-ins, "**Title.** text"): the heading
				// of a group, written without #s, over that list only.
				level, head = min(realLevel+1, 6), w
				listGroup, listLeads = len(nodes), !listFollows(lines, i)
			} else if _, n, _ := groupCore(w); n > 0 && sev.Rank() <= 1 {
				// "**Must fix (2)**" over no list: its count is the
				// report's tally, checked against what was read (SPEC
				// §2.3, never silently safe).
				g.tallies = append(g.tallies, tally{line: l.num, sev: sev, n: n, group: -1})
			}
		}
		depth := folds
		folds = max(folds-closed, 0)
		if closed > 0 {
			// "</details>": the summary headings of the blocks it closes
			// end here, with whatever opened under them.
			for len(summaries) > 0 && summaries[len(summaries)-1].folds > folds {
				at := slices.Index(stack, summaries[len(summaries)-1].node)
				summaries = summaries[:len(summaries)-1]
				if at >= 0 {
					stack = stack[:at]
				}
			}
			heading = -1
			for _, k := range slices.Backward(stack) {
				if nodes[k].kind == 'h' {
					heading = k
					break
				}
			}
		}
		if level > 0 {
			table = nil
			if tallyHeading(head) {
				g.lineTallies(head, l.num, false, false) // "## Findings (2 critical, 1 high)"
			}
			if listGroup >= 0 && listGroup < len(nodes) {
				// A heading ends a group line's scope, its list: "**Must
				// fix (2)**" as a report's first line stands for a level-1
				// heading, and "## Notes" after its list is not under it.
				for len(stack) > 0 && cur() >= listGroup {
					stack = stack[:len(stack)-1]
				}
				listGroup = -1
			}
			if name, v, j, ok := headingField(lines, i, head); ok && heading >= 0 && nodes[heading].rank < int32(level) {
				// "### Severity" over "High", as an advisory writes its
				// fields: a severity field of the heading it stands under.
				nodes[heading].setField(name, v, lines[j].num)
				blockEnd = j
				continue
			}
			n := gnode{i: i, kind: 'h', rank: int32(level), text: head, count: -1}
			for len(stack) > 0 && nodes[cur()].rank >= n.rank {
				stack = stack[:len(stack)-1]
			}
			n.parent = cur()
			n.cls, n.rgroup = headingClass(nodes, n.parent, head, len(nodes))
			n.resolvedHead = resolvedHeading(head)
			nodes = appendNode(nodes, n, len(lines))
			stack = append(stack, len(nodes)-1)
			heading = len(nodes) - 1
			rules.heading(i)
			if summary && depth > 0 && depth == folds {
				summaries = append(summaries, foldHead{node: heading, folds: depth})
			}
			continue
		}
		if strings.HasPrefix(t, "|") {
			if table == nil {
				if cols, ok := genTableHeader(lines, i); ok {
					table = &cols
					table.section = sectionText(nodes, heading)
					table.skip = 1
					table.cls, table.group, table.head = clsBody, -1, heading
					table.legend = template || inLegend(nodes, heading) || scaleHeader(t)
					if heading >= 0 {
						table.cls, table.group = nodes[heading].cls, nodes[heading].rgroup
					}
					if table.kv {
						// "| Severity | High |" as its first row.
						table.row(&g, &nodes, cur(), t, l.num, table.legend)
					}
				}
				if table == nil {
					continue
				}
				continue
			}
			if table.skip > 0 {
				table.skip--
				continue
			}
			table.row(&g, &nodes, cur(), t, l.num, table.legend)
			continue
		}
		table = nil
		g.lineTallies(t, l.num, heading >= 0 && nodes[heading].cls == clsSummary,
			heading < 0 || heading == 0 && nodes[0].kind == 'h' && nodes[0].rank == 1)
		if isRule(t) {
			rules.split(i)
			if rules.node >= 0 && cur() == rules.node {
				stack = stack[:len(stack)-1] // the rule ends its block's finding
			}
			rules.node = -1
			continue
		}
		if i <= blockEnd {
			continue // a field of the field block above
		}
		if (t[0] == '*' || t[0] == '_') && (i == 0 || !paraLine(lines[i-1])) {
			if b, ok := readFieldBlock(lines, i); ok {
				// A paragraph of fields, one finding (fieldblock.go).
				blockEnd = b.end
				n := gnode{i: i, kind: 'b', rank: 7, text: b.text, count: -1, resolved: b.resolved, open: b.openMark}
				n.setField(b.sevName, b.sevValue, b.sevLine)
				push(n)
				continue
			}
		}
		kind, indent, body := genItem(l.text)
		if listGroup >= 0 && kind == 0 && l.text == strings.TrimLeft(l.text, " \t") && !(listLeads && isLeadIn(t)) {
			// A paragraph after the list ends a group line's scope.
			for len(stack) > 0 && cur() >= listGroup {
				stack = stack[:len(stack)-1]
			}
			listGroup = -1
		}
		if c := cur(); kind == 0 && c >= 0 && nodes[c].kind == 'h' && boldAlone(t) && quietBetween(lines, nodes[c].i, i) && !listFollows(lines, i) {
			// "#### Reset link valid for 7 days" over "**High**": a
			// severity alone in bold right under a finding's heading
			// is its severity field.
			v := levelAlone(strings.TrimSpace(strings.Trim(strings.TrimSuffix(strings.TrimSpace(t), ":"), "*")))
			if _, cl, ok := oneSeverity(v, false); ok && cl == sevFinding {
				nodes[c].setField("severity", v, l.num)
				continue
			}
		}
		if c := cur(); kind == 0 && c >= 0 && (nodes[c].kind == 'n' || nodes[c].kind == 'l') && nodes[c].i == i-1 &&
			l.text != t && boldAlone(t) {
			// "1. Jobs run for other tenants" over "   **Critical**":
			// a severity alone in bold on the item's next line, indented
			// under it, is its severity field.
			v := strings.TrimSpace(strings.Trim(strings.TrimSpace(t), "*"))
			if _, cl, ok := oneSeverity(v, false); ok && cl == sevFinding {
				nodes[c].setField("severity", v, l.num)
				continue
			}
		}
		// A severity or status field belongs to the innermost open node.
		fm, segStatus := fieldSegments(t) // "Priority: High · Status: Open" (structures8.go)
		if fm == nil {
			fm = sevFieldAny(t)
		}
		if m := sevFieldMatch(fm); m != nil {
			// The field belongs to the finding's opener, not to a bold
			// label of a paragraph ("**What the plan says:** …") in it;
			// a field written as a paragraph of its own, not indented,
			// follows a list rather than belonging to its last item.
			para := kind == 0 && l.text == strings.TrimLeft(l.text, " \t")
			c := len(stack) - 1
			for c > 0 && (isParagraphLabel(nodes[stack[c]].text, nodes[stack[c]].kind) ||
				para && strings.IndexByte("lnc", nodes[stack[c]].kind) >= 0) {
				c--
			}
			if c >= 0 {
				h := stack[c]
				if split, first := rules.splits(nodes, h, i); split {
					// A comment of its own under the heading, after a rule
					// (ruleblock.go).
					if first {
						// The heading's field was the first block's.
						if at, title := blockTitle(lines, rules.fieldFrom, rules.fieldAt); at >= 0 {
							n := blockNode(at, title, &nodes[h])
							nodes[h].field, nodes[h].fieldPrio, nodes[h].fieldLine, nodes[h].fieldWord = "", 0, 0, ""
							push(n)
						}
						rules.head = h
					}
					if at, title := blockTitle(lines, rules.from, i); at >= 0 {
						var f gnode
						f.setField(m[1], m[2], l.num)
						push(blockNode(at, title, &f))
						rules.node = len(nodes) - 1
						continue
					}
					rules.untitled = rules.from
				}
				nodes[h].setField(m[1], m[2], l.num)
				for _, s := range segStatus {
					nodes[h].setStatus(s[1], s[2])
				}
				if nodes[h].kind == 'h' && nodes[h].fieldLine == l.num {
					rules.fieldSet(h, i)
				}
			} else if sev, _, _ := fieldSeverity(m[1], m[2]); sev.Rank() <= 1 && !template {
				// A P0/P1 severity field with nothing above it to
				// label: a line that named a severity and gave no
				// finding (SPEC §2.3, never silently safe).
				g.orphans = append(g.orphans, orphan{line: l.num, sev: sev, word: strings.TrimSpace(m[2])})
			}
			continue
		}
		if m := fm; m != nil && !template && len(stack) > 0 && unmappedField(m[1], m[2]) {
			// "Severity: 4" with no scale, "Priority: Sev-A": a severity
			// field fluxwatch cannot map (SPEC §2.3, never silently safe).
			g.orphans = append(g.orphans, orphan{line: l.num, word: strings.TrimSpace(stripBold(m[2])), column: strings.ToLower(strings.TrimSpace(m[1]))})
			continue
		}
		if m := statusFieldOf(t); m != nil || segStatus != nil {
			if c := cur(); c >= 0 {
				if m != nil {
					nodes[c].setStatus(m[1], m[2])
				}
				for _, s := range segStatus {
					nodes[c].setStatus(s[1], s[2])
				}
			}
			continue
		}
		// In a tool's printout, the line over a severity field is the
		// title it rates, whatever its shape (">> Issue: [B602] …").
		printTitle := fenceRead && i > fenceAt && i+1 < fenceEnd && sevFieldOf(strings.TrimSpace(lines[i+1].text)) != nil ||
			kind == 0 && l.text == t && i+1 < len(lines) && indentedRating(lines, i)
		if title, ok := titleField(t); ok && !printTitle && ratedBelow(lines, i) && !headsBlock(lines, nodes, cur(), i) {
			// "- **Issue:** Title" over "  - **Priority:** High": the
			// field names the finding its severity field rates. Under
			// a finding's heading it is that finding's field.
			push(gnode{i: i, kind: 'b', rank: 7, text: "**" + title + "**", count: -1})
			continue
		}
		if c := cur(); c >= 0 && nodes[c].kind == 'h' && !printTitle {
			if title, ok := titleField(t); ok && idOnlyHeading(nodes[c].text) {
				// "### Finding C1-1" over "**Title:** Crash drops the
				// batch": a heading that names only its finding's ID
				// takes its title from the title field below it.
				nodes[c].text = strings.TrimRight(strings.TrimSpace(nodes[c].text), ":") + ": " + title
				continue
			}
		}
		if isFieldLine(t) && !printTitle {
			continue
		}
		if i >= runEnd && strings.IndexByte(t, ':') >= 0 && !printTitle {
			runEnd, runSev = fieldRun(lines, i)
		}
		if i < runEnd && runSev && !printTitle {
			// "- **Rule:** x" over "- **Severity:** High": a field of
			// the finding whose severity field stands among them.
			continue
		}
		scan := scannerLine(t) // a prefix test on most lines
		var n gnode
		switch {
		case printTitle:
			n = gnode{i: i, kind: 'b', rank: 7, text: t, count: -1}
		case kind != 0 && indent >= 2 && !underListLabel(nodes, stack, 8+indent/2) && !underCategory(nodes, stack, itemRank(kind, indent)):
			continue // a nested item details the one above it
		case kind != 0:
			n = gnode{i: i, kind: 'l', rank: int32(9 + indent/2), text: body, count: -1}
			if tail := wrappedTrail(lines, i, body); tail != "" {
				n.text = body + " " + tail // structures9.go
			}
			if kind == '1' {
				n.kind, n.rank = 'n', int32(8+indent/2)
			}
			if m := checkboxOf(body); m != nil {
				n.kind, n.rank = 'c', int32(8+indent/2)
				n.text = body[len(m[0]):]
				n.ticked = m[1] != " "
				n.open = n.ticked && openMark(n.text)
			} else if tx, lv, state, ok := trackerItem(body); ok {
				// "**ENG-12** · Urgent · Todo — Title" (structures8.go).
				n.text = tx
				n.setField("priority", lv, l.num)
				n.setStatus("status", state)
			}
		case (strings.HasPrefix(t, "**") || strings.HasPrefix(t, "__")) && !linesBadge(t):
			n = gnode{i: i, kind: 'b', rank: 7, text: t, count: -1}
		case l.text == t && emojiBoldLead(t) != "":
			// "⛔ **BLOCKER** — Title": a bold lead-in behind a mark.
			n = gnode{i: i, kind: 'b', rank: 7, text: emojiBoldLead(t), count: -1}
		case l.text == t && markedPara(t) != "":
			// "🟠 **Token not rotated** — …": a title behind a mark.
			n = gnode{i: i, kind: 'b', rank: 7, text: markedPara(t), count: -1}
		case len(l.text)-len(strings.TrimLeft(l.text, " ")) < 4 && scannerTagged(t) != "":
			// "✗ Prototype Pollution [Critical Severity][url] in lodash".
			n = gnode{i: i, kind: 'b', rank: 7, text: scannerTagged(t), count: -1}
		case l.text == t && scan != "":
			// "✗ High severity vulnerability found in jsonwebtoken": a
			// scanner's result line, read as "[High] …".
			n = gnode{i: i, kind: 'b', rank: 7, text: "[" + scan + "] " + strings.TrimSpace(trimEmoji(t)), count: -1}
		case l.text == t && failedCheck(t) != "":
			// "[FAIL] 1.2.1 Ensure that … (Critical)": a benchmark's
			// failed check, rated at its end; a passed one is no finding.
			n = gnode{i: i, kind: 'b', rank: 7, text: failedCheck(t), count: -1}
		case l.text == t && trailingRating(t) != "":
			// "[a.go:27] - G401 (CWE-328): Weak hash (Confidence: HIGH,
			// Severity: MEDIUM)": a scanner's line rated at its end.
			n = gnode{i: i, kind: 'b', rank: 7, text: trailingRating(t), count: -1}
		case l.text == t && idLevelLine(t) != "":
			// "Result #1 HIGH Title": a scanner's result (structures8.go).
			n = gnode{i: i, kind: 'b', rank: 7, text: idLevelLine(t), count: -1}
		case l.text == t && plainLabel(t):
			// "P0: Auth bypass …", "[HIGH] Title" written as a line of
			// its own: read as the bold lead-in it stands for.
			n = gnode{i: i, kind: 'b', rank: 7, text: t, count: -1}
		case l.text == t && taggedBoldLead(t) != "":
			// "[⚡ Performance] **Title** (HIGH)": a bold lead-in behind
			// a category tag (title.go).
			n = gnode{i: i, kind: 'b', rank: 7, text: taggedBoldLead(t), count: -1}
		case l.text == t && len(t) < 200 && i+1 < len(lines) && sevFieldOf(strings.TrimSpace(lines[i+1].text)) != nil &&
			!strings.HasSuffix(t, ".") && !strings.Contains(t, "|"):
			// "Finding 1: Tokens are logged" with "Severity: High" on
			// the next line: a title written as a plain line.
			n = gnode{i: i, kind: 'b', rank: 7, text: t, count: -1}
		default:
			if v, rest, ok := imageBadge(t); ok {
				// "![high](…/high-priority.svg)" over a comment, or
				// opening it: the severity of the paragraph it marks.
				badge, badgeNum, badgeAt, badgeProse = v, l.num, i, true
				if rest == "" {
					continue
				}
				t = rest
			} else if v, ok := badgeLine(t); ok {
				// "_⚠️ Potential issue_ | _🔴 Critical_" over the
				// comment's bold title: the title's severity field.
				badge, badgeNum, badgeAt, badgeProse = v, l.num, i, false
				continue
			}
			if !badgeProse || badge == "" || i-badgeAt > 2 {
				if c := cur(); c >= 0 && !noneText(t) {
					nodes[c].body = true
				}
				continue
			}
			// The comment under an image badge: its first sentence
			// is its title.
			n = gnode{i: i, kind: 'b', rank: 7, text: "**" + firstSentence(t) + "**", count: -1}
		}
		if r := ratedLead(n.text); r != "" {
			n.text = r // "**Priority 1 — Title**", "**Title** — risk 9/10 (critical)" (structures8.go)
		}
		if badge != "" && i-badgeAt <= 2 {
			n.setField("severity", badge, badgeNum)
		}
		badge = ""
		push(n)
	}
	// Each node gives at most one finding, each table row one: room for
	// them all at once, not copies of a growing list.
	g.findings = make([]gfinding, 0, len(nodes)+len(g.pending))
	g.unmappedOrphans()
	g.decide(st, lines, nodes, template)
	// Praise is no finding (praise.go): "P1: Address scheme is clean".
	g.findings = slices.DeleteFunc(g.findings, func(f gfinding) bool { return f.praise || praised(f.Title) })
	if len(g.findings) == 0 && !template {
		g.findings = append(g.findings, fencedJSONFindings(st, lines)...)
	}
	g.sweep(lines, nodes, template) // the general net (sweep.go)
	g.planOrphans()                 // a plan's P0/P1 items, when nothing else is labelled
	g.settleGuessed()               // rows of rated tables with no title column, likewise (guessed.go)
	// In the order of the report: a table row is read as its line comes,
	// a heading's or an item's finding once its block is known.
	slices.SortStableFunc(g.findings, func(a, b gfinding) int { return a.Line - b.Line })
	return g
}

// appendNode appends n, the node of line n.i of lines, to nodes. A full
// list grows to the size the share of the lines read so far gives it
// (and a sixteenth), at least by a quarter and at most double: append
// alone grows a large list by a quarter, so that its copies add up to
// five times its final size (470 of the 1,040 MB a 16 MiB report of
// headings allocated). TestAppendNodeAsAppend.
func appendNode(nodes []gnode, n gnode, lines int) []gnode {
	if c := len(nodes); c == cap(nodes) && c >= 1024 {
		est := int(int64(c) * int64(lines) / int64(n.i+1))
		grown := make([]gnode, c, min(max(est+est/16, c+c/4), 2*c))
		copy(grown, nodes)
		nodes = grown
	}
	return append(nodes, n)
}

// resolvedMark is resolvedRe.MatchString(s), read by hand in one pass
// (FuzzRegexpGuards compares the two): a ✅; a struck-through part that
// ends s; or fixed, resolved, addressed, done or closed as a whole word
// (in any case, 'ſ' for 's'), after "already" or "now" or not, at the
// start of s or after a bracket, a parenthesis, a dash, a colon, a pipe,
// a spaced hyphen or bold, white space between them allowed.
func resolvedMark(s string) bool {
	if strings.Contains(s, "✅") || struckEnd(s) {
		return true
	}
	for q := 0; q < len(s); q++ {
		c := s[q] | 0x20
		if c != 'f' && c != 'r' && c != 'a' && c != 'd' && c != 'c' {
			continue
		}
		for _, w := range resolvedWords {
			n := wordFoldLen(s[q:], w)
			if n < 0 || q+n < len(s) && isWordByte(s[q+n]) {
				continue
			}
			if resolvedAnchor(s, q) {
				return true
			}
		}
	}
	return false
}

// resolvedWords are the words that mark a finding resolved (SPEC §2.3
// resolved items), in its line (resolvedMark), its status field
// (isResolvedValue, with statusResolvedWords) or a heading over it
// (resolvedHeading): the one list of them.
var resolvedWords = []string{"fixed", "resolved", "addressed", "done", "closed"}

// resolvedAnchor reports whether a resolved word at s[q:] stands where
// resolvedRe reads one: an anchor, white space, "already" or "now" and
// white space, or the anchor and white space alone.
func resolvedAnchor(s string, q int) bool {
	r := q
	for r > 0 && isRegexpSpace(s[r-1]) {
		r--
	}
	for a := r; a <= q; a++ {
		if resolvedAnchorAt(s, a) {
			return true
		}
	}
	if r == q {
		return false // "already" and "now" need white space after them
	}
	for _, p := range []string{"already", "now"} {
		if r < len(p) || !strings.EqualFold(s[r-len(p):r], p) {
			continue
		}
		e := r - len(p)
		b := e
		for b > 0 && isRegexpSpace(s[b-1]) {
			b--
		}
		for a := b; a <= e; a++ {
			if resolvedAnchorAt(s, a) {
				return true
			}
		}
	}
	return false
}

// resolvedAnchorAt reports whether one of resolvedRe's anchors ends at
// s[:a]: the start, [ ( : |, an em or en dash, a spaced hyphen, bold.
func resolvedAnchorAt(s string, a int) bool {
	switch {
	case a == 0:
		return true
	case strings.IndexByte("[(:|", s[a-1]) >= 0:
		return true
	case a >= 2 && s[a-2:a] == "**":
		return true
	case a >= 3 && (s[a-3:a] == "—" || s[a-3:a] == "–"):
		return true
	}
	return a >= 3 && isRegexpSpace(s[a-3]) && s[a-2] == '-' && isRegexpSpace(s[a-1])
}

// resolvedNote is resolvedNoteRe.MatchString(s), read by hand in one pass
// (FuzzRegexpGuards compares the two): fixed, resolved, addressed, closed
// or done as a whole word after an opening parenthesis or bracket or a
// dash, "all", "now" or "already" between them or not; or fixed, resolved
// or addressed after a spaced hyphen, "all" between them or not.
func resolvedNote(s string) bool {
	for q := 0; q < len(s); q++ {
		c := s[q] | 0x20
		if c != 'f' && c != 'r' && c != 'a' && c != 'c' && c != 'd' {
			continue
		}
		for i, w := range noteWords {
			n := wordFoldLen(s[q:], w)
			if n < 0 || q+n < len(s) && isWordByte(s[q+n]) {
				continue
			}
			if noteBefore(s, q, false) || i < 3 && noteBefore(s, q, true) {
				return true
			}
		}
	}
	return false
}

// noteWords are resolvedNoteRe's words; the first three also follow a
// spaced hyphen.
var noteWords = []string{"fixed", "resolved", "addressed", "closed", "done"}

// noteBefore reports whether the word at s[q:] follows what resolvedNoteRe
// needs before it: ( [ — or – and white space (hyphen false), or white
// space, a hyphen and white space again (hyphen true); "all" (or, not
// after a hyphen, "now" or "already") and white space may stand between.
func noteBefore(s string, q int, hyphen bool) bool {
	r := spaceStart(s, q)
	if noteAnchor(s, r, q, hyphen) {
		return true
	}
	if r == q {
		return false // a qualifier needs white space after it
	}
	for k, p := range []string{"all", "now", "already"} {
		if hyphen && k > 0 {
			break
		}
		if r < len(p) || !strings.EqualFold(s[r-len(p):r], p) {
			continue
		}
		e := r - len(p)
		if noteAnchor(s, spaceStart(s, e), e, hyphen) {
			return true
		}
	}
	return false
}

// noteAnchor reports whether resolvedNoteRe's anchor ends at s[:r], with
// white space from r to q: ( [ — – before any white space, or white space,
// a hyphen and at least one white space (hyphen).
func noteAnchor(s string, r, q int, hyphen bool) bool {
	if hyphen {
		return r < q && r >= 2 && s[r-1] == '-' && isRegexpSpace(s[r-2])
	}
	return r >= 1 && (s[r-1] == '(' || s[r-1] == '[') || r >= 3 && (s[r-3:r] == "—" || s[r-3:r] == "–")
}

// spaceStart returns where the white space that ends at s[:q] starts.
func spaceStart(s string, q int) int {
	for q > 0 && isRegexpSpace(s[q-1]) {
		q--
	}
	return q
}

// struckEnd reports whether s ends with a struck-through part, white
// space after it allowed: "~~x~~".
func struckEnd(s string) bool {
	e := len(s)
	for e > 0 && isRegexpSpace(s[e-1]) {
		e--
	}
	if e < 2 || s[e-2:e] != "~~" {
		return false
	}
	k := e - 2
	j := k
	for j > 0 && s[j-1] != '~' {
		j--
	}
	return j < k && j >= 2 && s[j-2:j] == "~~"
}

// cutNumbering is genNumberingRe.ReplaceAllString(s, ""): s less the
// numbering it opens with (FuzzRegexpGuards compares the two).
func cutNumbering(s string) string { return s[numberingLen(s):] }

// numberingLen is the length of genNumberingRe's match at the start of s,
// 0 for none, read as the regexp reads: "#", digits, ".digits" groups as
// many as let a "." or ")" and white space or white space follow, or a
// letter and "." or ")"; then all the white space.
func numberingLen(s string) int {
	i := 0
	if i < len(s) && s[i] == '#' {
		i++
	}
	d := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i > d {
		// The ends of the ".digits" groups, the most first.
		var buf [8]int
		ends := append(buf[:0], i)
		for i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
			i++
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			ends = append(ends, i)
		}
		for k := len(ends) - 1; k >= 0; k-- {
			e := ends[k]
			if e+1 < len(s) && (s[e] == '.' || s[e] == ')') && isRegexpSpace(s[e+1]) {
				return spaceRun(s, e+1)
			}
			if e < len(s) && isRegexpSpace(s[e]) {
				return spaceRun(s, e)
			}
		}
		return 0
	}
	if len(s) > 2 && isASCIILetter(s[0]) && (s[1] == '.' || s[1] == ')') && isRegexpSpace(s[2]) {
		return spaceRun(s, 2)
	}
	// "II. High-Priority Findings", "iv) Title": a Roman numeral.
	n := 0
	for n < len(s) && n < 6 && strings.IndexByte("IVXivx", s[n]) >= 0 {
		n++
	}
	if n >= 2 && n+1 < len(s) && (s[n] == '.' || s[n] == ')') && isRegexpSpace(s[n+1]) {
		return spaceRun(s, n+1)
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// spaceRun returns the index past the run of \s at s[i:].
func spaceRun(s string, i int) int {
	for i < len(s) && isRegexpSpace(s[i]) {
		i++
	}
	return i
}

// sevFieldOf matches a severity field line whose value is a severity.
func sevFieldOf(t string) []string {
	return sevFieldMatch(sevFieldAny(t))
}

// sevFieldMatch is sevFieldOf of the line sevFieldAny matched as m.
func sevFieldMatch(m []string) []string {
	if m == nil {
		return nil
	}
	if !mappedField(m) {
		// "Severity: High   Confidence: High": a tool prints its
		// fields in columns on one line; the first column is the value.
		v, _, cut := strings.Cut(strings.ReplaceAll(m[2], "\t", "  "), "  ")
		if !cut {
			return nil
		}
		if _, c, ok := fieldSeverity(m[1], v); !ok || c != sevFinding {
			return nil
		}
		m[2] = v
	}
	return m
}

// mappedField reports whether m, sevFieldAny's match, holds the severity
// of a finding.
func mappedField(m []string) bool {
	_, c, ok := fieldSeverity(m[1], m[2])
	return ok && c == sevFinding
}

func statusFieldOf(t string) []string {
	if len(t) > 400 || !strings.Contains(t, ":") {
		return nil
	}
	return statusFieldRe.FindStringSubmatch(t)
}

// isResolvedValue reports whether a status value says resolved or fixed.
func isResolvedValue(v string) bool {
	v = strings.ToLower(strings.TrimSpace(stripBold(v)))
	if strings.HasPrefix(v, "not ") || strings.HasPrefix(v, "un") {
		return false
	}
	if strings.Contains(v, "✅") {
		return true
	}
	v = strings.TrimSpace(strings.Trim(trimEmoji(v), "*_`[]()"))
	for _, w := range resolvedWords {
		if strings.HasPrefix(v, w) {
			return true
		}
	}
	for _, w := range statusResolvedWords {
		if strings.HasPrefix(v, w) {
			return true
		}
	}
	return false
}

// statusResolvedWords are the words that resolve a finding as the value of
// its status field only, beside resolvedWords, which resolve it there and
// as a mark in its line: an audit's statuses ("Solved", "Remediated",
// "Mitigated" say the defect is gone; "Acknowledged" and "Risk accepted"
// that it stays), and the same words in other languages.
var statusResolvedWords = []string{"already fixed", "implemented", "solved", "remediated", "mitigated",
	"corrigé", "résolu", "resuelto", "corregido", "behoben", "исправлено", "해결", "수정 완료", "조치 완료", "已修复", "已解决", "修正済み"}

// isResolution reports whether a Resolution field tells what was done
// ("Resolution: copied the plan to …", "Resolution: added a guard"), a
// verb in the past tense, not what to do ("Resolution: add a guard").
func isResolution(field, v string) bool {
	if !strings.EqualFold(field, "resolution") {
		return false
	}
	w, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(stripBold(v))), " ")
	switch w {
	case "needed", "required", "proposed", "suggested", "recommended", "unresolved", "blocked", "deferred", "planned":
		return false
	}
	return len(w) > 4 && strings.HasSuffix(w, "ed")
}

// fieldRun reads the run of field lines that starts at lines[i]: lines of
// "Name: value" shape ("- **Rule:** x", "CWE: 22"), one after another,
// none blank. It returns the index after the run, and whether a severity
// field stands in it: then each of them, whatever its name, is a field of
// one finding, in any order (SPEC §2.3), not an item of its own. Each
// line is scanned once: the caller asks again only after the run.
func fieldRun(lines []line, i int) (end int, sev bool) {
	j := i
	for ; j < len(lines); j++ {
		if lines[j].masked || lines[j].level > 0 {
			break
		}
		t := strings.TrimSpace(lines[j].text)
		if t == "" && j > i && fieldAfterBlank(lines, j) {
			continue
		}
		if t == "" || strings.IndexByte(t, ':') < 0 {
			break
		}
		if sevFieldOf(t) != nil {
			sev = true
			continue
		}
		if !fieldShaped(t) {
			break
		}
	}
	return max(j, i+1), sev
}

// headingField reads a heading that is only a severity field's name
// ("### Severity", "#### Risk rating") over its value alone on the next
// line of text ("High", "**Critical**"), as security advisories write
// their fields: the name, the value, and the value's index.
func headingField(lines []line, i int, head string) (name, value string, j int, ok bool) {
	name = strings.TrimSpace(strings.Trim(strings.TrimSpace(head), "*_:"))
	if len(name) > 40 {
		return "", "", 0, false
	}
	if m := sevFieldSplit(name + ": x"); m == nil || m[1] != name {
		return "", "", 0, false
	}
	j = i + 1
	for j < len(lines) && !lines[j].masked && lines[j].level == 0 && strings.TrimSpace(lines[j].text) == "" {
		j++
	}
	if j >= len(lines) || lines[j].masked || lines[j].level > 0 {
		return "", "", 0, false
	}
	t := strings.TrimSpace(lines[j].text)
	if t != lines[j].text || t == "" || strings.ContainsAny(t[:1], "-*+|>#<") && !strings.HasPrefix(t, "**") {
		return "", "", 0, false // an item, a table, a quote: not a value alone
	}
	value = strings.TrimSpace(strings.Trim(t, "*_"))
	if j+1 < len(lines) && !lines[j+1].masked && lines[j+1].level == 0 && strings.TrimSpace(lines[j+1].text) != "" {
		return "", "", 0, false // a paragraph, not a value alone
	}
	if _, c, ok := fieldSeverity(name, value); !ok || c != sevFinding {
		return "", "", 0, false
	}
	return name, value, j, true
}

// fieldAfterBlank reports whether the blank line lines[j] stands inside a
// run of fields: a field follows it. Fields written a blank line apart
// ("- **Query:** …", blank, "- **Severity:** High") are one run, for
// fieldRun and ratedBelow alike.
func fieldAfterBlank(lines []line, j int) bool {
	if j+1 >= len(lines) {
		return false
	}
	n := lines[j+1]
	if n.masked || n.level > 0 {
		return false
	}
	u := strings.TrimSpace(n.text)
	return strings.IndexByte(u, ':') >= 0 && (sevFieldOf(u) != nil || fieldShaped(u))
}

// fieldShaped reports whether t is a line of "Name: value" shape whose
// name is not a severity ("- **High:** x" is a labelled item).
func fieldShaped(t string) bool {
	name, field := anyFieldName(t)
	if !field {
		return false
	}
	if startsWithSeverity(name) {
		return false
	}
	_, _, _, _, _, ok := bracketSeverity(name)
	return !ok
}

// isFieldLine reports whether t is a field of a finding ("- **Location**:
// x", "Fix: y"): part of the finding above it, never a finding.
func isFieldLine(t string) bool {
	if !strings.Contains(t, ":") {
		return false
	}
	name, ok := anyFieldName(t)
	if !ok {
		return false
	}
	name = strings.ToLower(strings.TrimSpace(strings.TrimRight(name, ":")))
	return fieldNames[name]
}

// anyFieldName is anyFieldRe's match of t read by hand: the field's name
// (the regexp's first group, else its second), and whether t matches.
// Every line with a colon of a report of fields was matched twice, once
// by isFieldLine and once by fieldRun, and the regexp's captures made it
// the largest part of their cost (TestAnyFieldNameAsRegexp).
func anyFieldName(t string) (string, bool) {
	// "- ", "* ", "+ " with white space after: taken if what follows
	// matches, else the line is tried without it (no alternative of
	// the regexp matches both ways: one opens with "**" or "__", the
	// other with a capital).
	u := t
	if len(u) > 1 && (u[0] == '-' || u[0] == '*' || u[0] == '+') && isRegexpSpace(u[1]) {
		u = strings.TrimLeft(u[1:], reSpace)
	}
	if name, ok := boldFieldName(u); ok {
		return name, true
	}
	return capitalFieldName(u)
}

// boldFieldName reads the regexp's first alternative at the start of u:
// "**" or "__", 1 to 40 runes other than '*' and '_' (the fewest that
// let the rest match), then ':' with white space and "**" or "__" after
// it, or "**" or "__" with white space and ':' after it.
func boldFieldName(u string) (string, bool) {
	if len(u) < 2 || !(u[0] == '*' && u[1] == '*' || u[0] == '_' && u[1] == '_') {
		return "", false
	}
	rest := u[2:]
	emph := func(s string) bool { return len(s) >= 2 && (s[0] == '*' && s[1] == '*' || s[0] == '_' && s[1] == '_') }
	for i, n := 0, 0; i < len(rest) && n < 40; n++ {
		c := rest[i]
		if c == '*' || c == '_' {
			return "", false
		}
		_, w := utf8.DecodeRuneInString(rest[i:])
		i += w
		// The name is rest[:i]: does the rest of the regexp match after it?
		after := rest[i:]
		if len(after) > 0 && after[0] == ':' && emph(strings.TrimLeft(after[1:], reSpace)) {
			return rest[:i], true
		}
		if emph(after) && strings.HasPrefix(strings.TrimLeft(after[2:], reSpace), ":") {
			return rest[:i], true
		}
	}
	return "", false
}

// capitalFieldName reads the regexp's second alternative at the start of
// u: a capital, up to 30 letters, spaces, '/', '(', ')' or '-', then ':'
// and a white space.
func capitalFieldName(u string) (string, bool) {
	if u == "" || u[0] < 'A' || u[0] > 'Z' {
		return "", false
	}
	i := 1
	for i < len(u) && i <= 31 && (isASCIILetter(u[i]) || strings.IndexByte(" /()-", u[i]) >= 0) {
		i++
	}
	if i > 31 || i+1 >= len(u) || u[i] != ':' || !isRegexpSpace(u[i+1]) {
		return "", false
	}
	return u[:i], true
}

func (n *gnode) setField(name, value string, line int) {
	sev, _, _ := fieldSeverity(name, value)
	prio := int32(sevRank(name))
	if n.fieldLine == 0 || prio < n.fieldPrio {
		n.field, n.fieldPrio, n.fieldLine, n.fieldWord = sev, prio, line, strings.TrimSpace(stripBold(value))
	}
	if isResolvedValue(value) {
		n.resolved = true
	} else if isOpenValue(value) {
		n.open = true
	}
}

// setStatus reads a status field of n ("Status: Fixed", "**Update:**
// Resolved in pull request #31", "Retest: Not fixed"): resolved, open or
// neither.
func (n *gnode) setStatus(name, value string) {
	if isResolvedValue(value) || isResolution(name, value) {
		n.resolved = true
	} else if isOpenValue(value) {
		n.open = true
	}
}

// openWords are the statuses that say a finding is still open, though its
// box may be ticked ("- [x] Title — **Deferred (out of scope)**"): the box
// then says the item was handled, not that the defect is gone.
var openWords = []string{"deferred", "postponed", "pending", "unresolved", "not fixed", "won't fix", "wont fix", "wontfix",
	"open", "todo", "to do", "in progress", "not started"}

// isOpenValue reports whether a status value says the finding is still
// open: it starts with one of openWords.
func isOpenValue(v string) bool {
	v = strings.ToLower(strings.TrimSpace(strings.Trim(trimEmoji(strings.TrimSpace(stripBold(v))), "*_`[]()")))
	for _, w := range openWords {
		if strings.HasPrefix(v, w) && (len(v) == len(w) || !isWordByte(v[len(w)])) {
			return true
		}
	}
	return false
}

// openMark reports whether an item's text states an open status where a
// status stands: a bold span or brackets holding only such a status, with
// a note in parentheses or after a colon or dash at most ("**Deferred (out
// of scope)**", "[Pending]"), or the last part after a dash ("— Deferred";
// "open" there is too often a title's word, "Open redirect", and is read
// only in bold or brackets).
func openMark(s string) bool {
	for i := 0; i < len(s); i++ {
		var end string
		switch {
		case strings.HasPrefix(s[i:], "**"):
			end, i = "**", i+1
		case s[i] == '[':
			end = "]"
		case s[i] == '(':
			end = ")"
		default:
			continue
		}
		rest := s[i+1:]
		j := strings.Index(rest, end)
		if j < 0 {
			continue
		}
		if openStatus(rest[:j]) {
			return true
		}
	}
	for _, sep := range []string{" — ", " – ", " - "} {
		if j := strings.LastIndex(s, sep); j >= 0 {
			v := strings.TrimSpace(s[j+len(sep):])
			if openStatus(v) && !strings.HasPrefix(strings.ToLower(v), "open") {
				return true
			}
		}
	}
	return false
}

// openStatus reports whether v is only an open status, with a note in
// parentheses or after a colon or dash at most.
func openStatus(v string) bool {
	v = strings.ToLower(strings.TrimSpace(strings.Trim(trimEmoji(strings.TrimSpace(stripBold(v))), "*_`[]")))
	for _, w := range openWords {
		if !strings.HasPrefix(v, w) {
			continue
		}
		rest := strings.TrimSpace(v[len(w):])
		if rest == "" || strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "—") ||
			strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "- ") || rest == "." {
			return true
		}
	}
	return false
}

// noneText reports whether a line under a group says there is nothing in
// it: "None.", "No issues found", "N/A", "—".
func noneText(t string) bool {
	t = strings.ToLower(strings.Trim(strings.TrimSpace(stripBold(t)), "_*>. "))
	t = strings.TrimSpace(trimEmoji(t))
	if t == "" || t == "-" || t == "—" || t == "n/a" || t == "none" || t == "nothing" {
		return true
	}
	for _, p := range []string{"none", "no ", "nothing", "n/a", "not applicable", "aucun", "ninguno", "없음", "无"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// sectionText names the section of the heading node h.
func sectionText(nodes []gnode, h int) string {
	for ; h >= 0; h = nodes[h].parent {
		if nodes[h].kind == 'h' && nodes[h].rank > 1 {
			return nodes[h].text
		}
	}
	return ""
}

// inLegend reports whether the heading node h or one above it is a legend,
// a guide or a template section.
func inLegend(nodes []gnode, h int) bool {
	for ; h >= 0; h = nodes[h].parent {
		if nodes[h].kind == 'h' && isLegendHeading(nodes[h].text) {
			return true
		}
	}
	return false
}

// isLegendHeading reports whether a heading names a legend, a guide or a
// template: no findings stand under it.
func isLegendHeading(text string) bool {
	if !legendWords.in(text) {
		return false
	}
	if legendGuard.MatchString(text) {
		return true
	}
	h := plainHead(text)
	return mayLegendHead(h) && legendHeadRe.MatchString(h)
}

// legendGuard is legendRe behind its words, narrower than legendWords
// ("severity " with its space, not "severit"): a heading that names a
// severity ("### Title · Severity: High") holds one of legendWords, and
// legendRe tried every place of it.
var legendGuard = guard(legendRe, "legend", "rubric", "glossary", "severity ", "priority ", "risk ", "impact ",
	"rating scale", "scoring guide")

// mayLegendHead reports whether h is short enough for legendHeadRe, whose
// alternatives are whole headings of two words at most (64 bytes holds
// them with every letter in three bytes), or opens with "how to ".
func mayLegendHead(h string) bool {
	return len(h) <= 64 || len(h) >= 7 && strings.EqualFold(h[:7], "how to ")
}

// legendWords are the words one of which legendRe or legendHeadRe needs.
var legendWords = newLowerWords("legend", "label", "rubric", "glossary", "severit", "priority", "risk", "impact", "rating",
	"scoring", "template", "format", "definition", "classification", "instruction", "how to", "severidad",
	"sévérité", "schweregrad", "重要度", "심각도", "严重程度")

// isTemplate reports whether the report says it is a template or an example
// in its title or first paragraph: its severities are placeholders. A
// title that names another kind of document (a changelog, a plan, a guide,
// instructions, an empty checklist: see notReportTitle) counts as one too.
func isTemplate(lines []line) bool {
	if formTemplate(lines) {
		return true // a form to fill in (structures9.go)
	}
	seen, title := 0, ""
	front := len(lines) > 0 && lines[0].masked && strings.TrimSpace(lines[0].text) == "---"
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		front = front && l.masked
		if front && (strings.HasPrefix(t, "tools:") || strings.HasPrefix(t, "allowed-tools:")) {
			// Front matter that names the tools an agent may use: an
			// agent's definition, whose severities tell it how to rate.
			return true
		}
		if t == "" || l.masked {
			continue
		}
		if seen++; seen > 4 {
			return false
		}
		if l.level == 1 && templateTitleRe.MatchString(l.head) {
			return true
		}
		if l.level == 1 {
			title = l.head
			switch notReportTitle(l.head) {
			case docOther:
				return true
			case docChecklist:
				return !ticked(lines)
			}
		}
		if l.level == 0 && (templatePhraseRe.MatchString(t) || promptOpening(t)) {
			return true
		}
		if l.level == 0 && minutesLine(t) && !namesReview(title) && !clearlyRated(lines) {
			return true // a meeting's notes (lookalike.go, structures9.go)
		}
	}
	return false
}

// promptOpening reports whether a line opens a prompt, as it addresses
// the agent it instructs: "You are a senior security reviewer.", "Act as
// an auditor."; its severities tell how to rate, they rate nothing.
func promptOpening(t string) bool {
	for _, p := range [...]string{"You are a ", "You are an ", "You are the ", "You're a ", "You're an ", "Act as a ", "Act as an "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// The kinds of document a title may name (notReportTitle).
const (
	docReport    = iota // a report, or a title that does not say
	docOther            // a changelog, a plan, a guide, instructions, minutes
	docChecklist        // a checklist: a report once a box is ticked
)

// notReportTitle reads the head noun of a report's title, the last word
// of its first part ("Sprint 45 plan", "Code style guide", "Security
// review checklist", "Changelog"), less a note after a colon or a dash
// and what follows "of" or "for": a changelog says what was fixed, a
// plan, a guide, a policy, instructions or a checklist what to do or to look for,
// a PRD, requirements or a spec what to build, and their severities label
// tasks, rules and requirements, not findings (SPEC §2.3).
// A title that names a review of one ("Correctness Review: Migration
// Plan", "Review of the sprint plan", "Architecture Review Plan") is a
// report ("Extraction Plan — Correctness Review" too): only a checklist
// stays one with review in its title.
func notReportTitle(title string) int {
	if guideTitle(title) {
		return docOther // "Code review guidelines", "How to review a PR"
	}
	t := strings.ToLower(strings.TrimSpace(stripBold(title)))
	for _, sep := range []string{":", " — ", " – ", " - ", " | ", "(", " of ", " for "} {
		if i := strings.Index(t, sep); i > 0 {
			t = t[:i]
		}
	}
	words := strings.Fields(t)
	// "Sprint 45 plan v2", "Changelog 2.4": a number or a version after
	// the noun is not it.
	for len(words) > 0 && strings.ContainsAny(words[len(words)-1], "0123456789") {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return docReport
	}
	head := strings.Trim(words[len(words)-1], ".,;!?*_`")
	if len(words) > 1 {
		switch words[len(words)-2] + " " + head {
		case "release notes", "meeting notes", "change log", "action items", "requirements document", "todo list", "to-do list", "task list":
			return docOther
		}
	}
	if head == "checklist" || head == "checklists" {
		return docChecklist
	}
	if namesReview(title) {
		return docReport
	}
	if head == "changes" && len(words) == 1 {
		return docOther // "# Changes": a change log; "Requested changes" is a review's
	}
	switch head {
	case "changelog", "plan", "roadmap", "backlog", "guide", "guidelines", "conventions", "instructions",
		"prompt", "definitions", "glossary", "minutes", "agenda", "runbook", "playbook", "policy", "policies",
		"prd", "requirements", "specification", "spec", "objectives", "okrs", "goals", "todo", "todos", "to-do":
		return docOther
	}
	return docReport
}

// ticked reports whether a checkbox item of the report is ticked: a
// checklist with one filled in is a report of what was checked.
func ticked(lines []line) bool {
	for _, l := range lines {
		if l.masked || l.level != 0 {
			continue
		}
		t := strings.TrimLeft(l.text, " \t>")
		if strings.IndexByte(t, ']') < 0 && (len(t) < 2 || t[0] != '-' && t[0] != '*' || t[1] != ' ') {
			continue // the cheap test: a box, or a bullet that may open with a mark
		}
		if len(t) > 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') {
			t = strings.TrimLeft(t[1:], " \t")
		} else {
			t = cutNumbering(t)
		}
		if len(t) >= 3 && t[0] == '[' && t[2] == ']' && t[1] != ' ' {
			return true
		}
		if strings.HasPrefix(t, "[✓]") || strings.HasPrefix(t, "[✔]") || resultMark(t) {
			return true
		}
	}
	return false
}

// resultMark reports whether a list item's text opens with a mark a
// reviewer writes as the result of a check ("- ✅ Tests added", "- ❌
// Input not validated (High)"): a checklist so marked is filled in.
func resultMark(t string) bool {
	for _, m := range []string{"✅", "❌", "☑", "✔", "✓", "✗", "✘", "⚠"} {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return false
}

var (
	templateTitleRe  = regexp.MustCompile(`(?i)(?:^(?:example|sample|template)\b|\b(?:template|example|sample)\s*$)`)
	templatePhraseRe = regexp.MustCompile(`(?i)\b(?:(?:use|copy|follow) this (?:as a |as the )?(?:\w+ )?template|this (?:is|document is) an? (?:example|sample|template)|(?:an? )?example of an? (?:\w+ )?report|fill in (?:the|each))\b`)
)

// decide turns the nodes into findings, orphans and tallies.
func (g *general) decide(st *stop, lines []line, nodes []gnode, template bool) {
	// Children first: the kinds of each node's children.
	for k := range nodes {
		if p := nodes[k].parent; p >= 0 {
			switch nodes[k].kind {
			case 'l':
				nodes[p].plain++
			case 'h':
				nodes[p].subs++
				nodes[p].rich++
			case 'b':
				// A verdict line in bold under the last group is not one
				// of its findings: its bullets stay eligible.
				if !verdictLead(nodes[k].text) {
					nodes[p].rich++
				}
			default:
				nodes[p].rich++
			}
		}
	}
	for k := range nodes {
		st.tick()
		nodes[k].lab = labelOf(nodes[k].text, nodes[k].kind)
	}
	markRecurringLabels(nodes)
	markAuditIDs(nodes)
	markEmojiScale(nodes)
	markTrailScale(nodes)
	g.incidentTitles(lines, nodes) // structures8.go
	for k := range nodes {
		n := &nodes[k]
		if p := n.parent; p >= 0 && !n.lab.ok && !n.fieldLabel && !foldInShort(fieldNames, fieldNamesMax, plainHead(n.text)) {
			nodes[p].unlabelledKids++
			if n.kind == 'h' {
				nodes[p].unlabelledSubs++
			}
		}
		if p := n.parent; p >= 0 && n.lab.ok && n.kind == 'h' {
			nodes[p].labelledSubs++
		}
	}
	for k := range nodes {
		switch nodes[k].kind {
		case 'h':
			nodes[k].readGroup()
		case 'b':
			readBoldGroup(nodes, k)
		}
	}
	g.markLegends(lines, nodes, template)
	// "#### Issue-C1: {issue_title}", "- [ ] {action_item_1}": a
	// template's slots. The headings over them hold no finding, and a
	// group over them gave none because there was none to give.
	for k := range nodes {
		if !strings.ContainsAny(nodes[k].text, "{[<") {
			continue
		}
		title := nodes[k].lab.title
		if !nodes[k].lab.ok {
			title, _ = plainTitle(nodes[k].text, nodes[k].kind)
		}
		if title != "" && placeholderTitle(title) {
			for a := nodes[k].parent; a >= 0; a = nodes[a].parent {
				nodes[a].placeholders = true
				if nodes[a].kind == 'h' {
					break
				}
			}
		}
	}
	for k := range nodes {
		st.tick()
		n := &nodes[k]
		p := n.parent
		if p >= 0 {
			if nodes[p].finding || nodes[p].group || nodes[p].kind != 'h' {
				n.section = nodes[p].section
			} else {
				n.section = nodes[p].text
			}
			if nodes[p].kind == 'h' && !nodes[p].finding && nodes[p].rank > 1 {
				n.section = nodes[p].text
			} else {
				n.section = nodes[p].section
			}
		}
		legend := template || n.legend || n.kind == 'h' && isLegendHeading(n.text) || p >= 0 && nodes[p].legend
		if legend {
			n.legend = true
			continue
		}
		if n.group {
			continue
		}
		g.decideNode(lines, nodes, k)
	}
	// Rows of tables with no severity column, under a group heading.
	for _, r := range g.pending {
		h := r.head
		if r.f.Severity == "" {
			if h < 0 || !nodes[h].group || nodes[h].legend || template {
				continue
			}
			r.f.Severity = nodes[h].gsev
		}
		for a := h; a >= 0 && nodes[a].group; a = nodes[a].parent {
			r.f.resolved = r.f.resolved || nodes[a].resolvedGroup
			nodes[a].found++
		}
		r.f.resolved = r.f.resolved || underResolved(nodes, h)
		g.findings = append(g.findings, r.f)
	}
	g.pending = nil // 224 bytes a row: 44 MB at 16 MiB of table rows
	// Groups: tallies of their own counts, and groups that gave nothing.
	for k := range nodes {
		n := &nodes[k]
		if !n.group || n.legend {
			continue
		}
		if n.count >= 0 {
			g.tallies = append(g.tallies, tally{line: lines[n.i].num, sev: n.gsev, n: n.count, group: k})
		}
		if n.placeholders {
			continue
		}
		if n.found == 0 && n.count != 0 && (n.body || n.plain+n.rich > 0) && n.gsev.Rank() <= 1 && !n.pure {
			g.orphans = append(g.orphans, orphan{line: lines[n.i].num, sev: n.gsev, word: n.lab.word})
		} else if n.found == 0 && n.count != 0 && n.body && n.gsev.Rank() <= 1 {
			g.orphans = append(g.orphans, orphan{line: lines[n.i].num, sev: n.gsev, word: groupWord(n.text)})
		}
	}
}

// decideNode decides whether node k is a finding.
func (g *general) decideNode(lines []line, nodes []gnode, k int) {
	n := &nodes[k]
	l := lines[n.i]
	p := n.parent
	var grp *gnode
	if p >= 0 && nodes[p].group {
		grp = &nodes[p]
	}
	lab := n.lab
	if lab.class == sevImprovement || n.fieldLabel {
		return
	}
	hasField := n.fieldLine > 0 && n.field != ""
	title, id := lab.title, lab.id
	if !lab.ok {
		title, id = plainTitle(n.text, n.kind)
	}
	if severityTag(id) {
		id = "" // "NEW-P1" tags a severity; the author gives it to several findings
	}
	sev := Severity("")
	word := lab.word
	switch {
	case lab.ok:
		sev = lab.sev
		if hasField && n.fieldPrio <= 1 {
			sev = n.field
		}
	case hasField && n.kind == 'h' && (n.rank == 1 || namesSection(overviewRe, n.text)):
		// An overall rating. A report that rates itself P0/P1 and gives
		// no finding (an advisory whose title is its one finding) is
		// never silently safe (agent.go). Only a severity or risk field
		// (a request's "Priority: High" asks for a review), and not one
		// marked resolved (a postmortem's "Status: Resolved").
		if n.field.Rank() <= 1 && n.fieldPrio <= 1 && !n.resolved {
			g.overall = append(g.overall, orphan{line: n.fieldLine, sev: n.field, word: n.fieldWord, overall: true})
		}
		return
	case hasField && (n.kind != 'h' || n.rank > 1):
		sev, word = n.field, n.fieldWord
	case grp != nil && eligible(n, grp) && !verdictLead(n.text):
		sev, word = grp.gsev, groupWord(grp.text)
		if hasField {
			sev, word = n.field, n.fieldWord
		}
	default:
		return
	}
	// A finding above holds this line as its detail, unless the line is
	// labelled itself; a severity field in the detail is the finding's
	// own when it has none ("#### Fix" … "**Priority:** P0").
	if !lab.ok {
		for a := p; a >= 0; a = nodes[a].parent {
			if nodes[a].finding && hasField && nodes[a].fieldLine > 0 && nodes[a].fieldLine != n.fieldLine {
				break // a sub-heading or lead-in with a field of its own: a finding of its own
			}
			if nodes[a].finding {
				if hasField && nodes[a].fieldLine == 0 {
					nodes[a].fieldLine = n.fieldLine
					if fi := nodes[a].fidx; fi >= 0 && (n.fieldPrio <= 1 || !nodes[a].lab.ok) {
						g.findings[fi].Severity = n.field
					}
				}
				return
			}
		}
	}
	if n.placeholders {
		return // a template's heading over its slots
	}
	if hasField && !lab.ok && n.kind == 'h' && id == "" && emptyTitle(title) {
		// "## Findings" over "- **Severity:** Critical" in a report of
		// one finding: the finding is the heading above, by its title.
		if a := titledAbove(nodes, p); a >= 0 {
			nodes[a].finding, nodes[a].fieldLine = true, n.fieldLine
			n, l = &nodes[a], lines[nodes[a].i]
			title, id = plainTitle(n.text, n.kind)
		} else if sev.Rank() <= 1 {
			g.orphans = append(g.orphans, orphan{line: n.fieldLine, sev: sev, word: word})
		}
	}
	if id != "" && emptyTitle(title) && (n.kind == 'h' || n.kind == 'b') && (hasField || lab.ok && !lab.empty) {
		// "### SEC-2" over "**Severity:** P0", with no title field: the
		// finding is named by its ID alone; dropping it would read a
		// rated finding as nothing (SPEC §2.3, never silently safe).
		title = id
	}
	if d := boldLeadTitle(lines, n, lab, id, title); d != "" {
		title, lab.empty = d, false // "**Issue 1 — Priority: High**" over its text (structures9.go)
	}
	if lab.empty || emptyTitle(title) || placeholderTitle(title) {
		if lab.ok && !lab.empty && !placeholderTitle(title) && sev.Rank() <= 1 && n.rich+n.plain == 0 && !isCountText(title) && !noneText(title) && !countAfterColon(title) {
			g.orphans = append(g.orphans, orphan{line: l.num, sev: sev, word: word})
		}
		g.tallyOf(l.num, n.text, sev)
		return
	}
	if lid, rest, ok := toolRuleID(title); ok && id == "" && title[0] == '[' {
		id, title = lid, cleanTitle(rest) // "**High:** [B602:…] shell call …"
	}
	if placeOnly(title) {
		if d := descriptionTitle(lines, n.i); d != "" {
			title = d // "### HIGH: `config/prod.yaml`" over what is wrong there (title.go)
		}
	}
	n.finding = true
	n.fidx = len(g.findings)
	for a := p; a >= 0 && nodes[a].group; a = nodes[a].parent {
		nodes[a].found++
	}
	resolved := lab.resolved || n.resolved || n.ticked && !n.open
	for a := p; a >= 0 && nodes[a].group; a = nodes[a].parent {
		resolved = resolved || nodes[a].resolvedGroup
	}
	resolved = resolved || underResolved(nodes, p)
	f := Finding{Severity: sev, ID: id, Section: n.section, Title: title, Line: l.num, Confidence: ConfidenceLow,
		FileRefs: fileRefsOfText(n.text), resolved: resolved}
	gf := gfinding{Finding: f, cls: n.cls, group: n.rgroup, num: wordNumber(id), praise: praisedTail(n.text, title)}
	if n.kind == 'h' && gf.num == "" {
		gf.num = headingNumber(n.text)
	}
	if n.cls != clsBody || id == "" {
		gf.cites = citedIDs(n.text, id)
	}
	g.findings = append(g.findings, gf)
}

// titledAbove returns the nearest heading from node a up that gives a
// finding's title and is no finding, group, legend or overview, or -1.
func titledAbove(nodes []gnode, a int) int {
	for ; a >= 0; a = nodes[a].parent {
		n := &nodes[a]
		if n.kind != 'h' || n.finding || n.group || n.legend || n.lab.ok || n.fieldLine > 0 {
			continue
		}
		if namesSection(overviewRe, n.text) {
			return -1
		}
		if t, _ := plainTitle(n.text, n.kind); !emptyTitle(t) && !placeholderTitle(t) {
			return a
		}
	}
	return -1
}

// eligible reports whether node n, directly under the group grp, is one of
// its findings (rule 3): a sub-heading, bold lead-in, numbered or checkbox
// item; a bullet when the group has none of those.
func eligible(n *gnode, grp *gnode) bool {
	switch n.kind {
	case 'h':
		return n.rank > grp.rank
	case 'l':
		return grp.rich == grp.subs
	case 'b':
		// "**Week 1:**" alone on its line labels the list under it.
		lead, after, _ := boldLead(strings.TrimSpace(n.text))
		return !(strings.HasSuffix(strings.TrimSpace(lead), ":") && strings.TrimSpace(after) == "")
	}
	return true
}

// verdictLead reports whether an item or bold lead-in under a group states
// the report's verdict ("**Verdict: ❌ Changes requested**" under "💡
// Suggestions"): the verdict, not a finding of the group.
func verdictLead(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) >= 400 || colonIndex(t) < 0 {
		return false
	}
	// Most leads name no verdict ("**Location:** …"): the label's first
	// byte, past what the regexp skips, is tested before the copy without
	// emphasis is made, and its first word before the regexp runs.
	e := trimEmoji(t)
	if s := labelLeadSet.trimLeft(e); s == "" || !verdictLabelFirst[s[0]] {
		return false
	}
	u := verdictTrim.trimLeft(stripBold(e))
	if !verdictLabelAt(u) {
		return false
	}
	m := verdictLabelRe.re.FindStringSubmatch(u)
	if m == nil {
		return false
	}
	_, ok := NormalizeVerdict(verdictValue(m[3]))
	return ok
}

// mayCountPLevel reports whether t may hold a match of plevelCountRe: a
// P-level (P0–P3, any case) with a colon after it, past white space and
// asterisks, or a digit and white space before it. It is the regexp's
// guard on tally lines: a restating list's "- **[P2] Title**" items
// hold a P-level and no count, and the regexp would try every place of
// them.
func mayCountPLevel(t string) bool {
	for q := 0; q+1 < len(t); q++ {
		if t[q]|0x20 != 'p' || t[q+1] < '0' || t[q+1] > '3' {
			continue
		}
		j := q + 2
		for j < len(t) && (t[j] == '*' || strings.IndexByte(reSpace, t[j]) >= 0) {
			j++
		}
		if j < len(t) && t[j] == ':' {
			return true
		}
		i := q
		for i > 0 && strings.IndexByte(reSpace, t[i-1]) >= 0 {
			i--
		}
		if i < q && i > 0 && t[i-1] >= '0' && t[i-1] <= '9' {
			return true
		}
	}
	return false
}

// tallyOf records the count that a labelled line with no title states.
func (g *general) tallyOf(line int, text string, sev Severity) {
	t := stripBold(text)
	if len(plevelCountRe.FindAllStringIndex(t, 2)) > 1 {
		return // "P0: 60, P1: 48, P2: 36": several counts, read as a line's tally or not at all
	}
	if endsWithRef(t) {
		return // "CRITICAL: SQL built in src/UserDao.java:61": a line of a file
	}
	if _, ok := wordTallies(t); ok {
		return // "**Critical Findings:** 3 high, 4 medium": the breakdown is the line's tally
	}
	if i := strings.LastIndexAny(t, ":("); i >= 0 {
		rest := strings.Trim(t[i+1:], " )*_")
		if f := strings.Fields(rest); len(f) > 0 {
			d := 0
			for d < len(f[0]) && isDigit(f[0][d]) {
				d++
			}
			if n, err := strconv.Atoi(f[0][:d]); err == nil && (d == len(f[0]) || isCount(f[0])) {
				g.tallies = append(g.tallies, tally{line: line, sev: sev, n: n, group: -1})
			}
		}
	}
}

// plevelTallies records the P-level counts a line states: "P0: 3, P1: 2",
// "15 P0 [ALL FIXED], 22 P1".
func (g *general) plevelTallies(t string, line int) {
	ms := plevelCountRe.FindAllStringSubmatchIndex(t, 8)
	if len(ms) == 1 {
		// One count: a tally only when it opens the line or its value
		// ("P1: 19 findings", "**Findings:** 1 P0").
		lead := strings.TrimLeft(t, "-*+ #>")
		if i := strings.Index(lead, ":"); i >= 0 && i < 40 {
			lead = strings.TrimLeft(lead[i+1:], " *_")
		}
		if !strings.HasPrefix(lead, t[ms[0][0]:ms[0][1]]) {
			return
		}
	}
	for _, m := range ms { // the submatches, read from the indexes once found
		var lvl, num string
		if m[2] >= 0 {
			lvl, num = t[m[2]:m[3]], t[m[4]:m[5]]
		} else {
			lvl, num = t[m[8]:m[9]], t[m[6]:m[7]]
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		g.tallies = append(g.tallies, tally{line: line, sev: pLevel(strings.ToUpper(lvl)), n: n, group: -1})
	}
}

// isCountText reports whether a title is only a count ("3", "0 issues").
func isCountText(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// placeholderTitle reports whether a title is a template's placeholder:
// "[Title]", "{title}", "<describe>", "Description", "...".
func placeholderTitle(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) > 2 && s[0] == '`' && s[len(s)-1] == '`' {
		s = strings.TrimSpace(s[1 : len(s)-1]) // "`<title>`"
	}
	if s == "" {
		return true
	}
	if (s[0] == '[' && s[len(s)-1] == ']') || (s[0] == '{' && s[len(s)-1] == '}') || (s[0] == '<' && s[len(s)-1] == '>') ||
		strings.Contains(s, "{{") {
		return true
	}
	return foldInShort(placeholderWords, placeholderMax, strings.Trim(s, ".… "))
}

// placeholderWords are the titles a template leaves in a finding's
// place, lower-cased.
var placeholderWords = map[string]bool{"": true, "description": true, "title": true, "issue": true, "finding": true,
	"summary": true, "details": true, "name": true, "issue title": true, "finding title": true, "short title": true,
	"brief description": true, "tbd": true, "todo": true, "xxx": true}

var placeholderMax = maxKeyLen(placeholderWords)

// plainTitle reads the title and ID of an unlabelled heading or item.
func plainTitle(text string, kind byte) (title, id string) {
	t := strings.TrimSpace(trimEmoji(stripBold(text)))
	t = cutNumbering(t)
	t = strings.TrimSpace(strings.ReplaceAll(t, "~~", ""))
	if lid, rest, ok := toolRuleID(t); ok {
		id, t = lid, rest // "Issue: [B602:subprocess_popen_…] subprocess call …"
	} else if lid, rest, ok := apartID(t); ok {
		id, t = lid, strings.TrimLeft(rest, sepChars)
	} else if w, r, ok := wordPrefix(t); ok && w != "" {
		// "Finding MB-01: Weak PIN lockout": the word names the ID.
		if lid, rest, ok := apartID(r); ok && IsFindingID(lid) && strings.ContainsAny(lid, "0123456789") {
			id = lid
			if strings.Trim(rest, sepChars) != "" {
				t = strings.TrimLeft(rest, sepChars)
			} // "Finding C1-1" alone keeps its words as its title
		}
	}
	if kind != 'h' {
		// An item's title is its lead: the bold part, else the text up to
		// a dash or a colon.
		if strings.HasPrefix(strings.TrimSpace(text), "**") {
			inner := strings.TrimSpace(text)[2:]
			if j := strings.Index(inner, "**"); j > 0 {
				t2 := strings.TrimSpace(trimEmoji(inner[:j]))
				t2 = cutNumbering(t2)
				if lid, rest, ok := apartID(t2); ok {
					id, t2 = lid, strings.TrimLeft(rest, sepChars)
				}
				if !emptyTitle(cleanTitle(t2)) && !isLocation(t2) {
					return cleanTitle(t2), id
				}
			}
		}
		var rest string
		t, rest = splitDash(t)
		t = locationTitle(t, rest)
	}
	return cleanTitle(t), id
}

// idOnlyHeading reports whether a heading's text names a finding's ID and
// nothing else: "Finding C1-1", "Issue #4" is not (no ID), "C1-1", "Finding
// C1-1: Crash" is not (it has a title).
func idOnlyHeading(text string) bool {
	t := strings.TrimSpace(trimEmoji(stripBold(text)))
	t = strings.TrimRight(cutNumbering(t), ": ")
	if _, r, ok := wordPrefix(t); ok {
		t = r
	}
	lid, rest, ok := apartID(t)
	return ok && IsFindingID(lid) && strings.ContainsAny(lid, "0123456789") && strings.Trim(rest, sepChars) == ""
}

// locationTitle returns the title of an item that opens with where the
// defect is ("`a.go:12` — Title", ":53 — Title", "hooks.json + b.sh —
// Title") or its kind ("Vulnerability — `U.java:71` — Message", as
// SonarQube lists its issues): the text after them; t itself otherwise.
func locationTitle(t, rest string) string {
	if rest == "" {
		r, _ := cutLocation(t)
		return r
	}
	first := t
	for rest != "" && (isLocation(t) || issueKind(t)) {
		var r string
		r, rest = splitDash(rest)
		if emptyTitle(cleanTitle(r)) || resolvedLeadRe.MatchString(stripBold(r)) {
			return first
		}
		t = r
	}
	return t
}

// issueKind reports whether s only names a kind of issue, as scanners
// type theirs before the message: "Bug", "Vulnerability", "Code Smell".
func issueKind(s string) bool {
	switch strings.ToLower(strings.TrimSpace(strings.Trim(stripBold(s), "`*_[]()"))) {
	case "bug", "vulnerability", "code smell", "security hotspot", "hotspot", "security", "performance",
		"correctness", "reliability", "maintainability", "best practice", "best-practice", "style":
		return true
	}
	return false
}

// isLocation reports whether s only names places in files: ":53",
// "a/b.go:12-14", "`x.sh`", "hooks.json + run.sh".
func isLocation(s string) bool {
	s = strings.TrimSpace(strings.Trim(stripBold(s), "`"))
	if s == "" {
		return false
	}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == '&' || r == ',' }) {
		p := strings.Trim(strings.TrimSpace(part), "`")
		if f, l, ok := strings.Cut(p, " "); ok && lineMark(l) {
			p = strings.Trim(f, "`") // "`views.py` L120", "app.go line 7"
		}
		if f, l, ok := strings.Cut(p, " "); ok && strings.HasPrefix(l, "(") && strings.HasSuffix(l, ")") && lineMark(l[1:len(l)-1]) {
			p = strings.Trim(f, "`") // "`views.py` (L88)"
		}
		if p == "" || strings.ContainsAny(p, " \t") {
			return false
		}
		if p[0] == ':' && len(p) > 1 && p[1] >= '0' && p[1] <= '9' {
			continue
		}
		if !strings.Contains(p, "/") && !fileExtRe.MatchString(p) {
			return false
		}
	}
	return true
}

var fileExtRe = regexp.MustCompile(`\.[A-Za-z][A-Za-z0-9]{0,6}(?::\d[\d,-]*)?$`)

// plainHead is a heading's text less emoji, numbering and a colon.
func plainHead(s string) string {
	s = strings.TrimSpace(trimEmoji(stripBold(s)))
	return strings.TrimSpace(strings.TrimRight(cutNumbering(s), ":"))
}

// groupWord returns the severity words of a group heading, for diagnostics.
func groupWord(s string) string {
	s = strings.TrimSpace(trimEmoji(stripBold(s)))
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

// readGroup reads a heading as a severity group (rule 3): its text, less
// numbering, emoji, a tier prefix, a count and a trailing note, is only
// severity and group words (pure); or it is labelled (rule 1) and has
// children that are findings' places.
func (n *gnode) readGroup() {
	t := strings.TrimSpace(trimEmoji(stripBold(n.text)))
	t = cutNumbering(t)
	t = strings.TrimSpace(tierRe.ReplaceAllString(t, ""))
	t = strings.TrimSpace(trimEmoji(t))
	core, count, cut := groupCore(t)
	// "P1 Findings (all addressed)", "High — all fixed": the group's
	// findings are resolved.
	n.resolvedGroup = resolvedNote(t) || resolvedLeadRe.MatchString(t)
	if sev, ok := groupPhrase(core); ok && (!cut || (n.unlabelledKids > 0 || n.labelledSubs > 0) && !noteIsTitle(t)) {
		// "P0 — Migration drops the table" is a finding; "🟠 HIGH — fix
		// before release" with findings under it is a group, and so is
		// "CRITICAL (P0) — Must fix" over "[P0-A] …" sub-headings;
		// "CRITICAL — C1: Title" is a finding whatever stands under it.
		n.group, n.pure, n.gsev, n.count = true, true, sev, count
		if n.lab.word == "" {
			n.lab.word = core
		}
		return
	}
	// "Critical (P0)", "즉시 조치 필요 (Blocking)", "CRITICAL: …" with
	// findings under it.
	if n.lab.ok && n.lab.class == sevFinding && (n.lab.inner && (n.unlabelledSubs > 0 || shortHead(n.lab.title) && n.rich+n.plain > 1) || n.lab.empty && n.rich+n.plain > 0) {
		n.group, n.gsev, n.count = true, n.lab.sev, -1
		if n.lab.empty {
			n.pure = true
		}
	}
}

// underListLabel reports whether the innermost open item ends with a
// colon, a label of the nested list under it ("- **Prioritized action
// items:**"): its nested items are items of their own, not its detail.
func underListLabel(nodes []gnode, stack []int, rank int) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		n := &nodes[stack[i]]
		if int(n.rank) >= rank {
			continue // an item at the new item's depth: its sibling
		}
		return (n.kind == 'l' || n.kind == 'n') && strings.HasSuffix(strings.TrimSpace(stripBold(n.text)), ":")
	}
	return false
}

// itemRank is the nesting rank of a list item (gnode.rank).
func itemRank(kind byte, indent int) int {
	if kind == '1' {
		return 8 + indent/2
	}
	return 9 + indent/2
}

// underCategory reports whether a nested item of rank rank stands
// directly under an item that only names a category ("- Security" over
// "  - **Critical:** Tokens logged"): its items are read as items.
func underCategory(nodes []gnode, stack []int, rank int) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		n := &nodes[stack[i]]
		if int(n.rank) >= rank {
			continue
		}
		return (n.kind == 'l' || n.kind == 'n') && categoryItem(n.text)
	}
	return false
}

// categoryItem reports whether an item's text only names a category its
// nested items fall in ("- Security", "- **Performance**"): a word or
// two, no sentence, no severity of its own, no field.
func categoryItem(text string) bool {
	t := strings.TrimSpace(trimEmoji(stripBold(text)))
	if c := strings.Trim(t, "`"); len(t) > 2 && t[0] == '`' && strings.Count(t, "`") == 2 && strings.ContainsAny(c, "/.") && !strings.ContainsAny(c, " :") {
		// "- `src/session.ts`" over "  - L42 **[high]** Title": a
		// review by file names the file, and its items are its findings.
		return true
	}
	if t == "" || len(t) > 32 || strings.ContainsAny(t, ".:;,`()[]|") || len(strings.Fields(t)) > 2 {
		return false
	}
	return !labelText(t, 'l').ok && !foldInShort(fieldNames, fieldNamesMax, t)
}

// readBoldGroup reads a bold lead-in that ends with a colon over a list,
// directly under a severity group heading ("**Do not deploy** until these
// are fixed:"), as a label of the group's list: its items are the group's
// findings (rule 3), the label none. A bold lead-in elsewhere is not a
// group (a bold line alone over a list may be a group line: see
// plainGroupLine).
func readBoldGroup(nodes []gnode, k int) {
	n := &nodes[k]
	if n.rich+n.plain == 0 || !strings.HasSuffix(strings.TrimSpace(stripBold(n.text)), ":") {
		return
	}
	if p := n.parent; p >= 0 && nodes[p].group && nodes[p].kind == 'h' {
		n.group, n.pure, n.gsev, n.count = true, true, nodes[p].gsev, -1
		n.lab.word = nodes[p].lab.word
	}
}

// boldAlone reports whether a line is bold from end to end, a colon after
// it at most ("**Critical Issues**", "**High priority:**",
// "**Minor**:"), as a heading written in bold.
func boldAlone(t string) bool {
	t = strings.TrimSuffix(strings.TrimSpace(t), ":")
	if len(t) < 5 || !strings.HasPrefix(t, "**") || !strings.HasSuffix(t, "**") {
		return false
	}
	return !strings.Contains(t[2:len(t)-2], "**")
}

// shortHead reports whether a heading's text, less its severity, is a
// word or two ("Implemented (must-fix)", "Immediate action (Blocking)"):
// over a list it names the list, where a finding's heading states the
// defect ("Cache key ignores the tenant (High)").
func shortHead(title string) bool {
	f := strings.Fields(title)
	return len(f) > 0 && len(f) <= 2
}

// groupCore cuts a count ("(2 items)", ": 4", "(15 findings)") and a note
// after a dash or in parentheses off a group heading's text.
func groupCore(t string) (core string, count int, cut bool) {
	count = -1
	for {
		t = strings.TrimSpace(t)
		switch {
		case strings.HasSuffix(t, ")"):
			i := strings.LastIndexByte(t, '(')
			if i < 0 {
				return t, count, cut
			}
			inner := strings.TrimSpace(t[i+1 : len(t)-1])
			if isCount(inner) {
				if f := strings.Fields(inner); len(f) > 0 {
					if n, err := strconv.Atoi(strings.TrimRightFunc(f[0], func(r rune) bool { return r < '0' || r > '9' })); err == nil {
						count = n
					}
				}
				t = t[:i]
				continue
			}
			if _, _, ok := severityValue(inner, true); ok {
				// "Critical Issues (P0)": the parenthesised severity stays,
				// less a note ("(P0 — Blocks PRD)").
				return strings.TrimSpace(t[:i]) + " " + cutReason(inner), count, cut
			}
			t = t[:i] // a note: "(À Corriger Cette Semaine)", "(Must Fix)"
		default:
			for _, sep := range []string{" — ", " – ", " -- ", " - "} {
				if i := strings.Index(t, sep); i > 0 {
					if _, ok := groupPhrase(strings.TrimSpace(t[i+len(sep):])); ok {
						// "P0 -- Critical": the note is the severity again.
						return t, count, cut
					}
					return strings.TrimSpace(t[:i]), count, true
				}
			}
			if i := strings.LastIndexByte(t, ':'); i > 0 {
				rest := strings.TrimSpace(t[i+1:])
				if n, err := strconv.Atoi(rest); err == nil {
					return strings.TrimSpace(t[:i]), n, cut
				}
			}
			return t, count, cut
		}
	}
}

// groupWordsList are the words that name a list of findings.
var groupWordsList = map[string]bool{
	"issues": true, "issue": true, "findings": true, "finding": true, "problems": true, "problem": true,
	"concerns": true, "concern": true, "bugs": true, "bug": true, "vulnerabilities": true, "vulnerability": true,
	"defects": true, "defect": true, "items": true, "item": true, "risks": true, "risk": true, "gaps": true, "fixes": true,
	"priority": true, "severity": true, "level": true, "and": true, "&": true, "/": true, "or": true,
	"recommendations": true, "comments": true, "comment": true, "smells": true, "resolutions": true, "revisions": true, "required": true, "observations": true, "notes": true, "list": true,
	"problèmes": true, "problemas": true, "hallazgos": true, "vulnérabilités": true, "vulnerabilidades": true,
	"problème": true, "문제": true, "问题": true, "vấn đề": true, "prioridad": true, "priorité": true,
	"points": true, "punkte": true, "puntos": true, "pontos": true, "punti": true, "problemi": true, "probleme": true,
	// A deadline after the level: "Must fix before merge", "Blockers for
	// release", "Fix immediately".
	"before": true, "for": true, "merge": true, "merging": true, "release": true, "shipping": true, "launch": true,
	"deploy": true, "deployment": true, "production": true, "immediately": true, "asap": true,
	"security": false,
}

// groupSep reports whether r separates the words of a group heading.
func groupSep(r rune) bool {
	return r == ' ' || r == '\t' || r == '/' || r == ',' || r == '&' || r == '(' || r == ')' || r == ':' || r == '—' || r == '–'
}

// groupTrim is what groupPhrase trims around a word.
var groupTrim = newByteSet("-*_`[]")

// groupPhrase reads a group heading's core: severity words and group words
// only, at least one severity ("High Priority Issues", "P0 -- Critical",
// "Must fix", "PROBLÈMES CRITIQUES").
func groupPhrase(core string) (Severity, bool) {
	if core == "" || len(core) > 80 {
		return "", false
	}
	if sev, c, ok := severityPhrase(markTrim.trim(core), true); ok && c == sevFinding {
		return sev, true
	}
	var buf [16]string
	words := appendFields(buf[:0], core, groupSep)
	best, found := Severity(""), false
	for i := 0; i < len(words); i++ {
		w := groupTrim.trim(words[i])
		if w == "" || foldIn(groupWordsList, w) {
			continue
		}
		if i+1 < len(words) {
			// Two words of one phrase ("Must fix"), or a word and one
			// that oneSeverity reads nothing in ("High ."); other
			// words are read alone.
			if next := groupTrim.trim(words[i+1]); phraseStart(w) || blank(next) {
				if sev, c, ok := oneSeverity(w+" "+next, true); ok && c == sevFinding {
					if !found || sev.Rank() < best.Rank() {
						best, found = sev, true
					}
					i++
					continue
				}
			}
		}
		if sev, c, ok := oneSeverity(w, true); ok && c == sevFinding {
			if !found || sev.Rank() < best.Rank() {
				best, found = sev, true
			}
			continue
		}
		// "Ship-Blockers", "Merge-blocking": a compound word whose last
		// part is a severity.
		if i := strings.LastIndexByte(w, '-'); i > 0 && !negation(w[:i]) {
			if sev, c, ok := oneSeverity(w[i+1:], false); ok && c == sevFinding && sev == P0 {
				if !found || sev.Rank() < best.Rank() {
					best, found = sev, true
				}
				continue
			}
		}
		if sev, ok := inflectedLevel(w); ok {
			// "Points bloquants", "Kritische Punkte" (structures9.go).
			if !found || sev.Rank() < best.Rank() {
				best, found = sev, true
			}
			continue
		}
		if isEmojiMark(w) {
			continue
		}
		return "", false
	}
	return best, found
}

// negation reports whether a word negates the one after it: "Non-blocking".
func negation(w string) bool {
	switch strings.ToLower(w) {
	case "non", "not", "no", "un", "none":
		return true
	}
	return false
}

// markLegends marks runs of three or more sibling items that each start
// with the next severity, in order (Critical, High, Medium, Low): a legend
// of the levels, not findings, unless classifyLevelRun reads them as
// findings; a run it cannot judge gives an orphan for each P0/P1 item.
// Findings skip levels (Critical, High, Low) and a checklist's items are
// tasks, never a legend.
func (g *general) markLegends(lines []line, nodes []gnode, template bool) {
	for k := 0; k < len(nodes); {
		n := &nodes[k]
		if n.kind == 'h' || n.kind == 'c' || !n.lab.ok || n.lab.class != sevFinding {
			k++
			continue
		}
		end := k + 1
		prev := n.lab.sev.Rank()
		// A level written as a range ("P0/P1") skips to the next range.
		step := func(j int) bool {
			r := nodes[j].lab.sev.Rank()
			return r == prev+1 || r > prev && strings.ContainsAny(nodes[j-1].lab.word, "/-")
		}
		for end < len(nodes) && nodes[end].parent == n.parent && nodes[end].kind != 'h' && nodes[end].kind != 'c' &&
			nodes[end].lab.ok && step(end) {
			prev = nodes[end].lab.sev.Rank()
			end++
		}
		// A legend's items are short and define: no children, no file
		// reference (a finding's "P0: … in `cache/key.go:12`"), no text
		// of their own under two of them or more (a paragraph after the
		// list reads as under its last item). A legend names the level
		// first; an item rated at its end ("Title | Critical", "Title
		// (high)") is a finding.
		if end-k >= 3 {
			legend, bodies := true, 0
			for j := k; j < end; j++ {
				if nodes[j].rich+nodes[j].plain > 0 || len(nodes[j].text) > 100 || hasFileRef(nodes[j].text) || nodes[j].lab.inner {
					legend = false
				}
				if nodes[j].body {
					bodies++
				}
			}
			legend = legend && bodies < 2
			if legend && (end == len(nodes) || nodes[end].parent != n.parent || nodes[end].kind == 'h' || !nodes[end].lab.ok) {
				c := classifyLevelRun(lines, nodes, k, end)
				if c == runUnsure && (template || inLegend(nodes, n.parent)) {
					c = runLegend
				}
				for j := k; j < end && c != runFindings; j++ {
					nodes[j].legend = true
					if c == runUnsure && nodes[j].lab.sev.Rank() <= 1 {
						g.orphans = append(g.orphans, orphan{line: lines[nodes[j].i].num, sev: nodes[j].lab.sev, word: nodes[j].lab.word, legend: true})
					}
				}
			}
		}
		k = end
	}
}

// hasFileRef reports whether text names a file and line ("a.go:12").
func hasFileRef(text string) bool {
	return strings.IndexByte(text, ':') >= 0 && len(fileRefs(text)) > 0
}

// markRecurringLabels marks the bold labels ("**Current state:** …",
// "- **Analog**: …") that stand under two or more different parents:
// fields that the author writes in each finding, not findings. A
// finding's title is its own; a field's name recurs.
func markRecurringLabels(nodes []gnode) {
	first := map[string]int{} // label → the parent it was first seen under
	multi := map[string]bool{}
	name := func(n *gnode) string {
		if n.lab.ok || n.kind == 'h' || n.kind == 'n' {
			return ""
		}
		lead, after, ok := boldLead(strings.TrimSpace(n.text))
		lead = strings.TrimSpace(lead)
		if !ok || !(strings.HasSuffix(lead, ":") || strings.HasPrefix(strings.TrimSpace(after), ":")) {
			return ""
		}
		lead = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(lead, ":")))
		if lead == "" || strings.Count(lead, " ") > 3 || strings.ContainsAny(lead[:1], "0123456789") {
			return ""
		}
		return lead
	}
	for k := range nodes {
		if l := name(&nodes[k]); l != "" {
			if p, seen := first[l]; !seen {
				first[l] = nodes[k].parent
			} else if p != nodes[k].parent {
				multi[l] = true
			}
		}
	}
	if len(multi) == 0 {
		return
	}
	for k := range nodes {
		if l := name(&nodes[k]); l != "" && multi[l] {
			nodes[k].fieldLabel = true
		}
	}
}

// labelOf reads rule 1 in the text of a heading, item or bold lead-in: a
// severity at its start, after its ID or number, in brackets or
// parentheses anywhere, trailing after a dash, or inside its ID.
func labelOf(text string, kind byte) label {
	raw := strings.TrimSpace(text)
	// A line led by bold text is labelled by its bold part, or by a
	// severity in brackets or after a dash right after it: "**Title**
	// (High)". The rest is its description.
	if lead, after, ok := boldLead(raw); ok {
		lab := labelText(lead, kind)
		trail := lab.trail
		if !lab.ok && kind != 'h' && apartLead(lead, after) {
			// "- **blocker**: Title", "- **Sev 1** — Title", "**Critical
			// severity** — …": a bold part set apart by a colon or a dash
			// is a label as if the colon were in it.
			lab = labelText(lead+":", kind)
		}
		if !lab.ok && kind != 'h' {
			lab = decoratedLead(lead, after)
		}
		if !lab.ok && kind != 'h' {
			// "1. **Severity: Critical** — Keys unencrypted": a severity
			// field in bold labels the title after it. (Written as a
			// bullet or a line, it is the field of the finding above.)
			if m := sevFieldOf(lead); m != nil {
				if t, _ := splitDash(strings.TrimLeft(after, " :—–-")); !emptyTitle(cleanTitle(t)) {
					sev, c, _ := fieldSeverity(m[1], m[2])
					lab = label{ok: true, sev: sev, class: c, word: strings.TrimSpace(m[2]), resolved: resolvedMark(after)}
					if id, r, ok := apartID(t); ok {
						lab.id, t = id, strings.TrimLeft(r, sepChars)
					}
					lab.title = cleanTitle(t)
					return lab
				}
			}
		}
		if !lab.ok {
			a := strings.TrimSpace(after)
			if _, _, ok := idTrailingSeverity(lead + " " + a); ok && a != "" && a[0] != '(' && a[0] != '[' {
				// "**CA-05** Health check ignores the database (P1)":
				// the bold part is the ID, the severity ends the line.
				return labelText(lead+" "+a, kind)
			}
			a = italicBracket(a)
			if a != "" && (a[0] == '(' || a[0] == '[') {
				if j := strings.IndexAny(a, ")]"); j > 0 {
					if sev, c, ok := severityValue(a[1:j], true); ok && !isCount(a[1:j]) {
						lab = labelText(lead, kind)
						lab.ok, lab.sev, lab.class, lab.word = true, sev, c, a[1:j]
						lab.title, lab.id = plainTitle("**"+lead+"**", kind)
						if t := strings.TrimLeft(a[j+1:], " :—–-"); lineMark(lead) && t != "" {
							// "**Line 42** (🔴 Critical): Title": the bold
							// part names the line; the title follows.
							lab.title, lab.id = cleanTitle(firstSentence(t)), ""
						}
					} else if sev, c, word, id, ok := severityAndID(a[1:j]); ok {
						// "**Title** (P1, CA-02)"
						lab = labelText(lead, kind)
						lab.ok, lab.sev, lab.class, lab.word = true, sev, c, word
						lab.title, lab.id = plainTitle("**"+lead+"**", kind)
						if lab.id == "" {
							lab.id = id
						}
					}
				}
			}
		}
		if !lab.ok && kind != 'h' {
			lab = inlineLead(lead, after, kind)
		}
		if !lab.ok {
			lab = markedLead(raw, lead, kind) // "🟠 **Title** — …"
		}
		if lab.ok && lab.id == "" {
			// "**Finding QA-7 (High):** Title": the bold part names the ID.
			if _, rest, ok := wordPrefix(lab.title); ok && IsFindingID(rest) {
				lab.id, lab.title, lab.empty = rest, "", true
			} else if rankTitle(lab.title) {
				// "**Rank #1 (P1):** Title": a place in an order, no title.
				lab.title, lab.empty = "", true
			}
		}
		if lab.ok && (lab.empty || strings.TrimSpace(lab.title) == "") && strings.TrimSpace(after) != "" && kind != 'h' {
			// "**[P1]** Title — …", "**Critical:** the token …",
			// "**SEC-P0-1** [Auditor]: Title"; not "**High** for the core
			// patterns": a bare word needs a colon or a dash to label
			// what follows.
			if lab.id == "" && !bareLead(lead, after) {
				return label{}
			}
			a := strings.TrimLeft(after, " :—–-")
			// "**SEC-P0-1** [Auditor]: Title": the reviewer's tag is not
			// the title.
			if strings.HasPrefix(a, "[") {
				if j := strings.IndexByte(a, ']'); j > 0 && j < 48 && strings.HasPrefix(strings.TrimSpace(a[j+1:]), ":") {
					a = strings.TrimLeft(a[j+1:], " :")
				}
			}
			// "**BUG-2231** [Severity: Critical] Title": the bracket
			// that labelled it is not the title.
			if a != "" && (a[0] == '[' || a[0] == '(') {
				if j := strings.IndexAny(a, ")]"); j > 0 && strings.EqualFold(strings.TrimSpace(a[1:j]), strings.TrimSpace(lab.word)) {
					a = strings.TrimLeft(a[j+1:], " :—–-")
				}
			}
			if t, r := splitDash(a); !isCountText(t) {
				lab.title, lab.empty = cleanTitle(longTitle(locationTitle(t, r))), false
			}
		}
		if lab.ok && kind != 'h' && countList(strings.TrimLeft(after, " :—–-")) {
			// "**Blocking (P0)**: 4", "- **Critical issues:** 2 found":
			// a tally of the bold part's category, not a finding.
			lab.empty = true
		}
		if lab.ok && resolvedMark(after) {
			lab.resolved = true
		}
		if !lab.ok && trail != nil && (strings.TrimSpace(after) == "" || dashTail(after)) {
			lab.trail = trail // "**Pool too small (medium)** — waits"
		}
		return lab
	}
	return labelText(raw, kind)
}

// decoratedLead reads a bold label of one word whose severity is in
// brackets before its colon, as Conventional Comments write a review:
// "**issue (blocking):** Title", "**Bug (high):** Title". The word names a
// kind of comment; "(non-blocking)" names no severity.
func decoratedLead(lead, after string) label {
	l := strings.TrimSpace(lead)
	colon := strings.HasSuffix(l, ":")
	l = strings.TrimSpace(strings.TrimSuffix(l, ":"))
	if !colon && !strings.HasPrefix(strings.TrimLeft(after, " \t"), ":") || !strings.HasSuffix(l, ")") {
		return label{}
	}
	i := strings.IndexByte(l, '(')
	if i <= 0 {
		return label{}
	}
	word, inner := strings.TrimSpace(l[:i]), l[i+1:len(l)-1]
	if word == "" || strings.ContainsAny(word, " \t") || strings.ContainsAny(inner, " \t") || !isLetters(word) {
		return label{}
	}
	// "**Recommendation (high):**" rates a field of a finding (its fix),
	// which is never a finding of its own; "**Issue (high):**" names one.
	if w := strings.ToLower(word); fieldNames[w] && !slices.Contains(titleFieldNames, w) {
		return label{}
	}
	sev, c, ok := severityValue(inner, false)
	if !ok || c != sevFinding {
		return label{}
	}
	return label{ok: true, sev: sev, class: c, word: inner, empty: true}
}

// isLetters reports whether s is letters only.
func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// apartLead reports whether a bold part that is no label alone is one when
// read with the separator after it: a colon, then a title that opens as
// one does, with a capital, a digit or code ("**blocker**: `Pay` can
// raise", not "**blocking**: contradicts another agent"); or a dash after
// a numbered severity or a word and "severity" ("**Sev 1** — Title",
// "**Critical severity** — Title"; "**HIGH PRIORITY** — this is a
// critical path" rates the paragraph above it).
func apartLead(lead, after string) bool {
	l := strings.TrimSpace(lead)
	if l == "" || strings.HasSuffix(l, ":") {
		return false
	}
	a := strings.TrimLeft(after, " \t")
	if strings.HasPrefix(a, ":") {
		r, _ := utf8.DecodeRuneInString(strings.TrimLeft(a[1:], " \t"))
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '`' {
			return false
		}
	} else if !strings.HasPrefix(a, "—") && !strings.HasPrefix(a, "–") && !strings.HasPrefix(a, "- ") && !strings.HasPrefix(a, "-- ") {
		return false
	}
	// The bold part is one severity: a word, a numbered severity or a
	// word and "severity"; "**Critical for F3**: …" says what for.
	if _, ok := sevScale(strings.ReplaceAll(l, " ", "")); ok {
		return true
	}
	w, noun, two := strings.Cut(l, " ")
	if two && !strings.EqualFold(noun, "severity") || !isLetters(w) {
		return false
	}
	_, c, ok := oneSeverity(w, false)
	return ok && c == sevFinding
}

// noteIsTitle reports whether the note after a group heading's dash is a
// finding's title: it opens with an ID ("CRITICAL — C1: Title").
func noteIsTitle(t string) bool {
	for _, sep := range []string{" — ", " – ", " -- ", " - "} {
		if i := strings.Index(t, sep); i > 0 {
			id, rest, ok := leadID(strings.TrimSpace(t[i+len(sep):]))
			return ok && startsSep(rest) && !IsPLevel(id)
		}
	}
	return false
}

// bareLead reports whether a bold part that is only a severity labels the
// text after it: it is bracketed or a P-level ("**[P1]** Title"), or a
// colon or a dash ends it or follows it ("**Critical:** the token").
func bareLead(lead, after string) bool {
	l := strings.TrimSpace(lead)
	a := strings.TrimSpace(after)
	if l == "" {
		return false
	}
	if strings.ContainsAny(l[:1], "[(") || strings.HasSuffix(l, ":") || strings.HasSuffix(l, "—") || strings.HasSuffix(l, "-") {
		return true
	}
	if f := strings.Fields(l); IsPLevel(strings.Trim(f[len(f)-1], ":")) {
		return true
	}
	if a == "" || strings.ContainsAny(a[:1], ":—–-") || strings.HasPrefix(a, "–") || strings.HasPrefix(a, "—") {
		return true
	}
	// "- **MAJOR** Flag default is ON", "**Critical** `Init` leaks the
	// key": a capitalised severity word alone, then a title that opens as
	// one does (a capital or code); "**High** for the core patterns" goes
	// on a sentence, "**Critical** 3" counts.
	r, _ := utf8.DecodeRuneInString(a)
	return isUpperWord(l) && !strings.Contains(l, " ") && (unicode.IsUpper(r) || r == '`')
}

// isParagraphLabel reports whether a bold lead-in only labels the
// paragraph it opens: its bold part ends with a colon and holds no
// severity.
func isParagraphLabel(text string, kind byte) bool {
	if kind != 'b' {
		return false
	}
	lead, after, ok := boldLead(strings.TrimSpace(text))
	lead = strings.TrimSpace(lead)
	colon := strings.HasSuffix(lead, ":") || strings.HasPrefix(strings.TrimSpace(after), ":")
	return ok && colon && !labelText(strings.TrimSuffix(lead, ":"), kind).ok
}

// apartID reads an ID at the start of s that is set apart from the title
// after it ("Q2: Title", "[Q2] Title", "C1. Title", "Finding 3 — Title"):
// in "F1 unified the struct", F1 is the sentence's subject.
func apartID(s string) (id, rest string, ok bool) {
	id, rest, ok = leadID(s)
	if !ok {
		return "", s, false
	}
	tok := strings.TrimRight(s[:len(s)-len(rest)], " \t")
	r := strings.TrimLeft(rest, " \t")
	switch {
	case r == "", strings.HasPrefix(tok, "["), strings.ContainsAny(tok[len(tok)-1:], ":.)]`*"):
	case strings.ContainsAny(r[:1], ":-|.)"), strings.HasPrefix(r, "—"), strings.HasPrefix(r, "–"):
	case dashedID(tok) && r[0] >= 'A' && r[0] <= 'Z':
		// "H-01 Reentrancy in withdraw": a letter code, a dash and a
		// number before a capitalised title is an ID, not a sentence's
		// subject ("INV-8 write-block inventory").
	default:
		return "", s, false
	}
	return id, cutScopeTag(rest), true
}

// dashedID reports whether s is letters, a dash and digits ("H-01",
// "SEC-12"), or groups of digits ("ACM-01-003", a Cure53 audit's ID:
// the audit's code, its round, the finding's number).
func dashedID(s string) bool {
	a, b, ok := strings.Cut(s, "-")
	if !ok || a == "" || len(a) > 8 {
		return false
	}
	for g := range strings.SplitSeq(b, "-") {
		if !isDigits(g) {
			return false
		}
	}
	for i := 0; i < len(a); i++ {
		if a[i] < 'A' || a[i] > 'Z' {
			return false
		}
	}
	return true
}

// wordPrefix splits "Finding QA-7" into its word and the rest.
func wordPrefix(s string) (string, string, bool) {
	w, rest, ok := strings.Cut(strings.TrimSpace(s), " ")
	if foldInShort(prefixWords, prefixWordsMax, w) {
		return w, strings.TrimSpace(rest), ok
	}
	return "", "", false
}

// prefixWords are the words wordPrefix reads before an ID, lower-cased.
var prefixWords = map[string]bool{"finding": true, "issue": true, "gap": true, "concern": true, "problem": true,
	"risk": true, "item": true, "observation": true, "bug": true}

var prefixWordsMax = maxKeyLen(prefixWords)

// boldLead splits a line that starts with bold text into the bold part and
// the rest.
func boldLead(s string) (lead, after string, ok bool) {
	t := s
	if m := checkboxOf(t); m != nil {
		t = t[len(m[0]):]
	}
	t = strings.TrimSpace(trimEmoji(t))
	if !strings.HasPrefix(t, "**") {
		return "", "", false
	}
	j := strings.Index(t[2:], "**")
	if j <= 0 {
		return "", "", false
	}
	return t[2 : 2+j], t[4+j:], true
}

// labelText reads rule 1 in text (see labelOf).
func labelText(text string, kind byte) label {
	var lab label
	raw := strings.TrimSpace(text)
	if raw == "" {
		return lab
	}
	struck := strings.Contains(raw, "~~")
	t := strings.TrimSpace(trimEmoji(raw))
	if m := checkboxOf(t); m != nil {
		t = strings.TrimSpace(t[len(m[0]):])
	}
	flat := strings.TrimSpace(trimEmoji(strings.ReplaceAll(stripBold(t), "~~", "")))
	if resolvedMark(raw) {
		lab.resolved = true
	}
	if struck && strikesLabel(raw) {
		lab.resolved = true
	}
	flat = strings.TrimSpace(cutNumbering(flat))
	flat = strings.TrimSpace(trimEmoji(flat))
	if r := strings.TrimPrefix(flat, "· "); r != flat {
		flat = strings.TrimSpace(r) // "#2 · HIGH · Title": parts apart by middle dots
	}
	flat = unwrapTag(flat)
	if flat == "" {
		return lab
	}
	if lab.resolved {
		// "Title — ✅ Fixed": the mark is not the title; nor is "Fixed:"
		// before it ("✅ Fixed: CRITICAL #2: Title").
		for _, sep := range []string{" — ", " – ", " - "} {
			if i := strings.LastIndex(flat, sep); i > 0 && resolvedMark(flat[i:]) {
				flat = strings.TrimSpace(flat[:i])
				break
			}
		}
		if m := resolvedLeadRe.FindString(flat); m != "" {
			flat = strings.TrimSpace(trimEmoji(strings.TrimSpace(flat[len(m):])))
		}
	}
	// "UX-P0-2→P1": an ID the author re-graded; the level after the
	// arrow is the finding's.
	if id, to, rest, ok := regradedID(flat); ok {
		if sev, c, ok := severityValue(to, true); ok && c == sevFinding {
			lab.ok, lab.sev, lab.class, lab.id, lab.word = true, sev, c, id, to
			lab.title = itemTitle(strings.TrimLeft(rest, sepChars), kind)
			return lab
		}
	}
	// "~~CRITICAL~~ Title": a struck-through severity labels a resolved finding.
	if st := strings.TrimSpace(trimEmoji(strings.TrimSpace(stripBold(t)))); strings.HasPrefix(st, "~~") {
		if j := strings.Index(st[2:], "~~"); j > 0 {
			if sev, c, ok := severityValue(st[2:2+j], false); ok {
				lab.ok, lab.sev, lab.class, lab.word, lab.resolved = true, sev, c, st[2:2+j], true
				lab.title = itemTitle(strings.ReplaceAll(st[4+j:], "~~", ""), kind)
				return lab
			}
		}
	}
	// A severity field that opens a heading, its title after a dash:
	// "#### Severity: Critical — Webhook signature is never checked".
	if kind == 'h' {
		if m := sevFieldOf(flat); m != nil {
			if v, t := splitDash(m[2]); t != "" && !emptyTitle(cleanTitle(t)) {
				if sev, c, ok := fieldSeverity(m[1], v); ok && c == sevFinding {
					lab.ok, lab.sev, lab.class, lab.word = true, sev, c, strings.TrimSpace(v)
					if id, r, ok := apartID(t); ok {
						lab.id, t = id, strings.TrimLeft(r, sepChars)
					}
					lab.title = itemTitle(t, kind)
					return lab
				}
			}
			if l, ok := fieldHeading(m); ok {
				return l // "### Criticality: High" over its findings (structures8.go)
			}
		}
	}
	// a. At the start: "[P1] Title", "CRITICAL: Title", "High — Title".
	if sev, c, word, rest, ok := startSeverity(flat); ok {
		lab.ok, lab.sev, lab.class, lab.word = true, sev, c, word
		body := strings.TrimLeft(rest, sepChars)
		if r := strings.TrimLeft(rest, " \t"); len(r) > 1 && r[0] == ':' && r[1] >= '0' && r[1] <= '9' {
			body = r // "[Major] :53 — Title": a line of the file under review
		}
		if id, r, ok := apartID(body); ok {
			lab.id, body = id, strings.TrimLeft(r, sepChars)
		}
		lab.title = itemTitle(body, kind)
		lab.empty = strings.TrimSpace(body) == "" || isCountText(body)
		return lab
	}
	// b. After an ID or a word ID: "QA-7 (High): …", "C1. P0: …".
	if id, rest, ok := leadID(flat); ok {
		lid := id
		if lineMark(id) {
			lid = "" // "L42 [high] Title": a line of the file, no ID
		}
		r := strings.TrimLeft(rest, " \t:—–-.")
		if strings.HasPrefix(r, "(") || strings.HasPrefix(r, "[") {
			if j := strings.IndexAny(r, ")]"); j > 0 {
				if sev, c, ok := severityValue(r[1:j], true); ok {
					lab.ok, lab.sev, lab.class, lab.id, lab.word = true, sev, c, lid, r[1:j]
					lab.title = itemTitle(strings.TrimLeft(r[j+1:], sepChars), kind)
					return lab
				}
			}
		}
		if startsSep(rest) {
			if sev, c, word, rest2, ok := startSeverityAt(r, true); ok {
				lab.ok, lab.sev, lab.class, lab.id, lab.word = true, sev, c, lid, word
				lab.title = itemTitle(strings.TrimLeft(rest2, sepChars), kind)
				return lab
			}
		}
		// e. Inside the ID: "CRITICAL-001", "SEC-P0-2", "HIGH-012", "CRIT-3".
		if sev, word, ok := idSeverity(id); ok {
			lab.ok, lab.sev, lab.class, lab.id, lab.word = true, sev, sevFinding, id, word
			lab.title = itemTitle(strings.TrimLeft(rest, sepChars), kind)
			return lab
		}
	}
	// c. In brackets or parentheses anywhere: "Title (HIGH)", "(Important)";
	// in an item, at the end of its title and written as a label ("Title
	// (High) — …", not "spawn for container (blocking)" or "Shows the
	// top item (P1) not the list").
	sev, c, word, s, e, ok := bracketSeverity(flat)
	if !ok && kind != 'h' {
		sev, c, word, s, e, ok = qualifiedBracket(flat)
	}
	if ok && (kind == 'h' || itemBracket(flat, word, e)) {
		lab.ok, lab.sev, lab.class, lab.word, lab.inner = true, sev, c, word, true
		body := strings.TrimSpace(strings.TrimSpace(flat[:s]) + " " + strings.TrimSpace(flat[e:]))
		if checkStatusLead(flat[:s]) {
			body = strings.TrimLeft(flat[e:], sepChars) // "❌ FAIL (High) — Title" (structures9.go)
		}
		if id, r, ok := apartID(body); ok {
			lab.id, body = id, strings.TrimLeft(r, sepChars)
		}
		if _, _, _, id, ok := severityAndID(flat[s+1 : e-1]); ok && lab.id == "" {
			lab.id = id // "Title (P2, QS-02)"
		}
		lab.title = itemTitle(body, kind)
		return lab
	} else if ok && kind != 'h' && c == sevFinding && (strings.TrimSpace(flat[e:]) == "" || dashTail(flat[e:])) {
		lab.trail = &label{ok: true, sev: sev, class: c, word: word, inner: true, title: itemTitle(flat[:s], kind)}
	}
	// d. Trailing after a dash or a pipe: "Webhook idempotency — HIGH",
	// "Total trusted from the client | Critical".
	for _, sep := range trailSeps(flat) {
		if i := strings.LastIndex(flat, sep); i > 0 {
			if sev, c, ok := severityValue(flat[i+len(sep):], false); ok && len(flat)-i < 40 {
				lab.ok, lab.sev, lab.class, lab.word, lab.inner = true, sev, c, strings.TrimSpace(flat[i+len(sep):]), true
				body := flat[:i]
				if id, r, ok := apartID(body); ok {
					lab.id, body = id, strings.TrimLeft(r, sepChars)
				}
				lab.title = itemTitle(body, kind)
				return lab
			}
			break
		}
	}
	// d'. Trailing after a colon, in bold: "Retry loop charges the card
	// twice: **Critical**" (not "Status: High", a field).
	if i := strings.LastIndex(flat, ": "); i > 0 && strings.HasSuffix(strings.TrimSpace(raw), "**") && len(strings.Fields(flat[:i])) >= 3 {
		if sev, c, ok := severityValue(flat[i+2:], false); ok && c == sevFinding && len(flat)-i < 40 {
			lab.ok, lab.sev, lab.class, lab.word, lab.inner = true, sev, c, strings.TrimSpace(flat[i+2:]), true
			body := flat[:i]
			if id, r, ok := apartID(body); ok {
				lab.id, body = id, strings.TrimLeft(r, sepChars)
			}
			lab.title = itemTitle(body, kind)
			return lab
		}
	}
	// g. A severity field inside the line, after its title: "Title —
	// Severity: High. …", "… charge. Risk: HIGH.", "[Severity: Critical]
	// Title".
	if sev, word, before, after, ok := inlineField(flat); ok {
		body := before
		if strings.TrimSpace(strings.Trim(before, sepChars)) == "" {
			body = after
		}
		lab.ok, lab.sev, lab.class, lab.word, lab.inner = true, sev, sevFinding, word, true
		if id, r, ok := apartID(body); ok {
			lab.id, body = id, strings.TrimLeft(r, sepChars)
		}
		lab.title = itemTitle(strings.TrimRight(body, sepChars), kind)
		return lab
	}
	// f. A severity mark before a title with no word of severity: "🚨
	// Security: hard-coded secret", "🟠 Cache key ignores the tenant".
	// A mark of P3 ("🟢 What went well") or over a word or two names a
	// section, not a finding; a mark before a severity word ("🚨
	// CRITICAL SECURITY REQUIREMENTS") is read with the word, or not at
	// all.
	if sev, mark, ok := leadMark(raw); ok && len(strings.Fields(flat)) >= 3 && !startsWithSeverity(flat) {
		lab.ok, lab.sev, lab.class, lab.word = true, sev, sevFinding, mark
		body := flat
		if id, r, ok := apartID(body); ok {
			lab.id, body = id, strings.TrimLeft(r, sepChars)
		}
		lab.title = itemTitle(body, kind)
	} else if sev, mark, body, ok := trailMark(flat); ok && kind == 'h' && len(strings.Fields(body)) >= 3 && !startsWithSeverity(body) {
		// A severity mark that ends a heading: "### Query timeout is
		// unbounded 🔴".
		lab.ok, lab.sev, lab.class, lab.word = true, sev, sevFinding, mark
		if id, r, ok := apartID(body); ok {
			lab.id, body = id, strings.TrimLeft(r, sepChars)
		}
		lab.title = itemTitle(body, kind)
	}
	return lab
}

// failedCheck returns the text after a failed check's tag ("[FAIL]",
// "[FAILED]") when the line ends with its severity in brackets, as a
// benchmark prints a result, else "".
func failedCheck(t string) string {
	if len(t) < 8 || t[0] != '[' {
		return ""
	}
	tag, rest, ok := strings.Cut(t[1:], "]")
	if !ok || !strings.EqualFold(tag, "fail") && !strings.EqualFold(tag, "failed") {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if _, _, word, s, e, ok := bracketSeverity(rest); !ok || strings.TrimSpace(rest[e:]) != "" || s == 0 || !itemBracket(rest, word, e) {
		return ""
	}
	return rest
}

// trailMark reads a severity mark (an emoji of the vocabulary, P0 to P2)
// that ends s, and the text before it.
func trailMark(s string) (Severity, string, string, bool) {
	t := strings.TrimRight(s, "*_ \t\uFE0F")
	r, n := utf8.DecodeLastRuneInString(t)
	if n < 2 || !isEmojiRune(r) {
		return "", "", "", false
	}
	sev, c, ok := oneSeverity(t[len(t)-n:], false)
	if !ok || c != sevFinding || sev.Rank() > 2 {
		return "", "", "", false
	}
	return sev, t[len(t)-n:], strings.TrimSpace(t[:len(t)-n]), true
}

// unwrapTag reads a severity tag that opens s written as code or as a
// key ("`[CRITICAL]` Title", "<kbd>HIGH</kbd> Title") as the bracketed
// tag it stands for ("[HIGH] Title"); other text comes back as it is.
func unwrapTag(s string) string {
	var inner, rest string
	switch {
	case strings.HasPrefix(s, "`"):
		j := strings.IndexByte(s[1:], '`')
		if j < 0 {
			return s
		}
		inner, rest = s[1:1+j], s[2+j:]
		if len(inner) < 3 || inner[0] != '[' && inner[0] != '(' || inner[len(inner)-1] != ']' && inner[len(inner)-1] != ')' {
			return s
		}
		inner = inner[1 : len(inner)-1]
	case strings.HasPrefix(s, "<kbd>"):
		j := strings.Index(s, "</kbd>")
		if j < 0 {
			return s
		}
		inner, rest = s[len("<kbd>"):j], s[j+len("</kbd>"):]
	default:
		return s
	}
	if _, c, ok := severityValue(inner, true); !ok || c != sevFinding {
		return s
	}
	return "[" + inner + "]" + rest
}

// leadMark reads a severity mark (an emoji of the vocabulary, P0 to P2)
// that opens s, after a checkbox and bold.
func leadMark(s string) (Severity, string, bool) {
	t := strings.TrimSpace(s)
	if m := checkboxOf(t); m != nil {
		t = t[len(m[0]):]
	}
	t = strings.TrimLeft(t, "*_[ ")
	r, n := utf8.DecodeRuneInString(t)
	if n < 2 || !isEmojiRune(r) {
		return "", "", false
	}
	sev, c, ok := oneSeverity(t[:n], false)
	if !ok || c != sevFinding || sev.Rank() > 2 {
		return "", "", false
	}
	return sev, t[:n], true
}

// itemBracket reports whether a bracketed severity word that ends at e in
// an item's text labels it: it ends the title (nothing but a separator
// and a description after it) and is written as a label, a P-level, an
// emoji or a capitalised word.
func itemBracket(flat, word string, e int) bool {
	tail := strings.TrimSpace(flat[e:])
	if tail != "" && !strings.ContainsAny(tail[:1], ":-.") && !strings.HasPrefix(tail, "—") && !strings.HasPrefix(tail, "–") {
		return placeTail(word, tail) // "Prototype Pollution (Critical) in lodash@4.17.15"
	}
	w := strings.TrimSpace(trimEmoji(word))
	if w == "" || IsPLevel(strings.Fields(w)[0]) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	return !unicode.IsLower(r)
}

// resolvedNoteRe matches a group heading's note that its findings are
// resolved: "(all addressed in revision)", "— all fixed", "[ALL FIXED]".
// resolvedNote reads it by hand.
var resolvedNoteRe = regexp.MustCompile(`(?i)[(\[—–]\s*(?:all\s+|now\s+|already\s+)?(?:fixed|resolved|addressed|closed|done)\b|\s-\s+(?:all\s+)?(?:fixed|resolved|addressed)\b`)

// resolvedLeadRe matches a resolved mark that opens a heading or an item:
// "Fixed:", "Resolved —", "FIXED".
var resolvedLeadRe = guardStart(regexp.MustCompile(`(?i)^(?:already\s+)?(?:fixed|resolved|addressed|done|closed|implemented)\b\s*[:—–-]?`),
	"fixed", "resolved", "addressed", "done", "closed", "implemented", "already")

// regradedID reads an ID the author re-graded at the start of s
// ("UX-P0-2→P1: Title", "SEC-3 -> High"): the ID, the level it was moved
// to and the rest of s.
func regradedID(s string) (id, to, rest string, ok bool) {
	for _, arrow := range []string{"→", "->", "=>", "⇒"} {
		i := strings.Index(s, arrow)
		if i <= 0 || i > 32 {
			continue
		}
		id = strings.TrimSpace(s[:i])
		if !IsFindingID(id) {
			return "", "", "", false
		}
		after := strings.TrimSpace(s[i+len(arrow):])
		j := strings.IndexAny(after, " :]*")
		if j < 0 {
			j = len(after)
		}
		return id, after[:j], after[j:], true
	}
	return "", "", "", false
}

// strikesLabel reports whether the struck-through part of s holds a
// severity or the whole title: "~~CRITICAL~~", "~~Title~~".
func strikesLabel(s string) bool {
	i := strings.Index(s, "~~")
	j := strings.Index(s[i+2:], "~~")
	if j < 0 {
		return false
	}
	inner := s[i+2 : i+2+j]
	if _, _, ok := severityValue(inner, true); ok {
		return true
	}
	rest := strings.TrimSpace(strings.ReplaceAll(stripBold(s[:i]+s[i+4+j:]), "-", ""))
	return len(inner) > len(rest)
}

// itemTitle cuts a finding's title from the text after its label: a
// heading's whole text, an item's lead up to a spaced dash.
func itemTitle(body string, kind byte) string {
	body = strings.TrimSpace(body)
	if kind != 'h' {
		t, rest := splitDash(body)
		if l := locationTitle(t, rest); l != t {
			return cleanTitle(longTitle(l))
		}
	}
	// "P0-1 (identity fracture): F11 specifies …": the short name in
	// parentheses is the title.
	if strings.HasPrefix(body, "(") {
		if j := strings.IndexByte(body, ')'); j > 1 && j < 80 {
			if r := strings.TrimSpace(body[j+1:]); r == "" || strings.ContainsAny(r[:1], ":-") || strings.HasPrefix(r, "—") || strings.HasPrefix(r, "–") {
				return cleanTitle(body[1:j])
			}
		}
	}
	if kind != 'h' {
		body, _ = splitDash(body)
	}
	return cleanTitle(longTitle(body))
}

// startSeverity reads a severity at the start of s: wrapped in brackets,
// parentheses or bold ("[P1]", "(High)"), a P-level token, or a marker
// word or phrase followed by a colon or a dash ("CRITICAL: ", "🔴 High — ").
// It returns the text after it.
func startSeverity(s string) (Severity, sevClass, string, string, bool) {
	return startSeverityAt(s, false)
}

// startSeverityAt is startSeverity; position says s stands in a severity
// position (after an ID: "F1 - NO-GO - Title"), where the vocabulary's
// position words count too.
func startSeverityAt(s string, position bool) (Severity, sevClass, string, string, bool) {
	if s == "" {
		return "", sevNone, "", "", false
	}
	if s[0] == '[' || s[0] == '(' {
		close := byte(']')
		if s[0] == '(' {
			close = ')'
		}
		if j := strings.IndexByte(s, close); j > 1 && j < 60 {
			if sev, c, ok := severityValue(s[1:j], true); ok {
				return sev, c, s[1:j], s[j+1:], true
			}
		}
		return "", sevNone, "", "", false
	}
	// "【重大】Title": the lenticular brackets of Chinese and Japanese.
	if strings.HasPrefix(s, "【") {
		if j := strings.Index(s, "】"); j > len("【") && j < 60 {
			if sev, c, ok := severityValue(s[len("【"):j], true); ok {
				return sev, c, s[len("【"):j], s[j+len("】"):], true
			}
		}
		return "", sevNone, "", "", false
	}
	if m, ok := markerAt(s, true); ok {
		end := m.end
		// A compound: "P0/P1", "[P1]/[P2]": the higher level.
		if end+1 < len(s) && s[end] == '/' {
			if m2, ok := markerAt(s[end+1:], false); ok && m2.start == 0 {
				if m2.sev.Rank() < m.sev.Rank() {
					m.sev = m2.sev
				}
				end += 1 + m2.end
			}
		}
		// A bare P-level labels what follows a separator: "P1: Title",
		// "P0 — Title"; "P2 task \"Consolidate …\"" names a task's
		// priority, "P0/P1 work:" a kind of work.
		if c := s[m.start]; c != '[' && c != '(' && c != '*' && c != '_' {
			r := strings.TrimLeft(s[end:], " \t")
			if r != "" && !strings.ContainsAny(r[:1], ":-.|)]") && !strings.HasPrefix(r, "—") && !strings.HasPrefix(r, "–") && !strings.HasPrefix(r, "·") {
				// "Critical severity: …": the word with the noun
				// severity after it labels what follows its colon.
				if w, n := cutSeverityNoun(r); n > 0 {
					return m.sev, m.class, strings.TrimSpace(s[m.start:end]) + " " + w, r[n:], true
				}
				return "", sevNone, "", "", false
			}
		}
		return m.sev, m.class, strings.TrimSpace(s[m.start:end]), s[end:], true
	}
	// A word or phrase of up to four words ending at a colon or a dash.
	end := -1
	for i := 0; i < len(s) && i < 48; i++ {
		switch s[i] {
		case ':':
			end = i
		case '-':
			if i > 0 && s[i-1] == ' ' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '-') {
				end = i
			}
		case 0xe2: // — or –
			if strings.HasPrefix(s[i:], "—") || strings.HasPrefix(s[i:], "–") {
				end = i
			}
		case 0xef: // ： (a full-width colon)
			if strings.HasPrefix(s[i:], "：") {
				end = i
			}
		}
		if end >= 0 {
			break
		}
	}
	if end <= 0 {
		return "", sevNone, "", "", false
	}
	// "Critique : injection SQL": French sets a space before the colon,
	// which no English label does; the word is read as a label there.
	position = position || s[end] == ':' && s[end-1] == ' '
	head := strings.TrimSpace(s[:end])
	if strings.Count(head, " ") > 3 {
		return "", sevNone, "", "", false
	}
	// "CRITICAL #1: Title": the author's number is not the severity's.
	if i := strings.LastIndex(head, " #"); i > 0 && isDigits(head[i+2:]) {
		head = strings.TrimSpace(head[:i])
	}
	sev, c, ok := severityValue(head, position)
	if !ok {
		// "Critical Concern:", "High Priority:", "Major Issue:".
		sev, ok = groupPhrase(head)
		c = sevFinding
		if !ok || !startsWithSeverity(head) {
			return "", sevNone, "", "", false
		}
	}
	rest := s[end:]
	rest = strings.TrimLeft(rest, ":-—–： ")
	return sev, c, head, rest, true
}

// cutSeverityNoun reads the noun "severity" that opens r, then a colon or
// a dash: the noun and the length of r up to the text after the separator.
func cutSeverityNoun(r string) (string, int) {
	const noun = "severity"
	if len(r) < len(noun) || !strings.EqualFold(r[:len(noun)], noun) {
		return "", 0
	}
	rest := strings.TrimLeft(r[len(noun):], " \t")
	if !strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "—") && !strings.HasPrefix(rest, "–") && !strings.HasPrefix(rest, "- ") {
		return "", 0
	}
	rest = strings.TrimLeft(rest, ":-—–： ")
	return r[:len(noun)], len(r) - len(rest)
}

// startsWithSeverity reports whether the first word of s is a marker word.
func startsWithSeverity(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	_, c, ok := oneSeverity(f[0], false)
	return ok && c == sevFinding
}

// bracketSeverity finds a severity in brackets or parentheses anywhere in
// s: the whole of the bracketed text is a severity value. It returns the
// bracket's span.
func bracketSeverity(s string) (Severity, sevClass, string, int, int, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '(' && c != '[' && !strings.HasPrefix(s[i:], "（") && !strings.HasPrefix(s[i:], "【") {
			continue
		}
		open, close := 1, ")"
		switch {
		case c == '[':
			close = "]"
		case strings.HasPrefix(s[i:], "【"):
			open, close = len("【"), "】" // "二重決済【重要度：高】"
		case c != '(':
			open, close = len("（"), "）"
		}
		j := strings.Index(s[i+open:], close)
		if j <= 0 || j > 40 {
			continue
		}
		inner := s[i+open : i+open+j]
		if sev, cl, ok := severityValue(inner, true); ok && !isCount(inner) {
			return sev, cl, inner, i, i + open + j + len(close), true
		}
		if sev, cl, word, _, ok := severityAndID(inner); ok {
			return sev, cl, word, i, i + open + j + len(close), true
		}
		if sev, cl, word, ok := severityWithNotes(inner); ok {
			return sev, cl, word, i, i + open + j + len(close), true // "(P0, @mlee)"
		}
	}
	return "", sevNone, "", 0, 0, false
}

// severityAndID reads a bracket that holds a severity and a finding ID,
// in either order, apart by a comma or a semicolon: "(P2, QS-02)",
// "[CA-1; High]". The severity word and the ID are returned.
func severityAndID(inner string) (Severity, sevClass, string, string, bool) {
	a, b, ok := strings.Cut(inner, ",")
	if !ok {
		a, b, ok = strings.Cut(inner, ";")
	}
	if !ok {
		return "", sevNone, "", "", false
	}
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	for _, p := range [2][2]string{{a, b}, {b, a}} {
		if !IsFindingID(p[1]) || IsPLevel(p[1]) {
			continue // "(P1, P2)" names two levels, not an ID
		}
		if _, _, ok := severityValue(p[1], true); ok {
			continue
		}
		if sev, cl, ok := severityValue(p[0], true); ok && !isCount(p[0]) {
			return sev, cl, p[0], p[1], true
		}
	}
	return "", sevNone, "", "", false
}

// severityTag reports whether an ID ends with a severity, not a number of
// its own: "NEW-P1", "SEC-HIGH". Such a tag names a kind of finding, and
// authors give it to several.
func severityTag(id string) bool {
	i := strings.LastIndexAny(id, "-_.")
	if i < 0 || i == len(id)-1 {
		return false
	}
	last := id[i+1:]
	if IsPLevel(last) && len(last) == 2 {
		return true
	}
	_, c, ok := oneSeverity(last, false)
	return ok && c == sevFinding
}

// idSeverity reads a severity inside an ID: a part of it that is a severity
// word, its usual abbreviation or a P-level ("CRITICAL-001", "HIGH-012",
// "CRIT-3", "SEC-P0-2", "P1-4", "WARN-002").
func idSeverity(id string) (Severity, string, bool) {
	parts := strings.FieldsFunc(id, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(parts) < 2 {
		return "", "", false
	}
	for _, p := range parts[:len(parts)-1] {
		u := strings.ToUpper(p)
		if IsPLevel(u) && len(u) == 2 {
			return pLevel(u), p, true
		}
		switch u {
		case "CRITICAL", "CRIT", "BLOCKER":
			return P0, p, true
		case "HIGH", "MAJOR":
			return P1, p, true
		case "MEDIUM", "MED", "MODERATE", "WARN", "WARNING":
			return P2, p, true
		case "LOW", "MINOR", "INFO", "NIT":
			return P3, p, true
		}
	}
	return "", "", false
}

// genTable is a table of the general reader (rule 4).
type genTable struct {
	sev, title, id, status, count int
	alt                           int // a second title column, or -1
	section                       string
	skip                          int
	kv                            bool // a two-column field table: "| Severity | High |"
	// fields: a severity column and no title or count column, as a
	// finding's rating table ("| Likelihood | Impact | Risk |"): its
	// rows are the fields of the finding over it; sevName names it.
	fields  bool
	sevName string
	cls     sectionClass
	group   int
	head    int  // the heading node the table stands under, -1 for none
	legend  bool // under a legend, a guide or a template: no findings
	mapped  bool // a row's severity cell was a severity
	// named: the title column is the first, unnamed, before a severity
	// column ("| Hotspot | Impact | Evidence |"): a row is a finding when
	// that cell names one in three words or more.
	named bool
	// guessed: the title column is the first no rule names, in a rated
	// table of several rows (guessed.go): a row is a finding when that
	// cell names one.
	guessed bool
	// checks: the title column names checks, and a passed check in the
	// status column is no finding (checkColumn).
	checks bool
}

// unmappedRow is a table row whose severity cell fluxwatch cannot map, an
// orphan when no row of its table maps (unmappedOrphans).
type unmappedRow struct {
	o orphan
	t *genTable
}

// unmappedOrphans adds the unmapped rows of tables none of whose rows
// mapped to the orphans: a column of "Sev-A"/"Sev-C" is a scale fluxwatch
// does not know, while one "Resolved" among High and Low rows is not.
func (g *general) unmappedOrphans() {
	for _, u := range g.unmapped {
		if !u.t.mapped {
			g.orphans = append(g.orphans, u.o)
		}
	}
	g.unmapped = nil
}

// genTableHeader reads a table header at lines[i] (followed by a delimiter
// row): a severity column with a title column (findings), or a severity
// column with a count column (a tally), or two columns (fields).
func genTableHeader(lines []line, i int) (genTable, bool) {
	if i+1 >= len(lines) || !isDelimiterRow(lines[i+1].text) {
		return genTable{}, false
	}
	cells := tableCells(lines[i].text)
	c := genTable{sev: -1, title: -1, id: -1, status: -1, count: -1, alt: -1}
	sevRank, titleName, first, fix, fixedIn := 0, "", -1, false, false
	risk, other, otherName, otherRank := -1, -1, "", 0 // a "Risk" column; the strongest other severity column
	rules := false                                     // a "Rule" column, or one of kinds
	for j, raw := range cells {
		name := strings.ToLower(strings.TrimSpace(stripBold(raw)))
		name = strings.TrimSpace(trimEmoji(name))
		if sevColumn(name) {
			if name == "risk" && risk < 0 {
				risk = j
			} else if other < 0 || sevColumnRank(name) < otherRank {
				other, otherName, otherRank = j, name, sevColumnRank(name)
			}
		}
		switch {
		case sevColumn(name) && (c.sev < 0 || sevColumnRank(name) < sevRank):
			// Of several ("| Likelihood | Impact | Risk |"), the
			// strongest: severity, then risk, priority, impact.
			c.sev, c.sevName, sevRank = j, name, sevColumnRank(name)
		case c.id < 0 && (name == "id" || name == "#" || name == "ref" || name == "finding id" || name == "no." || name == "no" || name == "key"):
			c.id = j
		case titleColumn(name) && (c.title < 0 || titledColumn(name) && !titledColumn(titleName)):
			// "| Vulnerability | … | Title |", "| Defect | Title | Severity |":
			// a column named for the title beats one that may hold an ID (a
			// CVE, a defect number) or a category; that earlier column holds
			// the IDs when no other does.
			if c.title >= 0 && c.id < 0 {
				c.id = c.title
			}
			c.title, titleName = j, name
		case titleColumn(name) && c.alt < 0:
			// "| Defect | Summary | Severity |": a second title column,
			// the title of a row whose first holds only an ID.
			c.alt = j
		case c.status < 0 && (name == "status" || name == "state" || name == "resolution" || name == "fixed?" || name == "fixed" || name == "상태" || name == "조치 상태" || name == "statut" || name == "estado"):
			c.status = j
		case c.count < 0 && (name == "count" || name == "number" || name == "total" || name == "n" || name == "findings" || name == "issues" || name == "#" || name == "건수" || name == "개수" || name == "nombre" || name == "cantidad" || name == "数量" || name == "件数"):
			c.count = j
		case fixColumn(name):
			fix = true
		case fixedVersionColumn(name):
			fixedIn = true
		default:
			if first < 0 && name != "" && !ratingColumn(name) {
				first = j
			}
			rules = rules || ruleColumn(name)
		}
	}
	if c.title < 0 && c.count < 0 && c.sev >= 0 {
		c.title = actionColumn(cells) // "| # | Action | Owner | Priority |"
	}
	if fixedIn {
		// "| Severity | Status | Installed Version | Fixed Version |": a
		// scanner's status says whether a fixed version exists ("fixed",
		// "affected", "will_not_fix"), not that the defect is gone.
		c.status = -1
	}
	if c.title < 0 && c.count < 0 && c.sev >= 0 && c.status >= 0 {
		c.title = checkColumn(cells) // "| Check | Severity | Status |"
		c.checks = c.title >= 0
	}
	if c.title < 0 && c.count < 0 && risk >= 0 && other >= 0 && risk < other {
		// "| Risk | Probability | Impact | Rating | Mitigation |": a
		// risk register names each risk in its "Risk" column and rates
		// it in the columns after it.
		c.title, c.sev, c.sevName = risk, other, otherName
	}
	if fix && c.sev > first && first >= 0 && c.title < 0 && c.count < 0 && (sevColumnRank(c.sevName) <= 1 || c.sevName == "impact") {
		// "| Hotspot | Impact | Evidence | Suggested fix |": a table
		// that rates its rows by severity, risk or impact and tells how
		// to fix each lists defects, named in its first column; without
		// a fix it may rate kinds of change or what a design leaks, and
		// a priority, a level or a grade orders tasks, rules and
		// criteria too.
		c.title, c.named = first, true
	}
	if c.title < 0 && c.count < 0 && c.sev >= 0 && (len(cells) > 2 || c.sev > first) && guessable(c.sevName) && !rules && tableRows(lines, i) > 1 {
		// "| Area | Check | Status | Priority |": a rated table of rows
		// whose title column has a name no rule knows (guessed.go).
		if first >= 0 {
			c.title, c.guessed = first, true
		}
	}
	if len(cells) == 2 && c.sev < 0 {
		c.kv = true
		return c, true
	}
	if len(cells) == 2 && c.sev == 0 && c.title < 0 && c.count < 0 {
		// "| Severity | High |" as the table's first row: a field table
		// whose header is a field too.
		if _, cl, ok := severityValue(strings.TrimSpace(cells[1]), true); ok && cl == sevFinding {
			return genTable{kv: true, sev: -1, title: -1, id: -1, status: -1, count: -1}, true
		}
	}
	if c.sev < 0 && c.title < 0 && c.count < 0 && slices.ContainsFunc(cells, func(cell string) bool { _, _, ok := cellField(cell); return ok }) {
		// "| Severity: **High** | Difficulty: **Low** |": a finding's
		// rating table that names each field in its cell.
		c.kv = true
		return c, true
	}
	if c.sev < 0 && c.title >= 0 {
		// No severity column: its rows are findings by the severity in
		// their ID ("| P0-1 | … |") or of the group heading over the
		// table (rule 3), known once the headings are read.
		return c, true
	}
	if c.sev < 0 {
		return genTable{}, false
	}
	if c.title < 0 && c.count < 0 {
		// One row only: a table of many rows and no titles lists
		// something else (hours of work by priority).
		if i+3 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+3].text), "|") {
			return genTable{}, false
		}
		c.fields = true
	}
	return c, true
}

// fixColumn reports whether a table column tells how to fix its row.
func fixColumn(name string) bool {
	switch name {
	case "fix", "suggested fix", "proposed fix", "recommended fix", "recommendation", "remediation", "mitigation", "solution":
		return true
	}
	return false
}

// fixedVersionColumn reports whether a table column names the version
// that fixes a row's defect, as a dependency scanner's table does.
func fixedVersionColumn(name string) bool {
	switch name {
	case "fixed version", "fixed versions", "fix version", "fixed in", "patched version", "patched versions", "fix available":
		return true
	}
	return false
}

// ratingColumn reports whether a table column rates its rows as a
// severity column does, or names a place or kind: never their title.
func ratingColumn(name string) bool {
	switch name {
	case "likelihood", "probability", "difficulty", "confidence", "exploitability", "effort", "cvss", "cwe", "category",
		"type", "area", "component", "file", "location", "line", "owner", "due", "package", "version", "score":
		return true
	}
	return false
}

// sevColumnRank orders severity columns as setField orders fields
// (sevRank), but a column of CVSS scores rates the rows only when no
// column names their level.
func sevColumnRank(name string) int {
	if n := sevNameOf(name); n != nil && n.cvss {
		return int(rankScore)
	}
	return int(sevRank(name))
}

// cellField reads a table cell that names a severity field and its value:
// "Severity: **High**", "**Risk:** Medium".
func cellField(cell string) (name, value string, ok bool) {
	t := strings.TrimSpace(stripBold(cell))
	name, value, found := strings.Cut(t, ":")
	if !found {
		return "", "", false
	}
	name = strings.ToLower(strings.TrimSpace(name))
	value = strings.TrimSpace(value)
	if !sevColumn(name) {
		return "", "", false
	}
	if _, c, ok := fieldSeverity(name, value); !ok || c != sevFinding {
		return "", "", false
	}
	return name, value, true
}

func titleColumn(name string) bool {
	switch name {
	case "title", "finding", "issue", "summary", "description", "problem", "concern", "name", "gap", "vulnerability", "message",
		"bug", "observation", "item", "what", "issue title", "finding title", "defect", "risk description", "details",
		"threat", "weakness", "flaw", "comment", "vulnerability name", "finding summary",
		"문제", "이슈", "내용", "취약점", "问题", "描述", "problème", "problema", "hallazgo", "vấn đề", "mô tả", "befund", "problem description":
		return true
	}
	return false
}

// titledColumn reports whether a title column is named for the title
// itself: it beats another title column.
func titledColumn(name string) bool {
	return name == "title" || name == "issue title" || name == "finding title" || name == "vulnerability name"
}

// row reads one row of the table t into g.
func (t *genTable) row(g *general, nodes *[]gnode, cur int, row string, num int, legend bool) {
	cells := tableCells(row)
	cell := func(j int) string {
		if j < 0 || j >= len(cells) {
			return ""
		}
		return strings.TrimSpace(cells[j])
	}
	if t.kv {
		// "| Severity | High |" in a finding's block is its field, and
		// so is a cell "Severity: **High**".
		if cur < 0 {
			return
		}
		name := strings.ToLower(strings.TrimSpace(stripBold(cell(0))))
		if sevColumn(name) && len(cells) == 2 {
			if _, c, ok := severityValue(cell(1), true); ok && c == sevFinding {
				(*nodes)[cur].setField(name, cell(1), num)
			}
			return
		}
		if len(cells) == 2 {
			// "| Status | Fixed (retest 2026-11-07) |": its status field.
			if m := statusFieldOf(cell(0) + ": " + cell(1)); m != nil {
				(*nodes)[cur].setStatus(m[1], m[2])
				return
			}
		}
		for _, c := range cells {
			if name, value, ok := cellField(c); ok {
				(*nodes)[cur].setField(name, value, num)
				return
			}
		}
		return
	}
	if legend {
		return
	}
	if t.fields {
		// "| Medium | High | High |" under a finding's heading: its field.
		if cur >= 0 {
			if _, c, ok := severityValue(cell(t.sev), true); ok && c == sevFinding {
				(*nodes)[cur].setField(t.sevName, cell(t.sev), num)
			}
			if t.status >= 0 && isResolvedValue(cell(t.status)) {
				(*nodes)[cur].resolved = true // "| Medium | Low | Fixed |"
			}
		}
		return
	}
	sevText := cell(t.sev)
	sev, c, ok := slotSeverity(sevText)
	if !ok {
		// "| CVSS |" over "9.8", "| Severity |" over "1 - Critical": a
		// severity column is a field of its row.
		sev, c, ok = fieldSeverity(t.sevName, sevText)
	}
	if t.sev < 0 {
		// Severity from the ID, else from the group over the table.
		sev, _, ok = idSeverity(strings.Trim(stripBold(cell(t.id)), "`[]# "))
		c = sevFinding
		if !ok {
			sev, ok = "", true
		}
	}
	if !ok && t.sev >= 0 && t.title >= 0 && t.count < 0 && t.sevName != "level" && !t.guessed && unmappedSeverity(sevText) {
		// "| BUG-3 | Sev-A | Crash on save |": the column names a
		// severity and the cell holds one fluxwatch cannot map (SPEC
		// §2.3, never silently safe); an orphan if no row of the table
		// maps.
		if title := cleanTitle(stripBold(cell(t.title))); !emptyTitle(title) && !placeholderTitle(title) {
			g.unmapped = append(g.unmapped, unmappedRow{orphan{line: num, word: strings.TrimSpace(stripBold(sevText)), column: t.sevName}, t})
		}
		return
	}
	if !ok || c != sevFinding {
		return
	}
	t.mapped = true
	if t.title < 0 {
		if n, err := strconv.Atoi(strings.Trim(stripBold(cell(t.count)), " `")); err == nil {
			g.tallies = append(g.tallies, tally{line: num, sev: sev, n: n, group: -1})
		}
		return
	}
	title := cleanTitle(stripBold(cell(t.title)))
	if t.named && len(strings.Fields(title)) < 3 {
		return // "| Auth | High |": an area's rating
	}
	if t.guessed && !guessedTitle(title) {
		g.guessedRow(num, sev, sevText, title)
		return
	}
	idCol := t.id
	if t.alt >= 0 && IsFindingID(strings.Trim(title, "`[]# ")) {
		// The title column holds only this row's ID: the title is in
		// the other title column.
		if idCol < 0 {
			idCol = t.title
		}
		title = cleanTitle(stripBold(cell(t.alt)))
	}
	struck := strings.HasPrefix(title, "~~") || strings.Contains(sevText, "~~")
	title = strings.TrimSpace(strings.ReplaceAll(title, "~~", ""))
	if emptyTitle(title) || placeholderTitle(title) {
		return
	}
	id := strings.Trim(stripBold(cell(idCol)), "`[]# ")
	number := ""
	if isDigits(id) {
		number, id = id, ""
	}
	if id != "" && !IsFindingID(id) || severityTag(id) {
		id = ""
	}
	if t.checks && passedCheck(cell(t.status)) {
		return // "| Alerts routed | High | ✅ Pass |"
	}
	resolved := struck || t.status >= 0 && isResolvedValue(cell(t.status))
	gf := gfinding{Finding: Finding{Severity: sev, ID: id, Section: t.section, Title: title, Line: num,
		Confidence: ConfidenceLow, FileRefs: fileRefsOfText(row), resolved: resolved}, cls: t.cls, group: t.group, num: number, guessed: t.guessed}
	if t.cls != clsBody {
		gf.cites = citedIDs(cell(t.title), id)
	}
	// Kept until the headings are read: the group over the table gives a
	// row with no severity its own, and a group whose findings are
	// resolved resolves its rows.
	g.pending = append(g.pending, pendingRow{f: gf, head: t.head})
}

// genItem is listItem, and a line that is not indented and opens with a
// numbering Markdown has no list for, as an item numbered "1.": dotted
// ("2.1 Title", "2.1. Title") or a lowercase letter ("a. Title", "b)
// Title"), as reports number the findings under a numbered group.
func genItem(s string) (kind byte, indent int, text string) {
	if kind, indent, text = listItem(s); kind != 0 || s == "" || s[0] == ' ' || s[0] == '\t' {
		return kind, indent, text
	}
	// The text opens as a title does: "1.5 seconds is the p99" is a
	// sentence.
	titled := func(t string) bool {
		r, _ := utf8.DecodeRuneInString(t)
		return unicode.IsUpper(r) || strings.ContainsRune("`([*", r)
	}
	if len(s) > 3 && s[0] >= 'a' && s[0] <= 'z' && (s[1] == '.' || s[1] == ')') && s[2] == ' ' && titled(strings.TrimSpace(s[3:])) {
		return '1', 0, strings.TrimSpace(s[3:])
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i+1 >= len(s) || s[i] != '.' || !isDigit(s[i+1]) {
		return 0, 0, ""
	}
	if n := numberingLen(s); n > 0 && n < len(s) && titled(s[n:]) {
		return '1', 0, strings.TrimSpace(s[n:])
	}
	return 0, 0, ""
}

// blankBetween reports whether the lines strictly between a and b are
// blank.
func blankBetween(lines []line, a, b int) bool {
	for k := a + 1; k < b; k++ {
		if strings.TrimSpace(lines[k].text) != "" {
			return false
		}
	}
	return true
}

// setextLevel reads a setext heading at lines[i]: a line of one
// paragraph (a blank line or nothing above it) that is no list item,
// table row, quote or tag, underlined by a run of = (level 1) or - (level
// 2) as long as half the text or more, three at least ("Critical\n---").
// A short rule under a long line ("Verdict: safe\n---") is a rule.
func setextLevel(lines []line, i int) int {
	if i+1 >= len(lines) || i > 0 && strings.TrimSpace(lines[i-1].text) != "" && lines[i-1].level == 0 {
		return 0
	}
	u := strings.TrimSpace(lines[i+1].text)
	if len(u) < 3 || lines[i+1].masked || lines[i+1].level > 0 || u[0] != '=' && u[0] != '-' || strings.Trim(u, u[:1]) != "" {
		return 0
	}
	t := lines[i].text
	if strings.ContainsAny(t[:1], "-*+|>< \t") || numberingLen(t) > 0 || len(u)*2 < utf8.RuneCountInString(t) {
		return 0
	}
	if u[0] == '=' {
		return 1
	}
	return 2
}

// foldHead is a summary heading and the number of <details> blocks open
// at its line.
type foldHead struct{ node, folds int }

// summaryHead reads the summary of a collapsed block ("<summary>🔴
// Critical (2)</summary>", "<details><summary><b>[HIGH] Title</b>"): a
// heading of what the block folds, as PR review bots write their findings.
func summaryHead(t string) (string, bool) {
	if len(t) < 9 || t[0] != '<' {
		return "", false
	}
	lower := strings.ToLower(t)
	if strings.HasPrefix(lower, "<details>") {
		t, lower = strings.TrimSpace(t[9:]), strings.TrimSpace(lower[9:])
	}
	if !strings.HasPrefix(lower, "<summary>") {
		return "", false
	}
	t = t[9:]
	if i := strings.Index(strings.ToLower(t), "</summary>"); i >= 0 {
		t = t[:i]
	}
	t = summaryTagRe.ReplaceAllString(t, "")
	h := cleanHeading(strings.TrimSpace(t))
	return h, h != ""
}

// foldTags counts the <details> blocks a line opens and closes.
func foldTags(t string) (opened, closed int) {
	for i := strings.IndexByte(t, '<'); i >= 0; {
		r := t[i+1:]
		switch {
		case len(r) >= 7 && strings.EqualFold(r[:7], "details") && (len(r) == 7 || r[7] == '>' || r[7] == ' '):
			opened++
		case len(r) >= 8 && strings.EqualFold(r[:8], "/details"):
			closed++
		}
		j := strings.IndexByte(r, '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return opened, closed
}

// summaryTagRe matches the inline tags of a summary line.
var summaryTagRe = regexp.MustCompile(`(?i)</?(?:b|strong|em|i|code)>`)

// plainLabel reports whether a paragraph line, not bold and not indented,
// opens with a label as an item would: a P-level or a bracketed severity
// ("P0: Title", "[HIGH] Title"), or a severity word in capitals before a
// colon or a dash ("CRITICAL: Title").
func plainLabel(t string) bool {
	if len(t) < 2 || len(t) > 400 {
		return false
	}
	if _, _, ok := idTrailingSeverity(t); ok {
		return true
	}
	if wordIDAt(t) != nil {
		// "Finding 3 (Severity: High): Title", "Result #1 CRITICAL —
		// Title": a numbered finding rated right after its number.
		lab := labelText(t, 'b')
		c, _ := utf8.DecodeRuneInString(lab.title)
		return lab.ok && lab.class == sevFinding && !lab.inner && (unicode.IsUpper(c) || c == '`')
	}
	m, ok := markerAt(t, true)
	if !ok || m.start != 0 || m.class != sevFinding {
		return false
	}
	word := t[:m.end]
	if !IsPLevel(strings.Trim(word, "[]():*_ ")) && word[0] != '[' && !isUpperWord(word) {
		return false
	}
	r := strings.TrimLeft(t[m.end:], " \t")
	if word[0] != '[' {
		if !strings.HasPrefix(r, ":") && !strings.HasPrefix(r, "—") && !strings.HasPrefix(r, "–") && !strings.HasPrefix(r, "- ") {
			return false
		}
		r = strings.TrimLeft(r, ":—–- \t")
	}
	// A title opens with a capital, a digit or code: "P1: the team
	// agreed …" and "CRITICAL: never skip the checks" are sentences.
	c, _ := utf8.DecodeRuneInString(r)
	return r != "" && (unicode.IsUpper(c) || unicode.IsDigit(c) || c == '`' || c == '"' || c >= utf8.RuneSelf && !unicode.IsLower(c) ||
		word[0] == '[' && resourceLead(r))
}

// idTrailingSeverity reads a line that opens with an ID and ends with its
// severity in brackets, a title between ("CA-02 Retry loop never backs
// off (P1)"): the ID, the bracketed severity. The ID is set apart from
// the title only so: a token of an ID's shape (letters, a separator or
// two letters or more, digits) and a severity given at the end of the
// same line, written as a label (a P-level or a capitalised word).
func idTrailingSeverity(t string) (id, word string, ok bool) {
	t = strings.TrimSpace(t)
	if t == "" || t[len(t)-1] != ')' && t[len(t)-1] != ']' {
		return "", "", false
	}
	tok, rest, _ := strings.Cut(t, " ")
	tok = strings.TrimRight(tok, ":.")
	if !IsFindingID(tok) || !strings.ContainsAny(tok, "-_.") && !(len(tok) > 1 && isUpperASCII(tok[1])) {
		return "", "", false
	}
	open := strings.LastIndexAny(rest, "([")
	if open <= 0 {
		return "", "", false
	}
	word = rest[open+1 : len(rest)-1]
	title := strings.TrimSpace(strings.TrimLeft(rest[:open], ":—–- "))
	sev, c, okSev := severityValue(word, true)
	if !okSev || c != sevFinding || sev == "" || !itemBracket(rest, word, len(rest)) || title == "" {
		return "", "", false
	}
	r, _ := utf8.DecodeRuneInString(title)
	if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '`' {
		return "", "", false
	}
	return tok, word, true
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }

// listFollows reports whether the next line that is not blank, within
// two, is a list item.
func listFollows(lines []line, i int) bool {
	for j := i + 1; j < len(lines) && j <= i+2; j++ {
		if strings.TrimSpace(lines[j].text) == "" {
			continue
		}
		kind, _, _ := genItem(lines[j].text)
		return kind != 0
	}
	return false
}

// leadInFollows reports whether a bold lead-in ("**Title.** text") is the
// next line of text after lines[i], a blank line between them at most.
func leadInFollows(lines []line, i int) bool {
	for j := i + 1; j < len(lines) && j <= i+2; j++ {
		if t := strings.TrimSpace(lines[j].text); t != "" {
			return lines[j].level == 0 && !lines[j].masked && isLeadIn(t)
		}
	}
	return false
}

// isLeadIn reports whether t opens with a bold part that text follows.
func isLeadIn(t string) bool {
	lead, after, ok := boldLead(t)
	return ok && strings.TrimSpace(lead) != "" && strings.TrimSpace(after) != ""
}

// plainGroupLine reads a paragraph line that is only a group's name, in
// capitals or ending with a colon, not bold ("CRITICAL", "High priority
// issues:"); or bold from end to end, as a heading written in bold
// ("**Critical Issues (Must Fix)**", "**High priority**:").
func plainGroupLine(t string) (string, Severity, bool) {
	bold := boldAlone(t)
	if bold {
		t = strings.TrimSpace(strings.ReplaceAll(t, "**", ""))
	}
	if strings.ContainsAny(t, "*_") {
		return "", "", false // a bold label: readBoldGroup's
	}
	w := strings.TrimSpace(trimEmoji(t))
	colon := strings.HasSuffix(w, ":")
	w = strings.TrimSpace(strings.TrimSuffix(w, ":"))
	w = strings.TrimSpace(cutNumbering(w)) // "**2. High**", a numbered group
	if w == "" || len(w) > 40 || !colon && !bold && w != strings.ToUpper(w) {
		return "", "", false
	}
	sev, ok := groupPhrase(w)
	if !ok && strings.HasSuffix(w, ")") {
		// "**Blockers (2)**": a group line with its count.
		if core, n, _ := groupCore(w); n >= 0 && core != "" {
			sev, ok = groupPhrase(core)
		}
	}
	if !ok || !startsWithSeverity(w) && !IsPLevel(strings.Fields(w)[0]) && !startsWithPhrase(w) {
		return "", "", false
	}
	return w, sev, true
}

// startsWithPhrase reports whether s opens with a severity of two words
// ("Must fix", "Nice to have" opens with "Nice to"): a group line's.
func startsWithPhrase(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 || !phraseStart(f[0]) {
		return false
	}
	for n := 2; n <= min(len(f), 3); n++ {
		if _, c, ok := oneSeverity(strings.Join(f[:n], " "), false); ok && c == sevFinding {
			return true
		}
	}
	return false
}

// badgeLine reads a line of badges, each in italics or bold, joined by
// pipes, one a severity ("_⚠️ Potential issue_ | _🔴 Critical_", as PR
// review bots head a comment): the severity.
func badgeLine(t string) (string, bool) {
	if strings.HasPrefix(t, "`") {
		// "`41-58`: _⚠️ Potential issue_ | _🟠 Major_": the lines the
		// comment is on come first.
		if j := strings.IndexByte(t[1:], '`'); j > 0 && lineRange(t[1:1+j]) && strings.HasPrefix(t[2+j:], ":") {
			t = strings.TrimSpace(t[3+j:])
		}
	} else if rest, ok := linesLead(t); ok {
		t = rest // "**Lines 31-48:** _⚠️ Potential issue_ | …" (structures9.go)
	}
	if len(t) > 120 || !strings.Contains(t, "|") || t[0] != '_' && t[0] != '*' {
		return "", false
	}
	value := ""
	for _, part := range strings.Split(t, "|") {
		p := strings.TrimSpace(part)
		if len(p) < 3 || p[0] != p[len(p)-1] || p[0] != '_' && p[0] != '*' {
			return "", false
		}
		p = strings.TrimSpace(strings.Trim(p, "_*"))
		if _, c, ok := severityValue(p, true); ok && c == sevFinding && value == "" {
			value = p
		}
	}
	return value, value != ""
}

// indentedRating reports whether the lines right under lines[i] are
// indented fields ("Name: value"), one a severity field: a tool's result
// printed as a line over its fields ("Check: …" over "\tFAILED for
// resource: …" and "\tSeverity: HIGH").
func indentedRating(lines []line, i int) bool {
	for j := i + 1; j < len(lines) && j <= i+8; j++ {
		t := strings.TrimSpace(lines[j].text)
		if t == "" || lines[j].masked || lines[j].level > 0 || lines[j].text[0] != '\t' && !strings.HasPrefix(lines[j].text, "  ") {
			return false
		}
		if sevFieldOf(t) != nil {
			return true
		}
		if anyFieldRe.FindStringIndex(t) == nil {
			return false
		}
	}
	return false
}

// lineRange reports whether s is a line number or a range of them
// ("41", "41-58").
func lineRange(s string) bool {
	a, b, found := strings.Cut(s, "-")
	return isDigits(a) && (!found || isDigits(b))
}

// imageBadge reads a badge image whose alt text is a severity, as review
// bots open a comment with ("![critical](https://…/critical.svg)"): the
// severity word and the text after the image on its line.
func imageBadge(t string) (word, rest string, ok bool) {
	if !strings.HasPrefix(t, "![") {
		return "", "", false
	}
	j := strings.Index(t, "](")
	if j < 0 || j > 40 {
		return "", "", false
	}
	k := strings.IndexByte(t[j:], ')')
	if k < 0 {
		return "", "", false
	}
	alt := t[2:j]
	if _, c, ok := severityValue(alt, true); !ok || c != sevFinding {
		return "", "", false
	}
	return alt, strings.TrimSpace(t[j+k+1:]), true
}

// firstSentence returns the first sentence of a paragraph's line, less
// emphasis marks, as a title.
func firstSentence(t string) string {
	t = strings.ReplaceAll(t, "**", "")
	if i := strings.Index(t, ". "); i > 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// afterCross cuts the cross mark that opens a scanner's result line
// ("✗", "✘"): what follows it, and whether there was one.
func afterCross(t string) (string, bool) {
	for _, m := range [...]string{"✗", "✘"} {
		if rest, ok := strings.CutPrefix(t, m); ok {
			return rest, true
		}
	}
	return "", false
}

// scannerLine returns the severity word of a scanner's result line, a
// cross mark then "<level> severity" ("✗ High severity vulnerability
// found in jsonwebtoken", "✘ Medium severity issue"), or "".
func scannerLine(t string) string {
	rest, ok := afterCross(t)
	if !ok {
		return ""
	}
	w, after, ok := strings.Cut(strings.TrimSpace(rest), " ")
	if !ok || !hasPrefixLower(after, "severity ") {
		return ""
	}
	if _, c, ok := severityValue(w, false); !ok || c != sevFinding {
		return ""
	}
	return w
}

// markEmojiScale reads the items of a list rated by colour marks: an item
// (or a paragraph, markedPara) opened by a mark of P3 (🟢, 🔵, ⚪) is a
// P3 finding when an item beside
// it (under the same parent) is labelled by a mark of its own ("- 🔴 …",
// "- 🟡 …"). Alone, "- 🟢 Tests pass" is praise, not a finding.
func markEmojiScale(nodes []gnode) {
	rated := map[int]bool{}
	for k := range nodes {
		n := &nodes[k]
		if n.kind != 'h' && n.lab.ok && isEmojiMark(n.lab.word) {
			rated[n.parent] = true
		}
	}
	if len(rated) == 0 {
		return
	}
	for k := range nodes {
		n := &nodes[k]
		if n.lab.ok || !rated[n.parent] || strings.IndexByte("lncb", n.kind) < 0 {
			continue
		}
		t := strings.TrimSpace(stripBold(n.text))
		r, size := utf8.DecodeRuneInString(t)
		if size < 2 || !isEmojiRune(r) {
			continue
		}
		sev, c, ok := oneSeverity(t[:size], false)
		body := strings.TrimSpace(trimEmoji(t))
		// "🟢 Security: all looks good": a category's status, not a
		// finding.
		if !ok || c != sevFinding || sev != P3 || len(strings.Fields(body)) < 3 || strings.Contains(body, ": ") || noneText(body) {
			continue
		}
		n.lab = label{ok: true, sev: P3, class: sevFinding, word: t[:size], title: itemTitle(body, n.kind)}
	}
}

// auditTitle is plainTitle of a heading that may name its ID after
// "Issue" or "Finding" ("Issue H-1: Title"); named says it did.
func auditTitle(text string, kind byte) (title, id string, named bool) {
	title, id = plainTitle(text, kind)
	if id != "" {
		w, _, _ := wordPrefix(cutNumbering(strings.TrimSpace(stripBold(text))))
		return title, id, strings.EqualFold(w, "issue") || strings.EqualFold(w, "finding")
	}
	if w, rest, ok := wordPrefix(stripBold(text)); ok && (strings.EqualFold(w, "issue") || strings.EqualFold(w, "finding")) {
		if t, lid := plainTitle(rest, kind); auditIDRe.MatchString(lid) {
			return t, lid, true
		}
	}
	return title, id, false
}

// auditIDRe matches the IDs audit firms give findings by severity: C-01
// critical, H-01 high, M-01 medium, L-01 low, I-01 informational.
var auditIDRe = regexp.MustCompile(`^[CHMLI]-\d{1,3}$`)

// markAuditIDs reads the severity of headings titled by audit IDs ("####
// [H-01] Reentrancy …", "### M-02: …", "# Issue H-1: …") with no severity
// of their own, when the report uses them as a rating: its headings use two
// letters of the scale or more, or the ID is written as audits write it,
// zero-padded ("H-01") or after "Issue" or "Finding". One "H-1" may be a
// hypothesis; "H-01", "Issue H-1" or "H-1" beside "M-1" is a rating.
func markAuditIDs(nodes []gnode) {
	var seen [256]bool
	letters, rated := 0, false
	for k := range nodes {
		n := &nodes[k]
		if n.kind != 'h' || n.lab.ok {
			continue
		}
		if _, id, named := auditTitle(n.text, n.kind); auditIDRe.MatchString(id) {
			if !seen[id[0]] {
				seen[id[0]] = true
				letters++
			}
			rated = rated || named || id[2] == '0' && len(id) > 3
		}
	}
	if letters < 2 && !rated {
		return
	}
	for k := range nodes {
		n := &nodes[k]
		if n.kind != 'h' || n.lab.ok {
			continue
		}
		title, id, _ := auditTitle(n.text, n.kind)
		if !auditIDRe.MatchString(id) || strings.TrimSpace(title) == "" {
			continue
		}
		sev := map[byte]Severity{'C': P0, 'H': P1, 'M': P2, 'L': P3, 'I': P3}[id[0]]
		n.lab = label{ok: true, sev: sev, class: sevFinding, id: id, title: title, word: id}
	}
}
