package verify

import (
	"math"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// verify's own word rules (what a report restates, what an agent says)
// read texts as words: split at every character that is not a letter or a
// digit ("commands/review.md" is three words, not one), lower-cased, stop
// words and words under three letters dropped (parse.Keywords), plurals
// folded (stem). Matching a claim to a finding is the title rule's alone
// (parse.Title.Matches, SPEC §5.2); these rules only weigh what a report
// says in other words.

// words returns the distinct words of s, in order of first appearance.
func words(s string) []string {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 0x80:
			b[i] = c
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		default:
			b[i] = ' '
		}
	}
	kws := parse.Keywords(parse.Normalize(string(b)))
	out := kws[:0]
	for _, k := range kws {
		if generic[k] {
			continue
		}
		if s := stem(k); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return appendAcronyms(out, s)
}

// appendAcronyms appends to ws the acronyms of two capital letters s
// writes ("HN", "UI", "DB"), lower-cased: words under three letters are
// dropped, but one written in capitals between other characters is a
// name ("any HN submission"), not a stop word; one joined by a hyphen is
// a part of an ID ("CB-1"), which the citation rules read. A word of a line in
// capitals ("DO NOT SHIP") is no acronym: the two-letter words English
// writes in any case are left out (twoLetter).
func appendAcronyms(ws []string, s string) []string {
	for i := 0; i+1 < len(s); i++ {
		if !isUpper(s[i]) || !isUpper(s[i+1]) || i > 0 && (isWordByte(s[i-1]) || s[i-1] == '-') ||
			i+2 < len(s) && (isWordByte(s[i+2]) || s[i+2] == '-') {
			continue // inside a word, or a part of an ID ("CB-1", "P1-UX-3")
		}
		a := string([]byte{s[i] + 'a' - 'A', s[i+1] + 'a' - 'A'})
		if !twoLetter[a] && !slices.Contains(ws, a) {
			ws = append(ws, a)
		}
	}
	return ws
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// twoLetter are the English words of two letters: in capitals they are
// shouted, not acronyms. "ID" is one too: any finding may write it.
var twoLetter = map[string]bool{
	"am": true, "an": true, "as": true, "at": true, "be": true, "by": true, "do": true, "go": true,
	"he": true, "id": true, "if": true, "in": true, "is": true, "it": true, "me": true, "my": true, "no": true,
	"of": true, "oh": true, "ok": true, "on": true, "or": true, "so": true, "to": true, "up": true,
	"us": true, "we": true,
}

// generic are words of checklists and findings alike that say nothing of
// what a finding is about.
var generic = map[string]bool{
	"add": true, "fix": true, "use": true, "using": true, "missing": true, "lack": true, "lacks": true,
	"need": true, "needs": true, "make": true, "consider": true, "ensure": true, "issue": true,
	"issues": true, "finding": true, "findings": true,
}

// stem folds a plural into its singular and strips -ing and -ed, crudely
// ("conditions" → "condition", "categories" → "category", "compressed" →
// "compress", "mapping" and "mapped" → "mapp"): the same on both sides of
// a comparison, it needs only be consistent.
func stem(w string) string {
	w = stemSuffix(w)
	// A final e goes too: "surface", "surfaced" and "surfaces" are one.
	if len(w) > 4 && w[len(w)-1] == 'e' && w[len(w)-2] != 'e' {
		w = w[:len(w)-1]
	}
	return w
}

func stemSuffix(w string) string {
	switch {
	case len(w) > 6 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return w[:len(w)-2]
	case len(w) > 5 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// paragraphs splits a text into paragraphs (blank-line separated; each list
// item, table row and heading on its own) and calls f with each one's words
// and the line it starts at.
func paragraphs(src []byte, f func(ws []string, line int32)) {
	var cur []string
	start := 0
	flush := func() {
		if len(cur) > 0 {
			f(words(strings.Join(cur, " ")), int32(start))
			cur = cur[:0]
		}
	}
	n := 0
	for l := range strings.SplitSeq(string(src), "\n") {
		n++
		t := strings.TrimSpace(l)
		if _, item := listItem(t); item || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#") {
			flush()
			f(words(t), int32(n))
			continue
		}
		if t == "" {
			flush()
			continue
		}
		if len(cur) == 0 {
			start = n
		}
		cur = append(cur, t)
	}
	flush()
}

// holds reports whether paragraph i restates words (their IDs, -1 for a
// word no paragraph has): at least three of them (all, when there are
// fewer) and at least three in ten.
func (c *corpus) holds(i int32, ids []int32) bool {
	if len(ids) == 0 {
		return false
	}
	p := c.paras[i]
	n := 0
	for _, id := range ids {
		if id >= 0 {
			if _, ok := slices.BinarySearch(p, uint32(id)); ok {
				n++
			}
		}
	}
	return n >= holdsNeed(len(ids))
}

// holdsNeed is how many of n words a paragraph must hold (holds).
func holdsNeed(n int) int { return max(min(3, n), (3*n+9)/10) }

// corpus is a set of paragraphs (of the agents' reports, or the lines of
// the synthesis) indexed by word, to find those that restate words without
// trying each one: a paragraph that holds need of n words holds at least
// one of any n-need+1 of them, so only the paragraphs holding one of the
// n-need+1 rarest are tried. Trying every paragraph for every claim made a
// synthesis of 1,000 claims against a 4.7 MB report take 80 s. Words are
// numbered and a paragraph is the sorted numbers of its words: a map per
// paragraph took three times the memory.
type corpus struct {
	vocab  map[string]uint32 // word → its number
	paras  [][]uint32        // each paragraph's word numbers, ascending
	lines  []int32           // lines[i]: the line paragraph i starts at (0: unknown)
	owners []int             // owners[i]: whose paragraph i is, an index into names
	names  []string          // the owners (agents, findings)
	posts  [][]int32         // word number → the paragraphs holding it, ascending
	df     []int32           // word number → the owners holding it (weigh)
	seen   []uint32          // seen[i] == gen: paragraph i was tried in this search
	gen    uint32
	// acc, cnt and hit are weigh's per-paragraph sums and word counts and
	// the paragraphs it touched.
	acc []float64
	cnt []int32
	hit []int32
}

func newCorpus() *corpus { return &corpus{vocab: map[string]uint32{}} }

// add adds a paragraph of an owner, as its words.
func (c *corpus) add(owner int, ws []string) { c.addAt(owner, ws, 0) }

func (c *corpus) addAt(owner int, ws []string, line int32) {
	i := int32(len(c.paras))
	p := make([]uint32, 0, len(ws))
	for _, w := range ws {
		id, ok := c.vocab[w]
		if !ok {
			id = uint32(len(c.posts))
			c.vocab[w] = id
			c.posts = append(c.posts, nil)
			c.df = append(c.df, 0)
		}
		p = append(p, id)
	}
	slices.Sort(p)
	p = slices.Compact(p)
	c.paras = append(c.paras, p)
	c.lines = append(c.lines, line)
	c.owners = append(c.owners, owner)
	for _, id := range p {
		posts := c.posts[id]
		if len(posts) == 0 || c.owners[posts[len(posts)-1]] != owner {
			c.df[id]++
		}
		c.posts[id] = append(posts, i)
	}
}

// ids returns the numbers of words (-1 for a word no paragraph has).
func (c *corpus) ids(ws []string) []int32 {
	out := make([]int32, len(ws))
	for i, w := range ws {
		if id, ok := c.vocab[w]; ok {
			out[i] = int32(id)
		} else {
			out[i] = -1
		}
	}
	return out
}

func (c *corpus) owner(i int) string { return c.names[c.owners[i]] }

// paragraphsOf splits each report into paragraphs, agents sorted by name.
func paragraphsOf(reports map[string][]byte) *corpus {
	c := newCorpus()
	for _, n := range slices.Sorted(func(yield func(string) bool) {
		for n := range reports {
			if !yield(n) {
				return
			}
		}
	}) {
		c.names = append(c.names, n)
		owner := len(c.names) - 1
		paragraphs(reports[n], func(ws []string, line int32) { c.addAt(owner, ws, line) })
	}
	return c
}

// each calls f with every paragraph (its index) that holds ws, until f
// returns false.
func (c *corpus) each(ws []string, f func(i int) bool) {
	if len(ws) == 0 {
		return
	}
	ids := c.ids(ws)
	type word struct {
		n     int // how many of ws it stands for
		posts []int32
	}
	byID := map[int32]*word{}
	var list []*word
	for _, id := range ids {
		w := byID[id]
		if w == nil {
			w = &word{}
			if id >= 0 {
				w.posts = c.posts[id]
			}
			byID[id] = w
			list = append(list, w)
		}
		w.n++
	}
	slices.SortStableFunc(list, func(a, b *word) int { return len(a.posts) - len(b.posts) })
	c.nextGen()
	cover := len(ws) - holdsNeed(len(ws)) + 1
	for _, w := range list {
		if cover <= 0 {
			break
		}
		cover -= w.n
		for _, i := range w.posts {
			if c.seen[i] == c.gen {
				continue
			}
			c.seen[i] = c.gen
			if c.holds(i, ids) && !f(int(i)) {
				return
			}
		}
	}
}

func (c *corpus) nextGen() {
	if len(c.seen) < len(c.paras) {
		c.seen = make([]uint32, len(c.paras))
		c.gen = 0
	}
	if c.gen++; c.gen == 0 {
		clear(c.seen)
		c.gen = 1
	}
}

// any reports whether some paragraph holds ws.
func (c *corpus) any(ws []string) bool {
	found := false
	c.each(ws, func(int) bool {
		found = true
		return false
	})
	return found
}

// overlapWith counts the words of ws paragraph i holds.
func (c *corpus) overlapWith(i int, ws []string) int {
	n := 0
	for _, id := range c.ids(ws) {
		if id >= 0 {
			if _, ok := slices.BinarySearch(c.paras[i], uint32(id)); ok {
				n++
			}
		}
	}
	return n
}

// weigh scores how much of ws each agent's report says: for each agent,
// the best of its paragraphs, as the share of ws's weight that paragraph
// holds, a word weighing more the fewer agents use it (ln(1 + agents/df)).
// A word no report uses weighs as little as one every report uses: the
// synthesis's own wording proves little either way, but a claim one word of
// which a report holds is not all said there. by[i] is the score of c.names[i]; best the highest;
// where[i] the paragraph that scored it (-1: none).
func (c *corpus) weigh(ws []string) (by []float64, where []int, best float64) {
	by, where, _, best = c.weighN(ws)
	return by, where, best
}

// weighN is weigh, with how many of ws each agent's best paragraph holds.
func (c *corpus) weighN(ws []string) (by []float64, where, held []int, best float64) {
	by = make([]float64, len(c.names))
	where = make([]int, len(c.names))
	held = make([]int, len(c.names))
	for i := range where {
		where[i] = -1
	}
	c.weighEach(ws, func(i int, s float64, n int) {
		if o := c.owners[i]; s > by[o] {
			by[o], where[o], held[o] = s, i, n
		}
	})
	for _, s := range by {
		best = max(best, s)
	}
	return by, where, held, best
}

// weighEach calls f with each paragraph that holds a word of ws, the share
// of ws's weight it holds (as weigh counts it) and how many of ws: only
// those paragraphs, so that the cost is that of the words' postings, not
// of the corpus.
func (c *corpus) weighEach(ws []string, f func(para int, share float64, held int)) {
	if len(c.acc) < len(c.paras) {
		c.acc = make([]float64, len(c.paras))
		c.cnt = make([]int32, len(c.paras))
	}
	agents := float64(len(c.names))
	total := 0.0
	c.hit = c.hit[:0]
	for _, w := range ws {
		id, ok := c.vocab[w]
		if !ok {
			total += math.Ln2 // as little as a word every owner uses
			continue
		}
		wt := math.Log(1 + agents/float64(c.df[id]))
		total += wt
		for _, i := range c.posts[id] {
			if c.acc[i] == 0 {
				c.hit = append(c.hit, i)
			}
			c.acc[i] += wt
			c.cnt[i]++
		}
	}
	hit := c.hit
	for _, i := range hit {
		s, n := c.acc[i]/total, int(c.cnt[i])
		c.acc[i], c.cnt[i] = 0, 0
		f(int(i), s, n)
	}
}

// synthesisLines returns the words of a synthesis's lines.
func synthesisLines(src []byte) *corpus {
	c := newCorpus()
	c.names = []string{"synthesis"}
	n := int32(0)
	for l := range strings.SplitSeq(string(src), "\n") {
		if n++; strings.TrimSpace(l) != "" {
			c.addAt(0, words(l), n)
		}
	}
	return c
}

// foldLen is the length a long word is folded to.
const foldLen = 7

// fold cuts a word of more than foldLen bytes to its first foldLen
// (at a rune boundary): "saturation" and "saturate", "irreversibility"
// and "irreversible" are one word. Only the rules that decide whether a
// synthesis states a blocker fold: a synthesis restates in its own
// words, and a blocker it restated must not be reported missing. Matching
// and judging claims compare words unfolded.
func fold(w string) string { return clipTo(w, foldLen) }

// folded returns the distinct folded words of ws.
func folded(ws []string) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if f := fold(w); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// has reports whether paragraph i holds the word numbered id.
func (c *corpus) has(i int, id uint32) bool {
	_, ok := slices.BinarySearch(c.paras[i], id)
	return ok
}

// ownerHas reports whether some paragraph of an owner holds word w.
func (c *corpus) ownerHas(owner int, w string) bool {
	id, ok := c.vocab[w]
	if !ok {
		return false
	}
	for _, i := range c.posts[id] {
		if c.owners[i] == owner {
			return true
		}
	}
	return false
}

// sharedShare is the share of the weight of the words of the smaller of
// paragraphs a and b (weighted as weigh weighs them) that both hold.
func (c *corpus) sharedShare(a, b int) float64 {
	n := float64(len(c.names))
	sum := func(p []uint32) float64 {
		t := 0.0
		for _, id := range p {
			t += math.Log(1 + n/float64(c.df[id]))
		}
		return t
	}
	both := 0.0
	for _, id := range c.paras[a] {
		if c.has(b, id) {
			both += math.Log(1 + n/float64(c.df[id]))
		}
	}
	if s := min(sum(c.paras[a]), sum(c.paras[b])); s > 0 {
		return both / s
	}
	return 0
}

// asWritten returns the token of s that is word w (words), as s writes
// it: "hysteresis" for "hysteresi". w itself when none is.
func asWritten(s, w string) string {
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80)
	}) {
		if ws := words(tok); len(ws) == 1 && ws[0] == w {
			return tok
		}
	}
	return w
}
