package parse

import (
	"strings"
)

// tableCols maps the columns of an index table (SPEC §2.2: a Markdown table
// whose header names the columns, in any order, three or more columns).
type tableCols struct {
	id, sev, section, title, file, lines int // -1 when absent
}

func tableCells(row string) []string {
	t := strings.TrimSpace(row)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	cells := splitPipes(t)
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

func isDelimiterRow(row string) bool {
	cells := tableCells(row)
	if len(cells) == 0 {
		return false
	}
	dashes := false
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" {
			return false
		}
		dashes = dashes || strings.Contains(c, "-")
	}
	return dashes
}

// tableHeader reads the header at lines[i] (followed by a delimiter row).
func tableHeader(lines []line, i int) (tableCols, bool) {
	if i+1 >= len(lines) || !isDelimiterRow(lines[i+1].text) {
		return tableCols{}, false
	}
	cells := tableCells(lines[i].text)
	if len(cells) < 3 {
		return tableCols{}, false
	}
	c := tableCols{-1, -1, -1, -1, -1, -1}
	for j, raw := range cells {
		name, _ := unquote(stripBold(raw))
		name = strings.ToLower(strings.TrimSpace(name))
		switch {
		case c.sev < 0 && (name == "severity" || name == "sev" || name == "priority" || name == "level" || name == "sev."):
			c.sev = j
		case c.id < 0 && (name == "id" || name == "#" || name == "ref" || name == "finding id" || name == "no." || name == "no"):
			c.id = j
		case c.title < 0 && (name == "title" || name == "finding" || name == "issue" || name == "summary" ||
			name == "description" || name == "problem" || name == "concern" || name == "name" || name == "gap"):
			c.title = j
		case c.section < 0 && (strings.HasPrefix(name, "section") || name == "feature" || name == "area" ||
			name == "location" || name == "component" || name == "category" || name == "scope" || name == "where"):
			c.section = j
		case c.file < 0 && (name == "file" || name == "path"):
			c.file = j
		case c.lines < 0 && (name == "line" || name == "lines" || name == "line(s)"):
			c.lines = j
		}
	}
	if c.sev < 0 || (c.title < 0 && c.section < 0) {
		return tableCols{}, false
	}
	return c, true
}

// cellOf returns cells[j] without bold markers, "" when there is no column j.
func cellOf(cells []string, j int) string {
	if j < 0 || j >= len(cells) {
		return ""
	}
	return strings.TrimSpace(stripBold(cells[j]))
}

// row reads one table row as an index item. The row is split into cells
// once (table_test.go's reference splits it for each cell read).
func (c *tableCols) row(row string, num int) (noted, bool) {
	cells := tableCells(row)
	return c.rowOf(func(j int) string { return cellOf(cells, j) }, cells, num)
}

// rowOf reads the row whose cells are cells as an index item; cell returns
// column j's text without bold markers ("" when there is none).
func (c *tableCols) rowOf(cell func(j int) string, cells []string, num int) (noted, bool) {
	sevText := cell(c.sev)
	sev, class := severityToken(sevText, true)
	it := noted{item: item{class: class, sev: sev, line: num, noSev: class == sevNone, rawSev: sevText}}
	it.id = strings.Trim(cell(c.id), "`")
	it.section, _ = unquote(cell(c.section))
	it.title = cell(c.title)
	if it.title == "" {
		// No title column: the section (Area) names the finding.
		it.title = it.section
	}
	if it.title == "" {
		return noted{}, false
	}
	if class == sevImprovement {
		it.notes = append(it.notes, "IMP row read as an improvement")
	} else if class == sevFinding && sevText != string(sev) {
		it.notes = append(it.notes, "severity "+quoteWord(sevText)+" read as "+string(sev))
	}
	refText := it.section + " " + it.title
	if f := strings.Trim(cell(c.file), "`"); f != "" {
		if l := strings.ReplaceAll(cell(c.lines), "–", "-"); l != "" && !strings.Contains(f, ":") {
			refText += " " + f + ":" + strings.ReplaceAll(l, " ", "")
		} else {
			refText += " " + f
		}
	}
	// Then the other cells: a reference anywhere in the row counts (SPEC §2.4).
	for j, cell := range cells {
		if j != c.section && j != c.title && j != c.file && j != c.lines {
			refText += " " + cell
		}
	}
	it.refs = fileRefs(refText)
	return it, true
}
