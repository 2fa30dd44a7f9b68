package synth

import (
	"bytes"
	"errors"
	"hash/maphash"
	"io"
	"slices"
	"unsafe"
)

// JSONSplice writes findings.json as [WriteJSON] does, byte for byte, but
// copies the bytes of every finding unchanged since its previous write from
// the output of that write, instead of rendering it again. A watcher
// rewrites findings.json at every change, and most changes (a bus append)
// touch few findings or none: at 8,000 agents × 50 findings the findings
// are 381 MB of JSON, whose rendering was most of the cost of an append.
//
// A finding is unchanged when its fields are those of the finding at the
// same place in the previous write: the same strings and lists, the same
// sources and annotations (the same pointers: a synthesis handed out is
// never written again, see [Live.Synthesis]). The splice holds the previous
// write's findings, so what they point at stays alive and is not reused
// for something else, and where each finding's bytes begin and end.
//
// A JSONSplice is not safe for concurrent use.
type JSONSplice struct {
	prev []Finding
	// at[2i] and at[2i+1] are where finding i of prev begins and ends in
	// the previous output, and sum[i] is the hash of its bytes there: a
	// finding is copied only when what is read holds that.
	at   []int64
	sum  []uint64
	seed maphash.Seed
	size int64 // of the previous output; 0 once forgotten
}

// Reset forgets the previous write: the next one renders every finding.
func (sp *JSONSplice) Reset() { sp.prev, sp.at, sp.sum, sp.size = nil, nil, nil, 0 }

// Size returns the number of bytes of the previous write, 0 when none is
// kept (none made, or Reset).
func (sp *JSONSplice) Size() int64 { return sp.size }

// findingsMember is how the findings member of an empty list reads in
// findings.json: a member of the top level (indented by one level: no other
// member is, and no string holds a line break), found once in the output of
// the rest of the synthesis to put the findings there.
var findingsMember = []byte("\n  \"findings\": []")

// findingSep is what comes between two findings in the list.
const findingSep = ",\n    "

// Write writes findings.json of s to w. old, when not nil, reads the
// output of the previous Write (the caller makes sure it is that file,
// unchanged): the bytes of the findings unchanged since are read from it,
// each checked against the hash of what was written. A finding whose bytes
// there are not those (old is not the file written, or was written over)
// is rendered, and those after it too. The error is w's,
// or old's; after an error the previous write is forgotten.
func (sp *JSONSplice) Write(w io.Writer, s *Synthesis, old io.ReaderAt) (err error) {
	if old == nil || sp.size == 0 || !someSame(s.Findings, sp.prev) {
		// Nothing to copy (after a merge no finding is the same): the
		// previous findings go now, not after the new ones are written.
		sp.Reset()
	}
	if sp.seed == (maphash.Seed{}) {
		sp.seed = maphash.MakeSeed()
	}
	defer func() {
		if err != nil {
			sp.Reset()
		}
	}()
	if len(s.Findings) == 0 {
		cw := &countWriter{w: w}
		err = WriteJSON(cw, s)
		sp.Reset()
		sp.size = cw.n
		return err
	}
	rest := *s
	rest.Findings = []Finding{}
	fw := &findingsWriter{sp: sp, w: w, fs: s.Findings, old: old}
	mw := &memberWriter{w: w, fill: fw.write}
	var enc jsonEncoder
	if err := writeJSON(mw, &rest, &enc); err != nil {
		return err
	}
	if err := mw.close(); err != nil {
		return err
	}
	if !mw.found {
		return errors.New("synth: findings.json without its findings member")
	}
	sp.prev, sp.at, sp.sum, sp.size = s.Findings, fw.at, fw.sum, mw.n
	return nil
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

// memberWriter passes the output of the rest of a synthesis on to w and,
// where the empty findings member is, writes the findings instead of its
// empty list (fill, given the offset it writes at, returns how many bytes
// it wrote). n counts the bytes of the output.
type memberWriter struct {
	w     io.Writer
	fill  func(at int64) (int64, error)
	found bool
	held  []byte // the end of what came, which may begin the member
	n     int64
}

func (m *memberWriter) Write(p []byte) (int, error) {
	if m.found {
		return len(p), m.put(p)
	}
	data := append(m.held, p...)
	m.held = nil
	if i := bytes.Index(data, findingsMember); i >= 0 {
		cut := i + len(findingsMember) - len("[]")
		if err := m.put(data[:cut]); err != nil {
			return 0, err
		}
		m.found = true
		n, err := m.fill(m.n)
		m.n += n
		if err != nil {
			return 0, err
		}
		return len(p), m.put(data[cut+len("[]"):])
	}
	keep := min(len(data), len(findingsMember)-1)
	if err := m.put(data[:len(data)-keep]); err != nil {
		return 0, err
	}
	m.held = slices.Clone(data[len(data)-keep:])
	return len(p), nil
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

// findingsWriter writes the list of findings fs, each at its depth in
// findings.json (two levels down), copying from old the runs of findings
// the splice's previous write has unchanged, and notes where each begins
// and ends, and its hash.
type findingsWriter struct {
	sp  *JSONSplice
	w   io.Writer
	fs  []Finding
	old io.ReaderAt
	at  []int64
	sum []uint64
	buf []byte // what is read of old
}

func (fw *findingsWriter) write(start int64) (int64, error) {
	var enc jsonEncoder
	fw.at, fw.sum = make([]int64, 2*len(fw.fs)), make([]uint64, len(fw.fs))
	out := make([]byte, 0, 64<<10)
	n := start // where out begins
	flush := func() error {
		if len(out) == 0 {
			return nil
		}
		k, err := fw.w.Write(out)
		n += int64(k)
		out = out[:0]
		return err
	}
	out = append(out, '[')
	prev := fw.sp.prev
	if fw.old == nil {
		prev = nil
	}
	for i := 0; i < len(fw.fs); {
		if i > 0 {
			out = append(out, findingSep...)
		} else {
			out = appendNewline(out, 2)
		}
		j := i
		for j < len(fw.fs) && j < len(prev) && sameFinding(&fw.fs[j], &prev[j]) {
			j++
		}
		if j > i {
			if err := flush(); err != nil {
				return n - start, err
			}
			k, copied, err := fw.copyRun(i, j, n)
			n += k
			if err != nil {
				return n - start, err
			}
			if copied == j-i {
				i = j
				continue
			}
			// Finding i+copied is not as written: old is not the file
			// written, or was written over. The rest is rendered.
			prev = nil
			if i += copied; copied > 0 {
				out = append(out, findingSep...)
			}
		}
		fw.at[2*i] = n + int64(len(out))
		out = appendFinding(out, &fw.fs[i], 2, &enc)
		fw.at[2*i+1] = n + int64(len(out))
		fw.sum[i] = maphash.Bytes(fw.sp.seed, out[fw.at[2*i]-n:])
		if len(out) >= 64<<10 {
			if err := flush(); err != nil {
				return n - start, err
			}
		}
		i++
	}
	out = append(appendNewline(out, 1), ']')
	err := flush()
	return n - start, err
}

// copyRun copies findings i to j-1 as the previous write left them in old,
// with the separators between them, to fw.w, which is at n: each one read
// is checked against the hash of what was written, and those before the
// first that differs are written. It returns the bytes written and the
// findings copied.
func (fw *findingsWriter) copyRun(i, j int, n int64) (written int64, copied int, err error) {
	at, sum := fw.sp.at, fw.sp.sum
	for x := i; x < j; {
		// Read findings x..y-1, as many whole ones as fit (at least one).
		from := at[2*x]
		y := x + 1
		for y < j && at[2*y+1]-from <= readPiece {
			y++
		}
		size := int(at[2*(y-1)+1] - from)
		if cap(fw.buf) < size {
			fw.buf = make([]byte, max(size, readPiece))
		}
		b := fw.buf[:size]
		if _, err := fw.old.ReadAt(b, from); err != nil {
			if errors.Is(err, io.EOF) {
				err = nil // shorter than written: not the file written
			}
			return written, x - i, err
		}
		z := x
		for ; z < y; z++ {
			f := b[at[2*z]-from : at[2*z+1]-from]
			if maphash.Bytes(fw.sp.seed, f) != sum[z] || z > x && string(b[at[2*z-1]-from:at[2*z]-from]) != findingSep {
				break
			}
		}
		if z > x {
			end := at[2*(z-1)+1] - from
			if x > i {
				k, err := io.WriteString(fw.w, findingSep)
				if written += int64(k); err != nil {
					return written, x - i, err
				}
			}
			for c := x; c < z; c++ {
				fw.at[2*c], fw.at[2*c+1] = n+written+at[2*c]-from, n+written+at[2*c+1]-from
				fw.sum[c] = sum[c]
			}
			k, err := fw.w.Write(b[:end])
			if written += int64(k); err != nil {
				return written, x - i, err
			}
		}
		if z < y {
			return written, z - i, nil
		}
		x = y
	}
	return written, j - i, nil
}

// readPiece is about how much of the previous findings.json a splice
// reads at once.
const readPiece = 1 << 20

// someSame reports whether one of a few findings of fs spread over the
// list, the first and the last among them, is the one at its place in
// prev: whether a splice may copy some.
func someSame(fs, prev []Finding) bool {
	n := min(len(fs), len(prev))
	for k := 0; k <= 16 && n > 0; k++ {
		i := k * (n - 1) / 16
		if sameFinding(&fs[i], &prev[i]) {
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
