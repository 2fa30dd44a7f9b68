//go:build !linux

package testfault

import (
	"errors"
	"os"
)

func termSize(*os.File) (cols, rows uint16, err error) {
	return 0, 0, errors.New("not on Linux")
}
