//go:build windows

package fsio

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// Lock takes an exclusive lock on the lock file at path with LockFileEx,
// creating the file and waiting as long as another holder keeps it. The
// returned function releases it.
func Lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	return lockFile(f, path)
}

const lockFlags = 0

func lockFile(f *os.File, path string) (unlock func(), err error) {
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
		f.Close()
	}, nil
}
