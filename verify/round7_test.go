package verify

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestNeighbourMargin: an agent is held to have been credited for a
// neighbouring finding only when every test fails it. Each variant of
// the neighbour archive takes one away, and the claim holds.
func TestNeighbourMargin(t *testing.T) {
	base, err := txtar.ParseFile("testdata/golden/neighbour.txtar")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(file, old, new string) *txtar.Archive {
		a := &txtar.Archive{Comment: base.Comment}
		found := false
		for _, f := range base.Files {
			data := string(f.Data)
			if f.Name == file {
				found = found || strings.Contains(data, old)
				data = strings.Replace(data, old, new, 1)
			}
			a.Files = append(a.Files, txtar.File{Name: f.Name, Data: []byte(data)})
		}
		if !found {
			t.Fatalf("%s: no %q", file, old)
		}
		return a
	}
	claim := "- **No hysteresis on the eviction threshold** (fd-cache, fd-ops)"
	for name, a := range map[string]*txtar.Archive{
		// The finding is not stated apart: the synthesis may merge it here.
		"not apart": edit("synthesis.md", "- **Eviction metrics drift between the dashboards** (fd-ops)\n", ""),
		// Its report writes the claim's word, outside its findings.
		"word written": edit("agents/fd-ops.md", "Every consumer retries at the same second after an outage.\n",
			"Every consumer retries at the same second after an outage.\n\n## Notes\n\nCache hysteresis and its eviction threshold are out of this review's scope.\n"),
		// The claim cites the agent's ID: the synthesis says which finding.
		"ID cited": edit("synthesis.md", claim, "- **No hysteresis on the eviction threshold** (fd-cache CA-1, fd-ops OP-1)"),
		// Its finding's block shares much with the other's.
		"blocks alike": edit("agents/fd-ops.md", "Grafana reads the exporter's gauge, the admin page reads the config file;",
			"The cache evicts at 90% memory and refills at 89%, so under steady load it flaps between evicting and refilling;"),
	} {
		t.Run(name, func(t *testing.T) {
			r := checked(t, a)
			for _, p := range r.Problems {
				if p.Line == 5 && !p.Kind.Note() {
					t.Errorf("line 5 flagged: %s: %s", p.Kind, p.Message)
				}
			}
		})
	}
}
