package bus

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// readCalls records what a read hands over, entries and diagnostics in the
// order they came, stopping with errStopHere at entry number stopAt (0:
// never).
type readCalls struct {
	calls     []any
	entries   int
	stopAt    int
	stopIndex int // index in calls of the entry that stopped it
}

var errStopHere = errors.New("stop here")

func (c *readCalls) entry(e Entry) error {
	c.entries++
	c.calls = append(c.calls, e)
	if c.entries == c.stopAt {
		c.stopIndex = len(c.calls) - 1
		return errStopHere
	}
	return nil
}

func (c *readCalls) diag(d parse.Diagnostic) { c.calls = append(c.calls, d) }

// ReadMatchingAhead hands over exactly what ReadMatching does, in the same
// order: records and diagnostics interleaved, runs of either longer than a
// batch, a torn last line, with and without a filter, and when entry stops
// the reading part way (then the same calls up to that entry, none after
// it, and the same error).
func TestReadMatchingAheadIsReadMatching(t *testing.T) {
	var b bytes.Buffer
	good := benchBus(1200)
	lines := bytes.SplitAfter(good, []byte("\n"))
	for i, l := range lines {
		b.Write(l)
		switch {
		case i%97 == 5:
			b.WriteString("not json at all\n")
		case i >= 600 && i < 610:
			for range 60 { // 600 diagnostics in a row: more than a batch
				b.WriteString("{\"severity\":\n")
			}
		}
	}
	b.WriteString(`{"severity":"blocking","agent":"fd-torn"`) // no newline: not read
	path := filepath.Join(t.TempDir(), "peer-findings.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{{}, {Severity: Blocking}} {
		for _, stopAt := range []int{0, 1, 255, 256, 257, 700} {
			var plain, ahead readCalls
			plain.stopAt, ahead.stopAt = stopAt, stopAt
			pNext, pErr := ReadMatching(path, 0, 0, f, plain.entry, plain.diag)
			aNext, aErr := ReadMatchingAhead(path, 0, 0, f, ahead.entry, ahead.diag)
			if !errors.Is(aErr, pErr) && aErr != pErr {
				t.Errorf("filter %+v, stop at %d: error %v, want %v", f, stopAt, aErr, pErr)
			}
			if stopAt > 0 && plain.entries >= stopAt && len(plain.calls) != plain.stopIndex+1 {
				t.Errorf("filter %+v, stop at %d: ReadMatching made %d calls after entry's error", f, stopAt, len(plain.calls)-plain.stopIndex-1)
			}
			if !reflect.DeepEqual(ahead.calls, plain.calls) {
				t.Errorf("filter %+v, stop at %d: %d calls, want the %d of ReadMatching", f, stopAt, len(ahead.calls), len(plain.calls))
			}
			if stopAt == 0 && aNext != pNext {
				t.Errorf("filter %+v: next = %d, want %d", f, aNext, pNext)
			}
			if stopAt == 0 && f.Severity == "" && plain.entries < 1000 {
				t.Fatalf("the test bus gave only %d entries", plain.entries)
			}
		}
	}
}
