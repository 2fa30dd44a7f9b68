package synth

import (
	"bufio"
	"errors"
	"hash/maphash"
	"io"
)

// MarkdownSplice writes summary.md as [WriteMarkdown] does, byte for byte,
// but copies the sections that read only the findings (the key findings,
// the issues, the heat map, the conflicts) from its previous write while
// the findings are those it wrote (see [JSONSplice] for when a finding is
// unchanged), instead of rendering them again: at 8,000 agents × 50
// findings they are most of a 34 MB summary.md, which a watcher rendered
// at every bus append. A section is copied only when the bytes read hold
// the hash of what was written.
//
// A MarkdownSplice is not safe for concurrent use.
type MarkdownSplice struct {
	prev []Finding
	// at[2i], at[2i+1] are where section i (of mdSections) begins and
	// ends in the previous output, sum[i] the hash of its bytes there.
	at   []int64
	sum  []uint64
	seed maphash.Seed
	size int64
	buf  []byte
}

// Reset forgets the previous write: the next one renders every section.
func (ms *MarkdownSplice) Reset() { ms.prev, ms.at, ms.sum, ms.size = nil, nil, nil, 0 }

// Size returns the number of bytes of the previous write, 0 when none is
// kept.
func (ms *MarkdownSplice) Size() int64 { return ms.size }

// Write writes summary.md of s to out. old, when not nil, reads the output
// of the previous Write (the caller makes sure it is that file,
// unchanged). The error is out's or old's; after an error the previous
// write is forgotten.
func (ms *MarkdownSplice) Write(out io.Writer, s *Synthesis, old io.ReaderAt) (err error) {
	if ms.seed == (maphash.Seed{}) {
		ms.seed = maphash.MakeSeed()
	}
	same := old != nil && ms.size > 0 && len(ms.prev) == len(s.Findings)
	for i := 0; same && i < len(s.Findings); i++ {
		same = sameFinding(&s.Findings[i], &ms.prev[i])
	}
	if !same {
		ms.prev = nil // it goes now, not after the new findings are written
	}
	tee := &hashWriter{w: out, seed: ms.seed}
	w := mdWriter{bufio.NewWriterSize(tee, 64<<10)}
	at, sum := make([]int64, 2*len(mdSections)), make([]uint64, len(mdSections))
	for i, sec := range mdSections {
		if !sec.findings {
			sec.write(&w, s)
			continue
		}
		if err := w.Flush(); err != nil {
			ms.Reset()
			return err
		}
		at[2*i] = tee.n
		copied := false
		if same {
			if copied, err = ms.copySection(tee, old, i); err != nil {
				ms.Reset()
				return err
			}
		}
		if copied {
			sum[i] = ms.sum[i]
		} else {
			tee.start()
			sec.write(&w, &Synthesis{Findings: s.Findings}) // the findings, and nothing else of s
			if err := w.Flush(); err != nil {
				ms.Reset()
				return err
			}
			sum[i] = tee.stop()
		}
		at[2*i+1] = tee.n
	}
	if err := w.Flush(); err != nil {
		ms.Reset()
		return err
	}
	ms.prev, ms.at, ms.sum, ms.size = s.Findings, at, sum, tee.n
	return nil
}

// copySection copies section i of the previous write from old to w when
// the bytes there hold its hash (read once to check, then to copy), and
// reports whether it did.
func (ms *MarkdownSplice) copySection(w io.Writer, old io.ReaderAt, i int) (bool, error) {
	from, to := ms.at[2*i], ms.at[2*i+1]
	if cap(ms.buf) < readPiece {
		ms.buf = make([]byte, readPiece)
	}
	var h maphash.Hash
	h.SetSeed(ms.seed)
	for at := from; at < to; {
		b := ms.buf[:min(int64(readPiece), to-at)]
		if _, err := old.ReadAt(b, at); err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil // shorter than written: not the file written
			}
			return false, err
		}
		h.Write(b)
		at += int64(len(b))
	}
	if h.Sum64() != ms.sum[i] {
		return false, nil
	}
	_, err := io.Copy(w, io.NewSectionReader(old, from, to-from))
	return true, err
}

// hashWriter passes what is written on to w, counts it, and between start
// and stop hashes it.
type hashWriter struct {
	w       io.Writer
	n       int64
	seed    maphash.Seed
	h       maphash.Hash
	hashing bool
}

func (t *hashWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.n += int64(n)
	if t.hashing {
		t.h.Write(p[:n])
	}
	return n, err
}

func (t *hashWriter) start() {
	t.h.SetSeed(t.seed)
	t.hashing = true
}

func (t *hashWriter) stop() uint64 {
	t.hashing = false
	return t.h.Sum64()
}
