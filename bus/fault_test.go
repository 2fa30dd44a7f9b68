package bus

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// TestAppendEndsDanglingFragment: a writer killed mid-line leaves bytes with
// no newline; the next Append ends them with one before its own line, so the
// fragment is one invalid line and the new record is read whole (SPEC §3).
// Nothing is truncated: the fragment's bytes stay where readers saw them.
func TestAppendEndsDanglingFragment(t *testing.T) {
	tests := []struct {
		name     string
		before   string // the bus before Append
		entries  int    // read back after Append
		diags    int    // of them about the fragment
		fragment bool
	}{
		{"empty", "", 1, 0, false},
		{"ends in a newline", `{"severity":"notable","agent":"fd-a","summary":"s"}` + "\n", 2, 0, false},
		{"a killed writer's fragment", `{"severity":"notable","agent":"fd-a","summary":"s"}` + "\n" + `{"severity":"blocking","agent":"fd-k","summ`, 2, 1, true},
		{"only a fragment", `{"sev`, 1, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "peer-findings.jsonl")
			if tt.before != "" {
				if err := os.WriteFile(path, []byte(tt.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// A reader that saw the fragment as held bytes keeps its offset.
			tail := NewTail(path, 0)
			if err := tail.Poll(func(Entry) error { return nil }, nil); err != nil {
				t.Fatal(err)
			}
			off, err := Append(path, finding("fd-b", Blocking, "after the crash"), WriteOptions{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if !bytes.HasPrefix(data, []byte(tt.before)) {
				t.Fatalf("the bus before the append was changed:\n%q\nwant it to start with\n%q", data, tt.before)
			}
			wantOff := int64(len(tt.before))
			if tt.fragment {
				wantOff++
			}
			if off != wantOff {
				t.Errorf("offset = %d, want %d", off, wantOff)
			}
			es, ds, _ := readAll(t, path, 0)
			if len(es) != tt.entries || len(ds) != tt.diags {
				t.Fatalf("read %d entries and diagnostics %v, want %d and %d", len(es), ds, tt.entries, tt.diags)
			}
			last := es[len(es)-1]
			if last.Summary != "after the crash" || last.Offset != off {
				t.Errorf("last entry %+v, want the appended record at offset %d", last, off)
			}
			// The tail goes on from where it was and gets the record once.
			var got []Entry
			var tds []parse.Diagnostic
			if err := tail.Poll(func(e Entry) error { got = append(got, e); return nil },
				func(d parse.Diagnostic) { tds = append(tds, d) }); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Summary != "after the crash" || tail.Restarts() != 0 {
				t.Errorf("tail got %+v (restarts %d, diagnostics %v), want the record once", got, tail.Restarts(), tds)
			}
		})
	}
}

// TestAppendUnwritable: a missing directory or a bus that cannot be opened
// gives an *fs.PathError naming the path, and writes nothing.
func TestAppendUnwritable(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing", "findings.jsonl")
	_, err := Append(missing, finding("fd-a", Blocking, "s"), WriteOptions{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "missing")) {
		t.Errorf("missing directory: err = %v, want one naming it", err)
	}
	if os.Geteuid() == 0 {
		return // root writes through permissions
	}
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	_, err = Append(filepath.Join(ro, "findings.jsonl"), finding("fd-a", Blocking, "s"), WriteOptions{})
	if !os.IsPermission(err) {
		t.Errorf("read-only directory: err = %v, want permission denied", err)
	}
}
