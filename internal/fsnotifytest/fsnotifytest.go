// Package fsnotifytest watches a directory with fsnotify for the tests that
// look at the events fluxwatch's writes make, in one place: the same skip
// where the system gives no watcher, the same clean-up.
//
// Only _test.go files import it. It must never be imported by production
// code.
package fsnotifytest

import (
	"testing"

	"github.com/fsnotify/fsnotify"
)

// Watch returns an fsnotify watcher on dir, closed when the test ends. It
// skips the test where the system gives no watcher and fails it where dir
// cannot be watched.
func Watch(t testing.TB, dir string) *fsnotify.Watcher {
	t.Helper()
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		t.Skipf("no fsnotify: %v", err)
	}
	t.Cleanup(func() { fw.Close() })
	if err := fw.Add(dir); err != nil {
		t.Fatal(err)
	}
	return fw
}
