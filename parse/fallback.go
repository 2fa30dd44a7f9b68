package parse

import (
	"hash/maphash"
	"slices"
)

// dedupProse counts a finding listed twice once: same ID, the same
// normalised title, or titles that match by the title rule in different
// sections. SPEC §2.3's case is a detail section and a summary list that
// restates it; two findings side by side in one section are two findings,
// however alike their titles ("Tasks created via IPC are SQLite-only" and
// "Task mutations via IPC are SQLite-only" share half their keywords). The
// first listing is kept, with the higher severity; a finding that matches
// several earlier ones joins the first of them.
//
// IDs and normalised titles are found through maps. For the title rule, a
// report of up to exactDedupMax listed findings (every real one: the largest
// in the corpus lists a few dozen) compares each finding with every kept one,
// so the rule holds exactly. A larger report compares a finding only with the
// kept findings that share one of its keywords, and a keyword once shared by
// more than maxPosting kept titles is treated as a stop word, picking no
// candidates: the cost per finding is bounded, so a 16 MiB report parses in
// linear time, at the price of missing, in such a report, a restatement whose
// title shares no rare keyword with the one it restates.
func dedupProse(st *stop, fs []Finding) []Finding {
	return dedupProseBy(st, fs, len(fs) <= exactDedupMax)
}

func dedupProseBy(st *stop, fs []Finding, exact bool) []Finding {
	d := newProseDedup(st, fs, exact)
	for i, f := range fs {
		st.tick()
		d.add(f, d.normAt(i))
	}
	return d.finish()
}

// newProseDedup prepares the dedup of fs, which must then be added in
// their order (settle adds a prefix first, then looks the rest up before
// adding them).
func newProseDedup(st *stop, fs []Finding, exact bool) *proseDedup {
	// The kept findings are written over fs as it is read: out[j] is never
	// past the finding being read, so one list serves both.
	d := &proseDedup{exact: exact, out: fs[:0], in: fs, byID: map[string]int{}, byKey: map[uint64][]int32{}, seed: maphash.MakeSeed()}
	// The normalised titles are made first, so that the titles and the
	// keywords of one finding only (most, in a large report: a file path in
	// a title makes a word of its own) can be told before any is kept. The
	// kept ones are written over norms as it is read, like out over fs.
	norms := make([]string, len(fs))
	if !exact {
		// A quarter the slots for titles: a sketch that fits in a cache
		// was measured faster than fewer shared slots.
		d.once, d.onceTitle = newOnceSketch(onceSlots*len(fs)), newOnceSketch(onceSlots*len(fs)/4)
	}
	for i := range fs {
		st.tick()
		norms[i] = normalizeTitle(fs[i].Title)
		if !exact {
			d.onceTitle.count(maphash.String(d.seed, norms[i]))
			d.once.countWords(norms[i])
		}
	}
	d.allNorms = norms
	d.norms = norms[:0]
	return d
}

// normAt returns the normalised title of the i-th finding given to
// newProseDedup, valid until that finding is added.
func (d *proseDedup) normAt(i int) string { return d.allNorms[i] }

// keptOf returns the kept finding that the i-th finding added became or
// joined.
func (d *proseDedup) keptOf(i int) int { return int(d.where[i]) }

// finish returns the kept findings.
func (d *proseDedup) finish() []Finding {
	clear(d.in[len(d.out):]) // drop what the merged findings held
	clear(d.allNorms[len(d.norms):])
	return d.out
}

// onceSketch tells, of the words of a list of normalised titles (or of the
// titles themselves), some that stand in one title only: such a word never
// finds a candidate, so it is neither looked up nor posted; such a title is
// equal to no other, so it is neither looked up nor keyed. Each counts, up
// to two, in a slot picked by its hash; a slot that counts one holds one
// word of one title. One that shares its slot with another counts as shared
// and is looked up, as every one would be: the sketch changes no result,
// only the size of byWord and byKey.
type onceSketch struct {
	bits []uint64 // two bits a slot
	mask uint64
}

// onceSlots is how many slots a sketch has per title (a variable for the
// test that makes slots collide).
var onceSlots = 16

// newOnceSketch returns a sketch of at least n slots.
func newOnceSketch(n int) onceSketch {
	m := 64
	for m < n {
		m *= 2
	}
	return onceSketch{bits: make([]uint64, m/32), mask: uint64(m - 1)}
}

// countWords counts the words of a normalised title that can be keywords.
// Stop words count too: a slot they share with a keyword only makes it
// shared.
func (s *onceSketch) countWords(norm string) {
	for w := range longWords(norm) {
		s.count(wordHash(w))
	}
}

func (s *onceSketch) slot(h uint64) (*uint64, uint) {
	h &= s.mask
	return &s.bits[h/32], uint(h%32) * 2
}

// count counts one more with hash h.
func (s *onceSketch) count(h uint64) {
	p, sh := s.slot(h)
	if (*p>>sh)&3 < 2 {
		*p += 1 << sh
	}
}

// once reports whether the one with hash h stands in one title only.
func (s *onceSketch) once(h uint64) bool {
	p, sh := s.slot(h)
	return (*p>>sh)&3 == 1
}

// wordHash is FNV-1a with a final mix, so that its low bits pick slots well.
func wordHash(w string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint64(w[i])) * 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

const (
	exactDedupMax = 1000
	maxPosting    = 8
)

type proseDedup struct {
	exact bool
	out   []Finding
	in    []Finding // the findings given, which out is written over
	where []int32   // where[i]: the kept finding the i-th added became or joined
	// allNorms are the normalised titles of in; norms is written over it.
	allNorms []string
	// norms[j] is out[j]'s normalised title. ring[j%titleWindow] is its
	// title prepared for the title rule, kept for the last titleWindow kept
	// findings and made again from norms[j] for an older one compared with:
	// a prepared title is six times its text, and in a large report most
	// are never compared again. A slot of ring, like cur and old, keeps its
	// keyword list's array from title to title.
	norms []string
	ring  []Title
	cur   Title // the title being added
	byID  map[string]int
	// byKey finds kept findings by a hash of their normalised title; a hit
	// is confirmed on the title itself.
	byKey map[uint64][]int32
	seed  maphash.Seed
	// byWord numbers the keywords of kept titles (not exact only), and
	// lists[byWord[w]] are the kept findings whose titles have w.
	byWord map[string]int32
	lists  [][]int32
	words  []int32 // the list of each keyword of the title being added; -1: none yet, oneTitle
	stamp  []int32 // stamp[j] == round: out[j] already tried
	round  int32
	old    Title // an older kept title, made again
	// once and onceTitle tell the words and the titles of one finding
	// only (not exact only).
	once, onceTitle onceSketch
}

// oneTitle in words marks a keyword of the title being added only.
const oneTitle = -2

// titleWindow is how many of the last kept findings keep their prepared
// titles (a variable for the test that makes it small).
var titleWindow = 4096

// closed is the posting list of a keyword shared by more than maxPosting
// kept titles: such a word picks no candidates (see dedupProse).
var closed = make([]int32, maxPosting+1)

// add adds f, whose normalised title is norm and whose text names the
// IDs cites.
func (d *proseDedup) add(f Finding, norm string, cites ...string) {
	dup, key, single := d.find(&f, norm, cites)
	if dup < 0 {
		d.keep(f, key, single)
		return
	}
	d.where = append(d.where, int32(dup))
	if mergeProse(&d.out[dup], f) {
		d.byID[idKey(f.ID)] = dup
	}
}

// find returns the kept finding that f, whose normalised title is norm,
// repeats — the same ID, an ID among cites, the same normalised title, or
// titles alike by the title rule in another section — or -1, with what
// keep needs to keep it. Only keep may follow it for another finding.
func (d *proseDedup) find(f *Finding, norm string, cites []string) (dup int, key uint64, single bool) {
	dup = -1
	if f.ID != "" {
		if j, ok := d.byID[idKey(f.ID)]; ok {
			dup = j
		}
	}
	for _, c := range cites {
		if dup >= 0 {
			break
		}
		if j, ok := d.byID[idKey(c)]; ok {
			dup = j
		}
	}
	t := &d.cur
	t.setNorm(norm)
	key = maphash.String(d.seed, t.Norm())
	// A title of one finding only: no kept one has it, none to come will.
	single = !d.exact && d.onceTitle.once(key)
	if dup < 0 && !single {
		dup = d.sameTitle(key, t.Norm(), f.ID)
	}
	if dup < 0 {
		dup = d.fuzzy(f, t)
	}
	return dup, key, single
}

// keep keeps f, which find has just looked up.
func (d *proseDedup) keep(f Finding, key uint64, single bool) {
	t := &d.cur
	j := len(d.out)
	d.where = append(d.where, int32(j))
	d.out = append(d.out, f)
	d.norms = append(d.norms, t.Norm())
	if len(d.ring) < titleWindow {
		d.ring = append(d.ring, Title{})
	}
	d.ring[j%titleWindow].copyFrom(t)
	if f.ID != "" {
		d.byID[idKey(f.ID)] = j
	}
	if !single {
		d.byKey[key] = append(d.byKey[key], int32(j))
	}
	if !d.exact {
		d.post(j, t)
	}
}

// mergeProse merges f into g, the finding it repeats: the higher severity,
// g's ID or else f's, the references of both. It reports whether g took
// f's ID.
func mergeProse(g *Finding, f Finding) (tookID bool) {
	if f.Severity.Rank() < g.Severity.Rank() {
		g.Severity = f.Severity
	}
	g.resolved = g.resolved || f.resolved
	if g.ID == "" && f.ID != "" {
		g.ID = f.ID
		tookID = true
	}
	g.FileRefs = mergeRefs(g.FileRefs, f.FileRefs)
	return tookID
}

// title returns out[j]'s prepared title, valid until the next call.
func (d *proseDedup) title(j int) *Title {
	if j >= len(d.out)-titleWindow {
		return &d.ring[j%titleWindow]
	}
	d.old.setNorm(d.norms[j])
	return &d.old
}

// sameTitle returns the first kept finding whose normalised title is norm,
// or -1.
func (d *proseDedup) sameTitle(key uint64, norm, id string) int {
	for _, j := range d.byKey[key] {
		if d.norms[j] == norm && !distinctIDs(id, d.out[j].ID) {
			return int(j)
		}
	}
	return -1
}

// distinctIDs reports whether two findings carry IDs of their own that
// differ: the author tells them apart, whatever their titles.
func distinctIDs(a, b string) bool {
	return a != "" && b != "" && idKey(a) != idKey(b)
}

// distinctPlaces reports whether two titles each name file:line places and
// share none: `catalog.ts:225-253` and `catalog.ts:258-289` are two
// findings, though their titles are close by the title rule.
func distinctPlaces(a, b string) bool {
	ra := fileRefs(a)
	if len(ra) == 0 {
		return false
	}
	rb := fileRefs(b)
	if len(rb) == 0 {
		return false
	}
	for _, r := range ra {
		if slices.Contains(rb, r) {
			return false
		}
	}
	return true
}

// post adds out[j] to the posting lists of its keywords, which fuzzy has
// just looked up. A list that grows past maxPosting closes.
func (d *proseDedup) post(j int, t *Title) {
	d.stamp = append(d.stamp, 0)
	for i, w := range t.Keywords() {
		l := d.words[i]
		if l == oneTitle {
			continue
		}
		if l < 0 {
			l = int32(len(d.lists))
			d.byWord[w] = l // w is a part of norms[j], kept anyway
			d.lists = append(d.lists, nil)
		}
		switch p := d.lists[l]; {
		case len(p) < maxPosting:
			d.lists[l] = append(p, int32(j))
		case len(p) == maxPosting:
			d.lists[l] = closed
		}
	}
}

// fuzzy returns the first kept finding of another section whose title
// matches t by the title rule, or -1.
func (d *proseDedup) fuzzy(f *Finding, t *Title) int {
	if d.exact {
		for j := range d.out {
			if d.out[j].Section != f.Section && !distinctIDs(f.ID, d.out[j].ID) && t.Matches(d.title(j)) && !distinctPlaces(f.Title, d.out[j].Title) {
				return j
			}
		}
		return -1
	}
	d.round++
	dup := -1
	if d.byWord == nil {
		d.byWord = map[string]int32{}
	}
	d.words = d.words[:0]
	for _, w := range t.Keywords() {
		// A word of one title is never in byWord: the sketch is read only
		// for a word byWord lacks, and answers whether to post it.
		l, ok := d.byWord[w]
		if !ok {
			if d.once.once(wordHash(w)) {
				d.words = append(d.words, oneTitle)
			} else {
				d.words = append(d.words, -1)
			}
			continue
		}
		d.words = append(d.words, l)
		p := d.lists[l]
		if len(p) > maxPosting {
			continue // a common word: it tells titles apart no more than "the"
		}
		for _, j := range p {
			if d.stamp[j] == d.round || (dup >= 0 && int(j) >= dup) {
				continue
			}
			d.stamp[j] = d.round
			if d.out[j].Section != f.Section && !distinctIDs(f.ID, d.out[int(j)].ID) && t.Matches(d.title(int(j))) && !distinctPlaces(f.Title, d.out[int(j)].Title) {
				dup = int(j)
			}
		}
	}
	return dup
}
