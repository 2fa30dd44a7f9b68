package txtartest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files keeps the asked-for files of every matching archive, in order, and
// nothing else.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.txtar": "-- x.md --\none\n-- y.json --\n{}\n",
		"b.txtar": "-- x.md --\ntwo\n-- z.md --\nthree\n",
		"c.txt":   "-- x.md --\nnot an archive of the glob\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := Files(t, filepath.Join(dir, "*.txtar"), func(n string) bool { return strings.HasSuffix(n, ".md") })
	var s []string
	for _, b := range got {
		s = append(s, string(b))
	}
	if j := strings.Join(s, "|"); j != "one\n|two\n|three\n" {
		t.Errorf("Files = %q, want one, two, three", j)
	}
	if got := Files(t, filepath.Join(dir, "*.txtar"), Named("y.json")); len(got) != 1 || string(got[0]) != "{}\n" {
		t.Errorf("Named(y.json) = %q", got)
	}
}
