package plan

import (
	"bytes"
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
	top, err := git(o.WorkDir, "rev-parse", "--show-toplevel")
	if err != nil || top == "" {
		return "", &Error{Type: ErrNoPlanRoot, Message: "no plan root: not inside a git work tree", Suggestion: suggestion, Err: err}
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
