package evidence

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// A mismatch note quotes what the cited lines of a file hold (SPEC §5.7),
// into summary.md, findings.json and the page: reports that are shared
// further than the repository is. Secrets stay out of them (SPEC §10): a
// note quotes a file only when git tracks it (a git-ignored .env, an
// untracked key file, anything outside a git work tree is never quoted),
// and never lines that look like a credential.

// gitTimeout bounds the git run that says which files are tracked.
const gitTimeout = 10 * time.Second

// gitTracked returns which of names (slash-separated paths in the
// repository at dir) git tracks there, and whose real path, through any
// symbolic link, is tracked as well (a tracked link to an ignored file
// is not quoted). It runs git ls-files in dir; when git cannot say (no git,
// not a work tree, a timeout), no name is tracked.
func gitTracked(dir string, names []string) map[string]bool {
	paths := append([]string(nil), names...)
	real := make([]string, len(names))
	for i, n := range names {
		real[i] = n
		if p, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(n))); err == nil {
			if top, err := filepath.EvalSymlinks(dir); err == nil {
				if rel, err := filepath.Rel(top, p); err == nil && filepath.ToSlash(rel) != n {
					real[i] = filepath.ToSlash(rel)
					paths = append(paths, real[i])
				}
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	// Literal pathspecs: a name is a path, never a pattern. No fsmonitor
	// hook: listing the index needs none.
	cmd := exec.CommandContext(ctx, "git", append([]string{"--literal-pathspecs", "-c", "core.fsmonitor=false",
		"ls-files", "-z", "--"}, paths...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	listed := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			listed[string(p)] = true
		}
	}
	tracked := map[string]bool{}
	for i, n := range names {
		if listed[n] && listed[real[i]] {
			tracked[n] = true
		}
	}
	return tracked
}

// credential matches a line that looks like it holds a secret: a private
// key, a token of a well-known shape (AWS, GitHub, Slack, OpenAI and
// Anthropic, Google, Stripe, a JWT), a URL with a password, or a
// secret-named key assigned a literal value ("password = 'hunter22'",
// "API_KEY=abc123def"). A small, conservative set: it errs towards not
// quoting a line, which costs a note its detail, never a secret.
var credential = regexp.MustCompile(strings.Join([]string{
	`-----BEGIN [A-Z ]*PRIVATE KEY`,
	`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
	`\bgh[pousr]_[A-Za-z0-9]{30,}`,
	`\bgithub_pat_[A-Za-z0-9_]{20,}`,
	`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
	`\bsk-[A-Za-z0-9_-]{20,}`,
	`\bAIza[0-9A-Za-z_-]{30,}`,
	`\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}`,
	`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.`,
	`[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]+:[^\s/@]+@`,
	// A secret-named key with a quoted literal, anywhere on the line.
	`(?i)(?:pass(?:wd|word)?|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|auth)[A-Za-z0-9_.-]*["']?\s*(?::=|[:=]|=>)\s*["'][^"'\s]{6,}["']`,
	// ... or an unquoted one alone on its line (.env, YAML, ini): no
	// variable, call or expression.
	`(?i)^(?:export\s+)?[A-Za-z0-9_.-]*(?:pass(?:wd|word)?|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_.-]*\s*[:=]\s*[^\s"'$({\[<]{6,}$`,
}, "|"))

// looksSecret reports whether line, one line of a file, looks like it holds
// a credential.
func looksSecret(line []byte) bool { return credential.Match(line) }
