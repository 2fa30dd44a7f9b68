//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package termview

import (
	"context"
	"errors"
	"io"
	"os"
)

// IsTerminal is false off Unix systems: watch prints lines there.
func IsTerminal(w io.Writer) bool { return false }

// Size is unknown off Unix systems: the caller's default applies.
func Size(w io.Writer) (cols, rows int, ok bool) { return 0, 0, false }

// ErrNotTerminal is returned by Keys for an input that is not a terminal.
var ErrNotTerminal = errors.New("not a terminal")

// Keys reads no keys off Unix systems.
func Keys(ctx context.Context, in *os.File) (keys <-chan byte, stop func(), err error) {
	return nil, func() {}, ErrNotTerminal
}

// ReaderGone never tells off Unix systems: nil.
func ReaderGone(ctx context.Context, w io.Writer) <-chan struct{} { return nil }
