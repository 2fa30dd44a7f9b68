package bus_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/bustest"
)

// TestFileBackendConformance runs the backend suite on the file bus: the
// promises every backend keeps are the file's.
func TestFileBackendConformance(t *testing.T) {
	bustest.Run(t, bustest.Harness{
		New: func(t *testing.T) func(*testing.T) bus.Backend {
			path := filepath.Join(t.TempDir(), "peer-findings.jsonl")
			return func(t *testing.T) bus.Backend {
				b := bus.NewFile(path, bus.Options{NoSync: true, Interval: 10 * time.Millisecond})
				t.Cleanup(func() { b.Close() })
				return b
			}
		},
	})
}
