package parse

import "testing"

// probe10 is a held-out probe of the general reader (SPEC §2.3, §2.5):
// reports imitating review reports committed into repositories by agents
// and people (audits, PR reviews, checklists, threat models, re-reviews,
// eight languages) and negatives from the same repositories, written
// without reading the corpora, the other probes or the reader's rules
// (probe_test.go grades it).

func TestProbe10ExpectWellFormed(t *testing.T) { loadProbe(t, "probe10", false) }

// TestProbe10 prints the probe's figures (measureProbe).
func TestProbe10(t *testing.T) { measureProbe(t, "probe10", false) }
