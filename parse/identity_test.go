package parse_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/internal/procbench/reportgen"
	"github.com/fluxwatch/fluxwatch/parse"
)

// TestReadReportDigests writes, when FLUXWATCH_PARSE_DIGESTS names a
// file, one line per input: the SHA-256 of what parse.ReadReport gives
// (as JSON) for every Markdown file of both corpora and for every
// reportgen shape at 64 KiB and 1 MiB. A speed change must leave the file
// byte-identical: run it before and after and compare (docs/performance.md).
// Without the variable, or without ../shared, it is skipped.
func TestReadReportDigests(t *testing.T) {
	out := os.Getenv("FLUXWATCH_PARSE_DIGESTS")
	if out == "" {
		t.Skip("FLUXWATCH_PARSE_DIGESTS names no file")
	}
	var lines []string
	digest := func(name string, data []byte) {
		b, err := json.Marshal(parse.ReadReport(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines = append(lines, fmt.Sprintf("%x %s", sha256.Sum256(b), name))
	}
	for _, root := range []string{corpustest.Root(t), corpustest.Wild(t)} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(filepath.Dir(root), path)
			digest(rel, data)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range append(append([]reportgen.Shape{}, reportgen.Shapes...), reportgen.General...) {
		for _, size := range []int{64 << 10, 1 << 20} {
			digest(fmt.Sprintf("reportgen %s %d", s, size), reportgen.Report(s, size))
		}
	}
	sort.Strings(lines)
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d digests written to %s", len(lines), out)
}
