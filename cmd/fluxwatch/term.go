package main

import (
	"io"
	"os"
)

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeCharDevice != 0
}

// useColor reports whether output to w may be coloured: only on a terminal and
// never when NO_COLOR is set (https://no-color.org).
func (e *env) useColor(w io.Writer) bool {
	return e.getenv("NO_COLOR") == "" && e.isTerminal(w)
}
