//go:build unix

package bus

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/parse"
)

// nonRegular makes a FIFO, a unix socket and a directory under the bus names
// of fresh directories, and names /dev/null, a device.
func nonRegular(t *testing.T) map[string]string {
	t.Helper()
	paths := map[string]string{}
	fifo := filepath.Join(t.TempDir(), "peer-findings.jsonl")
	testfault.Mkfifo(t, fifo)
	paths["a FIFO"] = fifo
	sockDir, err := os.MkdirTemp("", "bus") // short: socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	sock := filepath.Join(sockDir, "findings.jsonl")
	if l, err := net.Listen("unix", sock); err == nil {
		t.Cleanup(func() { l.Close() })
		paths["a socket"] = sock
	}
	d := filepath.Join(t.TempDir(), "findings.jsonl")
	os.Mkdir(d, 0o755)
	paths["a directory"] = d
	if fi, err := os.Stat("/dev/null"); err == nil && fi.Mode()&os.ModeDevice != 0 {
		paths["a device"] = "/dev/null"
	}
	return paths
}

// TestNonRegularBusRefused: every reader and the writer refuse a bus that is
// not a regular file at once, with an error naming it and what it is.
func TestNonRegularBusRefused(t *testing.T) {
	for kind, path := range nonRegular(t) {
		t.Run(kind, func(t *testing.T) {
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, fsio.ErrNotRegular) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), kind) {
					t.Errorf("%s: err = %v, want ErrNotRegular naming %s and %q", what, err, path, kind)
				}
			}
			testfault.Within(t, 2*time.Second, "Append", func() {
				_, err := Append(path, finding("fd-a", Blocking, "s"), WriteOptions{})
				check("Append", err)
			})
			if _, err := os.Stat(path + ".lock"); err == nil {
				t.Errorf("Append made the lock file of a bus it refuses")
			}
			testfault.Within(t, 2*time.Second, "Read", func() {
				_, err := Read(path, 0, 0, func(Entry) error { return nil }, nil)
				check("Read", err)
			})
			testfault.Within(t, 2*time.Second, "Read --since", func() {
				_, err := Read(path, 0, 10, func(Entry) error { return nil }, nil)
				check("Read --since", err)
			})
			testfault.Within(t, 2*time.Second, "Tail.Poll", func() {
				check("Tail.Poll", NewTail(path, 0).Poll(func(Entry) error { return nil }, nil))
			})
			testfault.Within(t, 2*time.Second, "Follow", func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				check("Follow", Follow(ctx, []*Tail{NewTail(path, 0)}, 10*time.Millisecond, func(Entry) error { return nil },
					func(parse.Diagnostic) {}))
			})
			testfault.Within(t, 2*time.Second, "ReadFile", func() {
				_, _, err := ReadFile(path, 0)
				check("ReadFile", err)
			})
		})
	}
}

// TestFollowRefusesFIFOAppearingLater: a bus that turns into a FIFO while
// followed stops Follow with the error instead of hanging it.
func TestFollowRefusesFIFOAppearingLater(t *testing.T) {
	path := filepath.Join(t.TempDir(), "peer-findings.jsonl")
	if _, err := Append(path, finding("fd-a", Notable, "one"), WriteOptions{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	seen := make(chan struct{}, 1)
	go func() {
		errc <- Follow(ctx, []*Tail{NewTail(path, 0)}, 10*time.Millisecond, func(Entry) error {
			seen <- struct{}{}
			return nil
		}, nil)
	}()
	<-seen
	os.Remove(path)
	testfault.Mkfifo(t, path)
	testfault.Within(t, 5*time.Second, "Follow after the bus became a FIFO", func() {
		if err := <-errc; !errors.Is(err, fsio.ErrNotRegular) {
			t.Errorf("err = %v, want ErrNotRegular", err)
		}
	})
}
