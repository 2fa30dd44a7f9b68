//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package termview

import (
	"context"
	"errors"
	"io"
	"os"
)

// ErrNotTerminal is returned by Keys for an input that is not a terminal.
var ErrNotTerminal = errors.New("not a terminal")

// Keys reads no keys off Unix systems.
func Keys(ctx context.Context, in *os.File, v *View) (keys <-chan byte, stop func(), err error) {
	return nil, func() {}, ErrNotTerminal
}

// ReaderGone never tells off Unix systems: nil.
func ReaderGone(ctx context.Context, w io.Writer) <-chan struct{} { return nil }
