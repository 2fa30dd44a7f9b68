// Package corpustest finds the shared corpora of real agent reports
// (../shared/corpus and ../shared/corpus-wild beside the repository) for the
// conformance tests that use them, and reads their manifest and labels: one
// way to find them, to skip without them, and to read MANIFEST.tsv and
// labels.jsonl, instead of one per test file.
//
// Only _test.go files import it. A fresh clone has no corpus: every test
// that asks for it is skipped there. It must never write into a corpus
// (the corpora are shared and read-only) nor copy corpus text anywhere.
package corpustest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Root returns the corpus directory, ../shared/corpus beside the module
// that holds the test's working directory. The test is skipped when there
// is no corpus (no MANIFEST.tsv there) and fails when no go.mod is found
// above the working directory.
func Root(t testing.TB) string {
	t.Helper()
	return find(t, "corpus")
}

// Wild returns ../shared/corpus-wild beside the module: real review reports
// by authors outside the home family, with a careful reader's labels
// (labels.jsonl). Skipped and failed as Root is.
func Wild(t testing.TB) string {
	t.Helper()
	return find(t, "corpus-wild")
}

// find returns ../shared/NAME beside the module that holds the test's
// working directory, skipping the test when it holds no MANIFEST.tsv.
func find(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("corpustest: no go.mod above the working directory")
		}
		dir = parent
	}
	root := filepath.Join(filepath.Dir(dir), "shared", name)
	if _, err := os.Stat(filepath.Join(root, "MANIFEST.tsv")); err != nil {
		t.Skip("no ../shared/" + name + " beside the repository")
	}
	return root
}

// Label is one line of corpus-wild's labels.jsonl: what a careful reader
// found in one file.
type Label struct {
	Path  string `json:"local_path"`
	Class string `json:"class"` // "report" or "not-a-report"
	// Counts are the findings at P0–P3 as the author means them.
	Counts map[string]int `json:"counts"`
	// VerdictNorm is the author's overall verdict normalised (safe,
	// needs-changes, risky), "" when there is none.
	VerdictNorm string `json:"verdict_norm"`
	// BlockingTitles are short titles of the P0/P1 findings, with the
	// author's IDs; BlockingSeverity gives each one's level.
	BlockingTitles   []string `json:"blocking_titles"`
	BlockingSeverity []string `json:"blocking_severity"`
	Note             string   `json:"note"`
}

// Labels reads labels.jsonl of the corpus-wild root; a file that cannot be
// read or a line that is not a label fails the test.
func Labels(t testing.TB, root string) []Label {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "labels.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Label
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var lb Label
		if err := json.Unmarshal([]byte(l), &lb); err != nil {
			t.Fatalf("labels.jsonl:%d: %v", i+1, err)
		}
		out = append(out, lb)
	}
	return out
}

// Entry is one file of the corpus manifest.
type Entry struct {
	// Path is the file's path inside the corpus directory (slash-separated,
	// the manifest's local_path).
	Path string
	// Class is the manifest's rough class of the file: index-ok,
	// index-variant, no-index, error-stub, synthesis, ….
	Class string
	// Group is corpus-wild's group of the file (column 8): run:NAME for
	// the files of one run directory, else single or nonreport; "" when
	// the manifest has no such column.
	Group string
}

// Manifest returns the files MANIFEST.tsv of the corpus root lists, in its
// order; the header line (starting with #) and short lines are left out. A
// manifest that cannot be read fails the test.
func Manifest(t testing.TB, root string) []Entry {
	t.Helper()
	fh, err := os.Open(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []Entry
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		e := Entry{Path: cols[3], Class: cols[5]}
		if len(cols) >= 8 {
			e.Group = cols[7]
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", fh.Name(), err)
	}
	return out
}
