package corpustest

import (
	"os"
	"path/filepath"
	"testing"
)

// Manifest keeps the file lines, in order, without the header or short lines.
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
	want := []Entry{{"flux-drive/o__r/a.md", "index-ok"}, {"flux-drive/o__r/s.md", "synthesis"}}
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
