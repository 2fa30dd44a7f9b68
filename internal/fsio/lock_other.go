//go:build !unix && !windows

package fsio

import (
	"errors"
	"os"
)

// Lock is not available on this system.
func Lock(path string) (unlock func(), err error) {
	return nil, errors.New("lock " + path + ": file locking is not supported on this system")
}

const lockFlags = 0

func lockFile(f *os.File, path string) (unlock func(), err error) {
	f.Close()
	return Lock(path)
}
