package evidence

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

func TestLooksSecret(t *testing.T) {
	for _, tt := range []struct {
		line   string
		secret bool
	}{
		{"-----BEGIN RSA PRIVATE KEY-----", true},
		{"-----BEGIN OPENSSH PRIVATE KEY-----", true},
		{"aws_access_key_id = AKIAIOSFODNN7EXAMPLE", true},
		{"token: ghp_0123456789abcdefghijABCDEFGHIJ012345", true},
		{"SLACK=xoxb-123456789012-abcdefghij", true},
		{`client = OpenAI(api_key="sk-proj-0123456789abcdefghijklmn")`, true},
		{"key=AIzaSyA0123456789abcdefghijklmnopqrstuv", true},
		{"stripe.api_key = sk_live_0123456789abcdefABCD", true},
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig", true},
		{"DATABASE_URL=postgres://app:s3cretPW@db:5432/app", true},
		{`password = "hunter22"`, true},
		{`"api_key": "abcdef123456",`, true},
		{"DB_PASSWORD=hunter22hunter", true},
		{"export GITHUB_TOKEN=abcdef0123456789", true},
		{"secret_key: xYz987654321", true},
		// Code that handles secrets without holding one.
		{"token := r.Header.Get(\"Authorization\")", false},
		{"password = os.environ[\"DB_PASSWORD\"]", false},
		{"API_KEY=${API_KEY}", false},
		{"if err := db.Begin(); err != nil {", false},
		{"func Save(db *sql.DB, id string) error {", false},
		{"see https://example.com/docs", false},
		{`password = ""`, false},
		{"// tokens expire after an hour", false},
	} {
		if got := looksSecret([]byte(tt.line)); got != tt.secret {
			t.Errorf("looksSecret(%q) = %v, want %v", tt.line, got, tt.secret)
		}
	}
}

// TestMismatchQuotesTrackedOnly: a mismatch note quotes the cited lines of
// a file git tracks, never those of a git-ignored .env, an untracked file,
// a tracked symbolic link to an ignored file, or a tracked line that looks
// like a credential (SPEC §10). Before, every note quoted its file, and a
// claim on .env put its lines into summary.md, findings.json and the page.
func TestMismatchQuotesTrackedOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	files := map[string]string{
		".gitignore":    ".env\n",
		".env":          "API_KEY=sk-0123456789abcdefghijklmnop\nDB_PASSWORD=hunter22hunter\n",
		"untracked.txt": "notes nobody committed\n",
		"src/store.go":  "package src\n\nfunc Save() error {\n\treturn nil\n}\n",
		"config.py":     "DEBUG = False\npassword = \"hunter22hunter\"\n",
	}
	for name, data := range files {
		write(t, filepath.Join(repo, filepath.FromSlash(name)), data)
	}
	if err := os.Symlink(".env", filepath.Join(repo, "env-link")); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", ".gitignore", "src/store.go", "config.py", "env-link"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	claims := []parse.Claim{
		{Path: "src/store.go", Start: 3, End: 4, Excerpt: "func Load() error {"},
		{Path: ".env", Start: 1, End: 2, Excerpt: "API_KEY=changeme"},
		{Path: "untracked.txt", Start: 1, End: 1, Excerpt: "something else"},
		{Path: "env-link", Start: 1, End: 1, Excerpt: "API_KEY=changeme"},
		{Path: "config.py", Start: 2, End: 2, Excerpt: "password = None"},
		{Path: "config.py", Start: 1, End: 1, Excerpt: "DEBUG = True"},
	}
	want := []string{
		"lines 3-4 hold: func Save() error { return nil",
		"lines 1-2 hold other text (not quoted: the file is not tracked by git)",
		"line 1 holds other text (not quoted: the file is not tracked by git)",
		"line 1 holds other text (not quoted: the file is not tracked by git)",
		"line 2 holds other text (not quoted: it looks like a credential)",
		"line 1 holds: DEBUG = False",
	}
	v, err := Open(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range v.Check(claims) {
		if r.Status != parse.EvidenceMismatch || r.Note != want[i] {
			t.Errorf("%s: %s %q, want mismatch %q", claims[i].Ref(), r.Status, r.Note, want[i])
		}
		for _, secret := range []string{"sk-0123", "hunter22", "nobody committed"} {
			if strings.Contains(r.Note, secret) {
				t.Errorf("%s: the note quotes %q: %q", claims[i].Ref(), secret, r.Note)
			}
		}
	}

	// Outside a work tree nothing is tracked: nothing is quoted.
	plain := t.TempDir()
	write(t, filepath.Join(plain, "src", "store.go"), files["src/store.go"])
	v, err = Open(plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := v.Check(claims[:1])[0]; r.Note != "lines 3-4 hold other text (not quoted: the file is not tracked by git)" {
		t.Errorf("outside a work tree: %q, want no quote", r.Note)
	}
}
