package parse

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// dedupProseAllPairs is the plain reading of the prose dedup rule, kept as
// the reference of dedupProse: a finding joins the kept finding with its
// ID, else the one with its normalised title, else the first kept finding of
// another section whose title matches by the title rule, comparing every
// pair.
func dedupProseAllPairs(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		dup := keptWithIDOrTitle(out, f)
		for j := range out {
			if dup < 0 && out[j].Section != f.Section && !distinctIDs(out[j].ID, f.ID) && TitlesMatch(out[j].Title, f.Title) && !distinctPlaces(f.Title, out[j].Title) {
				dup = j
				break
			}
		}
		if dup < 0 {
			out = append(out, f)
			continue
		}
		mergeProse(&out[dup], f)
	}
	return out
}

// keptWithIDOrTitle is the first step of the plain readings of the prose
// dedup: the index in out of the kept finding with f's ID, else of the one
// with f's normalised title and no other ID, else -1.
func keptWithIDOrTitle(out []Finding, f Finding) int {
	for j := range out {
		if f.ID != "" && out[j].ID == f.ID {
			return j
		}
	}
	for j := range out {
		if normalizeTitle(out[j].Title) == normalizeTitle(f.Title) && !distinctIDs(out[j].ID, f.ID) {
			return j
		}
	}
	return -1
}

// randomWords returns n random lower-case words of least letters and up to
// extra-1 more.
func randomWords(r *rand.Rand, n, least, extra int) []string {
	words := make([]string, n)
	for i := range words {
		size := least
		if extra > 0 {
			size += r.IntN(extra)
		}
		b := make([]byte, size)
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		words[i] = string(b)
	}
	return words
}

// randomListings returns n prose findings whose titles are drawn from a
// small vocabulary (so that many share keywords, some match by the keyword
// rule, some by the Levenshtein rule: with typos set, restatements have a
// letter added to a word), with IDs and sections that repeat.
func randomListings(r *rand.Rand, n int, vocab []string, typos bool) []Finding {
	fs := make([]Finding, n)
	for i := range fs {
		k := 1 + r.IntN(6)
		ws := make([]string, k)
		for w := range ws {
			ws[w] = vocab[r.IntN(len(vocab))]
		}
		if i > 0 && r.IntN(5) == 0 { // a restatement, maybe with a typo
			ws = strings.Fields(fs[r.IntN(i)].Title)
			if len(ws) > 0 && typos && r.IntN(2) == 0 {
				w := ws[r.IntN(len(ws))]
				ws[r.IntN(len(ws))] = w[:len(w)/2] + "x" + w[len(w)/2:]
			}
		}
		f := Finding{Severity: []Severity{P0, P1, P2, P3}[r.IntN(4)], Title: strings.Join(ws, " "),
			Section: []string{"", "Issues", "Summary", "Details"}[r.IntN(4)], Line: i + 1}
		if r.IntN(4) == 0 {
			f.ID = fmt.Sprintf("C%d", r.IntN(n/2+1))
		}
		if r.IntN(3) == 0 {
			f.FileRefs = []string{fmt.Sprintf("a.go:%d", r.IntN(20))}
		}
		fs[i] = f
	}
	return fs
}

// TestDedupProseAllPairs compares dedupProse with the all-pairs reference
// on random listings: equal for every report of up to exactDedupMax
// findings. The keyword-candidate form used above that size is compared too,
// on listings whose matching titles always share a keyword and no keyword is
// shared by more than maxPosting kept titles: there it must agree as well.
func TestDedupProseAllPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	short := []string{"ab", "cd", "race", "cache", "token", "lock", "deadlock", "auth", "session", "missing",
		"check", "input", "validation", "leak", "memory", "the", "in", "of", "retry", "timeout"}
	for trial := range 150 {
		n := 1 + r.IntN(120)
		fs := randomListings(r, n, short, true)
		want := dedupProseAllPairs(clone(fs))
		if got := dedupProse(nil, clone(fs)); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%d listings): dedupProse\n got %v\nwant %v", trial, n, titlesOf(got), titlesOf(want))
		}
	}
	// Long distinct words and no typos: a match always shares a keyword.
	long := randomWords(r, 400, 12, 0)
	for trial := range 100 {
		fs := randomListings(r, 1+r.IntN(60), long, false)
		want := dedupProseAllPairs(clone(fs))
		if !postingsFit(want) {
			continue
		}
		if got := dedupProseBy(nil, clone(fs), false); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: keyword candidates\n got %v\nwant %v", trial, titlesOf(got), titlesOf(want))
		}
	}
}

func clone(fs []Finding) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		f.FileRefs = append([]string(nil), f.FileRefs...)
		out[i] = f
	}
	return out
}

func titlesOf(fs []Finding) []string {
	var s []string
	for _, f := range fs {
		s = append(s, fmt.Sprintf("%s|%s|%s|%s", f.ID, f.Section, f.Severity, f.Title))
	}
	return s
}

// postingsFit reports whether no keyword is shared by more than maxPosting
// of the kept titles.
func postingsFit(kept []Finding) bool {
	n := map[string]int{}
	for _, f := range kept {
		t := NewTitle(f.Title)
		for _, w := range t.Keywords() {
			if n[w]++; n[w] > maxPosting {
				return false
			}
		}
	}
	return true
}

// splitPipesBuilder is the former splitPipes, which copied every field
// through a strings.Builder: the reference of the one that slices.
func splitPipesBuilder(s string) []string {
	var fields []string
	var b strings.Builder
	tick := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '`':
			tick = !tick
		case c == '\\' && i+1 < len(s) && s[i+1] == '|':
			b.WriteByte('|')
			i++
			continue
		case c == '|' && !tick:
			fields = append(fields, b.String())
			b.Reset()
			continue
		}
		b.WriteByte(c)
	}
	fields = append(fields, b.String())
	if tick {
		fields = strings.Split(s, "|")
	}
	return fields
}

func TestSplitPipesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "`\\| a"
	for range 20000 {
		b := make([]byte, r.IntN(14))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		if got, want := splitPipes(s), splitPipesBuilder(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("splitPipes(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestDescriptionIsTheLines checks that a description taken as a part of
// the report's text is the lines joined with newlines, with CRLF endings, a
// BOM and a last line without a newline too.
func TestDescriptionIsTheLines(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		var b strings.Builder
		if r.IntN(4) == 0 {
			b.WriteString("\ufeff")
		}
		for range r.IntN(8) {
			b.WriteString([]string{"", "a", "- **[P1] x**", "  b c"}[r.IntN(4)])
			b.WriteString([]string{"\n", "\r\n"}[r.IntN(2)])
		}
		b.WriteString([]string{"", "tail"}[r.IntN(2)])
		src, lines := splitLines(b.String())
		if len(lines) == 0 {
			continue
		}
		i := r.IntN(len(lines))
		j := i + r.IntN(len(lines)-i)
		var want strings.Builder
		for _, l := range lines[i : j+1] {
			want.WriteString(l.text + "\n")
		}
		if got := newBlocks(src, lines, nil).description(src, lines, i, j, want.Len()); got != want.String() {
			t.Fatalf("description of lines %d–%d of %q = %q, want %q", i, j, b.String(), got, want.String())
		}
	}
}

// TestDedupProseMakesOldTitlesAgain: the keyword-candidate dedup keeps the
// prepared titles of the last titleWindow kept findings only, and makes an
// older one again from its normalised text when it is compared with; on
// listings whose keywords are shared past maxPosting (lists close early and
// often) it gives what keeping every title gives.
func TestDedupProseMakesOldTitlesAgain(t *testing.T) {
	defer func(n int) { titleWindow = n }(titleWindow)
	r := rand.New(rand.NewPCG(3, 4))
	vocab := randomWords(r, 60, 4, 6)
	for trial := range 40 {
		fs := randomListings(r, 200+r.IntN(3000), vocab, true)
		titleWindow = 1 << 30
		want := dedupProseBy(nil, clone(fs), false)
		titleWindow = 1 + r.IntN(16)
		if got := dedupProseBy(nil, clone(fs), false); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%d listings, window %d): titles made again\n got %v\nwant %v", trial, len(fs), titleWindow,
				titlesOf(got), titlesOf(want))
		}
	}
}

// dedupProseKeywordsPlain is the plain reading of the keyword-candidate
// dedup of a large report: a finding joins the kept finding with its ID,
// else the one with its normalised title, else the first kept finding of
// another section whose title matches by the title rule among those that
// share with it a keyword shared by at most maxPosting kept titles. Every
// keyword of every kept title is posted.
func dedupProseKeywordsPlain(fs []Finding) []Finding {
	var out []Finding
	posted := map[string][]int{}
	for _, f := range fs {
		dup := keptWithIDOrTitle(out, f)
		t := NewTitle(f.Title)
		if dup < 0 {
			cands := map[int]bool{}
			for _, w := range t.Keywords() {
				if p := posted[w]; len(p) <= maxPosting {
					for _, j := range p {
						cands[j] = true
					}
				}
			}
			for j := range out {
				if cands[j] && out[j].Section != f.Section && !distinctIDs(out[j].ID, f.ID) && TitlesMatch(out[j].Title, f.Title) && !distinctPlaces(f.Title, out[j].Title) {
					dup = j
					break
				}
			}
		}
		if dup < 0 {
			for _, w := range t.Keywords() {
				posted[w] = append(posted[w], len(out))
			}
			out = append(out, f)
			continue
		}
		mergeProse(&out[dup], f)
	}
	return out
}

// TestDedupProseKeywordsPlain compares the keyword-candidate dedup, which
// neither looks up nor posts a word its sketch finds in one title only, nor
// looks up or keys a title of one finding only, with the plain reading that
// posts every keyword and keys every title: on listings with words of one
// title (a file path, a typo), restated titles and lists that close, with
// sketches of many slots and with ones of very few, whose slots are all
// shared.
func TestDedupProseKeywordsPlain(t *testing.T) {
	defer func(n int) { onceSlots = n }(onceSlots)
	r := rand.New(rand.NewPCG(7, 8))
	vocab := randomWords(r, 40, 3, 6)
	for trial := range 200 {
		fs := randomListings(r, 1+r.IntN(400), vocab, true)
		for i := range fs {
			if r.IntN(2) == 0 { // a word of its own, as a path makes
				fs[i].Title += fmt.Sprintf(" (`src/%s/x%d.go:%d`)", vocab[r.IntN(len(vocab))], i, r.IntN(9))
			}
		}
		want := dedupProseKeywordsPlain(clone(fs))
		onceSlots = []int{16, 1, 0}[trial%3]
		if got := dedupProseBy(nil, clone(fs), false); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%d listings, %d slots a title): keyword candidates\n got %v\nwant %v", trial, len(fs),
				onceSlots, titlesOf(got), titlesOf(want))
		}
	}
}
