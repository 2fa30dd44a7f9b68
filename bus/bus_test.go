package bus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

func finding(agent, sev, summary string) Entry {
	return Entry{Severity: sev, Agent: agent, Category: "c", Summary: summary,
		FileRefs: []string{"a.go:1"}, Timestamp: "2026-11-20T10:00:00Z"}
}

func TestValidate(t *testing.T) {
	ok := finding("fd-a", Blocking, "s")
	tests := []struct {
		name   string
		change func(*Entry)
		want   string // "" = valid
	}{
		{"valid", func(*Entry) {}, ""},
		{"notable", func(e *Entry) { e.Severity = Notable }, ""},
		{"no timestamp", func(e *Entry) { e.Timestamp = "" }, ""},
		{"priority", func(e *Entry) { e.Priority = parse.P1 }, ""},
		{"severity", func(e *Entry) { e.Severity = "P0" }, `severity "P0"`},
		{"unknown severity", func(e *Entry) { e.Severity = Unknown }, `severity "unknown"`},
		{"stall", func(e *Entry) { e.Kind = EntryStall }, `kind "stall"`},
		{"no agent", func(e *Entry) { e.Agent = "" }, "name is empty"},
		{"traversal", func(e *Entry) { e.Agent = "../x" }, `name contains ".."`},
		{"blank summary", func(e *Entry) { e.Summary = " \n" }, "summary is empty"},
		{"timestamp", func(e *Entry) { e.Timestamp = "now" }, "not RFC 3339"},
		{"bad priority", func(e *Entry) { e.Priority = "P9" }, `priority "P9"`},
		{"empty ref", func(e *Entry) { e.FileRefs = []string{""} }, "file ref is empty"},
		{"newline ref", func(e *Entry) { e.FileRefs = []string{"a\nb"} }, "line break"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := ok
			e.FileRefs = append([]string(nil), ok.FileRefs...)
			tt.change(&e)
			err := Validate(e)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate = %v, want nil", err)
			case tt.want != "" && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate = %v, want an ErrInvalid containing %q", err, tt.want)
			}
		})
	}
}

func TestEncode(t *testing.T) {
	e := finding("fd-a", Notable, `a <b> & "c"`+"\nd")
	e.FileRefs = nil
	got := string(Encode(e))
	want := `{"severity":"notable","agent":"fd-a","category":"c","summary":"a <b> & \"c\"\nd","file_refs":[],"timestamp":"2026-11-20T10:00:00Z"}` + "\n"
	if got != want {
		t.Errorf("Encode =\n%s\nwant\n%s", got, want)
	}
}

func readAll(t *testing.T, path string, since int64) ([]Entry, []parse.Diagnostic, int64) {
	t.Helper()
	var es []Entry
	var ds []parse.Diagnostic
	next, err := Read(path, 0, since, func(e Entry) error { es = append(es, e); return nil },
		func(d parse.Diagnostic) { ds = append(ds, d) })
	if err != nil {
		t.Fatal(err)
	}
	return es, ds, next
}

func TestAppendRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "peer-findings.jsonl")
	if es, ds, next := readAll(t, path, 0); len(es) != 0 || len(ds) != 0 || next != 0 {
		t.Fatalf("missing bus: %v %v %d, want empty", es, ds, next)
	}
	var offsets []int64
	for i, sev := range []string{Blocking, Notable, Blocking} {
		off, err := Append(path, finding(fmt.Sprintf("fd-%d", i), sev, fmt.Sprintf("finding %d", i)), WriteOptions{NoSync: i != 0})
		if err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, off)
	}
	es, ds, next := readAll(t, path, 0)
	if len(ds) != 0 || len(es) != 3 {
		t.Fatalf("read %d entries, diagnostics %v", len(es), ds)
	}
	fi, _ := os.Stat(path)
	if next != fi.Size() {
		t.Errorf("next = %d, want the size %d", next, fi.Size())
	}
	for i, e := range es {
		if e.Offset != offsets[i] || e.Line != i+1 || e.Summary != fmt.Sprintf("finding %d", i) {
			t.Errorf("entry %d = %+v, want offset %d line %d", i, e, offsets[i], i+1)
		}
	}
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Errorf("no lock file beside the bus: %v", err)
	}
}

func TestAppendRefusesAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "findings.jsonl")
	if _, err := Append(path, finding("a/b", Blocking, "s"), WriteOptions{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad agent: err = %v", err)
	}
	if _, err := Append(path, finding("fd-a", Blocking, strings.Repeat("x", 200)), WriteOptions{MaxLine: 100}); !errors.Is(err, ErrInvalid) ||
		!strings.Contains(err.Error(), "over the 100-byte limit") {
		t.Fatalf("too large: err = %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an invalid record created the bus: %v", err)
	}
	if _, err := Append(filepath.Join(dir, "missing", "findings.jsonl"), finding("fd-a", Blocking, "s"), WriteOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing directory: err = %v", err)
	}
}

// TestAppendConcurrent: goroutines appending records up to 256 KiB through
// separate descriptors never tear or lose one.
func TestAppendConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "findings.jsonl")
	const writers, each = 8, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				size := 100 + (w*each+i)*1303%(256<<10)
				s := fmt.Sprintf("w%d-r%d-", w, i) + strings.Repeat(string(rune('a'+w)), size)
				if _, err := Append(path, finding(fmt.Sprintf("fd-%d", w), Notable, s), WriteOptions{}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	es, ds, _ := readAll(t, path, 0)
	if len(ds) != 0 || len(es) != writers*each {
		t.Fatalf("%d entries, diagnostics %v", len(es), ds)
	}
	seen := map[string]bool{}
	for _, e := range es {
		var w, i int
		if _, err := fmt.Sscanf(e.Summary, "w%d-r%d-", &w, &i); err != nil {
			t.Fatalf("torn summary at line %d", e.Line)
		}
		body := e.Summary[strings.LastIndexByte(e.Summary, '-')+1:]
		if strings.Trim(body, string(rune('a'+w))) != "" || len(body) != 100+(w*each+i)*1303%(256<<10) {
			t.Fatalf("record w%d r%d is not intact", w, i)
		}
		seen[fmt.Sprint(w, i)] = true
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct records, want %d", len(seen), writers*each)
	}
}

func TestReadSince(t *testing.T) {
	path := filepath.Join(t.TempDir(), "findings.jsonl")
	var offs []int64
	for i := range 3 {
		off, err := Append(path, finding("fd-a", Notable, fmt.Sprint(i)), WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		offs = append(offs, off)
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"severity":"notable","agent":"fd-a","summ`) // a record still being written
	f.Close()
	fi, _ := os.Stat(path)
	tests := []struct {
		since     int64
		first     int // summary of the first entry, -1 for none
		n         int
		firstLine int
	}{
		{0, 0, 3, 1},
		{offs[1], 1, 2, 2},
		{offs[1] - 1, 1, 2, 2}, // the newline ending line 1
		{offs[1] + 1, 2, 1, 3}, // inside line 2: it began before since
		{offs[2] + 5, -1, 0, 0},
		{fi.Size() - 3, -1, 0, 0}, // inside the incomplete record
		{fi.Size() + 100, -1, 0, 0},
	}
	for _, tt := range tests {
		es, ds, next := readAll(t, path, tt.since)
		if len(ds) != 0 {
			t.Errorf("since %d: diagnostics %v", tt.since, ds)
		}
		if len(es) != tt.n {
			t.Errorf("since %d: %d entries, want %d", tt.since, len(es), tt.n)
			continue
		}
		if tt.n > 0 && (es[0].Summary != fmt.Sprint(tt.first) || es[0].Line != tt.firstLine) {
			t.Errorf("since %d: first entry %q at line %d, want %d at line %d", tt.since, es[0].Summary, es[0].Line, tt.first, tt.firstLine)
		}
		if tt.since <= offs[2] && next != offs[2]+(offs[2]-offs[1]) {
			t.Errorf("since %d: next = %d, want the end of the last complete line", tt.since, next)
		}
	}
}

// A tail started past the end of a bus that ends with a whole line is at
// the end: every record appended after it is read, the first included
// (it used to be skipped, as if since fell inside it); past the end of a
// bus whose last line is still being written, that line is left out.
func TestTailStartPastEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "findings.jsonl")
	if _, err := Append(path, finding("fd-a", Notable, "old"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	poll := func(tl *Tail) []string {
		var got []string
		if err := tl.Poll(func(e Entry) error { got = append(got, e.Summary); return nil }, nil); err != nil {
			t.Fatal(err)
		}
		return got
	}
	tl := NewTail(path, 0)
	if err := tl.StartAt(100000); err != nil {
		t.Fatal(err)
	}
	if got := poll(tl); len(got) != 0 {
		t.Fatalf("before any append: %v", got)
	}
	for _, s := range []string{"new1", "new2"} {
		if _, err := Append(path, finding("fd-a", Notable, s), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := poll(tl); !slices.Equal(got, []string{"new1", "new2"}) {
		t.Errorf("after the appends: %v, want new1 and new2", got)
	}

	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"severity":"notable","agent":"fd-a","summary":"torn`) // being written
	f.Close()
	tl = NewTail(path, 0)
	if err := tl.StartAt(100000); err != nil {
		t.Fatal(err)
	}
	f, _ = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`"}` + "\n")
	f.Close()
	if _, err := Append(path, finding("fd-a", Notable, "after"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := poll(tl); !slices.Equal(got, []string{"after"}) {
		t.Errorf("past a line being written: %v, want only the record after it", got)
	}
}

// A bus rewritten in place (or removed and made again, which may reuse the
// inode number) that has grown past the tail's offset by its next poll is
// read again from the start, with a warning, even when a line ends at that
// offset in the new content too: every record of the new content is read.
// Before, only the lines past the old offset were, the others lost.
func TestTailRewrittenInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "findings.jsonl")
	line := func(s string) string {
		return `{"severity":"notable","agent":"fd-n","summary":"` + s + `"}` + "\n"
	}
	os.WriteFile(path, []byte(line("A1")+line("A2")), 0o644)
	tl := NewTail(path, 0)
	poll := func() (got []string, warned bool) {
		err := tl.Poll(func(e Entry) error { got = append(got, e.Summary); return nil },
			func(d parse.Diagnostic) { warned = warned || strings.Contains(d.Message, "rewritten") })
		if err != nil {
			t.Fatal(err)
		}
		return got, warned
	}
	if got, _ := poll(); !slices.Equal(got, []string{"A1", "A2"}) {
		t.Fatalf("first poll: %v", got)
	}
	// Same line lengths: a newline stands where the old offset was.
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	f.WriteString(line("B1") + line("B2") + line("B3"))
	f.Close()
	if got, warned := poll(); !warned || !slices.Equal(got, []string{"B1", "B2", "B3"}) {
		t.Errorf("after the rewrite: %v, warned %v; want B1, B2, B3 and a warning", got, warned)
	}
	if got, warned := poll(); warned || len(got) != 0 {
		t.Errorf("nothing changed: %v, warned %v", got, warned)
	}
	if _, err := Append(path, finding("fd-a", Notable, "C"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, warned := poll(); warned || !slices.Equal(got, []string{"C"}) {
		t.Errorf("an append: %v, warned %v; want C alone", got, warned)
	}
}

func TestTail(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "peer-findings.jsonl")
	tail := NewTail(path, 0)
	var es []Entry
	var ds []parse.Diagnostic
	poll := func() {
		t.Helper()
		if err := tail.Poll(func(e Entry) error { es = append(es, e); return nil },
			func(d parse.Diagnostic) { ds = append(ds, d) }); err != nil {
			t.Fatal(err)
		}
	}
	poll() // missing: empty
	line := Encode(finding("fd-a", Blocking, "one"))
	os.WriteFile(path, append(line, line[:10]...), 0o644)
	poll()
	if len(es) != 1 {
		t.Fatalf("after one line and a half: %d entries", len(es))
	}
	if tail.Held() != 10 || tail.Restarts() != 0 {
		t.Errorf("after one line and a half: Held %d, Restarts %d; want 10, 0", tail.Held(), tail.Restarts())
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(line[10:])
	f.Close()
	poll()
	if len(es) != 2 || es[1].Line != 2 || es[1].Offset != int64(len(line)) {
		t.Fatalf("after completing the line: %+v", es)
	}
	if off, n := tail.Offset(); off != int64(2*len(line)) || n != 2 {
		t.Errorf("Offset = %d, %d", off, n)
	}

	// Truncated and rewritten shorter: read again from the start.
	os.WriteFile(path, Encode(finding("fd-b", Notable, "new")), 0o644)
	poll()
	if len(es) != 3 || es[2].Agent != "fd-b" || es[2].Line != 1 || len(ds) != 1 || !strings.Contains(ds[0].Message, "shrank") {
		t.Fatalf("after truncation: entries %+v diagnostics %v", es, ds)
	}
	if ds[0].Path != path {
		t.Errorf("diagnostic path %q, want %q", ds[0].Path, path)
	}
	if tail.Restarts() != 1 || tail.Held() != 0 {
		t.Errorf("after truncation: Restarts %d, Held %d; want 1, 0", tail.Restarts(), tail.Held())
	}

	// Replaced by a rename: read again from the start.
	tmp := filepath.Join(dir, "tmp")
	os.WriteFile(tmp, bytes.Repeat(Encode(finding("fd-c", Notable, "replaced")), 2), 0o644)
	os.Rename(tmp, path)
	poll()
	if len(es) != 5 || es[3].Agent != "fd-c" || len(ds) != 2 || !strings.Contains(ds[1].Message, "new inode") {
		t.Fatalf("after replacement: entries %d, diagnostics %v", len(es), ds)
	}

	// Nothing new: nothing read.
	poll()
	if len(es) != 5 || len(ds) != 2 || tail.Restarts() != 2 {
		t.Errorf("an idle poll produced %d entries, %d diagnostics, Restarts %d", len(es)-5, len(ds)-2, tail.Restarts())
	}

	// Removed: the next entries start again from the first line.
	os.Remove(path)
	poll()
	if tail.Restarts() != 3 {
		t.Errorf("after removal: Restarts %d, want 3", tail.Restarts())
	}
}

func TestFollow(t *testing.T) {
	for _, notify := range []bool{true, false} {
		t.Run(fmt.Sprintf("fsnotify=%v", notify), func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "findings.jsonl"), filepath.Join(dir, "peer-findings.jsonl")
			if _, err := Append(a, finding("fd-a", Blocking, "before"), WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			got := make(chan Entry, 10)
			done := make(chan error)
			go func() {
				done <- follow(ctx, []*Tail{NewTail(a, 0), NewTail(b, 0)}, 20*time.Millisecond, notify,
					func(e Entry) error { got <- e; return nil }, nil)
			}()
			want := []string{"before", "into b", "into a"}
			for i, s := range want {
				switch i {
				case 1:
					Append(b, finding("fd-b", Notable, s), WriteOptions{})
				case 2:
					Append(a, finding("fd-a", Notable, s), WriteOptions{})
				}
				select {
				case e := <-got:
					if e.Summary != s {
						t.Fatalf("entry %d: %q, want %q", i, e.Summary, s)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("entry %q never arrived", s)
				}
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Follow = %v after cancel, want nil", err)
			}
		})
	}
}

func TestFollowStopsOnEntryError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "findings.jsonl")
	Append(path, finding("fd-a", Blocking, "x"), WriteOptions{})
	stop := errors.New("stdout closed")
	err := Follow(context.Background(), []*Tail{NewTail(path, 0)}, time.Hour,
		func(Entry) error { return stop }, nil)
	if !errors.Is(err, stop) {
		t.Errorf("Follow = %v, want %v", err, stop)
	}
}

func TestFilter(t *testing.T) {
	stall := Entry{Kind: EntryStall, Severity: "warn", Agent: "fd-a"}
	blocking := finding("fd-a", Blocking, "s")
	notable := finding("fd-b", Notable, "s")
	tests := []struct {
		f    Filter
		want []bool // stall, blocking, notable
	}{
		{Filter{}, []bool{true, true, true}},
		{Filter{Severity: All}, []bool{true, true, true}},
		{Filter{Severity: Blocking}, []bool{false, true, false}},
		{Filter{Severity: Notable}, []bool{false, false, true}},
		{Filter{Agent: "fd-a"}, []bool{true, true, false}},
		{Filter{Severity: Notable, Agent: "fd-a"}, []bool{false, false, false}},
	}
	for _, tt := range tests {
		for i, e := range []Entry{stall, blocking, notable} {
			if got := tt.f.Match(e); got != tt.want[i] {
				t.Errorf("%+v.Match(entry %d) = %v", tt.f, i, got)
			}
		}
	}
}

// TestDecodeBatches: the entries come in file order, in batches of at most
// BatchSize, the same as DecodeAll's, with the same diagnostics.
func TestDecodeBatches(t *testing.T) {
	var b bytes.Buffer
	n := 2*BatchSize + 3
	for i := range n {
		b.Write(Encode(finding("fd-a", Notable, fmt.Sprintf("f%d", i))))
		if i == 7 {
			b.WriteString("not json\n")
		}
	}
	b.WriteString(`{"sev`)
	wantEs, wantDs, _ := DecodeAll(bytes.NewReader(b.Bytes()), 0)
	var got []Entry
	batches := 0
	ds, err := DecodeBatches(bytes.NewReader(b.Bytes()), 0, func(batch []Entry) {
		if len(batch) == 0 || len(batch) > BatchSize {
			t.Errorf("a batch of %d entries", len(batch))
		}
		batches++
		got = append(got, batch...)
	})
	if err != nil {
		t.Fatal(err)
	}
	if batches != 3 || len(got) != n || fmt.Sprint(got) != fmt.Sprint(wantEs) || fmt.Sprint(ds) != fmt.Sprint(wantDs) {
		t.Errorf("%d batches, %d entries, diagnostics %v; want 3, %d and %v", batches, len(got), ds, n, wantDs)
	}
}
