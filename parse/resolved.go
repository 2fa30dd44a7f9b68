package parse

import (
	"strings"
	"unicode/utf8"
)

// A resolved section (SPEC §2.3 resolved items, docs/reports.md
// "Resolved"): a heading that only says its contents are resolved —
// "### Fixed", "## Resolved", "## Addressed Issues", "Fixed since the
// last review" — over findings. What stands under it is recorded as
// resolved and does not count, as a finding marked fixed does.

// resolvedHeading reports whether a heading's text names a section of
// resolved findings: a resolved word first, then nothing but group
// words ("issues", "findings") and a note of when ("since the last
// review", "in 2.4.1").
func resolvedHeading(head string) bool {
	if h := strings.TrimLeft(head, " \t*_#0123456789.)"); h == "" || h[0] < utf8.RuneSelf && strings.IndexByte("fFrRaAdDcC", h[0]) < 0 {
		return false // most headings: no resolved word, nor an emoji, first
	}
	t := strings.TrimSpace(trimEmoji(stripBold(head)))
	t = strings.TrimSpace(cutNumbering(t))
	if len(t) > 60 {
		return false
	}
	w, rest, _ := strings.Cut(t, " ")
	w = strings.TrimRight(w, ":")
	if !resolvedWord(w) {
		return false
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return true
	}
	// "Fixed issues", "Resolved findings (3)", "Fixed since the last
	// review", "Fixed in 2.4.1".
	first, _, _ := strings.Cut(rest, " ")
	switch strings.ToLower(strings.Trim(first, "():")) {
	case "since", "in", "after", "before":
		return true
	}
	core, _, _ := groupCore(rest)
	return core == "" || onlyGroupWords(core)
}

// resolvedWord reports whether w, in any case, is one of resolvedWords.
func resolvedWord(w string) bool {
	for _, r := range resolvedWords {
		if strings.EqualFold(w, r) {
			return true
		}
	}
	return false
}

// underResolved reports whether node p, or a heading over it, is a
// resolved section.
func underResolved(nodes []gnode, p int) bool {
	for a := p; a >= 0; a = nodes[a].parent {
		if nodes[a].resolvedHead {
			return true
		}
	}
	return false
}
