package main

import (
	"runtime"
	"runtime/debug"
)

// This file holds the version of this build, for version, --version, the
// man pages, SARIF and the MCP server.

// version is set at build time by the Makefile, with -ldflags "-X
// main.version=$(git describe --always --dirty)": it names the revision even
// where GOFLAGS=-buildvcs=false turns Go's own stamping off.
var version = ""

// versionString is the version of this build: the -X stamp, else the
// module's version or VCS revision from the build info, else the Go version.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	return resolveVersion(version, bi, ok, runtime.Version())
}

// resolveVersion is the fallback chain of versionString, apart from the
// process for tests: stamp; a released module version ("v1.2.3", with
// "+dirty" when the tree was modified); "devel-REVISION[-dirty]" from the
// VCS stamp; else "devel-" and the Go version. Never a bare "dev".
func resolveVersion(stamp string, bi *debug.BuildInfo, ok bool, goVersion string) string {
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
