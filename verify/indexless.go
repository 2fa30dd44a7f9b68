package verify

import (
	"regexp"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// A blocker of a report with no findings index (the general reader, SPEC
// §2.3) that the synthesis drops is a missing blocker, not a note, when
// what the reader read it from is a finding beyond doubt and the
// synthesis says nothing like it in any words (gatedIndexless). Precision
// first: such a report's findings are often restated by a synthesis in
// words of its own, so "says nothing like it" is read generously.

// gatedIndexless reports whether candidate j, a blocker read from a
// report with no findings index, is reported missing: every line its
// agents wrote it on rates it itself (ratedPlace), and the synthesis does
// not state it loosely (statedLoosely).
func (r *run) gatedIndexless(j int) bool {
	f := r.cands[j].f
	if f == nil || len(f.Sources) == 0 {
		return false
	}
	for _, src := range f.Sources {
		if !r.ratedPlace(src.Agent, refLine(src.Ref)) || r.ratedBlockers(src.Agent) < 2 {
			return false
		}
	}
	if !slices.ContainsFunc(r.lineAgents(), func(as []string) bool { return r.namesAgentIn(as, j) }) {
		return false // the synthesis may not have read that report at all
	}
	return !r.statedLoosely(j)
}

// ratedBlockers counts the blockers of agent's report read from a place
// that rates them (ratedPlace): a report that rates its findings where
// it writes them, not one whose levels the reader took from groups.
func (r *run) ratedBlockers(agent string) int {
	if n, ok := r.rated[agent]; ok {
		return n
	}
	n := 0
	for _, f := range r.s.Findings {
		for _, src := range f.Sources {
			if src.Agent == agent && src.Severity.Rank() <= 1 && r.ratedPlace(agent, refLine(src.Ref)) {
				n++
			}
		}
	}
	if r.rated == nil {
		r.rated = map[string]int{}
	}
	r.rated[agent] = n
	return n
}

// ratedPlace reports whether line n of agent's report is a finding's own
// structured place with a severity label of its own: a heading, a bold
// lead-in, a list item or a table row that writes its level
// ("### [P1] …", "**P0 — …**", "- **[P1] …**", "| F5 | high | … |"), or
// a heading or bold line over a field that rates it ("**Severity:**
// High" in the four lines under it). A line that holds no label of its
// own took its severity from the group it stands under (a numbered step
// of a plan under "## P0", a list of examples under a rated heading) or
// from prose: such a line may be a part of a finding, not one.
func (r *run) ratedPlace(agent string, n int) bool {
	l := strings.TrimSpace(r.reportLine(agent, n))
	if l == "" {
		return false
	}
	heading := strings.HasPrefix(l, "#")
	bold := strings.HasPrefix(l, "**")
	item := listItemRe.MatchString(l)
	row := strings.HasPrefix(l, "|")
	if !heading && !bold && !item && !row {
		return false
	}
	if ownSeverityLabel(l, row) {
		return true
	}
	if !heading && !bold {
		return false
	}
	for d := 1; d <= 4; d++ {
		next := strings.TrimSpace(r.reportLine(agent, n+d))
		if strings.HasPrefix(next, "#") {
			break
		}
		if m := ratingFieldRe.FindStringSubmatch(next); m != nil {
			return true
		}
	}
	return false
}

// listItemRe matches a list item: "- ", "* ", "+ ", "1. ", "1) ".
var listItemRe = regexp.MustCompile(`^(?:[-*+]|\d{1,3}[.)])\s`)

// ratingFieldRe matches a field that rates the finding above it:
// "**Severity:** High", "- Priority: P1".
var ratingFieldRe = regexp.MustCompile(`(?i)^(?:[-*+]\s+)?\**(?:severity|priority)\**\s*:`)

// ownSeverityLabel reports whether line l writes a blocker's level as a
// label: a P-level in capitals (P0, P1) as a word of its own, or a
// severity word set apart (in brackets, parentheses, bold, or before a
// colon or a dash: "[HIGH]", "(High)", "**Critical**", "CRITICAL:",
// "High —"; in a table row, a cell of its own: "| high |"). A word of the
// title ("High memory use") is no label.
func ownSeverityLabel(l string, row bool) bool {
	for _, m := range sevTokenRe.FindAllStringIndex(l, -1) {
		tok := l[m[0]:m[1]]
		s, ok := parse.SeverityWord(tok)
		if !ok || s.Rank() > 1 {
			continue
		}
		if parse.IsPLevel(tok) && tok[0] == 'P' {
			return true
		}
		before := strings.TrimRight(l[:m[0]], " ")
		after := strings.TrimLeft(l[m[1]:], " ")
		open := strings.HasSuffix(before, "[") || strings.HasSuffix(before, "(") || strings.HasSuffix(before, "**")
		closed := strings.HasPrefix(after, "]") || strings.HasPrefix(after, ")") || strings.HasPrefix(after, "**") ||
			strings.HasPrefix(after, ":") || strings.HasPrefix(after, "—") || strings.HasPrefix(after, "–") || strings.HasPrefix(after, "- ")
		if row && strings.HasSuffix(before, "|") && strings.HasPrefix(after, "|") {
			return true
		}
		if open && closed || (tok == strings.ToUpper(tok) && closed) {
			return true
		}
	}
	return false
}

// sevTokenRe finds the words a severity label may be.
var sevTokenRe = regexp.MustCompile(`(?i)\b(?:P[0-9]|critical|blocker|high|major)\b`)

// statedLoosely reports whether the synthesis states blocker j in words
// of its own, read generously: a line holds two of the words of its title
// that are its own (not the review's topic, topicWords), words compared
// by their first seven letters (fold); a section (a heading and the lines
// under it) that names its agent, by name or by its track's label
// ("Track B" for track-b-orthogonal), holds one of them; or a line holds
// three words of its title and its description together (its block).
func (r *run) statedLoosely(j int) bool {
	own := r.ownTitleWords(j)
	if len(own) == 0 {
		return true // nothing of its own to look for: not told
	}
	lines := r.foldedLines()
	need := min(2, len(own))
	for _, ws := range lines {
		if countIn(ws, own) >= need {
			return true
		}
	}
	start := 0
	for i := 1; i <= len(lines); i++ {
		if i < len(lines) && !strings.HasPrefix(strings.TrimSpace(r.srcLines[i]), "#") {
			continue
		}
		named, holds := false, false
		named2 := r.lineAgents()
		for k := start; k < i; k++ {
			named = named || r.namesAgentIn(named2[k], j)
			holds = holds || countIn(lines[k], own) > 0
		}
		if named && holds {
			return true
		}
		start = i
	}
	blk := r.blockWords(j)
	for _, ws := range lines {
		if countIn(ws, blk) >= 3 {
			return true
		}
	}
	return false
}

// countIn counts the words of ws in set.
func countIn(ws []string, set map[string]bool) int {
	n := 0
	for _, w := range ws {
		if set[w] {
			n++
		}
	}
	return n
}

// ownTitleWords returns the folded words of candidate j's titles that are
// not the review's topic.
func (r *run) ownTitleWords(j int) map[string]bool {
	topic := r.topicWords()
	own := map[string]bool{}
	for _, t := range r.cands[j].raw {
		for _, w := range words(t) {
			if !topic[w] {
				own[fold(w)] = true
			}
		}
	}
	return own
}

// blockWords returns the folded words of candidate j's titles and of what
// its agents wrote about it (its block), the review's topic left out.
func (r *run) blockWords(j int) map[string]bool {
	topic := r.topicWords()
	text := strings.Join(r.cands[j].raw, " ")
	if r.lineIdx == nil {
		r.lineIdx = reportLines{}
	}
	for _, src := range r.cands[j].f.Sources {
		if _, ok := r.texts[src.Agent]; ok {
			b, _ := r.lineIdx.of(src.Agent, r.texts).blockSpan(src.Ref, src.ID)
			text += " " + b
		}
	}
	out := map[string]bool{}
	for _, w := range words(text) {
		if !topic[w] {
			out[fold(w)] = true
		}
	}
	return out
}

// foldedLines returns the folded words of each line of the synthesis,
// found once.
func (r *run) foldedLines() [][]string {
	if r.folded == nil {
		r.folded = make([][]string, len(r.srcLines))
		for i, l := range r.srcLines {
			r.folded[i] = folded(words(l))
		}
	}
	return r.folded
}

// trackLabelRe matches a track's label: "Track B", "track-c".
var trackLabelRe = regexp.MustCompile(`(?i)\btrack[ -]([a-z0-9])\b`)

// namesAgentOf reports whether synthesis line l names an agent of
// candidate j, by name or by its track's label: a review that writes one
// report per track ("track-b-orthogonal.md") names it "Track B".
func (r *run) namesAgentOf(l string, j int) bool {
	return r.namesAgentIn(r.namedIn(l), j)
}

// namesAgentIn reports whether names, what a line names (namedIn), holds
// an agent of candidate j.
func (r *run) namesAgentIn(names []string, j int) bool {
	for _, n := range names {
		if p, ok := strings.CutPrefix(n, "track "); ok {
			prefix := "track-" + p + "-"
			if slices.ContainsFunc(r.cands[j].agents, func(a string) bool { return strings.HasPrefix(strings.ToLower(a), prefix) }) {
				return true
			}
		} else if slices.Contains(r.cands[j].agents, n) {
			return true
		}
	}
	return false
}

// namedIn returns the agents line l names and its tracks' labels, as
// "track b".
func (r *run) namedIn(l string) []string {
	as, _ := r.agentsIn(l)
	for _, m := range trackLabelRe.FindAllStringSubmatch(l, -1) {
		as = append(as, "track "+strings.ToLower(m[1]))
	}
	return as
}

// lineAgents returns, per synthesis line, what it names (namedIn), found
// once.
func (r *run) lineAgents() [][]string {
	if r.named == nil {
		r.named = make([][]string, len(r.srcLines))
		for i, l := range r.srcLines {
			r.named[i] = r.namedIn(l)
		}
	}
	return r.named
}
