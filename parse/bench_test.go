package parse_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/internal/procbench/reportgen"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/rogpeppe/go-internal/txtar"
)

// BenchmarkReadReport measures the report parser (MB/s) on generated reports
// of 50 findings in each of the shapes demo writes: the strict Findings
// Index, a table with severity words, legacy YAML front matter, and prose
// without an index (the fallback).
func BenchmarkReadReport(b *testing.B) {
	dir := b.TempDir()
	if err := demo.Generate(dir, demo.Config{Agents: 4, Findings: 50, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) != 4 {
		b.Fatalf("generated %d reports: %v", len(files), err)
	}
	for i, shape := range []string{"strict-index", "table", "yaml", "prose"} {
		data, err := os.ReadFile(files[i]) // fd-agent-000i: demo writes shape i%4
		if err != nil {
			b.Fatal(err)
		}
		b.Run(shape, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var r *parse.Report
			for b.Loop() {
				r = parse.ReadReport(data)
			}
			// Prose lists a repeated title once (SPEC §2.3): fewer findings.
			if len(r.Findings) == 0 || shape != "prose" && len(r.Findings) != 50 {
				b.Fatalf("%s: %d findings, want 50", shape, len(r.Findings))
			}
			if want := map[string]parse.Status{"strict-index": parse.StatusValid, "prose": parse.StatusMalformed}[shape]; want != "" && r.Status != want {
				b.Fatalf("%s: status %s, want %s", shape, r.Status, want)
			}
			b.ReportMetric(float64(len(r.Findings))*float64(b.N)/b.Elapsed().Seconds(), "findings/s")
		})
	}
}

// BenchmarkTitleMatches measures the title rule of SPEC §5.2 on a pair of
// titles that share keywords without being equal: the comparison dedup makes
// for every candidate pair.
func BenchmarkTitleMatches(b *testing.B) {
	x := parse.NewTitle("Race condition in the session cache refresh path")
	y := parse.NewTitle(strings.ToLower("Race conditions in session cache refresh"))
	for b.Loop() {
		x.Matches(&y)
	}
}

// BenchmarkReadReportScale parses generated reports of every shape of
// reportgen (strict index, the §2.2 variants, the prose forms) at 1, 2, 4,
// 8 and 16 MiB, so that the time per byte can be compared across sizes: SPEC
// §9 wants each doubling to cost at most ~2.2× the time. With -short the
// sizes are 64 KiB and 128 KiB. cpu-ns/op is the CPU time of the process
// (GC included) per parse: on a busy machine it varies less than ns/op.
func BenchmarkReadReportScale(b *testing.B) {
	benchShapes(b, reportgen.Shapes, func(r *parse.Report) string {
		if len(r.Findings) == 0 {
			return "no findings"
		}
		return ""
	})
}

// benchShapes parses reportgen's report of each shape at 1, 2, 4, 8 and 16 MiB
// (64 and 128 KiB with -short), reporting cpu-ns/op; wrong says what is
// wrong with the parse of the last size read, "" when nothing is.
func benchShapes(b *testing.B, shapes []reportgen.Shape, wrong func(*parse.Report) string) {
	sizes := []int{1 << 20, 2 << 20, 4 << 20, 8 << 20, 16<<20 - 1024}
	if testing.Short() {
		sizes = []int{64 << 10, 128 << 10}
	}
	for _, shape := range shapes {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%dKiB", shape, (size+1023)>>10), func(b *testing.B) {
				data := reportgen.Report(shape, size)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var r *parse.Report
				cpu := cpuTime()
				for b.Loop() {
					r = parse.ReadReport(data)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				if msg := wrong(r); msg != "" {
					b.Fatalf("%s: %s", shape, msg)
				}
			})
		}
	}
}

// BenchmarkReadReportGeneral parses generated reports of each shape of the
// general reader (SPEC §2.3: severity groups, field blocks, numbered and
// trailing levels, levels in IDs, tables under any heading, restating
// lists, resolved items, a JSON body, bold leads, contest IDs, CVSS
// scores, other languages, badge images, scanner lines, Rating columns,
// repeated titles, HTML headings, a mix) at 1, 2, 4, 8 and 16 MiB: each
// doubling should cost at most ~2.2× the time, and 16 MiB under 2 s (SPEC
// §9). With -short the sizes are 64 KiB and 128 KiB. cpu-ns/op is as in
// BenchmarkReadReportScale.
func BenchmarkReadReportGeneral(b *testing.B) {
	benchShapes(b, reportgen.General, func(r *parse.Report) string {
		if len(r.Findings) == 0 || r.Status != parse.StatusMalformed {
			return fmt.Sprintf("%d findings, status %s; want some, malformed", len(r.Findings), r.Status)
		}
		return ""
	})
}

// BenchmarkReadReportGoldenRepeated parses the reports of each golden file
// of testdata/report (its .md files one after another) repeated to 1, 2,
// 4, 8 and 16 MiB: the structures of SPEC §2.3 as their cases write them,
// every line a label, and the same titles thousands of times over. Each
// doubling should cost at most ~2.2× the time. With -short the sizes are
// 64 KiB and 128 KiB. Select a file with -bench
// 'ReadReportGoldenRepeated/languages/'.
func BenchmarkReadReportGoldenRepeated(b *testing.B) {
	files, err := filepath.Glob("testdata/report/*.txtar")
	if err != nil || len(files) == 0 {
		b.Fatalf("no golden files: %v", err)
	}
	sizes := []int{1 << 20, 2 << 20, 4 << 20, 8 << 20, 16<<20 - 1024}
	if testing.Short() {
		sizes = []int{64 << 10, 128 << 10}
	}
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		var unit []byte
		for _, x := range ar.Files {
			if strings.HasSuffix(x.Name, ".md") {
				unit = append(append(unit, x.Data...), '\n')
			}
		}
		if len(unit) == 0 {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%dKiB", name, (size+1023)>>10), func(b *testing.B) {
				data := bytes.Repeat(unit, max(1, size/len(unit)))
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					parse.ReadReport(data)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
