package synth

import "strings"

// defectClasses is the merge rule's closed vocabulary of defect classes:
// agents name one defect in different words ("path traversal", "directory
// traversal", "file name escapes the upload root"; "SQL injection", "query
// built with string formatting"), and a class they share is a word their
// titles share. Each class is found by a stem of the title's keywords (stem
// of parse.Keywords), or by two stems standing together in it (one of each
// list); the class then counts as one more title word, "#" and its name, so
// that it weighs what it says in the run like any word. The list is short
// and general on purpose: a class names what is wrong, never a product.
var defectClasses = func() []defectClass {
	cs := []defectClass{
		{name: "traversal", any: words("traversal traverse zipslip"),
			with: words("escape escapes outside unsanitised unsanitized unvalidated unnormalised unnormalized"),
			also: words("directory dir root path filename folder")},
		{name: "injection", any: words("injection injectable sqli"),
			with: words("sql query shell command"),
			also: words("formatting formatted interpolated interpolation concatenated concatenation fstring unescaped unsanitised unsanitized unparameterised unparameterized")},
		{name: "xss", any: words("xss"),
			with: words("html markup innerhtml"),
			also: words("unescaped unsanitised unsanitized")},
		{name: "race", any: words("race races racy toctou"),
			with: words("concurrent concurrently simultaneous parallel"),
			also: words("write writes import imports update updates access requests calls runs")},
		{name: "deadlock", any: words("deadlock deadlocks")},
		{name: "leak", any: words("leak leaks leaked leakage")},
		{name: "overflow", any: words("overflow overflows underflow")},
		{name: "secret", any: words("hardcoded plaintext cleartext"),
			with: words("secret secrets credential credentials password passwords apikey token tokens"),
			also: words("committed logged exposed printed embedded")},
		{name: "unbounded", any: words("unbounded unlimited")},
	}
	return cs
}()

// defectClass is one class of defectClasses: any is stems that name it
// alone; with and also stems that name it together (one of each).
type defectClass struct {
	name            string
	any, with, also []string
}

// words returns the stems of the words of a list.
func words(list string) []string {
	var out []string
	for _, w := range strings.Fields(list) {
		out = append(out, stem(w))
	}
	return out
}

// defectClassesOf returns the classes the stems of a title name, each as
// the word "#" + its name.
func defectClassesOf(stems []string) []string {
	has := func(list []string) bool {
		for _, w := range list {
			for _, s := range stems {
				if s == w {
					return true
				}
			}
		}
		return false
	}
	var out []string
	for _, c := range defectClasses {
		if has(c.any) || len(c.with) > 0 && has(c.with) && has(c.also) {
			out = append(out, "#"+c.name)
		}
	}
	return out
}

// isClassWord reports whether a word is a defect class (defectClassesOf).
func isClassWord(w string) bool { return strings.HasPrefix(w, "#") }
