package parse

import (
	"regexp"
	"slices"
	"strings"
)

// indexHeadingRe matches the text of a Findings Index heading (SPEC §2.2):
// any case, singular or plural, an optional qualifier before it ("Final") and
// an optional suffix after it ("(Machine-Parseable)").
var indexHeadingRe = regexp.MustCompile(`(?i)^(?:\d+[.)]\s*)?(?:(?:final|updated|revised|consolidated|full)\s+)?findings?\s+index\b`)

// isIndexHeading reports whether l opens an index: a heading (# to ####) or a
// line that is only bold text, naming the Findings Index.
func isIndexHeading(l line) bool {
	if l.masked {
		return false
	}
	if l.level > 0 {
		return l.level <= 4 && indexHeadingRe.MatchString(l.head)
	}
	t := strings.TrimSpace(l.text)
	if strings.HasPrefix(t, "**") && strings.HasSuffix(strings.TrimSuffix(t, ":"), "**") {
		return indexHeadingRe.MatchString(cleanHeading(t))
	}
	return false
}

// item is one finding or improvement read from an index.
type item struct {
	class   sevClass
	sev     Severity
	id      string
	section string
	title   string
	refs    []string
	line    int
	strict  bool   // the line is exactly `- Pn | ID | "Section" | Title`
	noSev   bool   // a list item without a severity of its own (a group may give one)
	rawSev  string // the severity as written, when it is not one
}

// noted is an item as read from its line, with its deviations from the
// strict grammar: they become diagnostics when the index takes the item, and
// only the item is kept (a large index holds one per line).
type noted struct {
	item
	notes []string
}

// index is an index block as read.
type index struct {
	kind      string // "heading", "front-matter", "headless", "fenced"
	start     int    // slice index of the heading (or first item)
	end       int    // slice index just past the block
	items     []item
	verdict   string // verdict value as written, "" when none
	vLine     int
	vPlain    bool
	errorStub bool
	diags     diagList
	deviant   bool // any deviation from the strict grammar
	blankAt   int  // a line that follows a blank line in the block, reported if an item comes
}

func (ix *index) usable() bool {
	return len(ix.items) > 0 || ix.verdict != "" || ix.errorStub
}

// pending is an index entry whose severity the index does not give: it
// becomes a finding only if the report's prose for its ID gives one.
func (it item) pending() bool { return it.class == sevNone }

func (ix *index) deviation(line int, level Level, format string, a ...any) {
	ix.deviant = true
	ix.diags.add(line, level, format, a...)
}

// readIndex reads the index block whose heading is lines[h].
func readIndex(st *stop, lines []line, h int, allowMasked bool) *index {
	level := int(lines[h].level)
	if allowMasked {
		level, _ = heading(lines[h].text)
	}
	if level == 0 {
		level = 7 // a bold pseudo-heading: any heading ends it
	}
	ix := readIndexFrom(st, lines, h+1, level, allowMasked)
	ix.kind, ix.start = "heading", h
	return ix
}

// readIndexFrom reads index lines from lines[first] on; a heading of level
// or above ends the block.
func readIndexFrom(st *stop, lines []line, first, level int, allowMasked bool) *index {
	ix := &index{start: first}
	h := first - 1
	var group *groupCtx
	var table *tableCols
	detail := false // index given as per-finding detail sub-sections
	blank := false
	i := first
loop:
	for ; i < len(lines); i++ {
		st.tick()
		if n := len(ix.items); n >= 4096 && n == cap(ix.items) {
			// A large index: room for the lines up to the next heading, up
			// to four times what it holds, rather than growing (and copying)
			// the list by a quarter at a time; what is never filled stays
			// within four times what was read.
			ix.items = slices.Grow(ix.items, min(linesToHeading(lines, i), 4*n))
		}
		l := lines[i]
		if l.masked && !(allowMasked && l.fenced) {
			if l.fenced && !allowMasked {
				break // a code block ends the index
			}
			continue
		}
		text := l.text
		if allowMasked && l.fenced && fenceOpen(text) != "" {
			continue
		}
		t := strings.TrimSpace(text)
		if t == "" {
			blank = true
			table = nil
			continue
		}
		if lvl, head := heading(text); lvl > 0 {
			if v, _, ok := verdictLine(text); ok {
				ix.setVerdict(v, l.num, false)
				i++
				break loop
			}
			if lvl <= level && !detail {
				break
			}
			if detail && lvl <= level {
				break
			}
			// A sub-heading: a severity group whose lines are still finding
			// lines, or a per-finding detail section.
			if sev, ok := groupHeading(head, true); ok && nextIsItem(lines, i+1) {
				group = &groupCtx{sev: sev}
				ix.deviation(l.num, LevelInfo, "index grouped under sub-heading %q", head)
				continue
			}
			if nextIsItem(lines, i+1) && !detail {
				group = nil
				ix.deviation(l.num, LevelInfo, "index runs on under sub-heading %q", head)
				continue
			}
			if it, ok := detailSection(lines, i); ok && (detail || len(ix.items) == 0) {
				detail = true
				ix.add(noted{item: it})
				ix.deviation(l.num, LevelWarning, "index entry written as a detail section, not an index line")
				continue
			}
			break
		}
		if detail {
			continue // the body of a detail section
		}
		if v, plain, ok := verdictLine(text); ok {
			ix.setVerdict(v, l.num, plain)
			i++
			break
		}
		if isRule(text) {
			break
		}
		if strings.HasPrefix(t, "|") {
			if table == nil {
				cols, ok := tableHeader(lines, i)
				if !ok {
					if len(ix.items) > 0 {
						break
					}
					continue
				}
				table = &cols
				ix.deviation(l.num, LevelWarning, "index written as a Markdown table")
				i++ // the delimiter row
				continue
			}
			if it, ok := table.row(t, l.num); ok {
				ix.add(it)
			}
			continue
		}
		if blank && len(ix.items) > 0 {
			ix.blankAt = l.num
		}
		blank = false
		if sev, ok := groupLine(t); ok {
			group = &groupCtx{sev: sev}
			ix.deviation(l.num, LevelWarning, "index grouped by severity line %q", t)
			continue
		}
		if it, ok := pipeItem(text, l.num); ok {
			ix.add(it)
			continue
		}
		if it, ok := listEntry(text, l.num); ok {
			if it.noSev && group != nil {
				it.sev, it.class = group.sev, sevFinding
				it.notes = append(it.notes, "severity "+string(group.sev)+" from its group")
			}
			ix.add(it)
			continue
		}
		if isErrorStubLine(t) {
			continue
		}
		if k, indent, _ := listItem(text); k != 0 && indent >= 2 {
			continue // a nested detail bullet under an entry
		}
		if len(ix.items) == 0 && ix.verdict == "" {
			// Prose right under the heading: no list yet, keep looking a little.
			if i-h > 6 {
				break
			}
			continue
		}
		break
	}
	ix.end = i
	return ix
}

type groupCtx struct{ sev Severity }

func (ix *index) setVerdict(v string, line int, plain bool) {
	ix.verdict, ix.vLine, ix.vPlain = v, line, plain
	if strings.EqualFold(v, "error") {
		ix.errorStub = true
	}
}

func (ix *index) add(it noted) {
	if ix.blankAt > 0 {
		ix.diags.add(ix.blankAt, LevelInfo, "blank line inside the index")
		ix.blankAt = 0
	}
	for _, n := range it.notes {
		ix.deviant = true
		ix.diags.addNote(it.line, LevelWarning, n)
	}
	ix.items = append(ix.items, it.item)
}

// linesToHeading counts the lines from lines[i] to the next heading.
func linesToHeading(lines []line, i int) int {
	n := 0
	for ; i < len(lines) && lines[i].level == 0; i++ {
		n++
	}
	return n
}

// nextIsItem reports whether the next non-blank line after i is an index line.
func nextIsItem(lines []line, i int) bool {
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i].text)
		if t == "" {
			continue
		}
		if lines[i].masked {
			return false
		}
		if _, ok := pipeItem(lines[i].text, 0); ok {
			return true
		}
		it, ok := listEntry(lines[i].text, 0)
		return ok && !it.noSev
	}
	return false
}

var errorStubRe = regexp.MustCompile(`(?i)^agent failed to produce findings`)

func isErrorStubLine(t string) bool { return errorStubRe.MatchString(t) }

// splitPipes splits a pipe-separated line into fields (not trimmed). A '|'
// inside backticks or escaped as \| does not split. The fields are parts of
// s, copied only when they hold an escape.
func splitPipes(s string) []string {
	if strings.Count(s, "`")%2 == 1 {
		// An unbalanced backtick: split naively instead.
		return strings.Split(s, "|")
	}
	fields := make([]string, 0, strings.Count(s, "|")+1)
	start, tick, esc := 0, false, false
	field := func(f string) string {
		if esc {
			return strings.ReplaceAll(f, `\|`, "|")
		}
		return f
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			tick = !tick
		case c == '\\' && i+1 < len(s) && s[i+1] == '|':
			esc = true
			i++
		case c == '|' && !tick:
			fields = append(fields, field(s[start:i]))
			start, esc = i+1, false
		}
	}
	return append(fields, field(s[start:]))
}

var smartQuotes = strings.NewReplacer("“", `"`, "”", `"`)

// unquote removes one pair of quotes around s and reports whether it had them.
func unquote(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.IndexByte(s, 0xe2) >= 0 { // the first byte of “ and ”
		s = smartQuotes.Replace(s) // which copies s even when it has none
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1], true
	}
	return s, false
}

// idToken reports whether s can stand in an index's ID column: one short
// token, no spaces.
func idToken(s string) bool {
	s = strings.Trim(s, "*`[]")
	return s != "" && len(s) <= 32 && !strings.ContainsAny(s, " \t\"") && (IsFindingID(s) || isDigits(s) ||
		(len(s) <= 12 && strings.ContainsAny(s, "0123456789") && s[0] >= 'A' && s[0] <= 'Z'))
}

// oneToken reports whether s is one short token: no white space, no quote.
func oneToken(s string) bool {
	s = strings.Trim(s, "`[]")
	return s != "" && len(s) <= 32 && !strings.ContainsAny(s, " \t\"“”")
}

// quotedField reports whether s is a quoted field ("Section").
func quotedField(s string) bool {
	_, quoted := unquote(s)
	return quoted
}

// optionSlot reports whether s opens with a template's slot that lists
// the levels to choose from in brackets ("[CRITICAL|HIGH|MEDIUM|LOW]
// <short title> — <file>:<line>"): its pipes choose, they do not separate
// an index line's columns.
func optionSlot(s string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "[")
	if !ok {
		return false
	}
	inner, _, ok := strings.Cut(rest, "]")
	return ok && strings.Contains(inner, "|") && optionList(inner)
}

// pipeItem reads a pipe-form index line: `- SEV | ID | "Section" | Title [| extra…]`
// and its tolerated variants (padding, unquoted section, bold fields, swapped
// ID and severity, no bullet with a severity-prefixed bold ID, three fields).
func pipeItem(text string, num int) (noted, bool) {
	raw := strings.TrimSpace(text)
	if strings.HasPrefix(raw, "|") || strings.Count(raw, "|") < 2 {
		return noted{}, false
	}
	var notes []string
	bullet := false
	body := raw
	if k, indent, rest := listItem(raw); k != 0 {
		bullet = k == '-' && indent == 0 && strings.HasPrefix(raw, "- ")
		body = rest
		if k == '1' {
			notes = append(notes, "numbered index line")
		} else if !bullet {
			notes = append(notes, "index line bullet is not '- '")
		}
	} else {
		notes = append(notes, "index line has no '- ' bullet")
	}
	if optionSlot(body) {
		return noted{}, false
	}
	rawFields := splitPipes(body)
	fields := make([]string, len(rawFields))
	bold, padded := false, false
	for i, f := range rawFields {
		if strings.Contains(f, "**") {
			bold = true
		}
		tf := strings.TrimSpace(f)
		if (i > 0 && !strings.HasPrefix(f, " "+tf)) || (i < len(rawFields)-1 && !strings.HasSuffix(f, tf+" ")) ||
			strings.HasPrefix(f, "  ") || (i < len(rawFields)-1 && strings.HasSuffix(f, "  ")) {
			padded = true
		}
		fields[i] = strings.TrimSpace(stripBold(tf))
	}
	if len(fields) < 3 {
		return noted{}, false
	}
	it := noted{item: item{line: num}}
	sevRaw := fields[0]
	sev, class := severityToken(fields[0], true)
	var rest []string
	switch {
	case class != sevNone && (fields[1] == "-" || fields[1] == "—"):
		rest = fields[2:] // an ID column that says "no ID"
	case class != sevNone && idToken(fields[1]):
		it.id, rest = strings.Trim(fields[1], "`[]"), fields[2:]
	case class != sevNone && len(fields) >= 4 && oneToken(fields[1]) && quotedField(fields[2]):
		// An ID off every pattern (sec-001, X) still fills the ID column
		// when a quoted section follows it: SPEC §2.5 makes such an ID a
		// diagnostic only, and reading it as the section lost the title.
		it.id, rest = strings.Trim(fields[1], "`[]"), fields[2:]
	case class != sevNone:
		rest = fields[1:]
		notes = append(notes, "index line has no ID column")
	default:
		if s2, c2 := severityToken(fields[1], true); c2 != sevNone && idToken(fields[0]) {
			sev, class, sevRaw = s2, c2, fields[1]
			it.id, rest = strings.Trim(fields[0], "`[]"), fields[2:]
			notes = append(notes, "index line has its ID and severity columns swapped")
		} else if s3, ok := severityPrefix(strings.Trim(fields[0], "`[]")); ok && idToken(fields[0]) {
			sev, class, sevRaw = s3, sevFinding, ""
			it.id, rest = strings.Trim(fields[0], "`[]"), fields[1:]
			notes = append(notes, "index line has no severity column: severity taken from the ID")
		} else {
			return noted{}, false
		}
	}
	it.class, it.sev = class, sev
	quoted := false
	switch len(rest) {
	case 0:
		return noted{}, false
	case 1:
		it.section, it.title, quoted = splitSectionTitle(rest[0])
		if it.section == "" {
			notes = append(notes, "index line has no section field")
		} else {
			notes = append(notes, "index line separates its title with ' — ' instead of ' | '")
		}
	default:
		it.section, quoted = unquote(rest[0])
		it.title = strings.TrimSpace(rest[1])
		// rest[2:] are extra fields: allowed by the grammar.
		if len(rest) == 2 && !quoted && isLocation(it.title) && !isLocation(it.section) {
			// "- HIGH | Webhook secret compared with == | hooks/verify.go:22":
			// a title, then where the defect is.
			it.section, it.title = "", it.section
			notes = append(notes, "index line gives a location where the title belongs")
		}
	}
	if strings.HasPrefix(it.section, "#") {
		it.section = strings.TrimSpace(strings.TrimLeft(it.section, "#"))
		notes = append(notes, "section holds a Markdown heading")
	}
	if it.title == "" {
		return noted{}, false
	}
	if !quoted && it.section != "" && len(rest) > 1 {
		notes = append(notes, "section is not quoted")
	}
	if bold {
		notes = append(notes, "index line uses bold")
	}
	if padded {
		notes = append(notes, "index line columns are padded")
	}
	switch {
	case class == sevImprovement:
		notes = append(notes, "IMP row read as an improvement")
	case sevRaw != "" && sevRaw != string(sev):
		notes = append(notes, "severity "+quoteWord(sevRaw)+" read as "+string(sev))
	}
	// References anywhere in the line count (SPEC §2.4), extra fields too.
	it.refs = fileRefs(strings.Join(rest, " "))
	it.strict = len(notes) == 0 && class == sevFinding && quoted
	if class == sevImprovement {
		// An IMP row is a variant of the grammar, not a failure of it.
		it.strict = false
	}
	it.notes = notes
	return it, true
}

func quoteWord(s string) string { return `"` + s + `"` }

// splitSectionTitle splits `"Section" — Title` (or `Section — Title`).
func splitSectionTitle(s string) (section, title string, quoted bool) {
	s = strings.TrimSpace(s)
	for _, sep := range []string{" — ", " – ", " -- "} {
		if i := strings.Index(s, sep); i > 0 {
			sec, q := unquote(s[:i])
			return sec, strings.TrimSpace(s[i+len(sep):]), q
		}
	}
	return "", s, false
}

// groupLine reads a severity group line inside an index: a line that is only
// bold text naming a severity ("**Critical (Must Fix):**", "**High:**").
func groupLine(t string) (Severity, bool) {
	if !strings.HasPrefix(t, "**") {
		return "", false
	}
	if !strings.HasSuffix(strings.TrimSpace(t), "**") && !strings.HasSuffix(strings.TrimSpace(t), "**:") {
		return "", false // before stripBold copies the line (groupLineCopying)
	}
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stripBold(t)), ":"))
	return groupHeading(inner, true)
}

// listEntry reads a list-form index line: `- [P0] Title — Section`,
// `- [P0] path:12-14 — text`, `- P0 — Title`, `- P0: Title`,
// `1. **[CRITICAL] F1: Title** — …`, `1. **P1: Title.** …`. A list item with
// no severity of its own is returned with noSev set.
func listEntry(text string, num int) (noted, bool) {
	k, indent, body := listItem(text)
	if k == 0 || indent >= 2 || body == "" {
		return noted{}, false
	}
	p, ok := proseItem(body, true)
	if !ok {
		return noted{}, false
	}
	it := noted{item: item{class: p.class, sev: p.sev, id: p.id, section: p.section, title: p.title, line: num,
		noSev: p.class == sevNone}}
	it.refs = fileRefs(body)
	if refs := fileRefs(it.title); len(refs) == 1 && refs[0] == strings.TrimSpace(strings.Trim(it.title, "`")) && it.section != "" {
		// `- [P0] path:12-14 — text`: the text is the title, the path a ref.
		it.title, it.section = it.section, ""
	}
	it.notes = append(it.notes, "index line is a list item, not a pipe line")
	if sev, ok := severityPrefix(p.id); ok && it.noSev {
		it.class, it.sev, it.noSev = sevFinding, sev, false
		it.notes = append(it.notes, "severity taken from the ID "+p.id)
	}
	return it, true
}
