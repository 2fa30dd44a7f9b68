package synth

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// defectClasses is the merge rule's closed vocabulary of defect classes:
// agents name one defect in different words ("path traversal", "directory
// traversal", "file name escapes the upload root"; "SQL injection", "query
// built with string formatting"). It is one table read two ways:
//
//   - A title names a class by a stem of its keywords (stem of
//     parse.Keywords) in any, or by two stems standing anywhere in it, one
//     of with and one of also; the class then counts as one more title
//     word, "#" and its name, so that it weighs what it says in the run
//     like any word (defectClassesOf). Only the first classes have these
//     lists: a title word must be sure.
//   - The evidence of meaning (meaning.go) reads a class in a title or the
//     opening of a description by those, or by one of its phrases: words
//     standing together, each cut to its stem ("string formatting", "race
//     condition"), or, written "=text", a text found as it stands ("n+1",
//     "../", "off-by-one") for what keywords cannot hold.
//
// The list is short and general on purpose: a class names what is wrong,
// never a product or a project. docs/synthesis.md shows it.
var defectClasses = []defectClass{
	{name: "traversal", any: words("traversal traverse zipslip"),
		with:    words("escape escapes outside unsanitised unsanitized unvalidated unnormalised unnormalized"),
		also:    words("directory dir root path filename folder"),
		phrases: phrases("zip slip|=../|escapes directory|outside root|outside directory|path escape|symlink")},
	{name: "injection", any: words("injection injectable sqli"),
		with: words("sql query shell command"),
		also: words("formatting formatted interpolated interpolation concatenated concatenation fstring unescaped unsanitised unsanitized unparameterised unparameterized"),
		phrases: phrases("string formatting|string concatenation|string interpolation|unparameterized|unparameterised|" +
			"parameterized queries|parameterised queries|parameterized query|=shell=true|raw sql")},
	{name: "xss", any: words("xss"),
		with:    words("html markup innerhtml"),
		also:    words("unescaped unsanitised unsanitized"),
		phrases: phrases("cross site scripting|html escaping|escape html|dangerouslysetinnerhtml")},
	{name: "race", any: words("race races racy toctou"),
		with: words("concurrent concurrently simultaneous parallel"),
		also: words("write writes import imports update updates access requests calls runs"),
		phrases: phrases("race condition|concurrent|concurrently|concurrency|simultaneous|simultaneously|single writer|" +
			"lock|locking|mutex|interleaving|lost update")},
	{name: "deadlock", any: words("deadlock deadlocks"), phrases: phrases("lock ordering|blocks forever")},
	{name: "leak", any: words("leak leaks leaked leakage"),
		phrases: phrases("never closed|unclosed|file handle|file descriptor")},
	{name: "overflow", any: words("overflow overflows underflow"), phrases: phrases("integer overflow|truncation|truncated")},
	{name: "secret", any: words("hardcoded plaintext cleartext"),
		with: words("secret secrets credential credentials password passwords apikey token tokens"),
		also: words("committed logged exposed printed embedded"),
		phrases: phrases("secret|secrets|credential|credentials|password|passwords|api key|apikey|private key|" +
			"access token|auth token")},
	{name: "unbounded", any: words("unbounded unlimited"),
		phrases: phrases("grows without bound|denial service|exhaustion|memory growth|rate limit|rate limiting")},
	// The classes below name a defect only as evidence of meaning.
	{name: "atomicity", phrases: phrases("atomic|atomicity|atomically|partial state|partial write|partially written|" +
		"half written|transaction|transactional|rollback|roll back")},
	{name: "auth", phrases: phrases("authentication|authorization|authorisation|unauthenticated|unauthorized|" +
		"unauthorised|access control|permission check|privilege escalation|missing auth|authz|authn")},
	{name: "nplus1", phrases: phrases("=n+1|=n + 1|query loop|queries loop|query inside loop|queries inside loop|row query")},
	{name: "timeout", phrases: phrases("=time out|=times out|timeout|timeouts|timed|deadline|hang|hangs|hung|stall|" +
		"stalls|wait forever|waits forever")},
	{name: "swallowed", phrases: phrases("swallowed|swallows|swallow|silently ignored|silently ignores|ignored error|" +
		"error ignored|errors ignored|fails silently|silent failure|silently fails|bare except|unchecked error|" +
		"error discarded|exit code ignored")},
	{name: "cache", phrases: phrases("stale|staleness|cache invalidation|invalidation|invalidate|cache coherence|" +
		"outdated cache")},
	{name: "offbyone", phrases: phrases("=off-by-one|=off by one|fencepost|inclusive bound|exclusive bound|boundary")},
	{name: "nil", phrases: phrases("nil pointer|null pointer|nil dereference|null dereference|nil deref|null deref|" +
		"nonetype|undefined property|nil map|nil check|null check")},
	{name: "validation", phrases: phrases("validation|validate|validated|unvalidated|sanitization|sanitisation|" +
		"sanitize|sanitise|unsanitized|unsanitised|untrusted input|input checking|schema check")},
	{name: "csrf", phrases: phrases("csrf|xsrf|cross site request forgery")},
	{name: "deserialization", phrases: phrases("deserialization|deserialisation|deserialize|unpickle|pickle|" +
		"unsafe yaml|yaml load|unmarshal untrusted")},
	{name: "crypto", phrases: phrases("md5|sha1|weak hash|weak cipher|ecb|insecure random|constant time|" +
		"timing attack|static salt|hardcoded salt")},
	{name: "version", phrases: phrases("version mismatch|semver|version pin|pinned version|incompatible version|" +
		"version bump|breaking change|backward compatibility|backwards compatibility|backward compatible|" +
		"backwards compatible")},
	{name: "docsdrift", phrases: phrases("=out of sync|=out-of-sync|=out of date|=out-of-date|stale documentation|" +
		"documentation drift|docs drift|drift|inconsistent|inconsistency|inconsistencies|mismatch|contradicts|" +
		"contradiction|outdated|renamed|rename|naming")},
	{name: "idempotency", phrases: phrases("idempotent|idempotency|duplicate|duplicates|duplicated|double insert|" +
		"double inserting|double counting|processed twice|runs twice|dedup|deduplication")},
	{name: "hardcoded", phrases: phrases("hardcoded|hard coded|magic number|magic string|configurable")},
	{name: "parsing", phrases: phrases("parser|parsing|parse|parsed|regex|grep")},
	{name: "retry", phrases: phrases("retry|retries|retried|backoff")},
	{name: "permissions", phrases: phrases("world readable|world writable|chmod|file mode|file permissions")},
	{name: "recovery", phrases: phrases("failure recovery|recovery|recover|partial failure|crash recovery|" +
		"failure mode|failure path|error handling")},
}

// defectClass is one class of defectClasses: any is stems that name it
// alone in a title; with and also stems that name it together (one of
// each); phrases what else names it as evidence of meaning.
type defectClass struct {
	name            string
	any, with, also []string
	phrases         [][]string
}

// words returns the stems of the words of a list.
func words(list string) []string {
	var out []string
	for _, w := range strings.Fields(list) {
		out = append(out, stem(w))
	}
	return out
}

// phrases returns the phrases of a list split at "|": each its words' stems,
// or a marker ("=text") as one element. Every word of a phrase must be a
// keyword (no stop word, three letters or more): a word the reading drops
// would make the phrase broader than written.
func phrases(list string) [][]string {
	var out [][]string
	for _, p := range strings.Split(list, "|") {
		if strings.HasPrefix(p, "=") {
			out = append(out, []string{p})
			continue
		}
		var st []string
		for w := range parse.Words(parse.Normalize(p)) {
			st = append(st, stem(w))
		}
		if len(st) == 0 || len(st) != len(strings.Fields(p)) {
			panic("defectClasses: a word of " + p + " is no keyword")
		}
		out = append(out, st)
	}
	return out
}

// defectClassesOf returns the classes the stems of a title name, each as
// the word "#" + its name.
func defectClassesOf(stems []string) []string {
	var out []string
	for c := range defectClasses {
		if namesClass(&defectClasses[c], stems) {
			out = append(out, "#"+defectClasses[c].name)
		}
	}
	return out
}

// namesClass reports whether stems name c by its any, or its with and also
// lists.
func namesClass(c *defectClass, stems []string) bool {
	has := func(list []string) bool {
		for _, w := range list {
			if slices.Contains(stems, w) {
				return true
			}
		}
		return false
	}
	return has(c.any) || len(c.with) > 0 && has(c.with) && has(c.also)
}

// isClassWord reports whether a word is a defect class (defectClassesOf).
func isClassWord(w string) bool { return strings.HasPrefix(w, "#") }

// classesOf returns the classes a text names as evidence of meaning
// (defectClasses), as a set of bits: bit c is defectClasses[c]. It looks
// each stem of the text up once (classIndex).
func classesOf(text string) uint64 {
	ix := &classIndex
	var set, with, also uint64
	var stems []string
	for w := range parse.Words(parse.Normalize(text)) {
		s := stem(w)
		stems = append(stems, s)
		for _, r := range ix.roles[s] {
			switch r.role {
			case roleAny:
				set |= 1 << r.class
			case roleWith:
				with |= 1 << r.class
			case roleAlso:
				also |= 1 << r.class
			}
		}
	}
	set |= with & also
	for k, s := range stems {
		for _, p := range ix.phrases[s] {
			if k+len(p.stems) <= len(stems) && slices.Equal(stems[k:k+len(p.stems)], p.stems) {
				set |= 1 << p.class
			}
		}
	}
	if len(ix.markers) > 0 {
		lower := strings.ToLower(text)
		for _, m := range ix.markers {
			if strings.Contains(lower, m.stems[0]) {
				set |= 1 << m.class
			}
		}
	}
	return set
}

// The roles a stem plays in naming a class: alone (any), or one of two
// (with, also).
const (
	roleAny = iota
	roleWith
	roleAlso
)

// classIndex is defectClasses by stem: the lists each stem is in, the
// phrases by their first stem, and the markers.
var classIndex = func() (ix struct {
	roles   map[string][]classRole
	phrases map[string][]classPhrase
	markers []classPhrase
}) {
	if len(defectClasses) > 64 {
		panic("defectClasses: more than 64 classes")
	}
	ix.roles, ix.phrases = map[string][]classRole{}, map[string][]classPhrase{}
	for c, dc := range defectClasses {
		for role, list := range [...][]string{dc.any, dc.with, dc.also} {
			for _, w := range list {
				ix.roles[w] = append(ix.roles[w], classRole{c, role})
			}
		}
		for _, p := range dc.phrases {
			if m, ok := strings.CutPrefix(p[0], "="); ok {
				ix.markers = append(ix.markers, classPhrase{[]string{m}, c})
			} else {
				ix.phrases[p[0]] = append(ix.phrases[p[0]], classPhrase{p, c})
			}
		}
	}
	return ix
}()

// classRole is a class and a role (roleAny…) a stem has in naming it.
type classRole struct{ class, role int }

// classPhrase is a phrase of a class: its stems, or a marker's text.
type classPhrase struct {
	stems []string
	class int
}

// classNames returns the names of a set of classes, in the table's order.
func classNames(set uint64) []string {
	var out []string
	for set != 0 {
		c := bits.TrailingZeros64(set)
		out = append(out, defectClasses[c].name)
		set &^= 1 << c
	}
	return out
}
