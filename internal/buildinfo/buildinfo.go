// Package buildinfo says which build of fluxwatch this is: its version and
// the date of what it generates, for version, --version, the man pages,
// SARIF and the MCP server. It reads the build's own information and the
// environment it is given, never a file or the network.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// Version is the version of this build: stamp (the Makefile's -X stamp)
// when there is one, else the module's version or VCS revision from the
// build info, else the Go version.
func Version(stamp string) string {
	bi, ok := debug.ReadBuildInfo()
	return resolve(stamp, bi, ok, runtime.Version())
}

// Describe is what `fluxwatch version` prints, one item a line:
// "fluxwatch VERSION" (Version(stamp)), the VCS revision, modification and
// time when the build carries them, and the Go version.
func Describe(stamp string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "fluxwatch %s\n", Version(stamp))
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision", "vcs.modified", "vcs.time":
				fmt.Fprintf(&b, "%s: %s\n", s.Key, s.Value)
			}
		}
	}
	fmt.Fprintf(&b, "go: %s\n", runtime.Version())
	return b.String()
}

// resolve is the fallback chain of Version, apart from the process for
// tests: stamp; a released module version ("v1.2.3", with "+dirty" when
// the tree was modified); "devel-REVISION[-dirty]" from the VCS stamp;
// else "devel-" and the Go version. Never a bare "dev".
func resolve(stamp string, bi *debug.BuildInfo, ok bool, goVersion string) string {
	if stamp != "" {
		return stamp
	}
	if ok && bi != nil {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			if dirty && rev != "" {
				v += "+dirty"
			}
			return v
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if dirty {
				rev += "-dirty"
			}
			return "devel-" + rev
		}
	}
	return "devel-" + goVersion
}

// Date is the date of what this build generates (the man pages):
// $SOURCE_DATE_EPOCH, else the time of the build's commit, else now. The
// same build writes the same pages.
func Date(getenv func(string) string) time.Time {
	if sec, err := strconv.ParseInt(getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(sec, 0).UTC()
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if t, err := time.Parse(time.RFC3339, s.Value); s.Key == "vcs.time" && err == nil {
				return t
			}
		}
	}
	return time.Now().UTC()
}
