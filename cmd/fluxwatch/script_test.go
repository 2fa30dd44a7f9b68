package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var updateScripts = flag.Bool("update-scripts", false, "rewrite the expected files of testscript cases whose cmp fails")

// TestMain lets testscript run this test binary as the `fluxwatch` command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fluxwatch": func() {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			err := run(ctx, os.Args[1:], newEnv())
			stop()
			os.Exit(exitCode(err, os.Stderr))
		},
	})
}

// TestScript runs the end-to-end cases in testdata/script/*.txtar against the
// real command. Set FLUXWATCH_SHARED to the ../shared directory for cases that
// need the corpus; such cases skip themselves when it is absent.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *updateScripts,
		RequireExplicitExec: false,
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			// A -race binary sleeps 1 s at exit by default; scripts run it often.
			e.Setenv("GORACE", "atexit_sleep_ms=0")
			// $WORK is the top of any git work tree a script sees, even when
			// the temporary directory lies inside one (evidence, SPEC §5.7).
			e.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(e.WorkDir))
			return nil
		},
	})
}
