package parse

import (
	"regexp"
	"strings"
)

// Look-alikes (SPEC §2.3: a finding is what the author labelled with a
// severity in a place that labels a finding — never a template, a
// prompt, a guide or a plan). Documents that are not reviews rate things
// too: a sprint's goals ("P0: Ship the referral program"), a roadmap's
// items ("P1 – Migrate billing"), a meeting's notes ("Low priority: clean
// up the dashboards"), a guide's legend ("**Blocking** — must be fixed
// before merge") and the example it quotes. Their levels rate tasks,
// goals and rules, not defects; the reader tells them by what the
// document says it is:
//
//   - a title that names a guide (its head noun: guide, guidelines,
//     tutorial, handbook, primer, best practices; or it opens "How to",
//     "A guide to", "Tips for", "Contributing to") is a guide, even
//     when it names what it guides ("Code review guidelines"); a title
//     that names a to-do list ("TODO", "Task list") is a plan;
//   - a document whose opening lines list who attended ("Attendees:",
//     "Participants:") holds a meeting's notes, unless its title names
//     a review, an audit or a report;
//   - a section whose heading names goals, objectives, OKRs or a backlog
//     ("## Goals for the sprint", "### Q3 objectives") plans work (see
//     restate.go's planHeadRe);
//   - a quoted block that the sentence before it presents as an example
//     ("For example, a comment like this:") is an example.

// guideTitle reports whether a document's title names a guide.
func guideTitle(title string) bool {
	t := strings.ToLower(strings.TrimSpace(trimEmoji(stripBold(title))))
	for _, p := range []string{"how to ", "how-to:", "a guide to ", "guide to ", "tips for ", "best practices for ", "contributing to "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	if t == "contributing" {
		return true // CONTRIBUTING.md: how to contribute
	}
	full := t
	for _, sep := range []string{":", " — ", " – ", " - ", " | ", "(", " of ", " for "} {
		if i := strings.Index(t, sep); i > 0 {
			t = t[:i]
		}
	}
	if namesReview(full[len(t):]) {
		return false // "Deployment guide — review": a review of a guide
	}
	words := strings.Fields(t)
	if len(words) == 0 {
		return false
	}
	switch strings.Trim(words[len(words)-1], ".,;!?*_`") {
	case "guide", "guidelines", "tutorial", "handbook", "primer", "how-to":
		return true
	case "practices":
		return len(words) > 1 && words[len(words)-2] == "best"
	}
	return false
}

// namesReview reports whether a title names a review or its outcome: a
// review, an audit, a report, findings, an assessment. Such a title is a
// report's, whatever else it names ("Review of the sprint plan").
func namesReview(title string) bool {
	for _, w := range strings.Fields(strings.ToLower(stripBold(title))) {
		switch strings.Trim(w, ".,;:*_`()") {
		case "review", "reviews", "audit", "report", "findings", "assessment", "analysis", "synthesis", "verdict",
			"feedback", "pentest", "scan":
			return true
		}
	}
	return false
}

// attendeesRe matches a line that lists who attended a meeting.
var attendeesRe = regexp.MustCompile(`(?i)^(?:[-*+]\s+)?(?:\*\*|__)?(?:attendees|participants|present|attendance|in attendance|teilnehmer|participantes|participants présents|参加者|참석자|参会人员)(?:\*\*|__)?\s*[:：]`)

// minutesLine reports whether t, one of a document's opening lines, lists
// who attended a meeting.
func minutesLine(t string) bool {
	return len(t) < 400 && strings.ContainsAny(t, ":：") && attendeesRe.MatchString(t)
}

// exampleQuote reports whether the quoted block that opens at lines[i]
// is an example: the nearest line of text before it presents what
// follows as one ("For example, a comment like this:", "Example:") and
// ends with a colon.
func exampleQuote(lines []line, i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		t := strings.TrimSpace(lines[k].text)
		if t == "" {
			continue
		}
		if lines[k].masked || lines[k].level > 0 || !strings.HasSuffix(strings.TrimRight(t, "*_ "), ":") {
			return false
		}
		return exampleRe.MatchString(t) && !deliveredFormat(t)
	}
	return false
}

// quoteLine reports whether l is a line of a quoted block.
func quoteLine(l line) bool {
	return l.level == 0 && strings.HasPrefix(strings.TrimSpace(l.text), ">")
}
