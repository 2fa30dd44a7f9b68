package synth

import (
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// The defect classes of a title: a word that names one alone, two that name
// it together, none for a title that only shares a topic.
func TestDefectClassesOf(t *testing.T) {
	for _, c := range []struct {
		title string
		want  []string
	}{
		{"Path traversal in upload filename", []string{"#traversal"}},
		{"Crafted file names escape the upload directory", []string{"#traversal"}},
		{"Uploaded file name used unsanitised in the destination path", []string{"#traversal"}},
		{"SQL injection in list_uploads", []string{"#injection"}},
		{"SQL query built with string formatting", []string{"#injection"}},
		{"Shell command concatenated from user input", []string{"#injection"}},
		{"Two simultaneous imports double-insert rows", []string{"#race"}},
		{"TOCTOU between the check and the open", []string{"#race"}},
		{"File handle leaks when the read fails", []string{"#leak"}},
		{"API token committed to the repository", []string{"#secret"}},
		{"Unbounded retry loop", []string{"#unbounded"}},
		{"Upload size is never limited", nil},
		{"SQL schema lacks an index", nil},
		{"The directory layout is confusing", nil},
	} {
		var stems []string
		for _, k := range parse.Keywords(parse.Normalize(c.title)) {
			stems = append(stems, stem(k))
		}
		if got := defectClassesOf(stems); !slices.Equal(got, c.want) {
			t.Errorf("%q: classes %q, want %q", c.title, got, c.want)
		}
	}
}

// Code identifiers: what only code writes, lower-cased, each once; the
// words of prose are not, nor a ref's line.
func TestIdentsOf(t *testing.T) {
	got := identsOf("`save_upload` passes `request.filename` to os.path.join (see src/upload.py:11), with --dry-run; " +
		"getUser, HTTPServer and iPhone; and/or e.g. U.S. 3.5 x/y TODO... findings.json and Findings.json")
	want := []string{"--dry-run", "findings.json", "getuser", "os.path.join", "request.filename", "save_upload", "src/upload.py"}
	if !slices.Equal(got, want) {
		t.Errorf("identsOf = %q, want %q", got, want)
	}
}
