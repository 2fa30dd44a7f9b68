package main

import "github.com/fluxwatch/fluxwatch/internal/buildinfo"

// version is set at build time by the Makefile, with -ldflags "-X
// main.version=$(git describe --always --dirty)": it names the revision even
// where GOFLAGS=-buildvcs=false turns Go's own stamping off.
var version = ""

// versionString is the version of this build (buildinfo.Version), for
// version, --version, the man pages, SARIF and the MCP server.
func versionString() string { return buildinfo.Version(version) }
