package parse

import "testing"

// probe6 is a held-out probe of the general reader (SPEC §2.3, §2.5):
// reports imitating review reports from the wild, written without reading
// the corpora, the other probes or the reader's rules (probe_test.go
// grades it).

func TestProbe6ExpectWellFormed(t *testing.T) { loadProbe(t, "probe6", false) }

// TestProbe6 prints the probe's figures (measureProbe).
func TestProbe6(t *testing.T) { measureProbe(t, "probe6", false) }
