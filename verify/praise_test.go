package verify

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestPraisedBlockerNotNoted: a report with no findings index that rates
// what it admires ("P0: Error isolation is correct") gives that rating no
// finding (parse/praise.go), so a synthesis that leaves it out is told
// nothing of it; the defect it rates beside it, which the synthesis also
// leaves out, is still noted.
func TestPraisedBlockerNotNoted(t *testing.T) {
	a := &txtar.Archive{Files: []txtar.File{
		{Name: "agents/fd-relay.md", Data: []byte(`# Study of the relay service

### Finding 1.1 — P0: Error isolation is correct — a failed handler never blocks the queue

### Finding 1.2 — P1: Route table is clean and directly portable

### Finding 1.3 — P1: Token cache is safe only if one process writes it

- **[P0]** Lock not held across the network call — SAFE
`)},
		{Name: "agents/fd-store.md", Data: []byte("### Findings Index\n- P2 | ST-1 | \"Storage\" | Compaction runs during peak hours\nVerdict: safe\n")},
		{Name: "synthesis.md", Data: []byte("# Synthesis\n\n## Medium (P2)\n\n- Compaction runs during peak hours (ST-1, fd-store)\n")},
	}}
	r := checked(t, a)
	var noted []string
	for _, p := range r.Problems {
		if p.Kind == MissingBlocker || p.Kind == Unverifiable && strings.Contains(p.Message, "no findings index") {
			noted = append(noted, p.Message)
		}
	}
	if len(noted) != 1 || !strings.Contains(noted[0], "Token cache is safe only if one process writes it") {
		t.Errorf("blockers noted:\n%s\nwant one, the token cache's", strings.Join(noted, "\n"))
	}
	for _, n := range noted {
		for _, praise := range []string{"Error isolation", "Route table", "Lock not held"} {
			if strings.Contains(n, praise) {
				t.Errorf("praise noted as a blocker: %s", n)
			}
		}
	}
}
