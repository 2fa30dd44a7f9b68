package verify

import (
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// citations returns the finding IDs a text cites ("(BSC-01)", "ARC-01,
// ARC-02; COR-01", "P1-ACQ-01", "RXN-03/04/05") and, for those written
// after an agent's name ("fd-safety SEC-7", "fd-murano: MUR-1, MUR-2"),
// the agent: one attribution per agent, and one for IDs without an agent.
func citations(t string) ([]string, []attribution) {
	var (
		cites []string
		atts  []attribution
		agent string
		cur   *attribution
		loose attribution
	)
	flush := func() {
		if cur != nil && len(cur.ids) > 0 {
			atts = append(atts, *cur)
		}
		cur, agent = nil, ""
	}
	for _, tok := range strings.FieldsFunc(t, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == '*' || r == '`' || r == '"'
	}) {
		end := strings.HasSuffix(tok, ";") || tok == "|" || tok == "—" || tok == "–"
		tt := strings.Trim(tok, ":;.|—–_")
		switch {
		case tt == "":
		case strings.Contains(tt, "-") && agentNameRe.MatchString(tt) && strings.ToLower(tt) == tt && !isNumber(strings.ReplaceAll(tt, "-", "")):
			flush()
			agent = tt
			cur = &attribution{label: agent}
		default:
			ids := expandID(tt)
			if len(ids) == 0 {
				if !isCountWord(tt) && cur != nil && len(cur.ids) > 0 {
					flush() // prose after the IDs: the agent's list is over
				}
				break
			}
			cites = appendNew(cites, ids...)
			if cur != nil {
				cur.ids = append(cur.ids, ids...)
			} else {
				loose.ids = append(loose.ids, ids...)
			}
		}
		if end {
			flush()
		}
	}
	flush()
	if len(loose.ids) > 0 {
		atts = append(atts, loose)
	}
	return cites, atts
}

// expandID returns the IDs a token stands for: itself when it is an ID (not
// a bare P-level or severity word); the ID inside a severity-prefixed one
// ("P1-ACQ-01" → also "ACQ-01"); each of a slash list ("ARCH-01/3/6" →
// ARCH-01, ARCH-03, ARCH-06; "SC-01/DO-01"); each of a short range
// ("RXN-07-10" → also RXN-07 … RXN-10). Nil for anything else.
func expandID(tok string) []string {
	var out []string
	parts := strings.Split(tok, "/")
	var prefix string
	width := 0
	for i, p := range parts {
		p = strings.Trim(p, ".:;")
		if i > 0 && prefix != "" && isNumber(p) {
			n, _ := strconv.Atoi(p)
			out = append(out, prefix+pad(n, width))
			continue
		}
		if !isID(p) {
			if i == 0 {
				return nil
			}
			continue
		}
		out = append(out, p)
		// "P1-ACQ-01": the agent's ID after the synthesis's severity.
		if len(p) > 3 && parse.IsPLevel(p[:2]) && (p[2] == '-' || p[2] == '.') && isID(p[3:]) && strings.ContainsAny(p[3:], "-_.") {
			out = append(out, p[3:])
		}
		prefix, width = "", 0
		if j := strings.LastIndexAny(p, "-_."); j > 0 && isNumber(p[j+1:]) {
			prefix, width = p[:j+1], len(p)-j-1
			// "RXN-07-10": a range when the part before is an ID too.
			if k := strings.LastIndexAny(p[:j], "-_."); k > 0 && isNumber(p[k+1:j]) {
				from, _ := strconv.Atoi(p[k+1 : j])
				to, _ := strconv.Atoi(p[j+1:])
				if to > from && to-from <= 20 {
					w := j - k - 1
					for n := from; n <= to; n++ {
						out = append(out, p[:k+1]+pad(n, w))
					}
				}
			}
		}
	}
	return out
}

// isID reports whether a token is a finding ID and not a severity: "P1" and
// "HIGH" are severities, "P1-2", "SEC-7" and "F1" are IDs.
func isID(s string) bool {
	if s == "" || !parse.IsFindingID(s) || parse.IsPLevel(s) || isSeverityWord(s) {
		return false
	}
	if a, b, ok := strings.Cut(s, "-"); ok && parse.IsPLevel(a) && parse.IsPLevel(b) {
		return false // "P0-P1": a range of severities
	}
	return true
}

// pad formats n with at least width digits.
func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}
