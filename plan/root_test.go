package plan

import (
	"os"
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

func TestGitTop(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"a/.git", "a/b/c", "wt/sub"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A linked worktree has a .git file.
	if err := os.WriteFile(filepath.Join(base, "wt", ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir, ceilings, want string
		ok                  bool
	}{
		{filepath.Join(base, "a", "b", "c"), "", filepath.Join(base, "a"), true},
		{filepath.Join(base, "a"), "", filepath.Join(base, "a"), true},
		{filepath.Join(base, "wt", "sub"), "", filepath.Join(base, "wt"), true},
		// Never up into a ceiling: a/b/c may look at a/b but not at a.
		{filepath.Join(base, "a", "b", "c"), filepath.Join(base, "a") + string(filepath.ListSeparator) + "/x", "", false},
		{filepath.Join(base, "a", "b", "c"), filepath.Join(base, "a", "b", "c"), filepath.Join(base, "a"), true},
		{base, filepath.Dir(base), "", false},
	}
	for _, tt := range tests {
		got, ok := GitTop(tt.dir, tt.ceilings)
		if got != tt.want || ok != tt.ok {
			t.Errorf("GitTop(%s, %q) = %q, %v; want %q, %v", tt.dir, tt.ceilings, got, ok, tt.want, tt.ok)
		}
	}
	// A relative directory gives a top relative to the working directory
	// (when this repository is a git work tree: not in a source archive).
	if _, err := os.Lstat(filepath.Join("..", ".git")); err != nil {
		return
	}
	if got, ok := GitTop(".", ""); !ok || got != ".." {
		t.Errorf("GitTop(.) in plan = %q, %v; want .. (this repository)", got, ok)
	}
}
