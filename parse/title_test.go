package parse

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Session Tokens in localStorage", "session tokens in localstorage"},
		{"  Rate-limiting   missing!! ", "rate limiting missing"},
		{"API_Design (v2)", "apidesign v2"},
		{"Tab\tseparated", "tab separated"},
		{"Ünïcode ümlauts", "ncode mlauts"},
		{"", ""},
		{"---", ""},
		{"  Auth-Flow: Tokens (v2)! ", "auth flow tokens v2"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// normalizeRunes is Normalize read rune by rune, as SPEC §5.2 words it:
// lower-case, '-' and white space to one space, only a–z and 0–9 kept.
func normalizeRunes(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		case r == '-' || unicode.IsSpace(r):
			r = ' '
		}
		switch {
		case r == ' ':
			space = b.Len() > 0
		case (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// FuzzNormalize: Normalize, which reads bytes, equals the rune-by-rune
// reading on any input, invalid UTF-8 and non-ASCII spaces included.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"Session Tokens", "a\u00a0b\u0085c\u2003d", "x\xffy", "Tab\tsep-arated\r\n", "Ünïcode", "---"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Normalize(s), normalizeRunes(s); got != want {
			t.Fatalf("Normalize(%q) = %q; rune by rune %q", s, got, want)
		}
	})
}

func TestKey(t *testing.T) {
	tests := []struct{ section, title, want string }{
		{"Authentication", "Session tokens stored in localStorage", "authentication:session tokens stored in localstorage"},
		{`"API Design"`, "Missing rate-limiting", "api design:missing rate limiting"},
		{"", "日本語のタイトル", ":日本語のタイトル"},
	}
	for _, tt := range tests {
		if got := Key(tt.section, tt.title); got != tt.want {
			t.Errorf("Key(%q, %q) = %q, want %q", tt.section, tt.title, got, tt.want)
		}
	}
}

func TestTitlesMatch(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"equal after normalisation", "Missing Rate-Limiting", "missing rate limiting", true},
		{"small edit", "Session tokens stored in localStorage", "Session token stored in local storage", true},
		{"plural", "Deadlock", "Deadlocks", true},
		{"shared keywords", "Unbounded retry loop exhausts the connection pool under load",
			"Connection pool exhausted by unbounded retry loop", true},
		{"three shared but under half of the shorter",
			"retry loop pool alpha beta gamma delta", "retry loop pool epsilon zeta eta theta", false},
		{"different", "SQL injection in search endpoint", "Missing CSRF token on logout", false},
		{"two shared keywords only", "Cache invalidation race", "Cache invalidation missing docs", false},
		{"hyphen", "Session tokens stored in localStorage", "Session tokens stored in local-storage", true},
		{"re-worded", "Missing rate limiting on login API", "Missing rate-limiting for the login API", true},
		{"re-ordered", "Retry loop lacks jitter and backoff ceiling", "No backoff ceiling or jitter in the retry loop", true},
		{"nothing shared", "Path traversal in upload", "Quota checked after write", false},
		{"both empty", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TitlesMatch(tt.a, tt.b); got != tt.want {
				t.Errorf("TitlesMatch(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := TitlesMatch(tt.b, tt.a); got != tt.want {
				t.Errorf("TitlesMatch is not symmetric for %q, %q", tt.a, tt.b)
			}
		})
	}
}

func TestKeywords(t *testing.T) {
	got := Keywords(Normalize("The parser should use the lexer: the lexer is an API of it"))
	want := []string{"parser", "lexer", "api"}
	if len(got) != len(want) {
		t.Fatalf("Keywords = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Keywords = %q, want %q", got, want)
		}
	}
}

func TestLevenshteinWithinAgreesWithLevenshtein(t *testing.T) {
	words := []string{"", "a", "ab", "abc", "kitten", "sitting", "saturday", "sunday", "deadlock", "deadlocks",
		"session tokens", "session token", "rate limiting missing", "missing rate limit", "ünïcode", "unicode"}
	for _, a := range words {
		for _, b := range words {
			d := Levenshtein(a, b)
			ra, rb := []rune(a), []rune(b)
			if len(ra) < len(rb) {
				ra, rb = rb, ra
			}
			for limit := 0; limit <= 12; limit++ {
				if got, want := levenshteinWithin(ra, rb, limit), d <= limit; got != want {
					t.Errorf("levenshteinWithin(%q, %q, %d) = %v, want %v (distance %d)", a, b, limit, got, want, d)
				}
			}
		}
	}
}

// addTitlePairs seeds f with pairs of titles: a plural, re-worded, one
// empty.
func addTitlePairs(f *testing.F) {
	f.Add("deadlock", "deadlocks")
	f.Add("Deadlock", "Deadlocks")
	f.Add("session tokens stored", "session token stored")
	f.Add("Session tokens stored in localStorage", "Session token stored in local storage")
	f.Add("", "x")
}

func FuzzCloseStrings(f *testing.F) {
	addTitlePairs(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 200 || len(b) > 200 {
			return
		}
		la, lb := len([]rune(a)), len([]rune(b))
		long := max(la, lb)
		want := long == 0 || 10*Levenshtein(a, b) < 3*long
		if got := closeStrings(a, b); got != want {
			t.Errorf("closeStrings(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}

// closeStrings reports (for the tests) whether the Levenshtein distance of a and b, divided by
// the longer length, is under 0.3. Lengths are in runes.
func closeStrings(a, b string) bool {
	raw := func(s string) Title {
		t := Title{norm: s}
		t.prepare()
		return t
	}
	ta, tb := raw(a), raw(b)
	return closeTitles(&ta, &tb)
}

func FuzzTitlesMatch(f *testing.F) {
	addTitlePairs(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 300 || len(b) > 300 {
			return
		}
		if TitlesMatch(a, b) != TitlesMatch(b, a) {
			t.Fatalf("TitlesMatch(%q, %q) is not symmetric", a, b)
		}
		if !TitlesMatch(a, a) {
			t.Fatalf("TitlesMatch(%q, itself) = false", a)
		}
		if n := Normalize(a); Normalize(n) != n {
			t.Fatalf("Normalize is not idempotent on %q", a)
		}
	})
}

// keywordsOfFields is Keywords as first written: the words between any
// white space, less stop words, words under three letters and repeats.
func keywordsOfFields(norm string) []string {
	var kws []string
	for w := range strings.FieldsSeq(norm) {
		if len(w) >= 3 && !stopWords[w] && !slices.Contains(kws, w) {
			kws = append(kws, w)
		}
	}
	return kws
}

// FuzzTitleKeywords: the keyword list of a prepared title, split at single
// spaces into a reused array, and Keywords, are the keywords of its
// normalised text split at any white space; and a Title made again over
// another keeps nothing of it.
func FuzzTitleKeywords(f *testing.F) {
	for _, s := range []string{"The parser should use the lexer: the lexer", "a\u00a0b\u0085c\u2003d", "日本語 の\u3000タイトル",
		"x\xffy", "Race race RACE condition", "Tab\tsep-arated\r\n"} {
		f.Add(s, "Session tokens stored in localStorage")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var reused Title
		for _, s := range []string{b, a} {
			n := normalizeTitle(s)
			reused.setNorm(n)
			want := keywordsOfFields(n)
			if got := reused.Keywords(); !slices.Equal(got, want) {
				t.Fatalf("keywords of %q = %q; want %q", s, got, want)
			}
			if got := Keywords(n); !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("Keywords(%q) = %q; want %q", n, got, want)
			}
			fresh := Title{norm: n, kws: want}
			fresh.prepare()
			if !equalTitles(&reused, &fresh) {
				t.Fatalf("title %q made over another = %+v; made afresh %+v", s, reused, fresh)
			}
			var c Title
			c.setNorm(normalizeTitle(b + " " + a))
			c.copyFrom(&reused)
			if !equalTitles(&c, &fresh) {
				t.Fatalf("copy of title %q = %+v; made afresh %+v", s, c, fresh)
			}
		}
	})
}

func equalTitles(a, b *Title) bool {
	return a.norm == b.norm && slices.Equal(a.kws, b.kws) && slices.Equal(a.runes, b.runes) && a.n == b.n && a.hist == b.hist
}

// FuzzSynthesize builds runs from fuzzed finding lines and checks that the
// synthesis never panics, is deterministic, and keeps every severity.

// TestMaxStopWord: no stop word is longer than maxStopWord, which lets
// Keywords skip the map for longer words.
func TestMaxStopWord(t *testing.T) {
	for w := range stopWords {
		if len(w) > maxStopWord {
			t.Errorf("stop word %q is longer than maxStopWord (%d)", w, maxStopWord)
		}
	}
}

// Words yields what Keywords yields, in order, with each repeat.
func TestWords(t *testing.T) {
	norm := Normalize("The cache: a cache of caches, and the cache again")
	var got []string
	for w := range Words(norm) {
		got = append(got, w)
	}
	want := []string{"cache", "cache", "caches", "cache", "again"}
	if !slices.Equal(got, want) {
		t.Errorf("Words(%q) = %q, want %q", norm, got, want)
	}
	if kws := Keywords(norm); !slices.Equal(kws, []string{"cache", "caches", "again"}) {
		t.Errorf("Keywords(%q) = %q, want each once", norm, kws)
	}
}
