package evidence

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite results.json in testdata/*.txtar")

// goldenResult is one line of a golden case's results.json.
type goldenResult struct {
	Claim  string `json:"claim"`
	Status string `json:"status"`
	Found  string `json:"found,omitempty"`
	Note   string `json:"note,omitempty"`
}

// goldenCase is a testdata/*.txtar archive: repo/PATH files (a literal \x00
// in them is a NUL byte), claims.json (parse.Claim values), optional
// options.json, and results.json, the expected results (compared by
// txtartest.Golden).
type goldenCase struct {
	repo   fstest.MapFS
	claims []parse.Claim
	opts   Options
}

func loadCase(t *testing.T, ar *txtar.Archive) goldenCase {
	t.Helper()
	c := goldenCase{repo: fstest.MapFS{}, opts: Options{Tracked: EveryFileTracked}} // about matching, not quoting
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "repo/"):
			data := bytes.ReplaceAll(f.Data, []byte(`\x00`), []byte{0})
			c.repo[strings.TrimPrefix(f.Name, "repo/")] = &fstest.MapFile{Data: data, Mode: 0o644}
		case f.Name == "claims.json":
			if err := json.Unmarshal(f.Data, &c.claims); err != nil {
				t.Fatalf("claims.json: %v", err)
			}
		case f.Name == "options.json":
			var o struct {
				MaxFile int64 `json:"max_file"`
			}
			if err := json.Unmarshal(f.Data, &o); err != nil {
				t.Fatalf("options.json: %v", err)
			}
			c.opts.MaxFile = o.MaxFile
		}
	}
	return c
}

func render(claims []parse.Claim, results []Result) []byte {
	out := make([]goldenResult, len(results))
	for i, r := range results {
		out[i] = goldenResult{Claim: claims[i].Ref(), Status: r.Status, Found: r.Found, Note: r.Note}
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	return append(b, '\n')
}

// TestGolden checks each case against an in-memory repository (New) and the
// same files on disk (Open, through os.Root): both must give results.json.
func TestGolden(t *testing.T) {
	txtartest.Each(t, "testdata/*.txtar", func(t *testing.T, path string, ar *txtar.Archive) {
		c := loadCase(t, ar)
		got := render(c.claims, New(c.repo, c.opts).Check(c.claims))
		txtartest.Golden(t, path, ar, "results.json", got, *update)
		dir := t.TempDir()
		for name, f := range c.repo {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		v, err := Open(dir, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if onDisk := render(c.claims, v.Check(c.claims)); !bytes.Equal(onDisk, got) {
			t.Errorf("on disk (os.Root) the results differ from in memory\n--- disk\n%s--- memory\n%s", onDisk, got)
		}
	})
}
