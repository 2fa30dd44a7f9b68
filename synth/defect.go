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
	{name: "offbyone", phrases: phrases("=off by one|fencepost|inclusive bound|exclusive bound|boundary")},
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
	{name: "docsdrift", phrases: phrases("=out of sync|=out of date|stale documentation|" +
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
// (defectClasses), as a set of bits: bit c is defectClasses[c].
func classesOf(text string) uint64 {
	var r classReader
	return r.norm(parse.Normalize(text)) | r.raw(text)
}

// classReader reads the classes of texts (classesOf), reusing its buffer.
type classReader struct{ stems []string }

// norm returns the classes a normalised text names by its stems, its
// phrases and its markers of words ("off by one"), looking each stem up
// once (classIndex).
func (r *classReader) norm(norm string) uint64 {
	ix := &classIndex
	var set, with, also uint64
	stems := r.stems[:0]
	phrases := false
	for w := range parse.Words(norm) {
		s := stem(w)
		stems = append(stems, s)
		e, ok := ix.stems[s]
		if !ok {
			continue
		}
		set |= e.any
		with |= e.with
		also |= e.also
		phrases = phrases || len(e.phrases) > 0
	}
	r.stems = stems
	set |= with & also
	for k := 0; phrases && k < len(stems); k++ {
		e := ix.stems[stems[k]]
		if e == nil {
			continue
		}
		for _, p := range e.phrases {
			if k+len(p.stems) <= len(stems) && slices.Equal(stems[k:k+len(p.stems)], p.stems) {
				set |= 1 << p.class
			}
		}
	}
	for _, m := range ix.words {
		if hasWords(norm, m.text) {
			set |= 1 << m.class
		}
	}
	return set
}

// hasWords reports whether the normalised text holds the words m, standing
// as words ("time out" is not in "runtime outage").
func hasWords(norm, m string) bool {
	for i := 0; ; {
		k := strings.Index(norm[i:], m)
		if k < 0 {
			return false
		}
		k += i
		if (k == 0 || norm[k-1] == ' ') && (k+len(m) == len(norm) || norm[k+len(m)] == ' ') {
			return true
		}
		i = k + 1
	}
}

// raw returns the classes a text names by a marker that is not words
// ("../", "n+1"), found in it as it stands, less the case of its letters:
// looked up by the marker's first byte that is not a letter, then read
// around it.
func (r *classReader) raw(text string) uint64 {
	var set uint64
	for _, m := range classIndex.raw {
		for i := 0; ; {
			k := strings.IndexByte(text[i:], m.text[m.at])
			if k < 0 {
				break
			}
			k += i
			if start := k - m.at; start >= 0 && start+len(m.text) <= len(text) &&
				strings.EqualFold(text[start:start+len(m.text)], m.text) {
				set |= 1 << m.class
				break
			}
			i = k + 1
		}
	}
	return set
}

// classIndex is defectClasses by stem (the classes each stem names alone,
// or with another, and the phrases it starts), and its markers: of words,
// and the others (each with the index of its first byte that is not a
// letter).
var classIndex = func() (ix struct {
	stems map[string]*classStem
	words []classMarker
	raw   []classMarker
}) {
	if len(defectClasses) > 64 {
		panic("defectClasses: more than 64 classes")
	}
	ix.stems = map[string]*classStem{}
	entry := func(s string) *classStem {
		e := ix.stems[s]
		if e == nil {
			e = &classStem{}
			ix.stems[s] = e
		}
		return e
	}
	for c, dc := range defectClasses {
		bit := uint64(1) << c
		for _, w := range dc.any {
			entry(w).any |= bit
		}
		for _, w := range dc.with {
			entry(w).with |= bit
		}
		for _, w := range dc.also {
			entry(w).also |= bit
		}
		for _, p := range dc.phrases {
			m, ok := strings.CutPrefix(p[0], "=")
			switch {
			case !ok:
				e := entry(p[0])
				e.phrases = append(e.phrases, classPhrase{p, c})
			case parse.Normalize(m) == m:
				ix.words = append(ix.words, classMarker{m, c, 0})
			default:
				at := strings.IndexFunc(m, func(r rune) bool { return r < 'a' || r > 'z' })
				ix.raw = append(ix.raw, classMarker{m, c, at})
			}
		}
	}
	return ix
}()

// classStem is what a stem says of the classes: those it names alone
// (any), with a stem of the other list (with, also), and the phrases it
// starts.
type classStem struct {
	any, with, also uint64
	phrases         []classPhrase
}

// classPhrase is a phrase of a class: its stems.
type classPhrase struct {
	stems []string
	class int
}

// classMarker is a marker of a class: its text and, for one that is not
// words, the index of its first byte that is not a letter.
type classMarker struct {
	text      string
	class, at int
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
