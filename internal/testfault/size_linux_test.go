package testfault

import (
	"os"

	"golang.org/x/sys/unix"
)

func termSize(f *os.File) (cols, rows uint16, err error) {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, 0, err
	}
	return ws.Col, ws.Row, nil
}
