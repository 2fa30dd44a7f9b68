package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	bi := func(v string, kv ...string) *debug.BuildInfo {
		b := &debug.BuildInfo{Main: debug.Module{Version: v}}
		for i := 0; i < len(kv); i += 2 {
			b.Settings = append(b.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return b
	}
	const rev = "0123456789abcdef0123"
	for _, c := range []struct {
		stamp string
		bi    *debug.BuildInfo
		ok    bool
		want  string
	}{
		{"v1.0.0-3-gabc-dirty", bi("v0.9.0"), true, "v1.0.0-3-gabc-dirty"},
		{"", bi("v0.9.0"), true, "v0.9.0"},
		{"", bi("v0.9.0", "vcs.revision", rev, "vcs.modified", "true"), true, "v0.9.0+dirty"},
		{"", bi("(devel)", "vcs.revision", rev, "vcs.modified", "false"), true, "devel-0123456789ab"},
		{"", bi("(devel)", "vcs.revision", rev, "vcs.modified", "true"), true, "devel-0123456789ab-dirty"},
		{"", bi("(devel)"), true, "devel-go1.99"},
		{"", nil, false, "devel-go1.99"},
	} {
		if got := resolve(c.stamp, c.bi, c.ok, "go1.99"); got != c.want {
			t.Errorf("resolve(%q, %+v) = %q, want %q", c.stamp, c.bi, got, c.want)
		}
	}
	if got := Version("v9"); got != "v9" {
		t.Errorf("Version(v9) = %q, want the stamp", got)
	}
}

// TestDate: $SOURCE_DATE_EPOCH, when it is a number, is the date.
func TestDate(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "SOURCE_DATE_EPOCH" {
				return v
			}
			return ""
		}
	}
	if got, want := Date(env("1700000000")), time.Unix(1700000000, 0).UTC(); !got.Equal(want) {
		t.Errorf("Date with SOURCE_DATE_EPOCH = %v, want %v", got, want)
	}
	if got := Date(env("soon")); got.IsZero() || got.Equal(time.Unix(0, 0)) {
		t.Errorf("Date without a number = %v, want the commit's time or now", got)
	}
}

// TestDescribe: the version line first, the Go version last.
func TestDescribe(t *testing.T) {
	got := Describe("v9")
	if !strings.HasPrefix(got, "fluxwatch v9\n") || !strings.HasSuffix(got, "\ngo: "+runtime.Version()+"\n") {
		t.Errorf("Describe(v9) = %q", got)
	}
}
