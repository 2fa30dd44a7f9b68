package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/parse"
)

// A change whose result would be over parse.MaxYAMLSize is refused and the
// file left as it was. Before, it was written, and every later read (and
// change) of the specialist failed on a file fluxwatch itself had made.
func TestWriteOverYAMLLimitRefused(t *testing.T) {
	s := newStore(t)
	detail := strings.Repeat("x", parse.MaxYAMLSize*6/10)
	mustWrite(t, s, "fe", ApproachInput{Number: 1, Detail: detail})
	before, err := os.ReadFile(s.File("fe"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.WriteApproach("fe", ApproachInput{Number: 2, Detail: detail})
	if errType(t, err) != ErrInvalidArguments || !strings.Contains(err.Error(), "over the 1048576-byte limit") {
		t.Fatalf("write past the limit: %v", err)
	}
	if after, _ := os.ReadFile(s.File("fe")); string(after) != string(before) {
		t.Error("the file was changed")
	}
	if got := approachIDs(t, s, "fe"); got != "1" {
		t.Errorf("approaches %s, want 1", got)
	}
}

// A feature manifest that would be over parse.MaxYAMLSize is refused before
// anything is created: discovery would skip it.
func TestCreateOverYAMLLimitRefused(t *testing.T) {
	root := filepath.Join(t.TempDir(), "features")
	task := strings.Repeat("word ", parse.MaxYAMLSize/4)
	_, err := Create(Options{Root: root, Task: task}, CreateOptions{Slug: "big-task"})
	if ErrorType(err) != ErrInvalidArguments || !strings.Contains(err.Error(), "over the 1048576-byte limit") {
		t.Fatalf("create with a task past the limit: %v", err)
	}
	if _, err := os.Stat(root); err == nil {
		t.Error("a directory was created")
	}
}

// A file of the plan that is there but cannot be used (a FIFO where
// findings/ should be, a directory where the lock file should be) is named
// with what it is, not called a symbolic link out of the root.
func TestRefusedNamesTheCause(t *testing.T) {
	s := newStore(t)
	testfault.Mkfifo(t, s.FindingsDir())
	testfault.Within(t, 5*time.Second, "a FIFO findings/", func() {
		for what, err := range map[string]error{
			"read":  func() error { _, _, err := s.Read("fe"); return err }(),
			"write": func() error { _, err := s.WriteApproach("fe", ApproachInput{Number: 1}); return err }(),
			"list":  func() error { _, _, err := s.All(); return err }(),
		} {
			if errType(t, err) == ErrUnsafePath || err == nil || !strings.Contains(err.Error(), s.FindingsDir()) {
				t.Errorf("%s with findings/ a FIFO: %v, want an error naming it, not a link", what, err)
			}
		}
	})

	s = newStore(t)
	if err := os.MkdirAll(s.File("fe")+".lock", 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := s.WriteApproach("fe", ApproachInput{Number: 1})
	if errType(t, err) == ErrUnsafePath || err == nil || !strings.Contains(err.Error(), "fe.yaml.lock") {
		t.Errorf("write with a directory as its lock file: %v, want an error naming it, not a link", err)
	}
}
