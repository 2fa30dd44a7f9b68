package corpustest

import (
	"os"
	"path/filepath"
	"testing"
)

// Manifest keeps the file lines, in order, without the header or short
// lines, with the group of the lines that have one.
func TestManifest(t *testing.T) {
	dir := t.TempDir()
	const tsv = "#repo\tcommit\tpath_in_repo\tlocal_path\tbytes\tclass\n" +
		"o/r\tc\ta.md\tflux-drive/o__r/a.md\t10\tindex-ok\tsha\thead\n" +
		"short\tline\n" +
		"o/r\tc\ts.md\tflux-drive/o__r/s.md\t20\tsynthesis\n"
	if err := os.WriteFile(filepath.Join(dir, "MANIFEST.tsv"), []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Manifest(t, dir)
	want := []Entry{{"flux-drive/o__r/a.md", "index-ok", "head"}, {"flux-drive/o__r/s.md", "synthesis", ""}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Manifest = %+v, want %+v", got, want)
	}
}

// Root finds ../shared/corpus beside this repository, or skips.
func TestRoot(t *testing.T) {
	root := Root(t)
	if _, err := os.Stat(filepath.Join(root, "MANIFEST.tsv")); err != nil {
		t.Errorf("Root = %s without a manifest: %v", root, err)
	}
	if filepath.Base(filepath.Dir(root)) != "shared" {
		t.Errorf("Root = %s, want …/shared/corpus", root)
	}
}

// Labels reads each line of labels.jsonl, blank lines left out.
func TestLabels(t *testing.T) {
	dir := t.TempDir()
	const jsonl = `{"local_path": "o+r/a.md", "class": "report", "counts": {"P0": 1, "P1": 0, "P2": 0, "P3": 2}, ` +
		`"verdict_norm": "risky", "blocking_titles": ["C1: Keys in the log"], "blocking_severity": ["P0"], "note": "n"}` + "\n\n" +
		`{"local_path": "o+r/t.md", "class": "not-a-report", "counts": {}, "verdict_norm": null, ` +
		`"blocking_titles": [], "blocking_severity": []}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "labels.jsonl"), []byte(jsonl), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Labels(t, dir)
	if len(got) != 2 || got[0].Path != "o+r/a.md" || got[0].Counts["P0"] != 1 || got[0].VerdictNorm != "risky" ||
		len(got[0].BlockingTitles) != 1 || got[0].BlockingSeverity[0] != "P0" || got[1].Class != "not-a-report" ||
		got[1].VerdictNorm != "" {
		t.Errorf("Labels = %+v", got)
	}
}

// Wild finds ../shared/corpus-wild beside this repository, or skips.
func TestWild(t *testing.T) {
	root := Wild(t)
	if _, err := os.Stat(filepath.Join(root, "labels.jsonl")); err != nil {
		t.Errorf("Wild = %s without labels: %v", root, err)
	}
}
