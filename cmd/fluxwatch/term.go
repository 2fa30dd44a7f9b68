package main

import "io"

// useColor reports whether output to w may be coloured: only on a terminal and
// never when NO_COLOR is set (https://no-color.org).
func (e *env) useColor(w io.Writer) bool {
	return e.getenv("NO_COLOR") == "" && e.isTerminal(w)
}
