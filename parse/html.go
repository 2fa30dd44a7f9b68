package parse

import (
	"regexp"
	"strings"
)

var (
	htmlCellRe = regexp.MustCompile(`(?is)<t([hd])\b[^>]*>(.*?)</t[hd]\s*>`)
	htmlTagRe  = regexp.MustCompile(`(?s)<[^>]*>`)
)

// htmlTableLines returns lines with each HTML <table> written as the
// Markdown table it stands for, and whether there was one: a report
// exported as HTML (`<tr><th>Severity</th>…`) holds its findings in the
// same columns a Markdown table would (SPEC §2.3, tables anywhere). A
// row's cells are joined onto its first line, its other lines left empty;
// the header goes on the line before its row (`<table>`, `<thead>`) and
// the delimiter on the row's own, so every data row keeps its line.
func htmlTableLines(lines []line) ([]line, bool) {
	var out []line
	for i := 0; i < len(lines); i++ {
		if lines[i].masked || strings.IndexByte(lines[i].text, '<') < 0 || !strings.Contains(strings.ToLower(lines[i].text), "<table") {
			continue
		}
		end := i
		for end < len(lines) && end-i < 20000 && !strings.Contains(strings.ToLower(lines[end].text), "</table") {
			end++
		}
		if end == len(lines) {
			return out, out != nil
		}
		if t := htmlTable(lines, i, end); t != nil {
			if out == nil {
				out = append([]line(nil), lines...)
			}
			copy(out[i:end+1], t)
		}
		i = end
	}
	return out, out != nil
}

// htmlTable rewrites lines[i:end+1], a <table> block, or returns nil when
// it has no header row. The Markdown table is packed at the block's top,
// header, delimiter, then each row with the number of the line its <tr>
// opens on, so a finding keeps its line; the block's other lines follow,
// empty.
func htmlTable(lines []line, i, end int) []line {
	block := lines[i : end+1]
	var rows []line
	header := false
	for k := 0; k < len(block); k++ {
		lo := strings.ToLower(block[k].text)
		at := strings.Index(lo, "<tr")
		if at < 0 {
			continue
		}
		// The row runs to its </tr>, or to the next row's opening.
		var b strings.Builder
		b.WriteString(block[k].text[at:])
		last := k
		for !strings.Contains(strings.ToLower(b.String()), "</tr") && last+1 < len(block) && !strings.Contains(strings.ToLower(block[last+1].text), "<tr") {
			last++
			b.WriteByte(' ')
			b.WriteString(block[last].text)
		}
		cells := htmlCellRe.FindAllStringSubmatch(b.String(), -1)
		k2 := k
		k = last
		if len(cells) == 0 {
			continue
		}
		th := strings.EqualFold(cells[0][1], "h")
		if !header && !th {
			return nil // a row before the header: not a table of columns
		}
		text := "|"
		for _, c := range cells {
			v := strings.TrimSpace(htmlTagRe.ReplaceAllString(c[2], " "))
			v = strings.ReplaceAll(strings.Join(strings.Fields(htmlUnescape(v)), " "), "|", "/")
			text += " " + v + " |"
		}
		l := block[k2]
		l.text, l.level, l.head = text, 0, ""
		rows = append(rows, l)
		if !header {
			l.text = "|" + strings.Repeat(" --- |", len(cells))
			rows = append(rows, l)
			header = true
		}
	}
	if !header || len(rows) > len(block) {
		return nil // a table written on one line has no room for its rows
	}
	t := make([]line, len(block))
	n := copy(t, rows)
	for k := range block {
		if n >= len(t) {
			break
		}
		// The rest, empty, keep numbers the block had.
		t[n] = block[k]
		t[n].text, t[n].level, t[n].head = "", 0, ""
		n++
	}
	return t
}

var htmlEntities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&nbsp;", " ")

func htmlUnescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return htmlEntities.Replace(s)
}
