package parse

import "strings"

// A block of fields with no heading (SPEC §2.3 rule 2, docs/reports.md
// "Field blocks"): a tracker export writes each finding as a paragraph of
// bold fields and nothing else —
//
//	**Key:** PAY-901
//	**Summary:** Refund API double-credits on retry
//	**Priority:** Highest
//
// The paragraph is one finding: its Summary or Title field is the title,
// an ID field's value (Key, ID) the ID, its severity field the severity,
// its status field whether it is resolved. Each such paragraph is a
// finding of its own.

// fieldBlock is a paragraph of fields read as one finding.
type fieldBlock struct {
	text               string // the bold lead-in it stands for: "**PAY-901: Title**"
	sevName, sevValue  string
	sevLine            int
	end                int // the index of its last line
	resolved, openMark bool
}

// readFieldBlock reads the paragraph that opens at line i as a field
// block: every line a bold field, one of them a Summary or Title field
// and one a severity field. ok is false for anything else.
func readFieldBlock(lines []line, i int) (b fieldBlock, ok bool) {
	title := ""
	id := ""
	// First the cheap tests: every line a bold field, one a title.
	k := i
	for ; k < len(lines) && k-i < 16 && paraLine(lines[k]); k++ {
		name, value, isField := boldField(strings.TrimSpace(lines[k].text))
		if !isField {
			return b, false // a paragraph of prose around bold labels
		}
		if title == "" && titleFieldName(name) {
			title = value
		}
	}
	if title == "" || k-i < 2 {
		return b, false
	}
	title = ""
	for k = i; k < len(lines) && k-i < 16 && paraLine(lines[k]); k++ {
		s := strings.TrimSpace(lines[k].text)
		name, value, _ := boldField(s)
		if title == "" && value != "" && titleFieldName(name) {
			title = value
			continue
		}
		if m := sevFieldOf(s); m != nil && b.sevLine == 0 {
			b.sevName, b.sevValue, b.sevLine = m[1], m[2], lines[k].num
			continue
		}
		switch strings.ToLower(name) {
		case "key", "id", "issue", "issue key", "ticket", "reference", "ref":
			if IsFindingID(value) {
				id = value
			}
		case "status", "state", "resolution":
			b.resolved = b.resolved || isResolvedValue(value) || isResolution(name, value)
			b.openMark = b.openMark || isOpenValue(value)
		}
	}
	if title == "" || b.sevLine == 0 || k-i < 2 {
		return b, false
	}
	b.end = k - 1
	b.text = "**" + title + "**"
	if id != "" {
		b.text = "**" + id + ": " + title + "**"
	}
	return b, true
}

// paraLine reports whether l continues a paragraph: not blank, not a
// heading, not masked.
func paraLine(l line) bool {
	return !l.masked && l.level == 0 && strings.TrimSpace(l.text) != ""
}

// boldField splits a bold field line, "**Name:** value" or "**Name**:
// value", into its name and value.
func boldField(t string) (name, value string, ok bool) {
	for _, m := range [...]string{"**", "__"} {
		if !strings.HasPrefix(t, m) {
			continue
		}
		rest := t[len(m):]
		j := strings.Index(rest, m)
		if j <= 0 || j > 40 {
			return "", "", false
		}
		name, value = rest[:j], rest[j+len(m):]
		switch {
		case strings.HasSuffix(name, ":"):
			name = name[:len(name)-1]
		case strings.HasPrefix(value, ":"):
			value = value[1:]
		default:
			return "", "", false
		}
		return strings.TrimSpace(name), strings.TrimSpace(value), true
	}
	return "", "", false
}

// titleFieldName reports whether a field names a finding's title.
func titleFieldName(name string) bool {
	switch strings.ToLower(name) {
	case "summary", "title", "issue title", "finding title":
		return true
	}
	return false
}
