package parse

import "testing"

// probe7 is the third held-out probe of the general reader (SPEC §2.3,
// §2.5): reports imitating review bots, scanners, audits, threat models,
// readiness reviews and reports in seven languages, written without reading
// the corpora, the other probes' reports or the reader's rules
// (probe_test.go grades it).

func TestProbe7ExpectWellFormed(t *testing.T) { loadProbe(t, "probe7", false) }

// TestProbe7 prints the probe's figures (measureProbe).
func TestProbe7(t *testing.T) { measureProbe(t, "probe7", false) }
