package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var updateScripts = flag.Bool("update-scripts", false, "rewrite the expected files of testscript cases whose cmp fails")

// signalsReadyEnv names the file that the test binary run as fluxwatch
// creates once it catches SIGINT and SIGTERM (signalsCaught): TestSignals
// waits for it, so that on a loaded machine a signal never comes before main.
const signalsReadyEnv = "FLUXWATCH_TEST_SIGNALS_READY"

// TestMain lets testscript run this test binary as the `fluxwatch` command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fluxwatch": func() {
			// The golden findings.json files name the generator version
			// "dev": the stamp, unless a script tests the real fallback
			// chain.
			if os.Getenv("FLUXWATCH_TEST_REAL_VERSION") == "" {
				version = "dev"
			}
			if path := os.Getenv(signalsReadyEnv); path != "" {
				signalsCaught = func() { os.WriteFile(path, nil, 0o644) }
			}
			os.Exit(mainStatus(os.Args[1:], newEnv()))
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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitfile": waitFile,
		},
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

// waitFile is the testscript command `waitfile [-timeout D] PATH [REGEXP]`:
// it waits until PATH exists and, with REGEXP, until its content matches
// (multi-line mode: ^ and $ match at line ends), polling every 10 ms, and
// fails after the timeout (default 60s). It synchronises a script with a
// background `fluxwatch watch`: the script goes on once the report it waits
// for is in place.
func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! waitfile")
	}
	timeout := 60 * time.Second
	if len(args) >= 2 && args[0] == "-timeout" {
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		timeout, args = d, args[2:]
	}
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile [-timeout D] PATH [REGEXP]")
	}
	var re *regexp.Regexp
	if len(args) == 2 {
		var err error
		re, err = regexp.Compile("(?m)" + args[1])
		ts.Check(err)
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(timeout)
	for {
		data, err := os.ReadFile(path)
		if err == nil && (re == nil || re.Match(data)) {
			return
		}
		if time.Now().After(deadline) {
			if err != nil {
				ts.Fatalf("waitfile %s: %v after %v", args[0], err, timeout)
			}
			ts.Fatalf("waitfile %s: no match for %q after %v; the file holds:\n%s", args[0], args[1], timeout, data)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
