package plan

import (
	"bytes"
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// RootOptions says where the plan root may come from, in order (SPEC §4.2).
type RootOptions struct {
	Flag string // --plan-dir
	Env  string // the value of $FLUXWATCH_PLAN_DIR
	// WorkDir is the directory git runs in; "" is the current directory.
	WorkDir string
	// Ceilings is $GIT_CEILING_DIRECTORIES: GitTop never goes up into one.
	Ceilings string
}

var unsafeBranchChars = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// BranchDir turns a branch name into the name of its plan directory: every
// character outside [A-Za-z0-9_-] becomes "-" (feat/auth → feat-auth).
func BranchDir(branch string) string {
	return unsafeBranchChars.ReplaceAllString(branch, "-")
}

// ResolveRoot returns the plan root: o.Flag, else o.Env, else
// <git toplevel>/.claude/plans/<BranchDir(current branch)>. The directory need
// not exist. The error is an *Error of type ErrNoPlanRoot when neither is set
// and git gives no top level or no branch (outside a repository, detached HEAD).
func ResolveRoot(o RootOptions) (string, error) {
	switch {
	case o.Flag != "":
		return filepath.Clean(o.Flag), nil
	case o.Env != "":
		return filepath.Clean(o.Env), nil
	}
	const suggestion = "pass --plan-dir DIR or set FLUXWATCH_PLAN_DIR, or run inside a git repository on a branch"
	top, ok := GitTop(cmp.Or(o.WorkDir, "."), o.Ceilings)
	if ok {
		top, _ = filepath.Abs(top)
	}
	if !ok || top == "" {
		return "", &Error{Type: ErrNoPlanRoot, Message: "no plan root: not inside a git work tree", Suggestion: suggestion}
	}
	branch, err := git(o.WorkDir, "branch", "--show-current")
	if err != nil || branch == "" {
		return "", &Error{Type: ErrNoPlanRoot, Message: "no plan root: git has no current branch (detached HEAD?)", Suggestion: suggestion, Err: err}
	}
	return filepath.Join(top, ".claude", "plans", BranchDir(branch)), nil
}

// git runs git with args in dir and returns its trimmed standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return "", &gitError{msg: msg, err: err}
		}
		return "", err
	}
	return strings.TrimSpace(out.String()), nil
}

type gitError struct {
	msg string
	err error
}

func (g *gitError) Error() string { return "git: " + g.msg }
func (g *gitError) Unwrap() error { return g.err }

// GitTop returns the top of the git work tree holding dir: the nearest
// directory at or above it with a .git entry (a directory, or a file in a
// linked worktree or submodule). Like git, it never goes up into a directory
// listed in ceilings ($GIT_CEILING_DIRECTORIES, colon-separated absolute
// paths). When dir is relative the result is relative to the current
// directory ("." or ".."), so that reports do not depend on where the tree
// lives.
func GitTop(dir, ceilings string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	stop := map[string]bool{}
	for _, c := range filepath.SplitList(ceilings) {
		if filepath.IsAbs(c) {
			stop[filepath.Clean(c)] = true
		}
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if filepath.IsAbs(dir) {
				return d, true
			}
			wd, err := os.Getwd()
			if err != nil {
				return d, true
			}
			if rel, err := filepath.Rel(wd, d); err == nil {
				return rel, true
			}
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d || stop[parent] {
			return "", false
		}
		d = parent
	}
}
