package watcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "findings.json")
	changed, err := WriteFile(path, []byte("one\n"), 0o644)
	if err != nil || !changed {
		t.Fatalf("first write: changed %v, err %v", changed, err)
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(path, old, old)
	changed, err = WriteFile(path, []byte("one\n"), 0o644)
	if err != nil || changed {
		t.Fatalf("same content: changed %v, err %v", changed, err)
	}
	if st, _ := os.Stat(path); !st.ModTime().Equal(old) {
		t.Errorf("an unchanged file was rewritten (mtime %v)", st.ModTime())
	}
	if changed, err = WriteFile(path, []byte("two\n"), 0o644); err != nil || !changed {
		t.Fatalf("new content: changed %v, err %v", changed, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two\n" {
		t.Errorf("content = %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	_, err = WriteFile(filepath.Join(dir, "missing", "x.json"), []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), filepath.Join("missing", "x.json")) {
		t.Errorf("error %v does not name the file", err)
	}
}

// TestWriteFileReaderNeverSeesHalf rewrites a file many times while a reader
// polls it: every read is one complete version.
func TestWriteFileReaderNeverSeesHalf(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.md")
	versions := [2][]byte{[]byte(strings.Repeat("a", 64<<10)), []byte(strings.Repeat("b", 96<<10))}
	if _, err := WriteFile(path, versions[0], 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	bad := make(chan string, 1)
	go func() {
		defer close(bad)
		for {
			select {
			case <-done:
				return
			default:
			}
			b, err := os.ReadFile(path)
			if err != nil || (string(b) != string(versions[0]) && string(b) != string(versions[1])) {
				bad <- "torn read"
				return
			}
		}
	}()
	for i := range 300 {
		if _, err := WriteFile(path, versions[(i+1)%2], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	if msg, ok := <-bad; ok {
		t.Fatal(msg)
	}
}

func TestHolds(t *testing.T) {
	dir := t.TempDir()
	big := []byte(strings.Repeat("0123456789abcdef", 40<<10)) // 640 KiB: several pieces
	changedAt := func(b []byte, i int) []byte {
		c := append([]byte{}, b...)
		c[i] ^= 1
		return c
	}
	tests := []struct {
		name       string
		file, data []byte
		want       bool
	}{
		{"empty", []byte{}, []byte{}, true},
		{"same", []byte("one\n"), []byte("one\n"), true},
		{"longer file", []byte("one\ntwo\n"), []byte("one\n"), false},
		{"shorter file", []byte("one\n"), []byte("one\ntwo\n"), false},
		{"big same", big, big, true},
		{"big, last byte differs", big, changedAt(big, len(big)-1), false},
		{"big, a middle byte differs", big, changedAt(big, 300<<10), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, tt.file, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, err := holds(path, tt.data); got != tt.want || err != nil {
				t.Errorf("holds = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	if got, err := holds(filepath.Join(dir, "missing"), nil); got || err != nil {
		t.Errorf("missing file: holds = %v, %v; want false, nil", got, err)
	}
}
