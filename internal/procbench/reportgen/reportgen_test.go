package reportgen_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/procbench/reportgen"
	"github.com/fluxwatch/fluxwatch/parse"
)

// TestGeneralShapes holds each shape of the general reader to what it is
// meant to be: a report the general reader reads in full (malformed, never
// unreadable: every label it writes gives a finding), of the size asked
// for, the same bytes each time.
func TestGeneralShapes(t *testing.T) {
	for _, s := range reportgen.General {
		t.Run(string(s), func(t *testing.T) {
			size := 1 << 20
			if testing.Short() {
				size = 64 << 10
			}
			data := reportgen.Report(s, size)
			if len(data) > size || len(data) < size-4096 {
				t.Errorf("%d bytes, want at most %d and within 4 KiB of it", len(data), size)
			}
			if again := reportgen.Report(s, size); !bytes.Equal(again, data) {
				t.Error("two reports of the same shape and size differ")
			}
			r := parse.ReadReport(data)
			if r.Status != parse.StatusMalformed {
				for _, d := range r.Diagnostics[:min(len(r.Diagnostics), 5)] {
					t.Log(d)
				}
				t.Errorf("status %s, want malformed", r.Status)
			}
			counts := r.Counts()
			for _, sev := range []parse.Severity{parse.P0, parse.P1, parse.P2, parse.P3} {
				if counts[sev] < 5 {
					t.Errorf("%d %s findings, want some of each level: %v", counts[sev], sev, counts)
				}
			}
			if s == reportgen.Resolved && len(r.Resolved) < len(r.Findings) {
				t.Errorf("%d resolved findings, want more than the %d open ones", len(r.Resolved), len(r.Findings))
			}
			if testing.Verbose() {
				fmt.Printf("%s: %d findings %v, %d resolved\n", s, len(r.Findings), counts, len(r.Resolved))
			}
		})
	}
}
