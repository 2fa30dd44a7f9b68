package bus_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Append two records to a file bus (each a JSON line, in the canonical
// form of SPEC §3) and read them back, then read again
// from where the first read ended: only what was appended since. Append
// returns once the line is written and synced; Read never reads past the
// last newline.
func ExampleFileBackend() {
	dir, err := os.MkdirTemp("", "bus-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	ctx := context.Background()
	b := bus.NewFile(filepath.Join(dir, "peer-findings.jsonl"), bus.Options{})
	defer b.Close()
	for _, e := range []bus.Entry{
		{Severity: bus.Blocking, Agent: "fd-safety", Summary: "Session token stored in localStorage", FileRefs: []string{"web/session.js:42"}, Timestamp: "2026-11-20T10:00:00Z"},
		{Severity: bus.Notable, Agent: "fd-quality", Summary: "No rate limit on /login", FileRefs: []string{}},
	} {
		if _, err := b.Append(ctx, e); err != nil {
			fmt.Println(err)
			return
		}
	}

	lines, err := os.ReadFile(b.Path())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s", lines)

	show := func(e bus.Entry) error {
		fmt.Printf("line %d: %s %s: %s %v\n", e.Line, e.Severity, e.Agent, e.Summary, e.FileRefs)
		return nil
	}
	diag := func(d parse.Diagnostic) { fmt.Println(d) }
	next, err := b.Read(ctx, 0, bus.Filter{}, show, diag)
	if err != nil {
		fmt.Println(err)
		return
	}

	if _, err := b.Append(ctx, bus.Entry{Severity: bus.Blocking, Agent: "fd-perf", Summary: "N+1 query in the report list", FileRefs: []string{"api/report.go:120"}}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("since the last read:")
	if _, err := b.Read(ctx, next, bus.Filter{}, show, diag); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"severity":"blocking","agent":"fd-safety","summary":"Session token stored in localStorage","file_refs":["web/session.js:42"],"timestamp":"2026-11-20T10:00:00Z"}
	// {"severity":"notable","agent":"fd-quality","summary":"No rate limit on /login","file_refs":[]}
	// line 1: blocking fd-safety: Session token stored in localStorage [web/session.js:42]
	// line 2: notable fd-quality: No rate limit on /login []
	// since the last read:
	// line 3: blocking fd-perf: N+1 query in the report list [api/report.go:120]
}
