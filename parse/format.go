package parse

import (
	"fmt"
	"strings"
)

// FormatIndex writes findings and improvements as a strict Findings Index
// (SPEC §2.1) ending with its verdict line. Fields are flattened to one line
// and '|' and '"' in them are replaced, so the result always re-parses to the
// same records.
func FormatIndex(findings []Finding, improvements []Improvement, v Verdict) string {
	var b strings.Builder
	b.WriteString("### Findings Index\n")
	for _, f := range findings {
		fmt.Fprintf(&b, "- %s | %s | \"%s\" | %s\n", f.Severity, idField(f.ID), sectionField(f.Section), field1(f.Title))
	}
	for _, im := range improvements {
		fmt.Fprintf(&b, "- IMP | %s | \"%s\" | %s\n", idField(im.ID), sectionField(im.Section), field1(im.Title))
	}
	fmt.Fprintf(&b, "Verdict: %s\n", v)
	return b.String()
}

var flatten = strings.NewReplacer("\n", " ", "\r", " ", "|", "/", `"`, "'", "`", "'", "**", "*")

// field1 flattens one field of an index line.
func field1(s string) string {
	s = flatten.Replace(s)
	for strings.Contains(s, "**") { // "***" flattens to "**" in one pass
		s = strings.ReplaceAll(s, "**", "*")
	}
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "-"
	}
	return s
}

// idField writes an ID as one token ("Finding 3" → "Finding-3"); "-" stands
// for no ID, and for an ID that cannot be written as an index ID.
func idField(s string) string {
	s = strings.Join(strings.Fields(field1(s)), "-")
	if s == "" || s == "-" || !idToken(s) {
		return "-" // not writable as an index ID
	}
	return s
}

// sectionField writes a section; a leading '#' would read as a heading.
func sectionField(s string) string {
	return field1(strings.TrimLeft(strings.TrimSpace(s), "# "))
}
