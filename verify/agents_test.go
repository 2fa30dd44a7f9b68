package verify

import "testing"

// TestResolve maps the names and labels syntheses give agents to the run's
// agents, and refuses to guess between two.
func TestResolve(t *testing.T) {
	agents := []string{"fd-architecture", "fd-cache-coherence-invalidation", "fd-api-surface-naming",
		"fd-ux-vision-delivery-gap", "fd-ux-kernel-surface-gap", "pattern-recognition-specialist",
		"code-simplicity-reviewer", "fd-dogon-po-tolo-seed-classification", "fd-v2-quality", "fd-safety", "fd-storage", "fd-ar-rollout-cadence"}
	ids := map[string][]string{"fd-api-surface-naming": {"AP-11", "AP-13"}, "fd-storage": {"ST-04"}}
	reports := map[string][]byte{"fd-safety": []byte("---\nagent: fd-safety\n---\n# Security Review: Payments\n")}
	x := newAgentIndex(agents, ids, reports)
	for _, tt := range []struct{ label, want string }{
		{"fd-architecture", "fd-architecture"},
		{"FD-Architecture", "fd-architecture"},
		{"fd-arch", "fd-architecture"},
		{"Cache Coherence", "fd-cache-coherence-invalidation"},
		{"API Surface", "fd-api-surface-naming"},
		{"vision-gap", "fd-ux-vision-delivery-gap"},
		{"kernel-gap", "fd-ux-kernel-surface-gap"},
		{"patterns", "pattern-recognition-specialist"},
		{"simplicity", "code-simplicity-reviewer"},
		{"Dogon", "fd-dogon-po-tolo-seed-classification"},
		{"quality", "fd-v2-quality"},
		{"AP", "fd-api-surface-naming"},  // an ID prefix
		{"ST", "fd-storage"},             // an ID prefix
		{"Security", "fd-safety"},        // the report's own title
		{"A&R", "fd-ar-rollout-cadence"}, // an acronym's letters joined
		{"gap", ""},                      // two agents fit: no guess
		{"fd-ux", ""},                    // two agents fit
		{"agents", ""},                   // not a name
		{"performance", ""},              // no such agent
	} {
		if got, _ := x.resolve(tt.label); got != tt.want {
			t.Errorf("resolve(%q) = %q, want %q", tt.label, got, tt.want)
		}
	}
}

// TestExpandID reads the ways syntheses write the IDs they cite.
func TestExpandID(t *testing.T) {
	for _, tt := range []struct {
		tok  string
		want []string
	}{
		{"ST-04", []string{"ST-04"}},
		{"P1-ACQ-01", []string{"P1-ACQ-01", "ACQ-01"}},
		{"ARCH-01/3/6", []string{"ARCH-01", "ARCH-03", "ARCH-06"}},
		{"SC-01/DO-01", []string{"SC-01", "DO-01"}},
		{"RXN-07-10", []string{"RXN-07-10", "RXN-07", "RXN-08", "RXN-09", "RXN-10"}},
		{"R-02-b", []string{"R-02-b"}},
		{"P1", nil},
		{"HIGH", nil},
		{"P0-P1", nil},
		{"lowercase-1", nil},
	} {
		got := expandID(tt.tok)
		if len(got) != len(tt.want) {
			t.Errorf("expandID(%q) = %q, want %q", tt.tok, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("expandID(%q) = %q, want %q", tt.tok, got, tt.want)
				break
			}
		}
	}
}

// TestCitations pairs the IDs a line cites with the agents it gives them.
func TestCitations(t *testing.T) {
	cites, atts := citations("| Registry copies | fd-architecture ARC-01, ARC-02; fd-correctness COR-01 | also Q-2 |")
	if len(cites) != 4 {
		t.Errorf("cites %q, want 4", cites)
	}
	want := map[string]string{"ARC-01": "fd-architecture", "ARC-02": "fd-architecture", "COR-01": "fd-correctness", "Q-2": ""}
	for _, a := range atts {
		for _, id := range a.ids {
			if w, ok := want[id]; !ok || w != a.label {
				t.Errorf("%s given to %q, want %q", id, a.label, w)
			}
			delete(want, id)
		}
	}
	if len(want) != 0 {
		t.Errorf("not read: %v", want)
	}
}
