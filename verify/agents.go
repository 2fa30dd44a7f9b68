package verify

import (
	"slices"
	"strings"
	"unicode"
)

// agentIndex resolves the names a synthesis gives the run's agents: their
// own names, shortened names and labels ("Cache Coherence" for
// fd-cache-coherence-invalidation, "vision-gap" for
// fd-ux-vision-delivery-gap, "fd-arch" for fd-architecture), the prefixes
// of their finding IDs ("ACQ" for the agent whose IDs are ACQ-01 …) and
// the words of their reports' own titles. A label resolves only when one
// agent fits it at the first rule that fits any: never a guess between two.
type agentIndex struct {
	names  []string
	words  [][]string          // the words of each name, "fd" dropped
	titles [][]string          // the words of each report's title
	prefix map[string][]string // ID prefix → the agents whose IDs have it
}

// newAgentIndex indexes the completed agents, the IDs of their findings
// (by agent) and their report texts (for their titles).
func newAgentIndex(agents []string, ids map[string][]string, reports map[string][]byte) *agentIndex {
	x := &agentIndex{names: slices.Sorted(slices.Values(agents)), prefix: map[string][]string{}}
	for _, a := range x.names {
		x.words = append(x.words, labelWords(a))
		x.titles = append(x.titles, labelWords(reportTitle(reports[a])))
		for _, id := range ids[a] {
			if p := idPrefix(id); p != "" && !slices.Contains(x.prefix[p], a) {
				x.prefix[p] = append(x.prefix[p], a)
			}
		}
	}
	return x
}

// idPrefix returns the letters an ID starts with, upper-cased, when they
// are at least two and not a P-level ("ARCH" of ARCH-01, "ACQ" of
// P1-ACQ-01); "" otherwise.
func idPrefix(id string) string {
	if len(id) > 3 && id[0] == 'P' && id[1] >= '0' && id[1] <= '9' && (id[2] == '-' || id[2] == '.') {
		id = id[3:]
	}
	i := 0
	for i < len(id) && unicode.IsLetter(rune(id[i])) {
		i++
	}
	if i < 2 || i == len(id) {
		return ""
	}
	return strings.ToUpper(id[:i])
}

// reportTitle returns the text of a report's first heading (after YAML
// front matter), or "".
func reportTitle(src []byte) string {
	text := string(src)
	if strings.HasPrefix(text, "---") {
		if i := strings.Index(text[3:], "\n---"); i >= 0 {
			text = text[3+i+4:]
		}
	}
	for n := 0; n < 40 && text != ""; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if lvl, h := heading(strings.TrimSpace(line)); lvl > 0 && lvl <= 2 {
			return h
		}
	}
	return ""
}

// labelWords splits a name or label into lower-case words, dropping "fd"
// and words that say nothing of the agent.
func labelWords(s string) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		switch w {
		case "fd", "review", "reviewer", "report", "findings", "agent", "the", "and", "of", "flux", "drive", "v2":
			continue
		}
		out = append(out, w)
	}
	return out
}

// resolve returns the agent a name or label stands for.
func (x *agentIndex) resolve(label string) (string, bool) {
	name, n := x.fit(label)
	return name, n == 1
}

// fit returns the agent a name or label stands for and how many agents
// fit it at the first rule any fits: 0 when none does (a name of no agent
// of the run), 2 when two do (no guess).
func (x *agentIndex) fit(label string) (string, int) {
	label = strings.Trim(strings.TrimSpace(label), "*_`:.")
	if label == "" {
		return "", 0
	}
	lw := initials(labelWords(label))
	if len(lw) == 0 {
		return "", 0
	}
	rules := []func(i int) bool{
		func(i int) bool { return strings.EqualFold(x.names[i], label) },
		func(i int) bool { return slices.Equal(x.words[i], lw) },
		func(i int) bool { return wordsWithin(lw, x.words[i]) },
		func(i int) bool {
			return len(lw) == 1 && slices.Contains(x.prefix[strings.ToUpper(lw[0])], x.names[i])
		},
		func(i int) bool { return wordsWithin(lw, x.titles[i]) },
	}
	for _, fits := range rules {
		found := -1
		for i := range x.names {
			if !fits(i) {
				continue
			}
			if found >= 0 {
				return "", 2 // two agents fit: no guess
			}
			found = i
		}
		if found >= 0 {
			return x.names[found], 1
		}
	}
	return "", 0
}

// initials joins a label of single letters, an acronym written with a
// symbol between its letters ("A&R", "Q/A": "a", "r"), into the one word
// an agent's name writes it as ("ar" of fd-ar-rollout-cadence).
func initials(lw []string) []string {
	if len(lw) < 2 {
		return lw
	}
	for _, w := range lw {
		if len(w) != 1 {
			return lw
		}
	}
	return []string{strings.Join(lw, "")}
}

// wordsWithin reports whether every word of a label matches a word of a
// name, in order, each a different one: equal, equal but for a plural, or
// an abbreviation of at least four letters ("arch" for "architecture").
func wordsWithin(label, name []string) bool {
	j := 0
	for _, w := range label {
		for j < len(name) && !wordFits(w, name[j]) {
			j++
		}
		if j == len(name) {
			return false
		}
		j++
	}
	return len(label) > 0
}

func wordFits(w, n string) bool {
	if w == n || stem(w) == stem(n) {
		return true
	}
	return len(w) >= 4 && strings.HasPrefix(n, w)
}
