package plan

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A features root that is a symbolic link to a directory (.claude/features
// kept elsewhere) is searched like the directory itself, its candidates
// named under the link. Before, the walk stopped at the link: nothing was
// found, and --create made a second directory for the same feature.
func TestDiscoverRootThroughSymlink(t *testing.T) {
	real := t.TempDir()
	feature(t, real, "2026-11-20-094000-auth", "Auth", "auth", "login and sessions", 10*time.Minute)
	root := filepath.Join(t.TempDir(), "features")
	if err := os.Symlink(real, root); err != nil {
		t.Skip("no symlinks:", err)
	}
	res, err := Discover(Options{Root: root, Task: "auth", Now: clock})
	want := filepath.Join(root, "2026-11-20-094000-auth")
	if err != nil || res.Directory != want || res.Tier != 2 {
		t.Errorf("Discover through a linked root = %+v, %v; want %s at tier 2", res, err, want)
	}
	// A dangling link is no root at all, as a missing directory is.
	os.Remove(root)
	os.Symlink(filepath.Join(real, "missing"), root)
	if _, err := Discover(Options{Root: root, Task: "auth", Now: clock}); ErrorType(err) != ErrNotFound {
		t.Errorf("Discover through a dangling root link: %v, want not_found", err)
	}
}
