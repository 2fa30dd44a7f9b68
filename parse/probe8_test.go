package parse

import "testing"

// probe8 is a fourth held-out probe of the general reader (SPEC §2.3,
// §2.5): reports imitating review reports from the wild (bots, scanners,
// audits, trackers, twelve languages, unusual level words), written
// without reading the corpora, the other probes or the reader's rules,
// each report with the structure class it stands for (probe_test.go
// grades it, per class too).

func TestProbe8ExpectWellFormed(t *testing.T) {
	dir, ex := loadProbe(t, "probe8", true)
	checkProbeWords(t, dir, ex)
}

// TestProbe8 prints the probe's figures (measureProbe).
func TestProbe8(t *testing.T) { measureProbe(t, "probe8", true) }
