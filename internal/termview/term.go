package termview

import "strings"

// Capable reports whether a terminal whose TERM is term can show the view:
// the view moves the cursor and uses the alternate screen, which a "dumb"
// terminal (Emacs shell buffers, some CI consoles) or an unset TERM cannot.
func Capable(term string) bool {
	term = strings.TrimSpace(term)
	return term != "" && term != "dumb"
}
