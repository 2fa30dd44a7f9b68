package termview

import (
	"io"
	"os"
	"runtime"
	"strings"

	"golang.org/x/term"
)

// Capable reports whether a terminal whose TERM is term can show the view:
// the view moves the cursor and uses the alternate screen, which a "dumb"
// terminal (Emacs shell buffers, some CI consoles) or an unset TERM cannot.
func Capable(term string) bool {
	term = strings.TrimSpace(term)
	return term != "" && term != "dumb"
}

// IsTerminal reports whether w is an interactive terminal the view and
// colours may be drawn on. /dev/null, also a character device, is not one.
// A Windows console is not one either: it shows ANSI sequences only once
// virtual terminal processing is switched on, which fluxwatch does not do,
// so watch prints lines there.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && runtime.GOOS != "windows" && term.IsTerminal(int(f.Fd()))
}

// Size returns the columns and rows of the terminal w is, ok false when w is
// not a terminal or does not say.
func Size(w io.Writer) (cols, rows int, ok bool) {
	f, isFile := w.(*os.File)
	if !isFile {
		return 0, 0, false
	}
	cols, rows, err := term.GetSize(int(f.Fd()))
	if err != nil || cols <= 0 || rows <= 0 {
		return 0, 0, false
	}
	return cols, rows, true
}
