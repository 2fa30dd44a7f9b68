package parse

import (
	"regexp"
	"strings"
)

// verdictRe finds "Verdict:" written at the start of a line (after list
// markers and emphasis) or after a separator inside a heading, as in
// "## Executive Summary — Verdict: needs-changes".
var verdictRe = regexp.MustCompile(`(?i)(?:^|[—–|:]\s*|\s-\s)verdict\s*:\s*(.*)$`)

// verdictLine reads a verdict line. plain reports whether the line is exactly
// the strict form "Verdict: VALUE" (no emphasis, no heading, no trailing text).
// text is the value as written (emphasis removed, trailing explanation cut).
func verdictLine(s string) (text string, plain, ok bool) {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > 600 || !containsFold(t, "verdict") {
		return "", false, false
	}
	if _, rest, found := strings.Cut(t, "Verdict: "); found && strings.HasPrefix(t, "Verdict: ") {
		v := strings.TrimSpace(rest)
		if canonicalVerdicts[v] {
			return v, true, true
		}
	}
	u := stripBold(t)
	u = strings.TrimLeft(u, "#> ")
	if k, _, item := listItem(u); k != 0 {
		u = item
	}
	u = strings.TrimSpace(u)
	m := verdictRe.FindStringSubmatchIndex(u)
	if m == nil {
		return "", false, false
	}
	// "Verdict" must open the line or follow a separator; a sentence that
	// merely contains "verdict:" later on is prose.
	if m[0] > 0 && !headingLike(s) {
		return "", false, false
	}
	v := cutVerdictValue(u[m[2]:m[3]])
	if v == "" {
		return "", false, false
	}
	return v, false, true
}

var canonicalVerdicts = map[string]bool{"safe": true, "needs-changes": true, "risky": true, "error": true}

func headingLike(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " "), "#")
}

// cutVerdictValue trims a verdict value to what names the verdict: emphasis
// and backticks removed, and a trailing explanation ("— 5 critical…",
// "(2 P1, 3 P2)", ". Plan is…") cut off.
func cutVerdictValue(v string) string {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "*_`\"'"))
	for _, sep := range []string{" — ", " – ", " -- ", " - ", " (", "(", ". ", "; ", ", ", ": "} {
		if i := strings.Index(v, sep); i > 0 {
			v = v[:i]
		}
	}
	v = strings.TrimRight(strings.TrimSpace(v), ".*_`\"'")
	if len(v) > 80 {
		v = v[:80]
	}
	return strings.TrimSpace(v)
}

// NormalizeVerdict maps a declared verdict to a Verdict: the four canonical
// values, needs-attention/NEEDS_ATTENTION and "Needs changes" as
// needs-changes, and a few common synonyms. ok is false for free text.
func NormalizeVerdict(text string) (Verdict, bool) {
	k := strings.ToLower(strings.TrimSpace(text))
	k = strings.NewReplacer("_", "-", " ", "-").Replace(k)
	k = strings.Trim(k, "-*`.")
	if v, ok := verdictSynonyms[k]; ok {
		return v, true
	}
	return "", false
}

var verdictSynonyms = map[string]Verdict{
	"safe": Safe, "pass": Safe, "passed": Safe, "approve": Safe, "approved": Safe, "lgtm": Safe,
	"ship": Safe, "ship-it": Safe,
	"needs-changes": NeedsChanges, "needs-change": NeedsChanges, "needs-attention": NeedsChanges,
	"changes-requested": NeedsChanges, "request-changes": NeedsChanges, "needs-work": NeedsChanges,
	"needs-revision": NeedsChanges, "revise": NeedsChanges, "warn": NeedsChanges,
	"ship-with-changes": NeedsChanges, "minor-issues": NeedsChanges,
	"risky": Risky, "fail": Risky, "failed": Risky, "blocked": Risky, "block": Risky,
	"reject": Risky, "rejected": Risky, "do-not-ship": Risky, "unsafe": Risky,
	"error": Error,
}

// containsFold reports whether s contains the lower-case ASCII word w in any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i]|0x20 == w[0] && strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
