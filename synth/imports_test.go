package synth_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestPureLinksNoIO: the pure packages (parse, record, synth, verify, page)
// must link no filesystem, process or network code: not this module's
// readers and writers (bus, watcher, internal/fsio), nor fsnotify, x/sys,
// os/exec, net or net/http (net/url and net/netip are values, pure, and
// html/template uses them). An edge that pulls one in (synth importing bus for its
// record type, page serving HTTP) fails here with the chain that links it.
//
// One edge is known and allowed: go-sarif's schema validator
// (github.com/xeipuuv/gojsonschema) imports net/http to load remote
// schemas; synth renders SARIF with go-sarif and never validates, so the
// net packages reached only through it are let through. Every other path
// to net still fails.
func TestPureLinksNoIO(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go command: %v", err)
	}
	const mod = "github.com/fluxwatch/fluxwatch/"
	forbidden := func(p string) bool {
		switch {
		case p == mod+"bus" || strings.HasPrefix(p, mod+"bus/"),
			p == mod+"watcher" || strings.HasPrefix(p, mod+"watcher/"),
			p == mod+"internal/fsio",
			strings.HasPrefix(p, "github.com/fsnotify/"),
			strings.HasPrefix(p, "golang.org/x/sys/"),
			p == "os/exec",
			p == "net" || p == "net/http" || strings.HasPrefix(p, "net/http/"):
			return true
		}
		return false
	}
	const validator = "github.com/xeipuuv/gojsonschema"
	for _, pkg := range []string{"parse", "record", "synth", "verify", "page"} {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", mod+pkg).Output()
			if err != nil {
				t.Fatalf("go list %s: %v", pkg, err)
			}
			imports := map[string][]string{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) > 0 {
					imports[f[0]] = f[1:]
				}
			}
			if len(imports) == 0 {
				t.Fatalf("go list %s listed nothing", pkg)
			}
			// Walk the import graph from the package, remembering how each
			// package was reached, and stop at the allowed edge.
			from := map[string]string{mod + pkg: ""}
			queue := []string{mod + pkg}
			for len(queue) > 0 {
				p := queue[0]
				queue = queue[1:]
				for _, q := range imports[p] {
					if _, seen := from[q]; seen {
						continue
					}
					if p == validator && (q == "net" || strings.HasPrefix(q, "net/")) {
						continue
					}
					from[q] = p
					if forbidden(q) {
						chain := []string{q}
						for c := p; c != ""; c = from[c] {
							chain = append(chain, c)
						}
						for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
							chain[i], chain[j] = chain[j], chain[i]
						}
						t.Errorf("%s links %s: %s", pkg, q, strings.Join(chain, " → "))
						continue
					}
					queue = append(queue, q)
				}
			}
		})
	}
}
