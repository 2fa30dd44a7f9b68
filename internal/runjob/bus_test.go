package runjob

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
)

// TestOpenBus: the bus synth and watch read instead of the run's own: none
// unless --bus or a $FLUXWATCH_BUS URL names one; a file is opened and the
// run's bus files are said not read; a bad name is an input error.
func TestOpenBus(t *testing.T) {
	for _, tc := range []struct {
		name    string
		set     func(o *Options, dir string)
		opened  string // the bus opened ("": none)
		warning bool   // the run's bus file is said not read
		err     string // an input error holding this
	}{
		{"none", func(o *Options, dir string) {}, "", false, ""},
		{"a path in FLUXWATCH_BUS is an agent's", func(o *Options, dir string) { setenv(o, "FLUXWATCH_BUS", filepath.Join(dir, "peer-findings.jsonl")) }, "", false, ""},
		{"a file", func(o *Options, dir string) { o.Bus = filepath.Join(filepath.Dir(dir), "bus.jsonl") }, "bus.jsonl", true, ""},
		{"a file, quiet", func(o *Options, dir string) { o.Bus, o.Quiet = filepath.Join(filepath.Dir(dir), "bus.jsonl"), true }, "bus.jsonl", false, ""},
		{"the run's own file", func(o *Options, dir string) { o.Bus = filepath.Join(dir, "peer-findings.jsonl") }, "peer-findings.jsonl", false, ""},
		{"a missing file", func(o *Options, dir string) { o.Bus = filepath.Join(dir, "nope.jsonl") }, "", false, "synth: --bus: "},
		{"no timeout", func(o *Options, dir string) { o.Bus, o.BusOptions.Timeout = "nats://127.0.0.1:1/r", 0 }, "", false, "--bus-timeout 0s: want a duration above 0"},
		{"an unknown scheme", func(o *Options, dir string) { o.Bus = "nope://host/r" }, "", false, "synth: bus nope://…: " + bus.ErrScheme.Error()},
		{"an unknown scheme from FLUXWATCH_BUS", func(o *Options, dir string) { setenv(o, "FLUXWATCH_BUS", "nope://host/r") }, "", false, "no bus backend"},
		{"a URL that does not parse, without its password", func(o *Options, dir string) { o.Bus = "nats://u:secret@host:x/r" }, "", false, "synth: bus URL: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w world
			run := filepath.Join(t.TempDir(), "run")
			o := w.options(t, run)
			o.BusOptions.Timeout = time.Second
			writeFiles(t, run, map[string]string{"peer-findings.jsonl": ""})
			writeFiles(t, filepath.Dir(run), map[string]string{"bus.jsonl": ""})
			tc.set(&o, run)
			b, err := o.openBus(context.Background(), run)
			if b != nil {
				defer b.Close()
			}
			if tc.err != "" {
				var je *Error
				if !errors.As(err, &je) || je.Status != StatusInput || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "secret") {
					t.Fatalf("openBus: %v, want an input error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("openBus: %v", err)
			}
			if got := ""; b != nil {
				got = filepath.Base(b.String())
				if got != tc.opened {
					t.Errorf("opened %q, want %q", got, tc.opened)
				}
			} else if tc.opened != "" {
				t.Errorf("opened none, want %q", tc.opened)
			}
			if warned := strings.Contains(w.stderr.String(), "peer-findings.jsonl: not read"); warned != tc.warning {
				t.Errorf("stderr %q: warning %v, want %v", w.stderr.String(), warned, tc.warning)
			}
		})
	}
}

// setenv sets the variable k of o's environment to v.
func setenv(o *Options, k, v string) {
	get := o.Getenv
	o.Getenv = func(name string) string {
		if name == k {
			return v
		}
		return get(name)
	}
}
