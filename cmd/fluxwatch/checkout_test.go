package main

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// checkout copies the example run into a new workspace at
// testdata/example, as git checkout or actions/download-artifact gives it:
// every file written anew, in some order, its modification time "now"
// (here: at + a few seconds, a different one each file). When declared is
// false, the reports' finished: lines are taken out.
func checkout(t *testing.T, example string, at time.Time, seed uint64, declared bool) string {
	t.Helper()
	work := t.TempDir()
	run := filepath.Join(work, "testdata", "example")
	if err := copyTree(run, example); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, seed))
	finished := regexp.MustCompile(`(?m)^finished: .*\n`)
	err := filepath.WalkDir(work, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !declared && strings.HasSuffix(p, ".md") {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, finished.ReplaceAll(data, nil), 0o644); err != nil {
				return err
			}
		}
		mod := at.Add(time.Duration(r.IntN(5000)) * time.Millisecond)
		return os.Chtimes(p, mod, mod)
	})
	if err != nil {
		t.Fatal(err)
	}
	return work
}

// TestCheckoutDeterminism: the same run checked out twice, days apart,
// its files written in another order with other modification times, gives
// byte-identical reports (findings.json, summary.md, SARIF, rdjsonl,
// JUnit, the page) when its agents declare when they finished: the
// declared times decide the acknowledgement, priming and reviewed time,
// and findings.json says so. Without declared times the reports differ:
// the file times decide, and findings.json says that too.
func TestCheckoutDeterminism(t *testing.T) {
	reports := []string{"findings.json", "summary.md", "review.sarif", "review.rdjsonl", "review.junit", "review.html"}
	synth := func(work string) map[string][]byte {
		t.Chdir(work)
		_, stderr, code := runIn(t, "synth", "-q", "--repo", "testdata/example/repo", "--out", "review",
			"--sarif", "review/review.sarif", "--rdjsonl", "review/review.rdjsonl", "--junit", "review/review.junit",
			"--html", "review/review.html", "testdata/example")
		if code != exitOK {
			t.Fatalf("synth in %s: exit %d\n%s", work, code, stderr)
		}
		out := map[string][]byte{}
		for _, name := range reports {
			data, err := os.ReadFile(filepath.Join(work, "review", name))
			if err != nil {
				t.Fatal(err)
			}
			out[name] = data
		}
		return out
	}
	example, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Second)
	first := synth(checkout(t, example, now, 1, true))
	second := synth(checkout(t, example, now.Add(72*time.Hour), 2, true))
	for _, name := range reports {
		if !bytes.Equal(first[name], second[name]) {
			t.Errorf("%s differs between two checkouts of a run whose agents declare finished:", name)
		}
	}
	for _, want := range []string{`"time_source": "declared"`, `"reviewed": "2026-11-20T09:47:00Z"`, `"unacknowledged_total": 2`} {
		if !bytes.Contains(first["findings.json"], []byte(want)) {
			t.Errorf("findings.json lacks %s", want)
		}
	}

	a := synth(checkout(t, example, now, 1, false))
	b := synth(checkout(t, example, now.Add(72*time.Hour), 2, false))
	if bytes.Equal(a["findings.json"], b["findings.json"]) {
		t.Errorf("findings.json of two checkouts without declared times is the same: the file times should show")
	}
	if !bytes.Contains(a["findings.json"], []byte(`"time_source": "mtime"`)) {
		t.Errorf("findings.json without declared times does not say mtime")
	}
}
