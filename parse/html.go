package parse

import (
	"slices"
	"strings"
)

// HTML tables (SPEC §2.3 rule 4): a report that writes its table as
// <table> (a tool's HTML export, a review pasted from a page) has its rows
// read as the pipe rows they stand for. Each <tr> on one line becomes
// "| a | b |"; a row of <th> cells is the header and gets the delimiter row
// after it; the lines of the table's other tags are dropped, so that the
// rows stand together as one table. The lines keep their numbers.

// htmlTables returns lines with each HTML table's rows written as pipe
// rows, or lines itself when src holds no <table. A row written over
// several lines (<tr>, a <td> a line, </tr>) is read as one, at its <tr>'s
// line.
func htmlTables(src string, lines []line) []line {
	if !strings.Contains(src, "<table") && !strings.Contains(src, "<TABLE") {
		return lines
	}
	out := make([]line, 0, len(lines)+4)
	in := false
	var row strings.Builder // the text of a row still open, from its <tr> line
	var rowAt line
	open, rowLines := false, 0
	emit := func(l line, text string) {
		cells, head := htmlRow(text)
		if cells == nil {
			return
		}
		r := l
		r.text = "| " + strings.Join(cells, " | ") + " |"
		out = append(out, r)
		if head {
			d := l
			d.text = "|" + strings.Repeat("---|", len(cells))
			out = append(out, d)
		}
	}
	flush := func() {
		if open {
			emit(rowAt, row.String())
			row.Reset()
			open, rowLines = false, 0
		}
	}
	for _, l := range lines {
		t := strings.ToLower(strings.TrimSpace(l.text))
		if l.masked || !in && !strings.HasPrefix(t, "<table") {
			out = append(out, l)
			continue
		}
		in = true
		if strings.HasPrefix(t, "</table") {
			flush()
			in = false
			continue
		}
		if strings.Contains(t, "<tr") {
			flush() // a <tr> closes the row before it (</tr> may be left out)
			if !strings.Contains(t, "</tr") && !strings.Contains(t, "</table") {
				open, rowAt = true, l
				row.WriteString(l.text)
				continue
			}
			if cells, _ := htmlRow(l.text); cells != nil {
				emit(l, l.text)
				continue
			}
		} else if open && t != "" && l.level == 0 && rowLines < maxRowLines {
			row.WriteByte(' ')
			row.WriteString(l.text)
			rowLines++
			if strings.Contains(t, "</tr") {
				flush()
			}
			continue
		} else {
			// A blank line, a heading or a row too long ends a row left
			// open: the text after an unclosed <tr> stays text, never
			// swallowed into a cell (its findings read as before).
			flush()
		}
		if t == "" || strings.TrimSpace(stripTags(l.text)) != "" {
			out = append(out, l) // text between the rows
		}
		// <thead>, <tbody> and the like are dropped
	}
	flush()
	return out
}

// maxRowLines bounds the lines of one HTML row written over several.
const maxRowLines = 64

// htmlRow reads the cells of a <tr> written on one line, and whether they
// are header cells (<th>). It returns nil when the line holds no cell.
func htmlRow(s string) (cells []string, head bool) {
	low := strings.ToLower(s)
	for {
		i := strings.Index(low, "<t")
		if i < 0 || i+3 >= len(low) {
			return cells, head
		}
		c := low[i+2]
		if c != 'd' && c != 'h' || low[i+3] != '>' && low[i+3] != ' ' {
			low, s = low[i+2:], s[i+2:]
			continue
		}
		open := strings.IndexByte(low[i:], '>')
		if open < 0 {
			return cells, head
		}
		body := i + open + 1
		end := strings.Index(low[body:], "</t")
		if end < 0 {
			end = len(low) - body
		}
		cells = append(cells, strings.ReplaceAll(strings.TrimSpace(stripTags(s[body:body+end])), "|", "/"))
		head = head || c == 'h'
		low, s = low[body+end:], s[body+end:]
	}
}

// stripTags drops the tags from s ("<b>High</b>" is "High").
func stripTags(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// htmlItems returns lines with each HTML list item written on one line
// ("<li><strong>[High]</strong> Title</li>", a review rendered as HTML),
// or on the line after a <li> that stands alone, as the Markdown bullet it
// stands for, its bold and code kept; lines itself when src holds no <li.
func htmlItems(src string, lines []line) []line {
	if !strings.Contains(src, "<li") && !strings.Contains(src, "<LI") {
		return lines
	}
	var out []line // a copy, made at the first item
	open := false  // an item's <li> stood alone on the line before
	for i, l := range lines {
		t := strings.TrimSpace(l.text)
		if open && t != "" && !l.masked && !strings.HasPrefix(t, "</") && !listTag(t) {
			// "<li>" over "  <strong>Critical:</strong> Title": the item's
			// text is on the line after its tag.
			open = false
			if out == nil {
				out = slices.Clone(lines)
			}
			out[i].text = "- " + strings.TrimSpace(stripTags(htmlInline.Replace(t)))
			continue
		}
		if t != "" {
			open = false
		}
		if l.masked || len(t) < 4 || t[0] != '<' || !strings.EqualFold(t[:3], "<li") || t[3] != '>' && t[3] != ' ' {
			continue
		}
		if t[len(t)-1] == '>' && strings.IndexByte(t, '>') == len(t)-1 {
			open = true // "<li>" alone
			continue
		}
		body := t[strings.IndexByte(t, '>')+1:]
		if n := len(body) - len("</li>"); n >= 0 && strings.EqualFold(body[n:], "</li>") {
			body = body[:n]
		}
		text := strings.TrimSpace(stripTags(htmlInline.Replace(body)))
		if text == "" {
			continue
		}
		if out == nil {
			out = slices.Clone(lines)
		}
		out[i].text = "- " + text
	}
	if out == nil {
		return lines
	}
	return out
}

// listTag reports whether t opens with a list's tag (<li, <ul, <ol).
func listTag(t string) bool {
	return len(t) >= 3 && t[0] == '<' && (strings.EqualFold(t[1:3], "li") || strings.EqualFold(t[1:3], "ul") || strings.EqualFold(t[1:3], "ol"))
}

// htmlInline writes the inline tags a finding's label uses as Markdown.
var htmlInline = strings.NewReplacer("<strong>", "**", "</strong>", "**", "<b>", "**", "</b>", "**",
	"<STRONG>", "**", "</STRONG>", "**", "<B>", "**", "</B>", "**", "<code>", "`", "</code>", "`", "<CODE>", "`", "</CODE>", "`")

// boxTables returns lines with each table drawn with box characters ("│ a
// │ b │" rows between "├───┼───┤" rules, as scanners print them) or with
// ASCII grid rules ("+----+----+") as the pipe rows it stands for: the rule
// under the table's first row is its delimiter row, the other rules are
// dropped; lines itself when src holds no such table. The lines keep
// their numbers.
func boxTables(src string, lines []line) []line {
	if !strings.Contains(src, "│") && !strings.Contains(src, "\n+-") && !strings.HasPrefix(src, "+-") {
		return lines
	}
	var out []line
	changed := false
	row, delim := false, false // a row was read since the table's top; its delimiter row was written
	grid := false              // an ASCII rule opened the table
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if l.masked || t == "" {
			row, delim, grid = false, false, false
			out = append(out, l)
			continue
		}
		switch {
		case strings.HasPrefix(t, "│") || strings.HasPrefix(t, "┃") || strings.HasPrefix(t, "║"):
			l.text = boxBars.Replace(t)
			out = append(out, l)
			changed, row = true, true
		case boxRule(t):
			changed = true
			grid = grid || t[0] == '+'
			if row && !delim {
				d := l
				d.text = "|" + strings.Repeat("---|", boxColumns(t))
				out = append(out, d)
				delim = true
			}
		case grid && strings.HasPrefix(t, "|"):
			out = append(out, l) // "| a | b |" between ASCII rules
			row = true
		default:
			row, delim, grid = false, false, false
			out = append(out, l)
		}
	}
	if !changed {
		return lines
	}
	return out
}

// boxBars writes a box table's vertical bars as pipes.
var boxBars = strings.NewReplacer("│", "|", "┃", "|", "║", "|")

// boxRule reports whether t is a rule of a drawn table: box characters
// only ("├────┼────┤"), or an ASCII grid rule ("+----+====+").
func boxRule(t string) bool {
	ascii := t[0] == '+'
	n := 0
	for _, r := range t {
		switch {
		case ascii && (r == '+' || r == '-' || r == '=' || r == ':'):
		case !ascii && r >= 0x2500 && r <= 0x257F: // the Box Drawing block
		default:
			return false
		}
		n++
	}
	return n >= 3 && (!ascii || strings.Count(t, "+") >= 2)
}

// boxColumns is the number of columns a table rule spans.
func boxColumns(t string) int {
	if t[0] == '+' {
		return max(1, strings.Count(t, "+")-1)
	}
	return 1 + strings.Count(t, "┼") + strings.Count(t, "╪") + strings.Count(t, "╬") + strings.Count(t, "┿") + strings.Count(t, "╋")
}

// xmlFindings returns lines with each finding written as an XML element
// rated by an attribute (`<finding severity="critical">` over
// `<title>Title</title>`, or `<issue severity="high">Title</issue>` on one
// line, as some agents answer) as the bullet "- [critical] Title" it
// stands for, at the element's line; the title's own line is then dropped
// from the text. lines itself when src holds no such element.
func xmlFindings(src string, lines []line) []line {
	if !strings.Contains(src, "severity=") && !strings.Contains(src, "priority=") && !strings.Contains(src, "risk=") {
		return lines
	}
	var out []line // a copy, made at the first element
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l.text)
		if l.masked || len(t) < 10 || t[0] != '<' {
			continue
		}
		name, sev, rest, ok := xmlRated(t)
		if !ok {
			continue
		}
		title, at := "", -1
		if j := strings.Index(rest, "</"); j >= 0 {
			title = rest[:j] // "<issue severity="high">Title</issue>"
		} else if strings.TrimSpace(rest) != "" {
			title = rest
		}
		title = strings.TrimSpace(stripTags(title))
		if a := xmlAttr(t, "title"); title == "" && a != "" {
			title = a
		}
		for j := i + 1; title == "" && j < len(lines) && j <= i+8; j++ {
			u := strings.TrimSpace(lines[j].text)
			if strings.HasPrefix(u, "</"+name) {
				break
			}
			for _, f := range [...]string{"title", "summary", "name"} {
				if strings.HasPrefix(u, "<"+f+">") {
					title, at = strings.TrimSpace(stripTags(u)), j
					break
				}
			}
		}
		if title == "" {
			continue
		}
		if out == nil {
			out = slices.Clone(lines)
		}
		out[i].text = "- [" + sev + "] " + title
		if at >= 0 {
			out[at].text = ""
		}
	}
	if out == nil {
		return lines
	}
	return out
}

// xmlRated reads an element that opens t and names a finding (finding,
// issue, vulnerability, bug, problem), rated by a severity, priority or
// risk attribute whose value is a severity: its name, the value and the
// text after its opening tag.
func xmlRated(t string) (name, sev, rest string, ok bool) {
	end := strings.IndexAny(t, " \t>")
	if end < 2 {
		return "", "", "", false
	}
	name = strings.ToLower(t[1:end])
	switch name {
	case "finding", "issue", "vulnerability", "bug", "problem":
	default:
		return "", "", "", false
	}
	close := strings.IndexByte(t, '>')
	if close < 0 {
		return "", "", "", false
	}
	tag := t[:close]
	for _, a := range [...]string{"severity", "priority", "risk"} {
		if v := xmlAttr(tag, a); v != "" {
			if _, c, okv := severityValue(v, true); okv && c == sevFinding {
				return name, v, t[close+1:], true
			}
		}
	}
	return "", "", "", false
}

// xmlAttr returns the value of the attribute name="…" (or '…') in tag, or
// "".
func xmlAttr(tag, name string) string {
	for i := 0; ; {
		j := strings.Index(tag[i:], name+"=")
		if j < 0 {
			return ""
		}
		j += i
		if j > 0 && tag[j-1] != ' ' && tag[j-1] != '\t' {
			i = j + len(name)
			continue
		}
		v := tag[j+len(name)+1:]
		if v == "" || v[0] != '"' && v[0] != '\'' {
			return ""
		}
		if k := strings.IndexByte(v[1:], v[0]); k >= 0 {
			return v[1 : 1+k]
		}
		return ""
	}
}
