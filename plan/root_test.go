package plan

import (
	"os/exec"
	"path/filepath"
	"testing"
)

func gitCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestResolveRoot(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	gitCmd(t, repo, "init", "-q", "-b", "feat/auth")
	top, _ := filepath.EvalSymlinks(repo)
	gitCmd(t, repo, "commit", "-q", "--allow-empty", "-m", "first")

	cases := []struct {
		name string
		o    RootOptions
		want string // "" for an error of type ErrNoPlanRoot
	}{
		{"flag wins", RootOptions{Flag: "/p/flag", Env: "/p/env", WorkDir: repo}, "/p/flag"},
		{"env next", RootOptions{Env: "/p/env/", WorkDir: repo}, "/p/env"},
		{"git branch", RootOptions{WorkDir: repo}, filepath.Join(top, ".claude", "plans", "feat-auth")},
		{"outside a repository", RootOptions{WorkDir: t.TempDir()}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ResolveRoot(c.o)
			switch {
			case c.want == "" && ErrorType(err) != ErrNoPlanRoot:
				t.Errorf("got %q, %v; want an error of type %s", got, err, ErrNoPlanRoot)
			case c.want != "" && (err != nil || got != c.want):
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}

	gitCmd(t, repo, "checkout", "-q", "--detach")
	if got, err := ResolveRoot(RootOptions{WorkDir: repo}); ErrorType(err) != ErrNoPlanRoot {
		t.Errorf("detached HEAD: got %q, %v; want %s", got, err, ErrNoPlanRoot)
	}
}
