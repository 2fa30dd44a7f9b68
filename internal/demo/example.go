package demo

import (
	"embed"
	"time"
)

// ExampleRun is the run id of the example run.
const ExampleRun = "7c1e2f60-4b7d-4f0e-9a51-2d8c6b9e0a13"

// exampleStart is when the example run's agents start; bus entries and file
// times are minutes after it.
var exampleStart = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// exampleFS holds the example run's files, one copy: the run that ships in
// testdata/example (a symbolic link to this directory) and that `make run`
// synthesises is this one.
//
//go:embed testdata/example
var exampleFS embed.FS

// exampleFile is one file of the example run and the minute it was last
// written.
type exampleFile struct {
	name   string
	minute int
	body   string
}

// exampleFiles is a realistic review of a small web service's session and
// rate-limiting change by six agents, each writing the way real agents do:
// the strict Findings Index, a table index with severity words, legacy YAML
// front matter, prose without an index, an error stub, and one agent still
// writing. A stale report of an earlier run (an unscoped name, but its
// run-uuid comment names another run) sits beside them. The bodies are the
// files of testdata/example, in the order the run writes them.
var exampleFiles = withBodies([]exampleFile{
	{name: "fd-architecture." + ExampleRun + ".md", minute: 41},
	{name: "fd-safety." + ExampleRun + ".md", minute: 35},
	{name: "fd-correctness." + ExampleRun + ".md", minute: 44},
	{name: "fd-quality." + ExampleRun + ".md", minute: 47},
	{name: "fd-performance." + ExampleRun + ".md", minute: 30},
	{name: "fd-user-product." + ExampleRun + ".md.partial", minute: 48},
	{name: "fd-database.md", minute: 5},
	{name: "findings.jsonl", minute: 46},
	{name: "peer-findings.jsonl", minute: 40},
	{name: "findings/frontend.yaml", minute: 20},
	{name: "findings/backend.yaml", minute: 22},
	{name: "design/manifest.yaml", minute: 10},
	{name: "repo/web/src/session.ts", minute: 5},
	{name: "repo/api/routes/login.go", minute: 5},
	{name: "repo/config/dev.env", minute: 5},
})

// withBodies fills each file's body from exampleFS.
func withBodies(fs []exampleFile) []exampleFile {
	for i := range fs {
		data, err := exampleFS.ReadFile("testdata/example/" + fs[i].name)
		if err != nil {
			panic("demo: the example run lacks " + fs[i].name + ": " + err.Error())
		}
		fs[i].body = string(data)
	}
	return fs
}
