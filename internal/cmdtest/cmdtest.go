// Package cmdtest builds the fluxwatch command for the tests and benchmarks
// that run it as a process, in one place: the same build (the module's
// cmd/fluxwatch, no test hooks, no -race) wherever the test runs from.
//
// Only _test.go files import it. It must never be imported by production
// code.
package cmdtest

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// Build builds the fluxwatch command of this module into a temporary
// directory of the test's and returns the binary's path. A build that fails
// fails the test with the compiler's output.
func Build(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fluxwatch")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/fluxwatch/fluxwatch/cmd/fluxwatch").CombinedOutput(); err != nil {
		t.Fatalf("go build fluxwatch: %v\n%s", err, out)
	}
	return bin
}
