package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/procbench/reportgen"
)

// BenchmarkSynthGeneral runs `fluxwatch synth -q` in the process on a run
// of one report of each shape of the general reader at 16 MiB (128 KiB
// with -short), so that `go test -bench 'SynthGeneral/rating'
// -cpuprofile` shows where synth's time goes past the parse (issue 29: a
// 16 MiB report of any shape in < 5 s). The run is written to a temporary
// directory; its reports go to another.
func BenchmarkSynthGeneral(b *testing.B) {
	size := 16<<20 - 1024
	if testing.Short() {
		size = 128 << 10
	}
	for _, s := range reportgen.General {
		b.Run(fmt.Sprintf("%s/%dKiB", s, (size+1023)>>10), func(b *testing.B) {
			dir, out := b.TempDir(), b.TempDir()
			data := reportgen.Report(s, size)
			if err := os.WriteFile(filepath.Join(dir, "fd-"+string(s)+".md"), data, 0o644); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				args := []string{"synth", "-q", "--no-evidence", "--allow-unreadable", "--out", out, dir}
				if err := run(context.Background(), args, bareEnv(io.Discard, io.Discard)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
