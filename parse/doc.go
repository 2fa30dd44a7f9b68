// Package parse reads what review agents write: agent reports (SPEC §2), lines
// of the peer-findings bus (§3), specialist findings and manifests (§4.1), and
// the names of files in an output directory (§1).
//
// It is pure: bytes in, typed records and positioned diagnostics out. It never
// touches the filesystem or the clock, so every parser can be fuzzed.
package parse
