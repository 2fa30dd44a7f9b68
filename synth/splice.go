package synth

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"reflect"
	"slices"
	"unsafe"
)

// JSONSplice writes findings.json as [WriteJSON] does, byte for byte, but
// copies the bytes of every finding unchanged since its previous write from
// the output of that write, instead of rendering it again. A watcher
// rewrites findings.json at every change, and most changes (a bus append)
// touch few findings or none: at 8,000 agents × 50 findings the findings
// are 381 MB of JSON, whose rendering was most of the cost of an append.
// The two other large lists are copied the same way: the agents (20 MB at
// that size) and the timeline's unacknowledged entries (most of its 25 MB:
// each names every completed agent that did not acknowledge it), which an
// append leaves the same but for the entry it adds and the one it pushes out.
//
// A finding is unchanged when its fields are those of the finding at the
// same place in the previous write: the same strings and lists, the same
// sources and annotations (the same pointers: a synthesis handed out is
// never written again, see [Live.Synthesis]). An agent is unchanged when
// it equals (reflect.DeepEqual) the previous write's agent of its name, an
// unacknowledged entry when it has the sequence number, agent, summary and
// agents of one written. The splice holds the previous write's lists, so
// what they point at stays alive and is not reused for something else, and
// where each item's bytes begin and end.
//
// A JSONSplice is not safe for concurrent use.
type JSONSplice struct {
	findings listMemo[Finding]
	agents   listMemo[AgentResult]
	unacked  listMemo[Unacknowledged]
	seed     maphash.Seed
	size     int64 // of the previous output; 0 once forgotten
}

// listMemo is what a splice keeps of one list of its previous write: the
// items, where each begins and ends in the output (at[2i], at[2i+1]) and
// the hash of its bytes there (sum[i]): an item is copied only when what
// is read holds that.
type listMemo[T any] struct {
	prev []T
	at   []int64
	sum  []uint64
}

func (m *listMemo[T]) forget() { *m = listMemo[T]{} }

// Reset forgets the previous write: the next one renders every finding.
func (sp *JSONSplice) Reset() {
	sp.findings.forget()
	sp.agents.forget()
	sp.unacked.forget()
	sp.size = 0
}

// Size returns the number of bytes of the previous write, 0 when none is
// kept (none made, or Reset).
func (sp *JSONSplice) Size() int64 { return sp.size }

// The members of the large lists as they read in findings.json when the
// list is empty: members of one object each, at their depth (no string
// holds a line break), found in that order in the output of the rest of
// the synthesis to put the lists there. The timeline's members are two
// levels down, and come after the findings: the first member of that name
// and depth after them is the timeline's.
var (
	agentsMember   = []byte("\n  \"agents\": []")
	findingsMember = []byte("\n  \"findings\": []")
	unackedMember  = []byte("\n    \"unacknowledged\": []")
)

// Write writes findings.json of s to w. old, when not nil, reads the
// output of the previous Write (the caller makes sure it is that file,
// unchanged): the bytes of the findings, agents and unacknowledged entries
// unchanged since are read from it, each checked against the hash of what
// was written. An item whose bytes there are not those (old is not the
// file written, or was written over) is rendered, and every item after it
// too. The error is w's, or old's; after an error the previous write is
// forgotten.
func (sp *JSONSplice) Write(w io.Writer, s *Synthesis, old io.ReaderAt) (err error) {
	if old == nil || sp.size == 0 {
		sp.Reset()
	} else if !someSame(s.Findings, sp.findings.prev) {
		// No finding to copy (none of a few spread over the list, looked
		// up by key, renders as one written): the previous findings go
		// now, not after the new ones are written.
		sp.findings.forget()
	}
	if sp.seed == (maphash.Seed{}) {
		sp.seed = maphash.MakeSeed()
	}
	defer func() {
		if err != nil {
			sp.Reset()
		}
	}()
	st := &spliceState{seed: sp.seed, old: old}
	rest := *s
	var members []listMember
	var (
		aw *listWriter[AgentResult]
		fw *listWriter[Finding]
		uw *listWriter[Unacknowledged]
	)
	if len(s.Agents) > 0 {
		rest.Agents = []AgentResult{}
		aw = &listWriter[AgentResult]{st: st, w: w, memo: &sp.agents, items: s.Agents, depth: 2,
			from: agentsFrom(s.Agents, sp.agents.prev), render: renderValue[AgentResult](1)}
		members = append(members, listMember{agentsMember, aw.write})
	}
	if len(s.Findings) > 0 {
		rest.Findings = []Finding{}
		prev := sp.findings.prev
		fw = &listWriter[Finding]{st: st, w: w, memo: &sp.findings, items: s.Findings, depth: 2,
			from: findingsFrom(s.Findings, prev),
			render: func(dst []byte, f *Finding, depth int, enc *jsonEncoder) []byte {
				return appendFinding(dst, f, depth, enc)
			},
			patched: func(i, p int) bool {
				return s.Findings[i].ConvergenceDisplay != prev[p].ConvergenceDisplay
			},
			patch: func(dst []byte, i, p int, piece []byte) ([]byte, bool) {
				return patchDisplay(dst, piece, prev[p].ConvergenceDisplay, s.Findings[i].ConvergenceDisplay)
			}}
		members = append(members, listMember{findingsMember, fw.write})
	}
	if s.Timeline != nil && len(s.Timeline.Unacknowledged) > 0 {
		tl := *s.Timeline
		tl.Unacknowledged = []Unacknowledged{}
		rest.Timeline = &tl
		uw = &listWriter[Unacknowledged]{st: st, w: w, memo: &sp.unacked, items: s.Timeline.Unacknowledged, depth: 3,
			from: unackedFrom(s.Timeline.Unacknowledged, sp.unacked.prev), render: renderValue[Unacknowledged](0)}
		members = append(members, listMember{unackedMember, uw.write})
	}
	mw := &memberWriter{w: w, members: members}
	var enc jsonEncoder
	if err := writeJSON(mw, &rest, &enc); err != nil {
		return err
	}
	if err := mw.close(); err != nil {
		return err
	}
	if mw.next < len(members) {
		return fmt.Errorf("synth: findings.json without its member %q", bytes.TrimSpace(members[mw.next].pattern))
	}
	aw.keep()
	fw.keep()
	uw.keep()
	sp.size = mw.n
	return nil
}

// spliceState is what the lists of one Write share: the previous output,
// and whether an item read there was not as written (then nothing more is
// read of it).
type spliceState struct {
	seed  maphash.Seed
	old   io.ReaderAt
	stale bool
	buf   []byte // what is read of old
}

// findingsFrom returns, for the finding at i of fs, the index of the
// finding of the previous write prev that renders as it does but perhaps
// for its convergence_display, or -1. After a bus append it is the finding
// at its place, the same (sameFinding); after a merge (an agent completed:
// every display changes, N/M with M one more) findings are new values and
// move, and the one of its key (a key is one merged finding's) is compared
// field by field (equalFinding).
func findingsFrom(fs, prev []Finding) func(i int) int {
	var byKey map[string]int
	return func(i int) int {
		f := &fs[i]
		j := i
		if j >= len(prev) || prev[j].Key != f.Key {
			if byKey == nil {
				byKey = make(map[string]int, len(prev))
				for k := range prev {
					byKey[prev[k].Key] = k
				}
			}
			var ok bool
			if j, ok = byKey[f.Key]; !ok {
				return -1
			}
		}
		if sameFinding(f, &prev[j]) || equalFinding(f, &prev[j]) {
			return j
		}
		return -1
	}
}

// displayMember is how a finding's convergence_display member begins in
// findings.json, the finding being an item of the findings list.
const displayMember = "\n      \"convergence_display\": "

// patchDisplay appends piece, the bytes of a finding whose
// convergence_display was old, with that display made now. ok is false
// when piece holds no such member.
func patchDisplay(dst, piece []byte, old, now string) (_ []byte, ok bool) {
	k := bytes.Index(piece, []byte(displayMember))
	if k < 0 {
		return dst, false
	}
	v := k + len(displayMember)
	start := len(dst)
	dst = appendJSONString(dst, old)
	was := len(dst) - start
	if !bytes.HasPrefix(piece[v:], dst[start:]) {
		return dst[:start], false
	}
	dst = append(dst[:start], piece[:v]...)
	dst = appendJSONString(dst, now)
	return append(dst, piece[v+was:]...), true
}

// equalFinding reports whether f renders as g does but perhaps for its
// convergence_display: sameFinding for findings that are equal values but
// not the same ones (a merge makes them again).
func equalFinding(f, g *Finding) bool {
	if f.ID != g.ID || f.Key != g.Key || f.Fingerprint != g.Fingerprint || f.Severity != g.Severity ||
		f.Section != g.Section || f.Title != g.Title || f.Convergence != g.Convergence || f.Confidence != g.Confidence ||
		f.Independent != g.Independent || !equalStrings(f.Agents, g.Agents) || !equalStrings(f.FileRefs, g.FileRefs) ||
		len(f.Sources) != len(g.Sources) || (f.Sources == nil) != (g.Sources == nil) {
		return false
	}
	for k := range f.Sources {
		a, b := &f.Sources[k], &g.Sources[k]
		if a.Agent != b.Agent || a.ID != b.ID || a.Severity != b.Severity || a.Ref != b.Ref || a.Confidence != b.Confidence ||
			a.Section != b.Section || a.Title != b.Title || !equalStrings(a.FileRefs, b.FileRefs) {
			return false
		}
	}
	return f.more == g.more || equalMore(f.m(), g.m())
}

// equalStrings is slices.Equal that tells nil from empty (null from []).
func equalStrings(a, b []string) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// equalMore reports whether the annotations a and b render alike.
func equalMore(a, b *findingMore) bool {
	if (a.severityConflict == nil) != (b.severityConflict == nil) || !maps.Equal(a.severityConflict, b.severityConflict) ||
		(a.coLocatedWith == nil) != (b.coLocatedWith == nil) || !slices.Equal(a.coLocatedWith, b.coLocatedWith) ||
		(a.primed == nil) != (b.primed == nil) || !slices.Equal(a.primed, b.primed) ||
		!equalPtr(a.discoveredBy, b.discoveredBy) || !equalPtr(a.baseline, b.baseline) || !equalPtr(a.suppressed, b.suppressed) ||
		(a.crossReferences == nil) != (b.crossReferences == nil) || len(a.crossReferences) != len(b.crossReferences) ||
		(a.provenance == nil) != (b.provenance == nil) || len(a.provenance) != len(b.provenance) ||
		a.evidence != b.evidence && !reflect.DeepEqual(a.evidence, b.evidence) {
		return false
	}
	for k := range a.crossReferences {
		x, y := &a.crossReferences[k], &b.crossReferences[k]
		if x.Ref != y.Ref || !equalStrings(x.Agents, y.Agents) {
			return false
		}
	}
	for k := range a.provenance {
		if x, y := a.provenance[k], b.provenance[k]; x != y && !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// equalPtr reports whether a and b are both nil or point at equal values.
func equalPtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// agentsFrom returns, for the agent at i of as, the index of the agent of
// its name in prev when it is equal, or -1.
func agentsFrom(as, prev []AgentResult) func(i int) int {
	var byName map[string]int
	return func(i int) int {
		a := &as[i]
		j := i
		if j >= len(prev) || prev[j].Name != a.Name {
			if byName == nil {
				byName = make(map[string]int, len(prev))
				for k := len(prev) - 1; k >= 0; k-- {
					byName[prev[k].Name] = k
				}
			}
			var ok bool
			if j, ok = byName[a.Name]; !ok {
				return -1
			}
		}
		if !reflect.DeepEqual(a, &prev[j]) {
			return -1
		}
		return j
	}
}

// unackedFrom returns, for the unacknowledged entry at i of us, the index
// of the same one in prev (by its sequence number), or -1.
func unackedFrom(us, prev []Unacknowledged) func(i int) int {
	var bySeq map[int]int
	return func(i int) int {
		u := &us[i]
		j := i
		if j >= len(prev) || prev[j].Seq != u.Seq {
			if bySeq == nil {
				bySeq = make(map[int]int, len(prev))
				for k := len(prev) - 1; k >= 0; k-- {
					bySeq[prev[k].Seq] = k
				}
			}
			var ok bool
			if j, ok = bySeq[u.Seq]; !ok {
				return -1
			}
		}
		p := &prev[j]
		if p.Seq != u.Seq || p.Agent != u.Agent || p.Summary != u.Summary || (p.By == nil) != (u.By == nil) ||
			!sameList(p.By, u.By) && !slices.Equal(p.By, u.By) {
			return -1
		}
		return j
	}
}

// renderValue returns a renderer of an item as writeJSON writes it, taken
// apart parts levels down.
func renderValue[T any](parts int) func(dst []byte, v *T, depth int, enc *jsonEncoder) []byte {
	var b bytes.Buffer
	return func(dst []byte, v *T, depth int, enc *jsonEncoder) []byte {
		b.Reset()
		jw := jsonWriter{w: &b, enc: enc}
		jw.value(reflect.ValueOf(v).Elem(), depth, parts)
		jw.flush()
		return append(dst, b.Bytes()...)
	}
}

// countWriter counts what it passes on to w.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// listMember is a list's empty member to find in the output of the rest of a
// synthesis, and what writes the list instead of its empty one: fill,
// given the offset it writes at, returns how many bytes it wrote.
type listMember struct {
	pattern []byte
	fill    func(at int64) (int64, error)
}

// memberWriter passes the output of the rest of a synthesis on to w and,
// where each member is (in their order), writes its list instead of the
// empty one. n counts the bytes of the output.
type memberWriter struct {
	w       io.Writer
	members []listMember
	next    int    // the member to find next
	held    []byte // the end of what came, which may begin it
	n       int64
}

func (m *memberWriter) Write(p []byte) (int, error) {
	if m.next == len(m.members) {
		return len(p), m.put(p)
	}
	data := append(m.held, p...)
	m.held = nil
	for m.next < len(m.members) {
		mb := m.members[m.next]
		i := bytes.Index(data, mb.pattern)
		if i < 0 {
			keep := min(len(data), len(mb.pattern)-1)
			if err := m.put(data[:len(data)-keep]); err != nil {
				return 0, err
			}
			m.held = slices.Clone(data[len(data)-keep:])
			return len(p), nil
		}
		cut := i + len(mb.pattern) - len("[]")
		if err := m.put(data[:cut]); err != nil {
			return 0, err
		}
		m.next++
		n, err := mb.fill(m.n)
		m.n += n
		if err != nil {
			return 0, err
		}
		data = data[cut+len("[]"):]
	}
	return len(p), m.put(data)
}

// close writes what is held.
func (m *memberWriter) close() error {
	err := m.put(m.held)
	m.held = nil
	return err
}

func (m *memberWriter) put(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	n, err := m.w.Write(p)
	m.n += int64(n)
	return err
}

// listWriter writes a list of items, each at depth (the list's member is
// one level up), copying from the previous output the runs of items that
// the previous write has the same (from: the index of the previous write's
// item that item i is, or -1), and notes where each begins and ends, and
// its hash.
type listWriter[T any] struct {
	st     *spliceState
	w      io.Writer
	memo   *listMemo[T]
	items  []T
	depth  int
	from   func(i int) int
	render func(dst []byte, v *T, depth int, enc *jsonEncoder) []byte
	// patched, when not nil, says whether item i, the previous write's
	// item p, is written otherwise than p was, and patch appends what is
	// written of it given p's bytes (ok false: they are not p's).
	patched func(i, p int) bool
	patch   func(dst []byte, i, p int, piece []byte) ([]byte, bool)
	pbuf    []byte // patched items to write
	at      []int64
	sum     []uint64
	done    bool
}

// keep makes what lw wrote the previous write of its list.
func (lw *listWriter[T]) keep() {
	if lw != nil && lw.done {
		lw.memo.prev, lw.memo.at, lw.memo.sum = lw.items, lw.at, lw.sum
	}
}

func (lw *listWriter[T]) write(start int64) (int64, error) {
	var enc jsonEncoder
	lw.at, lw.sum = make([]int64, 2*len(lw.items)), make([]uint64, len(lw.items))
	sep := string(appendNewline([]byte{','}, lw.depth))
	out := make([]byte, 0, 64<<10)
	n := start // where out begins
	flush := func() error {
		if len(out) == 0 {
			return nil
		}
		k, err := lw.w.Write(out)
		n += int64(k)
		out = out[:0]
		return err
	}
	out = append(out, '[')
	copying := lw.st.old != nil && len(lw.memo.prev) > 0
	for i := 0; i < len(lw.items); {
		if i > 0 {
			out = append(out, sep...)
		} else {
			out = appendNewline(out, lw.depth)
		}
		if copying && !lw.st.stale {
			if p := lw.from(i); p >= 0 {
				// The run of items i.. that are items p.. of the previous write.
				j := i + 1
				for j < len(lw.items) && p+j-i < len(lw.memo.prev) && lw.from(j) == p+j-i {
					j++
				}
				if err := flush(); err != nil {
					return n - start, err
				}
				k, copied, err := lw.copyRun(i, p, j-i, n, sep)
				n += k
				if err != nil {
					return n - start, err
				}
				if copied == j-i {
					i = j
					continue
				}
				// Item i+copied is not as written: old is not the file
				// written, or was written over. The rest is rendered.
				lw.st.stale = true
				if i += copied; copied > 0 {
					out = append(out, sep...)
				}
			}
		}
		lw.at[2*i] = n + int64(len(out))
		out = lw.render(out, &lw.items[i], lw.depth, &enc)
		lw.at[2*i+1] = n + int64(len(out))
		lw.sum[i] = maphash.Bytes(lw.st.seed, out[lw.at[2*i]-n:])
		if len(out) >= 64<<10 {
			if err := flush(); err != nil {
				return n - start, err
			}
		}
		i++
	}
	out = append(appendNewline(out, lw.depth-1), ']')
	err := flush()
	lw.done = err == nil
	return n - start, err
}

// copyRun copies the previous write's items p to p+count-1, as it left
// them in old, with the separators between them, to lw.w, which is at n,
// as items i to i+count-1: each one read is checked against the hash of
// what was written, and those before the first that differs are written.
// It returns the bytes written and the items copied.
func (lw *listWriter[T]) copyRun(i, p, count int, n int64, sep string) (written int64, copied int, err error) {
	at, sum := lw.memo.at, lw.memo.sum
	st := lw.st
	for x := p; x < p+count; {
		// Read items x..y-1, as many whole ones as fit (at least one).
		from := at[2*x]
		y := x + 1
		for y < p+count && at[2*y+1]-from <= readPiece {
			y++
		}
		size := int(at[2*(y-1)+1] - from)
		if cap(st.buf) < size {
			st.buf = make([]byte, max(size, readPiece))
		}
		b := st.buf[:size]
		if _, err := st.old.ReadAt(b, from); err != nil {
			if errors.Is(err, io.EOF) {
				err = nil // shorter than written: not the file written
			}
			return written, x - p, err
		}
		z := x
		for ; z < y; z++ {
			f := b[at[2*z]-from : at[2*z+1]-from]
			if maphash.Bytes(st.seed, f) != sum[z] || z > x && string(b[at[2*z-1]-from:at[2*z]-from]) != sep {
				break
			}
		}
		if z > x && lw.patched != nil && lw.anyPatched(i, p, x, z) {
			k, c, err := lw.copyPatched(b, from, i, p, x, z, n+written, sep)
			if written += k; err != nil || c < z-x {
				return written, x - p + c, err
			}
		} else if z > x {
			end := at[2*(z-1)+1] - from
			if x > p {
				k, err := io.WriteString(lw.w, sep)
				if written += int64(k); err != nil {
					return written, x - p, err
				}
			}
			for c := x; c < z; c++ {
				d := i + c - p
				lw.at[2*d], lw.at[2*d+1] = n+written+at[2*c]-from, n+written+at[2*c+1]-from
				lw.sum[d] = sum[c]
			}
			k, err := lw.w.Write(b[:end])
			if written += int64(k); err != nil {
				return written, x - p, err
			}
		}
		if z < y {
			return written, z - p, nil
		}
		x = y
	}
	return written, count, nil
}

// anyPatched reports whether one of the previous write's items x..z-1,
// items x-p+i.. now, is written otherwise.
func (lw *listWriter[T]) anyPatched(i, p, x, z int) bool {
	for c := x; c < z; c++ {
		if lw.patched(i+c-p, c) {
			return true
		}
	}
	return false
}

// copyPatched writes the previous write's items x..z-1, whose bytes are
// in b (which begins at from of the previous output), as items x-p+i..,
// each patched, to lw.w, which is at n, with a separator before each but
// item p. It returns the bytes written and the items written: fewer when
// one's bytes are not those of the item written (nothing of it written).
func (lw *listWriter[T]) copyPatched(b []byte, from int64, i, p, x, z int, n int64, sep string) (written int64, copied int, err error) {
	at, sum := lw.memo.at, lw.memo.sum
	out := lw.pbuf[:0]
	flush := func() error {
		k, err := lw.w.Write(out)
		written += int64(k)
		out = out[:0]
		return err
	}
	defer func() { lw.pbuf = out[:0] }()
	for c := x; c < z; c++ {
		d := i + c - p
		mark := len(out)
		if c > p {
			out = append(out, sep...)
		}
		start := len(out)
		piece := b[at[2*c]-from : at[2*c+1]-from]
		if !lw.patched(d, c) {
			out = append(out, piece...)
			lw.sum[d] = sum[c]
		} else {
			var ok bool
			if out, ok = lw.patch(out, d, c, piece); !ok {
				out = out[:mark]
				return written, c - x, flush()
			}
			lw.sum[d] = maphash.Bytes(lw.st.seed, out[start:])
		}
		lw.at[2*d], lw.at[2*d+1] = n+written+int64(start), n+written+int64(len(out))
		if len(out) >= 64<<10 {
			if err := flush(); err != nil {
				return written, c + 1 - x, err
			}
		}
	}
	return written, z - x, flush()
}

// readPiece is about how much of the previous findings.json a splice
// reads at once.
const readPiece = 1 << 20

// someSame reports whether one of a few findings of fs spread over the
// list, the first and the last among them, renders as the finding of its
// key in prev did, perhaps but for its convergence_display: whether a
// splice may copy some.
func someSame(fs, prev []Finding) bool {
	n := len(fs)
	if n == 0 || len(prev) == 0 {
		return false
	}
	for k := 0; k <= 16; k++ {
		i := k * (n - 1) / 16
		if i < len(prev) && sameFinding(&fs[i], &prev[i]) {
			return true
		}
	}
	keys := make(map[string]int, 17)
	for k := 0; k <= 16; k++ {
		keys[fs[k*(n-1)/16].Key] = k * (n - 1) / 16
	}
	for j := range prev {
		if i, ok := keys[prev[j].Key]; ok && equalFinding(&fs[i], &prev[j]) {
			return true
		}
	}
	return false
}

// sameFinding reports whether f renders as g did: the same values, lists
// and annotations, those behind pointers by identity (never written again
// once handed out).
func sameFinding(f, g *Finding) bool {
	return f.ID == g.ID && f.Key == g.Key && f.Fingerprint == g.Fingerprint && f.Severity == g.Severity &&
		f.Section == g.Section && f.Title == g.Title && slices.Equal(f.Agents, g.Agents) &&
		sameList(f.Sources, g.Sources) && f.Convergence == g.Convergence &&
		f.ConvergenceDisplay == g.ConvergenceDisplay && f.Confidence == g.Confidence &&
		slices.Equal(f.FileRefs, g.FileRefs) && f.Independent == g.Independent && f.more == g.more
}

// sameList reports whether a and b are the same list: the same array, the
// same length.
func sameList[T any](a, b []T) bool {
	return len(a) == len(b) && (a == nil) == (b == nil) && unsafe.SliceData(a) == unsafe.SliceData(b)
}
