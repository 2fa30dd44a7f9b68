// Package demo writes example run directories: the realistic example run that
// ships in testdata/example (Example) and large generated runs for
// benchmarks and tests (Generate). Both are deterministic: the same call
// writes the same bytes and the same modification times.
//
// It writes only below the directory it is given. It plays the agents, as
// they would write: it must never parse a run (watcher does), so that a demo
// run tests fluxwatch's readers instead of agreeing with them by
// construction.
package demo

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotEmpty is returned when the target directory already holds files.
var ErrNotEmpty = errors.New("directory is not empty")

// prepare creates dir, refusing one that already holds files.
func prepare(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil && len(entries) > 0:
		return fmt.Errorf("%s: %w", dir, ErrNotEmpty)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	}
	return os.MkdirAll(dir, 0o755)
}

func writeFile(dir, rel string, data []byte, mod time.Time) error {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	return os.Chtimes(path, mod, mod)
}

// Example writes the realistic example run into dir, which must be empty or
// missing.
func Example(dir string) error {
	if err := prepare(dir); err != nil {
		return err
	}
	for _, f := range exampleFiles {
		if err := writeFile(dir, f.name, []byte(f.body), exampleStart.Add(time.Duration(f.minute)*time.Minute)); err != nil {
			return err
		}
	}
	return nil
}

// ExampleFiles returns the example run's files by relative path.
func ExampleFiles() map[string]string {
	m := map[string]string{}
	for _, f := range exampleFiles {
		m[f.name] = f.body
	}
	return m
}

// Config sizes a generated run.
type Config struct {
	Agents   int    // agent reports
	Findings int    // findings per agent
	BusLines int    // lines of findings.jsonl
	Seed     uint64 // the same seed writes the same run
}

// GeneratedRun is the run id of generated runs.
const GeneratedRun = "9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4"

// problems are two-keyword phrases: two different issues with the same
// problem share two keywords, below the three the title rule needs, so only
// the rewordings of one issue merge.
var problems = []string{
	"Missing validation", "Race condition", "Unbounded retry", "Unchecked error",
	"SQL injection", "Stale cache", "Deadlock risk", "Leaked secret",
	"Missing ratelimit", "Integer overflow", "Nil dereference", "Goroutine leak",
	"Lost timeout", "Quadratic scan", "Missing authorization", "Unsafe deserialization",
	"Path traversal", "Lost update", "Boundary mistake", "Unbounded growth",
}

var sectionNames = []string{
	"Authentication", "API Design", "Storage", "Concurrency", "Error Handling", "Performance",
	"Security", "Observability", "Configuration", "Testing", "Data Model", "Deployment",
}

// issue is one underlying problem that several agents may report.
type issue struct {
	section string
	title   string
	file    string
	line    int
}

// pseudoWord is a made-up identifier of 6–9 random letters: three of them
// keep two issues' titles far apart by the Levenshtein rule even when they
// name the same problem.
func pseudoWord(r *rand.Rand) string {
	b := make([]byte, 6+r.IntN(4))
	for i := range b {
		b[i] = byte('a' + r.IntN(26))
	}
	return string(b)
}

// variantTitle is how one agent words an issue: mostly the same title, at
// times a small rewording that the fuzzy rule still merges.
func variantTitle(r *rand.Rand, t string) string {
	switch r.IntN(6) {
	case 0:
		return strings.ToLower(t)
	case 1:
		return t + "s"
	case 2:
		return strings.Replace(t, " in ", " in the ", 1)
	}
	return t
}

// Generate writes a large deterministic run into dir (empty or missing):
// cfg.Agents reports of cfg.Findings findings each, drawn from a pool of
// issues so that agents converge, in four formats (strict index, table with
// severity words, legacy YAML front matter, prose), and a findings.jsonl of
// cfg.BusLines canonical lines with some stalls and hand-written lines.
func Generate(dir string, cfg Config) error {
	if cfg.Agents < 1 || cfg.Findings < 0 || cfg.BusLines < 0 {
		return fmt.Errorf("generate: want at least one agent and non-negative counts")
	}
	if err := prepare(dir); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	total := cfg.Agents * cfg.Findings
	pool := make([]issue, max(20, total/8))
	for i := range pool {
		w1, w2, w3 := pseudoWord(r), pseudoWord(r), pseudoWord(r)
		pool[i] = issue{
			section: sectionNames[r.IntN(len(sectionNames))],
			title:   fmt.Sprintf("%s in %s %s %s", problems[r.IntN(len(problems))], w1, w2, w3),
			file:    fmt.Sprintf("internal/%s/%s.go", w1, w2),
			line:    1 + r.IntN(400),
		}
	}
	sevs := []string{"P0", "P1", "P1", "P2", "P2", "P2", "P3", "P3"}
	words := map[string]string{"P0": "CRITICAL", "P1": "HIGH", "P2": "MEDIUM", "P3": "LOW"}
	start := exampleStart
	for a := range cfg.Agents {
		name := fmt.Sprintf("fd-agent-%04d", a)
		var b strings.Builder
		format := a % 4
		type row struct {
			sev, id string
			is      issue
			title   string
		}
		rows := make([]row, cfg.Findings)
		worst := "safe"
		for j := range rows {
			is := pool[r.IntN(len(pool))]
			sev := sevs[r.IntN(len(sevs))]
			rows[j] = row{sev, fmt.Sprintf("%s-%03d", idPrefix(a), j+1), is, variantTitle(r, is.title)}
			switch {
			case sev == "P0":
				worst = "risky"
			case sev == "P1" && worst == "safe":
				worst = "needs-changes"
			}
		}
		switch format {
		case 0: // the strict grammar
			fmt.Fprintf(&b, "<!-- run-uuid: %s -->\n### Findings Index\n", GeneratedRun)
			for _, x := range rows {
				fmt.Fprintf(&b, "- %s | %s | %q | %s\n", x.sev, x.id, x.is.section, x.title)
			}
			fmt.Fprintf(&b, "Verdict: %s\n\n## Issues Found\n\n", worst)
			for _, x := range rows {
				fmt.Fprintf(&b, "### %s: %s\n\nSee `%s:%d`.\n\n", x.id, x.title, x.is.file, x.is.line)
			}
		case 1: // a table with severity words
			fmt.Fprintf(&b, "# Review by %s\n\n## Findings Index\n\n| ID | Severity | Section | Title |\n|---|---|---|---|\n", name)
			for _, x := range rows {
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", x.id, words[x.sev], x.is.section, x.title)
			}
			fmt.Fprintf(&b, "\n**Verdict: %s**\n\n", worst)
			for _, x := range rows {
				fmt.Fprintf(&b, "- %s cites `%s:%d`\n", x.id, x.is.file, x.is.line)
			}
		case 2: // legacy YAML front matter
			b.WriteString("---\nissues:\n")
			for _, x := range rows {
				fmt.Fprintf(&b, "  - id: %s\n    severity: %s\n    section: %q\n    title: %q\n", x.id, x.sev, x.is.section, x.title)
			}
			fmt.Fprintf(&b, "improvements: []\nverdict: %s\n---\n\n# Review\n\n", worst)
			for _, x := range rows {
				fmt.Fprintf(&b, "%s is at `%s:%d`.\n", x.id, x.is.file, x.is.line)
			}
		case 3: // prose, no index
			fmt.Fprintf(&b, "# Review by %s\n\nNo index this time.\n\n## Issues\n\n", name)
			for _, x := range rows {
				fmt.Fprintf(&b, "### %s — %s\n\nIn `%s:%d`.\n\n", x.sev, x.title, x.is.file, x.is.line)
			}
		}
		b.WriteString("<!-- flux-drive:complete -->\n")
		mod := start.Add(time.Duration(30+a%30) * time.Minute)
		file := fmt.Sprintf("%s.%s.md", name, GeneratedRun)
		if err := writeFile(dir, file, []byte(b.String()), mod); err != nil {
			return err
		}
	}
	if cfg.BusLines > 0 {
		if err := generateBus(filepath.Join(dir, "findings.jsonl"), r, cfg, pool, start); err != nil {
			return err
		}
	}
	return nil
}

// idPrefix is a three-letter finding-ID prefix for agent a: AAA, AAB, …
func idPrefix(a int) string {
	b := []byte{'A', 'A', 'A'}
	for i := 2; i >= 0 && a > 0; i-- {
		b[i] = byte('A' + a%26)
		a /= 26
	}
	return string(b)
}

func generateBus(path string, r *rand.Rand, cfg Config, pool []issue, start time.Time) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	cats := []string{"auth", "concurrency", "storage", "api", "perf", "security"}
	for i := range cfg.BusLines {
		agent := fmt.Sprintf("fd-agent-%04d", r.IntN(cfg.Agents))
		// Entries are spread over the run's first 40 minutes.
		ts := start.Add(time.Duration(int64(i) * int64(40*time.Minute) / int64(cfg.BusLines)))
		is := pool[r.IntN(len(pool))]
		switch n := r.IntN(100); {
		case n == 0:
			fmt.Fprintf(w, `{"ts":%q,"agent":%q,"kind":"stall","severity":"warn","message":"no output for 5 minutes"}`+"\n",
				ts.Format(time.RFC3339), agent)
		case n == 1:
			fmt.Fprintf(w, `{"agent":%q,"severity":"P1","id":"HW-%03d","type":"blocking","title":%q,"note":"hand-written"}`+"\n",
				agent, i%1000, is.title)
		default:
			sev := "notable"
			if n < 12 {
				sev = "blocking"
			}
			fmt.Fprintf(w, `{"severity":%q,"agent":%q,"category":%q,"summary":%q,"file_refs":["%s:%d"],"timestamp":%q}`+"\n",
				sev, agent, cats[r.IntN(len(cats))], is.title, is.file, is.line, ts.Format(time.RFC3339))
		}
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Close(); err != nil {
		return err
	}
	mod := start.Add(40 * time.Minute)
	return os.Chtimes(path, mod, mod)
}
