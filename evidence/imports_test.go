package evidence

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsFollowTheFlow: evidence reads the repository for synth and must
// not import it (nor watcher, nor cmd): the claim types it shares with synth
// are package parse's, and it opens the repository by the filesystem rules
// every reader follows, internal/fsio's. Its tests may also use the
// test-only helper packages (internal/*test and internal/test*, such as
// txtartest and testfault).
func TestImportsFollowTheFlow(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			rest, ok := strings.CutPrefix(path, "github.com/fluxwatch/fluxwatch/")
			testHelper := strings.HasSuffix(file, "_test.go") && strings.HasPrefix(rest, "internal/") &&
				(strings.HasSuffix(rest, "test") || strings.HasPrefix(rest, "internal/test"))
			if ok && rest != "parse" && rest != "internal/fsio" && !testHelper {
				t.Errorf("%s imports %s: evidence may import only parse and internal/fsio of this module", file, path)
			}
		}
	}
}
