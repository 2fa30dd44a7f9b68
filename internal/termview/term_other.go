//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package termview

import "io"

// IsTerminal is false off Unix systems: watch prints lines there.
func IsTerminal(w io.Writer) bool { return false }

// Size is unknown off Unix systems: the caller's default applies.
func Size(w io.Writer) (cols, rows int, ok bool) { return 0, 0, false }
