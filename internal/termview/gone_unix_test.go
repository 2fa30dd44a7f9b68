//go:build linux

package termview

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ReaderGone tells a pipe whose reader has gone, without writing to it, and
// is nil for what is not a pipe.
func TestReaderGone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	gone := ReaderGone(ctx, w)
	if gone == nil {
		t.Fatal("nil for a pipe")
	}
	select {
	case <-gone:
		t.Fatal("gone while the reader is there")
	case <-time.After(100 * time.Millisecond):
	}
	r.Close()
	select {
	case <-gone:
	case <-time.After(2 * time.Second):
		t.Fatal("not gone 2 s after the reader closed")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ReaderGone(ctx, f) != nil || ReaderGone(ctx, &bytes.Buffer{}) != nil {
		t.Error("not nil for a regular file or a buffer")
	}
}
