package synth

import "strconv"

// Plural is n and a noun in the number n takes: "1 finding", "0 findings",
// "2 findings". The plural adds "s" unless plural names it ("entries").
// Every count in user-facing text goes through it.
func Plural(n int, noun string, plural ...string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun, plural...)
}

// Noun is the noun alone in the number n takes, for texts such as "1/1
// agent completed" where the number is written apart.
func Noun(n int, noun string, plural ...string) string {
	if n == 1 {
		return noun
	}
	if len(plural) > 0 {
		return plural[0]
	}
	return noun + "s"
}
