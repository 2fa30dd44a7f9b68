package parse

import (
	"slices"
	"strings"
	"unicode"
)

// Praise is no finding (SPEC §2.3: a finding is something the author
// labelled with a severity, a defect). Reviews of a codebase to learn from
// rate what they admire as readily as what is wrong ("P1: Address scheme
// is clean", "P0: Error isolation is correct", "Mutex not held across
// await — SAFE", "✅ Good"): there the level says how much the pattern
// matters, not how bad a defect is. An item whose own judgement is that
// the thing is fine gives no finding. The judgement is the item's last
// short part after a dash or a colon ("— SAFE"), the whole item ("No
// issues found"), or what its subject is said to be ("… is correct",
// "… is a clean plugin pattern"); a judgement that negates, hedges or
// limits the praise ("is not safe", "unsafe", "appears correct but …",
// "is safe only if …") is a defect's description and stays a finding.

// praiseWords are the judgements that say a thing is fine, written as
// the judgement's first word (or words) after "is", "are", …
var praiseWords = []string{
	"correct", "correctly implemented", "clean", "safe", "sound", "solid", "robust", "exemplary", "excellent",
	"good", "great", "fine", "well designed", "well-designed",
	"well structured", "well-structured", "well implemented", "well-implemented", "idiomatic", "secure",
	"appropriate", "adequate", "already correct", "already safe", "fully correct", "properly implemented",
	"no issue", "no issues", "no problem", "no problems", "no concern", "no concerns", "not a concern",
	"not an issue", "not a problem", "no action needed", "no action required", "no changes needed",
	"no change needed", "nothing to fix", "confirmed safe", "strength", "a strength",
}

// verdictWords say a check passed: a judgement when they are the whole
// item or its last part ("Input validation: PASS"), never after "is" or
// "are" ("Values are passed unvalidated to the mount").
var verdictWords = []string{"pass", "passed", "passes", "ok", "okay", "verified", "no findings"}

// praiseVerbs are the words that say what the subject is: the praise
// word follows one of them, maybe after an article.
var praiseVerbs = []string{"is", "are", "was", "were", "remains", "remain", "stays", "stay"}

// limitWords turn a judgement into a defect's description, or hedge it:
// "not safe", "correct but …", "safe only if …", "appears correct".
var limitWords = map[string]bool{
	"not": true, "no": true, "never": true, "nor": true, "but": true, "however": true, "only": true,
	"unless": true, "except": true, "although": true, "though": true, "yet": true, "until": true, "if": true,
	"except when": true, "mostly": true, "partly": true, "partially": true, "almost": true, "nearly": true,
	"largely": true, "appears": true, "seems": true, "looks": true, "likely": true, "probably": true,
	"may": true, "might": true, "should": true, "assuming": true, "provided": true, "without": true,
	"missing": true, "lacks": true, "lack": true, "fails": true, "broken": true, "wrong": true, "incorrect": true,
	"unsafe": true, "risk": true, "risky": true, "bug": true, "leak": true, "leaks": true, "race": true,
	"cannot": true, "can't": true, "isn't": true, "aren't": true, "doesn't": true, "don't": true, "won't": true,
	"wasn't": true, "except for": true, "too": true, "enough": true, "insufficient": true, "incomplete": true,
}

// contrastWords, after the praise of a subject, turn the item to a
// defect: "The migration sequence is sound — the plan should build on it,
// not ignore it". An explanation ("is correct — a failed handler never
// blocks the queue") holds none of them.
var contrastWords = map[string]bool{
	"should": true, "must": true, "but": true, "however": true, "yet": true, "although": true, "though": true,
	"except": true, "unless": true, "only": true, "needs": true, "need": true, "ignore": true, "ignores": true,
	"missing": true, "lacks": true, "risk": true, "fails": true, "broken": true, "wrong": true,
}

// praised reports whether a rated item's title judges its subject fine.
func praised(title string) bool {
	t := praiseText(title)
	if t == "" {
		return false
	}
	if strings.HasPrefix(t, "✅") || strings.HasPrefix(t, "✔") || strings.HasPrefix(t, "☑") {
		return true
	}
	ws := praiseFields(t)
	if len(ws) == 0 {
		return false
	}
	// The last short part after a dash or a colon: "Mutex not held
	// across await — SAFE", "Input validation: PASS".
	if i := lastJudgement(t); i >= 0 {
		if praiseWhole(praiseFields(t[i:])) {
			return true
		}
	}
	// The whole item: "No issues found", "Well designed".
	if praiseWhole(ws) {
		return true
	}
	// What the subject is said to be, up to the next dash or colon: "Error
	// isolation is correct — handler exceptions never block the
	// pipeline", "Hooks with HOOK.yaml is a clean plugin pattern".
	head := ws
	if i := firstSeparator(t); i > 0 {
		head = praiseFields(t[:i])
		for _, w := range praiseFields(t[i:]) {
			if contrastWords[w] {
				return false // "… Is Sound — the plan should build on it, not ignore it"
			}
		}
	}
	for k, w := range head {
		if k == 0 || !slices.Contains(praiseVerbs, w) {
			continue
		}
		rest := head[k+1:]
		if len(rest) > 0 && (rest[0] == "a" || rest[0] == "an" || rest[0] == "the") {
			rest = rest[1:]
		}
		return praisePhrase(rest)
	}
	return false
}

// praisedTail reports whether the line an item was read from ends, after
// its title, in a judgement that the thing is fine: the reader cuts a
// trailing "— SAFE" from "- **[P0]** Mutex not held across await — SAFE"
// as it cuts a trailing reason. Only the whole tail counts: a sentence of
// the item's description is not its judgement.
func praisedTail(text, title string) bool {
	t, ti := praiseText(text), praiseText(title)
	i := strings.Index(t, ti)
	if ti == "" || i < 0 {
		return false
	}
	return praiseWhole(praiseFields(t[i+len(ti):]))
}

// praiseWhole reports whether ws are a praise word and nothing else,
// but a closing "found" ("No issues found").
func praiseWhole(ws []string) bool {
	if n := len(ws); n > 1 && (ws[n-1] == "found" || ws[n-1] == "identified" || ws[n-1] == "detected") {
		ws = ws[:n-1]
	}
	for _, list := range [][][]string{praiseWordFields, verdictWordFields} {
		for _, pw := range list {
			if slices.Equal(ws, pw) {
				return true
			}
		}
	}
	return false
}

// praiseWordFields and verdictWordFields are praiseWords and verdictWords
// split into words once: praised reads every rated item's title, and
// splitting the lists again for each was a tenth of what synth allocates
// at 8,000 agents.
var praiseWordFields, verdictWordFields = fieldsOf(praiseWords), fieldsOf(verdictWords)

// fieldsOf returns strings.Fields of each of ps.
func fieldsOf(ps []string) [][]string {
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}

// praisePhrase reports whether ws open with a praise word and hold no
// word that limits it.
func praisePhrase(ws []string) bool {
	for _, w := range ws {
		if limitWords[w] || strings.HasPrefix(w, "un") && slices.Contains(praiseWords, strings.TrimPrefix(w, "un")) ||
			strings.HasPrefix(w, "in") && slices.Contains(praiseWords, strings.TrimPrefix(w, "in")) {
			if !praiseNegation(ws) {
				return false
			}
		}
	}
	for _, pw := range praiseWordFields {
		if len(ws) >= len(pw) && slices.Equal(ws[:len(pw)], pw) {
			return true
		}
	}
	return false
}

// praiseNegation reports whether ws open with a praise word that is
// itself a negation ("no issues", "not a concern"), holding no other
// limit word after it.
func praiseNegation(ws []string) bool {
	for _, p := range praiseWords {
		pw := strings.Fields(p)
		if !limitWords[pw[0]] || len(ws) < len(pw) || !slices.Equal(ws[:len(pw)], pw) {
			continue
		}
		for _, w := range ws[len(pw):] {
			if limitWords[w] {
				return false
			}
		}
		return true
	}
	return false
}

// praiseText lowers a title and drops its Markdown marks.
func praiseText(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = praiseMarks.Replace(s)
	return strings.TrimSpace(strings.TrimLeft(s, " -#>"))
}

// praiseMarks drops the emphasis marks of a judgement ("**SAFE**"); one
// Replacer for every call (it is safe for concurrent use; building one was
// a tenth of what synth allocates at 8,000 agents).
var praiseMarks = strings.NewReplacer("**", "", "__", "", "`", "", "*", "")

// praiseFields splits t into words: letters, digits, hyphens and
// apostrophes; other characters separate.
func praiseFields(t string) []string {
	return strings.FieldsFunc(t, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\''
	})
}

// praiseSeps are the separators between an item's subject and its
// judgement.
var praiseSeps = []string{" — ", " – ", " - ", ": ", " → ", " -> ", " | "}

// lastJudgement returns where the text after the last separator starts,
// or -1.
func lastJudgement(t string) int {
	at := -1
	for _, s := range praiseSeps {
		if i := strings.LastIndex(t, s); i >= 0 && i+len(s) > at {
			at = i + len(s)
		}
	}
	return at
}

// firstSeparator returns where the first separator starts, or -1.
func firstSeparator(t string) int {
	at := -1
	for _, s := range praiseSeps {
		if i := strings.Index(t, s); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	return at
}
