package bus

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
)

var update = flag.Bool("update", false, "rewrite the expected parts of golden files")

// renderBus renders what the decoder made of a stream, one line per entry and
// per diagnostic, in the order they were produced.
func renderBus(data []byte, maxLine int, chunk int) string {
	var b strings.Builder
	d := NewDecoder(maxLine)
	entry := func(e Entry) {
		j, err := json.Marshal(e)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "entry %d @%d %s", e.Line, e.Offset, j)
		if e.Title != "" {
			fmt.Fprintf(&b, " title=%q", e.Title)
		}
		if !e.Time.IsZero() {
			fmt.Fprintf(&b, " time=%s", e.Time.UTC().Format(time.RFC3339))
		}
		b.WriteByte('\n')
	}
	diag := func(dg parse.Diagnostic) { fmt.Fprintf(&b, "diag %s\n", dg) }
	if chunk <= 0 {
		chunk = len(data) + 1
	}
	for p := data; len(p) > 0; {
		n := min(chunk, len(p))
		d.Feed(p[:n], entry, diag)
		p = p[n:]
	}
	fmt.Fprintf(&b, "end offset=%d line=%d held=%d\n", d.Offset(), d.Line(), d.Held())
	return b.String()
}

// goldenOptions reads "max-line: N" and "no-final-newline" from an archive's
// comment.
func goldenOptions(comment []byte) (maxLine int, noFinalNewline bool) {
	for _, l := range strings.Split(string(comment), "\n") {
		switch {
		case strings.HasPrefix(l, "max-line: "):
			maxLine, _ = strconv.Atoi(strings.TrimPrefix(l, "max-line: "))
		case l == "no-final-newline":
			noFinalNewline = true
		}
	}
	return maxLine, noFinalNewline
}

// TestBusGolden runs every testdata/decode/*.txtar: the file "bus.jsonl" is fed to
// the decoder (whole, then one byte at a time, which must agree) and the
// result compared with the file "want". -update rewrites "want".
func TestBusGolden(t *testing.T) {
	txtartest.Each(t, "testdata/decode/*.txtar", func(t *testing.T, path string, ar *txtar.Archive) {
		maxLine, noNL := goldenOptions(ar.Comment)
		var input []byte
		if f := txtartest.File(ar, "bus.jsonl"); f != nil {
			input = f.Data
		}
		if noNL {
			input = bytes.TrimSuffix(input, []byte("\n"))
		}
		got := renderBus(input, maxLine, 0)
		if bytewise := renderBus(input, maxLine, 1); bytewise != got {
			t.Errorf("fed byte by byte:\n%s\nfed whole:\n%s", bytewise, got)
		}
		txtartest.Golden(t, path, ar, "want", []byte(got), *update)
	})
}

func TestDecodeAll(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		maxLine   int
		entries   int
		diags     []string // substrings, in order
		lastLine  int
		lastStart int64
	}{
		{name: "empty", in: ""},
		{name: "one newline", in: "\n"},
		{name: "crlf", in: "{\"severity\":\"notable\",\"agent\":\"a\",\"summary\":\"s\"}\r\n", entries: 1, lastLine: 1},
		{name: "incomplete tail", in: "{\"severity\":\"notable\",\"agent\":\"a\",\"summary\":\"s\"}\n{\"sev",
			entries: 1, lastLine: 1, diags: []string{"2: info: no newline yet: an incomplete record, not read"}},
		{name: "over the limit", maxLine: 10,
			in:      "{\"severity\":\"notable\",\"agent\":\"a\",\"summary\":\"s\"}\n{}\n",
			entries: 0, diags: []string{"1: error: line of 48 bytes is longer than the 10-byte limit", "2: warning: not a bus record"}},
		{name: "exactly the limit", maxLine: 48,
			in:      "{\"severity\":\"notable\",\"agent\":\"a\",\"summary\":\"s\"}\n",
			entries: 1, lastLine: 1},
		{name: "bom", in: "\xef\xbb\xbf{\"severity\":\"notable\",\"agent\":\"a\",\"summary\":\"s\"}\n", entries: 1, lastLine: 1},
		{name: "bad then good",
			in:      "nope\n{\"severity\":\"blocking\",\"agent\":\"a\",\"summary\":\"s\"}\n",
			entries: 1, lastLine: 2, lastStart: 5, diags: []string{"1:2: error: invalid JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es, ds, err := DecodeAll(strings.NewReader(tt.in), tt.maxLine)
			if err != nil {
				t.Fatal(err)
			}
			if len(es) != tt.entries {
				t.Errorf("got %d entries, want %d: %+v", len(es), tt.entries, es)
			}
			if len(es) > 0 {
				last := es[len(es)-1]
				if last.Line != tt.lastLine || last.Offset != tt.lastStart {
					t.Errorf("last entry at line %d offset %d, want %d and %d", last.Line, last.Offset, tt.lastLine, tt.lastStart)
				}
			}
			if len(ds) != len(tt.diags) {
				t.Fatalf("got diagnostics %v, want %q", ds, tt.diags)
			}
			for i, want := range tt.diags {
				if !strings.Contains(ds[i].String(), want) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, ds[i], want)
				}
			}
		})
	}
}

type errReader struct{ n int }

func (r *errReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		r.n--
		return copy(p, "{\"severity\":\"notable\",\"agent\":\"a\",\"summary\":\"s\"}\n"), nil
	}
	return 0, io.ErrUnexpectedEOF
}

func TestDecodeAllReaderError(t *testing.T) {
	es, _, err := DecodeAll(&errReader{n: 2}, 0)
	if err == nil || !strings.Contains(err.Error(), "read bus") {
		t.Fatalf("err = %v, want a read bus error", err)
	}
	if len(es) != 2 {
		t.Errorf("got %d entries before the error, want 2", len(es))
	}
}

// TestDecoderResume checks that a tailer can stop at Offset/Line and start
// a new decoder there, and that a held line is completed by a later Feed.
func TestDecoderResume(t *testing.T) {
	l1 := "{\"severity\":\"blocking\",\"agent\":\"a\",\"summary\":\"one\"}\n"
	l2 := "not json\n"
	l3 := "{\"severity\":\"notable\",\"agent\":\"b\",\"summary\":\"three\"}\n"
	all := l1 + l2 + l3

	d := NewDecoder(0)
	var got []Entry
	var diags []parse.Diagnostic
	add := func(e Entry) { got = append(got, e) }
	addD := func(dg parse.Diagnostic) { diags = append(diags, dg) }
	d.Feed([]byte(l1+l2+l3[:10]), add, addD)
	if d.Offset() != int64(len(l1+l2)) || d.Line() != 2 || d.Held() != 10 {
		t.Fatalf("after first feed: offset %d line %d held %d", d.Offset(), d.Line(), d.Held())
	}
	// A new decoder resumed at the same place, fed the rest of the file.
	r := NewDecoder(0)
	r.Resume(d.Offset(), d.Line())
	r.Feed([]byte(all[d.Offset():]), add, addD)
	// The first decoder, fed only the appended bytes.
	d.Feed([]byte(l3[10:]), add, addD)
	if len(got) != 3 {
		t.Fatalf("got %d entries, want 3", len(got))
	}
	if got[1].Line != 3 || got[2].Line != 3 || got[1].Offset != int64(len(l1+l2)) || !reflect.DeepEqual(got[1], got[2]) {
		t.Errorf("resumed entry %+v, fed entry %+v: want both at line 3 offset %d", got[1], got[2], len(l1+l2))
	}
	if len(diags) != 1 || diags[0].Line != 2 {
		t.Errorf("diagnostics %v, want one on line 2", diags)
	}
}

// TestBusLongLineBoundedMemory feeds a 64 MiB line in small pieces: the
// decoder must skip it without holding more than maxLine bytes.
func TestBusLongLineBoundedMemory(t *testing.T) {
	d := NewDecoder(1024)
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	var diags []parse.Diagnostic
	for range 1024 {
		d.Feed(chunk, nil, func(dg parse.Diagnostic) { diags = append(diags, dg) })
		if cap(d.held) > 2048 {
			t.Fatalf("decoder holds %d bytes of an over-long line", cap(d.held))
		}
	}
	var got []Entry
	d.Feed([]byte("\n{\"severity\":\"notable\",\"agent\":\"a\",\"summary\":\"s\"}\n"), func(e Entry) { got = append(got, e) },
		func(dg parse.Diagnostic) { diags = append(diags, dg) })
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "line of 67108864 bytes") {
		t.Errorf("diagnostics %v, want one about a 67108864-byte line", diags)
	}
	if len(got) != 1 || got[0].Line != 2 || got[0].Offset != 64<<20+1 {
		t.Errorf("entries after the long line: %+v", got)
	}
}

// TestBusCorpus reads every real bus file of ../shared/corpus: none may make
// the reader fail, and the known shapes must come out whole.
func TestBusCorpus(t *testing.T) {
	root := corpustest.Root(t)
	var files []string
	filepath.WalkDir(root, func(path string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() && strings.HasSuffix(path, ".jsonl") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no .jsonl files in the corpus")
	}
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			es, ds, err := DecodeAll(bytes.NewReader(data), 0)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Count(data, []byte("\n"))
			blank := 0
			for _, l := range bytes.Split(data, []byte("\n"))[:lines] {
				if len(bytes.TrimSpace(l)) == 0 {
					blank++
				}
			}
			if filepath.Base(path) == "peer-findings.jsonl" {
				// Every non-blank line of a real bus is one of the known shapes.
				if len(es) != lines-blank {
					t.Errorf("%d entries from %d non-blank lines; diagnostics: %v", len(es), lines-blank, ds)
				}
				for _, e := range es {
					if e.Agent == "" || e.Summary == "" || (e.Severity != Blocking && e.Severity != Notable) {
						t.Errorf("line %d not normalised: %+v", e.Line, e)
					}
				}
				for _, d := range ds {
					if d.Level != parse.LevelInfo {
						t.Errorf("diagnostic on a known shape: %s", d)
					}
				}
			} else if len(es)+len(ds) < lines-blank {
				t.Errorf("other-format file: %d entries and %d diagnostics for %d lines", len(es), len(ds), lines-blank)
			}
		})
	}
}
