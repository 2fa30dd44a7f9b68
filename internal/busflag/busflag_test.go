package busflag

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxwatch/fluxwatch/bus"
	flag "github.com/spf13/pflag"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestResolve: $FLUXWATCH_BUS names the bus only when neither --bus nor
// --dir does.
func TestResolve(t *testing.T) {
	vars := env(map[string]string{"FLUXWATCH_BUS": "nats://h:4222/r"})
	for _, tc := range []struct {
		b          Flags
		want       string
		wantRemote bool
	}{
		{Flags{}, "nats://h:4222/r", true},
		{Flags{Path: "bus.jsonl"}, "bus.jsonl", false},
		{Flags{Dir: "run"}, "", false},
	} {
		b := tc.b
		b.Resolve(vars)
		if b.Path != tc.want || b.Remote() != tc.wantRemote {
			t.Errorf("%+v resolved: path %q remote %v, want %q %v", tc.b, b.Path, b.Remote(), tc.want, tc.wantRemote)
		}
	}
}

// TestNATSFilesStandForVariables: a --nats-* flag given replaces its NATS_*
// variable in what the backend reads; one not given leaves it.
func TestNATSFilesStandForVariables(t *testing.T) {
	var b Flags
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	b.Register(fs)
	if err := fs.Parse([]string{"--nats-ca", "ca.pem", "--bus", "nats://h/r", "--max-line", "99", "--bus-timeout", "2s"}); err != nil {
		t.Fatal(err)
	}
	get := b.Options(env(map[string]string{"NATS_CA": "env-ca", "NATS_NKEY": "env-nkey"}), true).Getenv
	if got := get("NATS_CA"); got != "ca.pem" {
		t.Errorf("NATS_CA = %q, want the flag's ca.pem", got)
	}
	if got := get("NATS_NKEY"); got != "env-nkey" {
		t.Errorf("NATS_NKEY = %q, want the variable's", got)
	}
	if o := b.Options(env(nil), true); o.MaxLine != 99 || o.Timeout.String() != "2s" || !o.NoSync || b.Path != "nats://h/r" {
		t.Errorf("options %+v, path %q: want the flags' max-line, timeout, no-sync and bus", o, b.Path)
	}
}

// TestOpen: a path is the file bus; a URL goes to the backend of its
// scheme, an unknown one is an error wrapping bus.ErrScheme; a URL that
// does not parse is an error without its password.
func TestOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bus.jsonl")
	b, err := (&Flags{Path: p}).Open(context.Background(), env(nil), false)
	if err != nil {
		t.Fatal(err)
	}
	if fb, ok := b.(*bus.FileBackend); !ok || fb.Path() != p {
		t.Errorf("Open(%q) = %v, want the file bus", p, b)
	}
	if _, err := (&Flags{Path: "nope://h/r"}).Open(context.Background(), env(nil), false); !errors.Is(err, bus.ErrScheme) {
		t.Errorf("Open(nope://): %v, want ErrScheme", err)
	}
	_, err = (&Flags{Path: "nats://u:secret@h:x/r"}).Open(context.Background(), env(nil), false)
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("Open of a URL that does not parse: %v, want an error without the password", err)
	}
	if _, ok := Schemes["nats"]; !ok {
		t.Error("Schemes has no nats backend")
	}
}

// TestTarget: the bus of finding write and read, from the flags and the
// environment: --bus (a file or a URL), else $FLUXWATCH_BUS, else --dir or
// $FLUX_OUTPUT_DIR; both --dir and --bus, or none at all, are errors.
func TestTarget(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    Flags
		vars map[string]string
		want string // "path P", "dir D", "url", or "error E"
	}{
		{"--bus file", Flags{Path: "b.jsonl"}, nil, "path b.jsonl"},
		{"--bus URL", Flags{Path: "nats://h/r"}, nil, "url"},
		{"--dir", Flags{Dir: "run"}, map[string]string{"FLUXWATCH_BUS": "x.jsonl"}, "dir run"},
		{"FLUXWATCH_BUS", Flags{}, map[string]string{"FLUXWATCH_BUS": "x.jsonl", "FLUX_OUTPUT_DIR": "out"}, "path x.jsonl"},
		{"FLUX_OUTPUT_DIR", Flags{}, map[string]string{"FLUX_OUTPUT_DIR": "out"}, "dir out"},
		{"both", Flags{Dir: "run", Path: "b.jsonl"}, nil, "error give --dir or --bus, not both"},
		{"none", Flags{}, nil, "error name the bus with --dir DIR or --bus PATH"},
	} {
		b := tc.b
		tg, err := b.Target(env(tc.vars))
		got := ""
		switch {
		case err != nil:
			got = "error " + err.Error()
		case tg.Open != nil:
			got = "url"
		case tg.Path != "":
			got = "path " + tg.Path
		default:
			got = "dir " + tg.Dir
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
