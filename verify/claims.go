package verify

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Claim is one finding a synthesis states.
type Claim struct {
	// Line is the claim's line in the synthesis, from 1.
	Line int `json:"line"`
	// ID is the label the synthesis gives it ("P0-1", "3"), if any.
	ID    string `json:"id,omitempty"`
	Title string `json:"title"`
	// Text is the whole line, trimmed.
	Text string `json:"text"`
	// Severity is "" when the claim states none.
	Severity parse.Severity `json:"severity,omitempty"`
	// Count is the convergence it claims (0: none); Of the agents it counts
	// against ("N/M"; 0: none).
	Count int `json:"count,omitempty"`
	Of    int `json:"of,omitempty"`
	// Agents are the agents it names as reporting it.
	Agents   []string `json:"agents,omitempty"`
	FileRefs []string `json:"file_refs,omitempty"`
}

// maxTitle bounds a claim's title in runes: a claim is a line, not a page.
const maxTitle = 300

// Claims returns the claims of a synthesis, in line order (see the package
// documentation for what a claim is). It never fails: text that states no
// claim gives none.
func Claims(src []byte) []Claim {
	var (
		claims   []Claim
		fence    string
		group    parse.Severity // severity of the current group heading
		groupLvl int            // its level; 0: none
		skipLvl  int            // level of a skipped section; 0: none
		claimLvl int            // level of the current finding heading; 0: none
		table    *tableCols
	)
	// The lines are read one at a time rather than split into a slice at
	// once: a synthesis of 60 MB of newlines took a 960 MB slice of them.
	text := string(src)
	lineAt := func(p int) (line string, next int) {
		if j := strings.IndexByte(text[p:], '\n'); j >= 0 {
			return text[p : p+j], p + j + 1
		}
		return text[p:], len(text) + 1
	}
	for pos, n := 0, 0; pos <= len(text); {
		var line string
		line, pos = lineAt(pos)
		n++
		s := strings.TrimRight(line, "\r")
		t := strings.TrimSpace(s)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if !strings.HasPrefix(t, "|") {
			table = nil
		}
		if lvl, text := heading(t); lvl > 0 {
			table = nil
			if skipLvl > 0 && lvl <= skipLvl {
				skipLvl = 0
			}
			if groupLvl > 0 && lvl <= groupLvl {
				group, groupLvl = "", 0
			}
			if claimLvl > 0 && lvl <= claimLvl {
				claimLvl = 0
			}
			if skipLvl > 0 {
				continue
			}
			if skippedSection(text) {
				skipLvl = lvl
				continue
			}
			if sev, ok := groupHeading(text); ok {
				group, groupLvl = sev, lvl
				continue
			}
			c, ok := itemClaim(text, false)
			if !ok && groupLvl > 0 && lvl > groupLvl {
				c, ok = itemClaim(text, true)
			}
			if ok {
				if c.Severity == "" {
					c.Severity = group
				}
				c.Line, c.Text = n, clip(t)
				claims = append(claims, c)
				claimLvl = lvl
			}
			continue
		}
		if skipLvl > 0 {
			continue
		}
		if strings.HasPrefix(t, "|") {
			if table == nil {
				if pos <= len(text) {
					if sep, after := lineAt(pos); isSeparatorRow(sep) {
						table = newTable(cells(t))
						pos, n = after, n+1 // the separator row
					}
				}
				continue
			}
			if c, ok := table.row(cells(t), group); ok && (claimLvl == 0 || c.Severity != group) {
				c.Line, c.Text = n, clip(t)
				claims = append(claims, c)
			}
			continue
		}
		text, ok := listItem(t)
		if !ok {
			continue
		}
		c, ok := itemClaim(text, false)
		if !ok {
			if claimLvl > 0 || groupLvl == 0 {
				continue
			}
			// An item directly under a severity group heading.
			if c, ok = itemClaim(text, true); !ok {
				continue
			}
		}
		if c.Severity == "" {
			if claimLvl > 0 && c.Count == 0 {
				continue // a detail of the finding heading above
			}
			c.Severity = group
		}
		c.Line, c.Text = n, clip(t)
		claims = append(claims, c)
	}
	return claims
}

// maxText bounds a claim's Text in bytes.
const maxText = 2000

// clip bounds s to maxText bytes, at a rune boundary.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	i := maxText
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// heading returns the level and text of an ATX heading, or 0.
func heading(t string) (int, string) {
	lvl := 0
	for lvl < len(t) && lvl < 7 && t[lvl] == '#' {
		lvl++
	}
	if lvl == 0 || lvl > 6 || (lvl < len(t) && t[lvl] != ' ' && t[lvl] != '\t') {
		return 0, ""
	}
	text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[lvl:]), "#"))
	return lvl, text
}

var (
	listRe      = regexp.MustCompile(`^(?:[-*+]|\d{1,4}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$`)
	separatorRe = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
)

// listItem returns the text of a bullet, numbered item or checkbox.
func listItem(t string) (string, bool) {
	m := listRe.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	return m[1], true
}

func isSeparatorRow(s string) bool { return separatorRe.MatchString(strings.TrimSpace(s)) }

// cells splits a table row into trimmed cells.
func cells(t string) []string {
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	parts := strings.Split(t, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// skippedSection reports whether a heading starts a section whose items are
// not findings: improvements, verdicts, the individual agent reports.
func skippedSection(text string) bool {
	n := parse.Normalize(numberRe.ReplaceAllString(strings.TrimSpace(strings.ReplaceAll(text, "**", "")), ""))
	for _, w := range []string{"improvement", "agent report", "individual agent", "timeline"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, w := range []string{"verdict", "agent summar", "nice to have", "strengths", "what works", "positive"} {
		if strings.HasPrefix(n, w) {
			return true
		}
	}
	return false
}

// groupWords are the words that make "P1 …" or "Critical …" a severity
// group heading rather than a finding.
var groupWords = map[string]bool{
	"findings": true, "finding": true, "issues": true, "issue": true, "blockers": true,
	"blocking": true, "severity": true, "priority": true, "items": true, "concerns": true,
	"problems": true, "risks": true, "gaps": true, "fixes": true, "important": true,
	"recommendations": true, "must": true, "should": true, "bugs": true, "defects": true,
}

// triageWords are the texts before a parenthesised marker that make a
// heading a group ("Important (P1)", "Must fix (P0)").
var triageWords = map[string]bool{
	"critical": true, "important": true, "blocking": true, "blockers": true, "must fix": true,
	"should fix": true, "high": true, "medium": true, "low": true, "minor": true, "major": true,
	"high priority": true, "medium priority": true, "low priority": true, "critical issues": true,
	"important issues": true, "minor issues": true, "nice to fix": true, "consider": true,
}

// groupHeading reports whether a heading is a severity group and which.
func groupHeading(text string) (parse.Severity, bool) {
	plain := strings.TrimSpace(strings.ReplaceAll(text, "**", ""))
	plain = strings.TrimSpace(numberRe.ReplaceAllString(plain, ""))
	if m := trailingMarkerRe.FindStringSubmatchIndex(plain); m != nil {
		before := parse.Normalize(plain[:m[0]])
		if sev, ok := parse.SeverityWord(plain[m[2]:m[3]]); ok && (before == "" || triageWords[before] || isSeverityWord(firstWord(before))) {
			return sev, true
		}
	}
	w := firstWord(plain)
	sev, ok := parse.SeverityWord(w)
	if !ok {
		return "", false
	}
	rest := strings.TrimSpace(plain[len(w):])
	rest = strings.TrimLeft(rest, ":—–- ")
	rn := parse.Normalize(rest)
	if rn == "" || strings.HasPrefix(rest, "(") || groupWords[firstWord(rn)] {
		return sev, true
	}
	return "", false
}

var numberRe = regexp.MustCompile(`^\d{1,3}[.)]\s+`)

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

func isSeverityWord(w string) bool {
	_, ok := parse.SeverityWord(w)
	return ok
}

var (
	// trailingMarkerRe: an exact parenthesised or bracketed marker at the end.
	trailingMarkerRe = regexp.MustCompile(`(?i)[(\[]\s*(P[0-3]|critical|blocker|high|major|medium|moderate|low|minor)\s*[)\]]\s*[.:]?\s*$`)
	// inlineMarkerRe: an exact parenthesised or bracketed P-level anywhere.
	// or one that opens a parenthesised list: "(P0, 3/5 agents)".
	inlineMarkerRe = regexp.MustCompile(`[(\[]\s*(P[0-3])\s*(?:[)\]]|[,;]\s)`)
	// sevPrefixIDRe: an ID whose prefix is a severity (P1-3, P0.2).
	sevPrefixIDRe = regexp.MustCompile(`^(P[0-3])[-.][A-Za-z0-9]{1,6}$`)
)

// leadMarker reads a severity marker (and an ID) at the start of s. It
// returns the rest of s after them. Severity words count only when marked
// (brackets, bold, parentheses, capitals, a colon): "High memory use" is no
// marker, "HIGH: memory use" and "[High] memory use" are.
func leadMarker(s string) (id string, sev parse.Severity, rest string, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(numberRe.ReplaceAllString(s, ""))
	tok, after := splitToken(s)
	if sev, ok := tokenSeverity(tok); ok {
		rest = after
		// "[P1] AR-001: Title"
		if t2, a2 := splitToken(rest); strings.HasSuffix(t2, ":") && parse.IsFindingID(trimTok(t2)) {
			id, rest = trimTok(t2), a2
		}
		return id, sev, trimLead(rest), true
	}
	tt := trimTok(tok)
	if m := sevPrefixIDRe.FindStringSubmatch(tt); m != nil {
		return tt, parse.Severity(m[1]), trimLead(after), true
	}
	if parse.IsFindingID(tt) || isNumber(tt) {
		if t2, a2 := splitToken(trimLead(after)); t2 != "" {
			if sev, ok := tokenSeverity(t2); ok {
				return tt, sev, trimLead(a2), true
			}
		}
	}
	return "", "", s, false
}

// splitToken cuts s at its first space.
func splitToken(s string) (string, string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], strings.TrimSpace(s[i:])
	}
	return s, ""
}

// trimTok drops the decoration around a token.
func trimTok(tok string) string {
	return strings.Trim(tok, "[]()*_`:.,;—–-")
}

// trimLead drops separators left at the start of a title.
func trimLead(s string) string {
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), ":—–-|*_ "))
}

// tokenSeverity reads one token as a severity marker.
func tokenSeverity(tok string) (parse.Severity, bool) {
	tt := trimTok(tok)
	if tt == "" {
		return "", false
	}
	sev, ok := parse.SeverityWord(tt)
	if !ok {
		return "", false
	}
	if parse.IsPLevel(tt) {
		return sev, tt[0] == 'P'
	}
	// A severity word: only when marked.
	marked := tt == strings.ToUpper(tt) || strings.ContainsAny(tok, "[(*_") || strings.HasSuffix(tok, ":")
	return sev, marked
}

// itemClaim reads the claim of a heading or list item text. bare accepts a
// text without any marker or count (an item under a group heading).
func itemClaim(text string, bare bool) (Claim, bool) {
	var c Claim
	t := strings.TrimSpace(text)
	var title string
	if bold, after, ok := leadBold(t); ok {
		if id, sev, rest, ok := leadMarker(bold); ok {
			c.ID, c.Severity, title = id, sev, rest
			if title == "" {
				title = after
			}
		} else if isLabel(bold) {
			// "**3.** P1: Title", "**SAF-01** Title (3/4 agents)"
			c.ID = trimTok(bold)
			if id, sev, rest, ok := leadMarker(after); ok {
				c.Severity, title = sev, rest
				if id != "" {
					c.ID = id
				}
			} else {
				title = after
			}
		} else {
			title = bold
		}
	} else if id, sev, rest, ok := leadMarker(t); ok {
		c.ID, c.Severity, title = id, sev, rest
		if b, _, ok := leadBold(title); ok {
			title = b
		}
	} else {
		title = t
	}
	if c.Severity == "" {
		if m := trailingMarkerRe.FindStringSubmatch(strings.ReplaceAll(title, "**", "")); m != nil {
			c.Severity, _ = parse.SeverityWord(m[1])
		} else if m := inlineMarkerRe.FindStringSubmatch(t); m != nil {
			c.Severity = parse.Severity(m[1])
		}
	}
	c.Count, c.Of = counts(t)
	c.Agents = namedAgents(t)
	if c.Agents == nil {
		if m := parenAgentsRe.FindStringSubmatch(t); m != nil {
			if names := agentList(m[1]); len(names) > 0 && strings.Contains(m[1], "-") {
				c.Agents = names
			}
		}
	}
	c.FileRefs = fileRefs(t)
	c.Title = cleanTitle(convPrefixRe.ReplaceAllString(title, ""))
	if !hasKeyword(c.Title) {
		return c, false
	}
	if c.Severity == "" && c.Count == 0 && !bare {
		return c, false
	}
	return c, true
}

// hasKeyword reports whether a title holds a word to match on: "+ P1-C"
// or "2." is no claim.
func hasKeyword(title string) bool {
	return len(parse.Keywords(parse.Normalize(title))) > 0
}

// isLabel reports whether a bold lead-in is only a number or ID ("3.").
func isLabel(s string) bool {
	s = trimTok(strings.TrimSpace(s))
	return isNumber(s) || parse.IsFindingID(s)
}

// isNumber reports whether s is one or more ASCII digits.
func isNumber(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// leadBold returns the text of a bold span at the start of t and what
// follows it.
func leadBold(t string) (string, string, bool) {
	for _, d := range []string{"**", "__"} {
		if strings.HasPrefix(t, d) {
			if j := strings.Index(t[2:], d); j >= 0 {
				return strings.TrimSpace(t[2 : 2+j]), strings.TrimSpace(t[2+j+2:]), true
			}
		}
	}
	return "", "", false
}

// titleCutRe finds where a title ends: a dash separator or a parenthesis
// that attributes or counts.
var titleCutRe = regexp.MustCompile(` [—–] | - |\s\((?:\d|[Pp][0-3]\b|[^)]*\bagents?\b)|\s\[[Pp][0-3]\]`)

// cleanTitle reduces a claim text to its title.
func cleanTitle(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = numberRe.ReplaceAllString(strings.TrimSpace(s), "")
	if m := parenAgentsRe.FindStringIndex(s); m != nil && m[0] > 0 && agentList(s[m[0]+1:m[1]-1]) != nil && strings.Contains(s[m[0]:m[1]], "-") {
		s = s[:m[0]] + s[m[1]:]
	}
	if m := titleCutRe.FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]]
	}
	s = trailingMarkerRe.ReplaceAllString(s, "")
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "\"'`“”*_:;,."))
	if r := []rune(s); len(r) > maxTitle {
		s = string(r[:maxTitle])
	}
	return s
}

var (
	fractionRe   = regexp.MustCompile(`(?i)\b(\d{1,3})\s*/\s*(\d{1,3})\s+(?:agents?|reviewers?)\b`)
	convPrefixRe = regexp.MustCompile(`(?i)^\s*convergence:?\s*\d{1,3}\s*/\s*\d{1,3}\s*[:—–-]?\s*`)
	convRe       = regexp.MustCompile(`(?i)\bconvergence:?\s*(\d{1,3})\s*/\s*(\d{1,3})\b`)
	parenNRe     = regexp.MustCompile(`(?i)\((\d{1,3}|all \d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s+agents?\b`)
	byNRe        = regexp.MustCompile(`(?i)\b(?:confirmed|flagged|found|raised|reported|identified|noted|cited)\s+by\s+(\d{1,3}|all \d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:agents?|reviewers?)\b`)
	ofRe         = regexp.MustCompile(`(?i)\b(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+of\s+(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:agents?|reviewers?)\b`)
	numberWords  = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
)

func number(s string) int {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.ToLower(s), "all ")))
	if n, ok := numberWords[s]; ok {
		return n
	}
	n, _ := strconv.Atoi(s)
	return n
}

// counts reads a claimed convergence: "3/5 agents", "Convergence 3/5",
// "(2 agents)", "confirmed by 3 agents", "2 of 4 agents".
func counts(t string) (n, of int) {
	for _, re := range []*regexp.Regexp{fractionRe, convRe, ofRe} {
		if m := re.FindStringSubmatch(t); m != nil {
			return number(m[1]), number(m[2])
		}
	}
	for _, re := range []*regexp.Regexp{parenNRe, byNRe} {
		if m := re.FindStringSubmatch(t); m != nil {
			return number(m[1]), 0
		}
	}
	return 0, 0
}

// parenAgentsRe finds a parenthesised list that may name agents:
// "(fd-user-experience, concurrency-reviewer)".
var parenAgentsRe = regexp.MustCompile(`\(([a-z][a-z0-9_, -]*)\)`)

// agentsRe finds a list of agent names: "(2/3 agents: a, b)", "flagged by
// fd-a, fd-b", "Agents: a, b".
var agentsRe = regexp.MustCompile(`(?i)(?:\bagents?\s*:|\b(?:flagged|found|raised|reported|identified)\s+by\s*:?)\s*([^()\n;]+)`)

// namedAgents returns the agent names a text attributes a claim to.
func namedAgents(t string) []string {
	m := agentsRe.FindStringSubmatch(strings.ReplaceAll(t, "**", ""))
	if m == nil {
		return nil
	}
	return agentList(m[1])
}

// agentList splits "a, b and c" into names that look like agent names
// (lower-case words joined by '-' or '_'); a list holding anything else
// ("three agents independently") is no list.
func agentList(s string) []string {
	s = strings.NewReplacer(" and ", ",", " & ", ",", "`", "").Replace(s)
	var names []string
	for p := range strings.SplitSeq(s, ",") {
		p = strings.Trim(strings.TrimSpace(p), ".:*_")
		if p == "" {
			continue
		}
		if !agentNameRe.MatchString(p) {
			return nil
		}
		names = append(names, p)
	}
	return names
}

var agentNameRe = regexp.MustCompile(`^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$`)

// refRe finds path:line or path:line-line references in a claim.
var refRe = regexp.MustCompile("(?:^|[\\s`(])((?:[A-Za-z0-9_.~@+-]+/)*[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*\\.[A-Za-z][A-Za-z0-9]{0,9}):(\\d{1,7})(?:-(\\d{1,7}))?")

func fileRefs(t string) []string {
	var refs []string
	for _, m := range refRe.FindAllStringSubmatch(t, 8) {
		r := m[1] + ":" + m[2]
		if m[3] != "" {
			r += "-" + m[3]
		}
		refs = append(refs, r)
	}
	return refs
}
