package evidence

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// benchRepo writes files source-like files of lines lines each under dir and
// returns claims per file on them: most cite their excerpt exactly, some are
// shifted a few lines, some altered, some bare references, some name a file
// that does not exist.
func benchRepo(b *testing.B, dir string, files, lines, perFile int) []parse.Claim {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var claims []parse.Claim
	for f := range files {
		name := fmt.Sprintf("pkg%02d/file%03d.go", f%50, f)
		var sb strings.Builder
		var text []string
		for l := range lines {
			line := fmt.Sprintf("\tresult%d := compute(%d, %q) // step %d of file %d", l, rng.IntN(1000), "arg", l, f)
			text = append(text, line)
			sb.WriteString(line + "\n")
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		for range perFile {
			start := 1 + rng.IntN(lines-5)
			end := start + rng.IntN(4)
			c := parse.Claim{Path: name, Start: start, End: end, Excerpt: strings.Join(text[start-1:end], "\n")}
			switch k := rng.IntN(20); {
			case k < 2: // shifted
				c.Start, c.End = c.Start+3, c.End+3
			case k < 4: // altered
				c.Excerpt = strings.Replace(c.Excerpt, "compute", "calculate", 1)
			case k < 5: // bare reference
				c.Excerpt = ""
			case k < 6: // no such file
				c.Path = "missing/" + name
			}
			claims = append(claims, c)
		}
	}
	return claims
}

// BenchmarkCheck verifies 5,000 claims across 500 files of 300 lines on disk
// (through os.Root), as one synthesis would: every file read once.
func BenchmarkCheck(b *testing.B) {
	dir := b.TempDir()
	claims := benchRepo(b, dir, 500, 300, 10)
	v, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var counts map[string]int
	for b.Loop() {
		counts = map[string]int{}
		for _, r := range v.Check(claims) {
			counts[r.Status]++
		}
	}
	if counts[parse.EvidenceVerified] < len(claims)/2 || counts[parse.EvidenceMoved] == 0 ||
		counts[parse.EvidenceMismatch] == 0 || counts[parse.EvidenceMissingFile] == 0 {
		b.Fatalf("unexpected statuses %v", counts)
	}
	b.ReportMetric(float64(len(claims)), "claims/op")
}
